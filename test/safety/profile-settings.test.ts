// The profile fields issue 7 adds (rateLimit, tls) load with their defaults, resolve paths against the
// targets file, and reach the client as the profile meant them (each worker's share of the rate).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { profileClientOptions } from "../../harness/http/client-options.js";
import { loadTargetsFile, maskProfile, selectProfile } from "../../harness/profile/profile.js";
import { workerShare } from "../../harness/http/rate-limit.js";
import { makeTestPki } from "../hostile/pki.js";
import { tempDir } from "../hostile/support.js";

const dir = tempDir("profile-settings");
mkdirSync(join(dir, "certs"));
const pki = makeTestPki(join(dir, "certs"));

function load(profile: string) {
  const file = join(dir, `t${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, `targets:\n  s:\n${profile.replace(/^/gm, "    ")}\n`);
  return selectProfile(loadTargetsFile(file, {}), "s");
}

describe("rateLimit and tls in target profiles", () => {
  it("rateLimit defaults: no pacing, Retry-After waited out up to 10 s, 3 retries; given values kept", () => {
    expect(load("baseUrl: https://h.example/v1\napiKey: k").rateLimit).toEqual({ maxRetryAfterMs: 10_000, maxRetries: 3 });
    expect(
      load("baseUrl: https://h.example/v1\napiKey: k\nrateLimit: { requestsPerSecond: 2.5, maxRetryAfterMs: 0, maxRetries: 1 }").rateLimit,
    ).toEqual({
      requestsPerSecond: 2.5,
      maxRetryAfterMs: 0,
      maxRetries: 1,
    });
  });

  it("tls paths are resolved against the targets file's folder and checked; the profile holds paths, never key contents", () => {
    const profile = load(
      "baseUrl: https://h.example/v1\napiKey: k\ntls: { ca: certs/ca.pem, cert: certs/client.pem, key: certs/client.key, " +
        "rejectUnauthorized: true }",
    );
    expect(profile.tls).toEqual({ ca: pki.caCert, cert: pki.clientCert, key: pki.clientKey, rejectUnauthorized: true });
    expect(JSON.stringify(maskProfile(profile))).not.toMatch(/PRIVATE KEY/);
  });

  it("the client gets the contents, this worker's share of the rate, read-only mode, and no proxy for the embedded reference", () => {
    const profile = load(
      "baseUrl: https://h.example/v1\napiKey: k\nmode: read-only\nrateLimit: { requestsPerSecond: 9 }\ntls: { ca: certs/ca.pem, " +
        "cert: certs/client.pem, key: certs/client.key }",
    );
    const options = profileClientOptions({ ...profile, baseUrl: profile.baseUrl!, workers: 3 });
    expect(options.rateLimit).toEqual({ requestsPerSecond: 3, maxRetryAfterMs: 10_000, maxRetries: 3 });
    expect(options.mode).toBe("read-only");
    expect(options.proxy).toBe("env");
    expect(options.tls?.cert).toContain("BEGIN CERTIFICATE");
    expect(options.tls?.key).toMatch(/BEGIN (EC )?PRIVATE KEY/);
    expect(options.tls?.ca?.at(-1)).toBe(pki.read(pki.caCert));
    expect(options.tls?.ca?.length, "the system roots stay trusted").toBeGreaterThan(1);
    const embedded = load("embedded: true");
    expect(profileClientOptions({ ...embedded, baseUrl: "http://127.0.0.1:1/v1" }).proxy).toBe("none");
  });

  it("a worker's share of the rate: the profile's rate split evenly, at least one worker", () => {
    expect(workerShare(undefined, 4)).toBeUndefined();
    expect(workerShare(10, 4)).toBe(2.5);
    expect(workerShare(10, 0)).toBe(10);
    expect(workerShare(10, undefined)).toBe(10);
  });
});

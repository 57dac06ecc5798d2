import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../harness/profile/config-error.js";
import { loadTargetsFile, maskProfile, selectProfile, targetsFilePath } from "../../harness/profile/profile.js";

const dir = mkdtempSync(join(tmpdir(), "targets-"));
let n = 0;
function file(text: string): string {
  const path = join(dir, `targets-${++n}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** Loads and expects a ConfigError; returns its message. */
function configError(text: string, env: NodeJS.ProcessEnv = {}): string {
  const path = file(text);
  try {
    loadTargetsFile(path, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message, "one line").not.toContain("\n");
    expect(message, "names the file").toContain(path);
    return message;
  }
  throw new Error("expected a ConfigError");
}

const REMOTE = "targets:\n  staging:\n    baseUrl: https://staging.example/v1\n    apiKey: k\n";

describe("targets.yaml loading", () => {
  it("applies defaults to a minimal remote profile", () => {
    const profile = selectProfile(loadTargetsFile(file(REMOTE), {}), undefined);
    expect(profile).toMatchObject({
      name: "staging",
      embedded: false,
      headerPrefix: "X-Service-",
      provisioning: "none",
      mode: "full",
      allowDestructive: false,
      timeouts: { requestMs: 10_000 },
      sourceAddresses: [],
    });
  });

  it("the shipped targets.yaml has a valid embedded default profile", () => {
    const targets = loadTargetsFile(new URL("../../targets.yaml", import.meta.url).pathname, {});
    const profile = selectProfile(targets, undefined);
    expect(profile.name).toBe("reference");
    expect(profile.embedded).toBe(true);
    expect(profile.sourceAddresses).toEqual(["127.0.0.1", "127.0.0.2", "127.0.0.3"]);
  });

  it("names an unknown field, its profile and the allowed fields", () => {
    const message = configError(`${REMOTE}    baseURL: https://x/v1\n`);
    expect(message).toContain('profile "staging"');
    expect(message).toContain('field "baseURL"');
    expect(message).toContain("unknown field");
    expect(message).toContain("baseUrl");
  });

  it("names a field of the wrong type and what was expected", () => {
    const message = configError(`${REMOTE}    timeouts:\n      requestMs: soon\n`);
    expect(message).toContain('field "timeouts.requestMs"');
    expect(message).toContain("expected integer");
    expect(message).toContain('"soon"');
  });

  it("names a value outside the allowed set", () => {
    expect(configError(`${REMOTE}    mode: careful\n`)).toMatch(/field "mode": expected one of "full", "read-only", got "careful"/);
  });

  it("names a base URL that does not end in /v1", () => {
    expect(configError("targets:\n  s:\n    baseUrl: https://x.example/api\n    apiKey: k\n")).toMatch(
      /field "baseUrl": expected an http\(s\) URL ending in \/v1/,
    );
  });

  it("names a source address that is not an IP", () => {
    expect(configError(`${REMOTE}    sourceAddresses: [127.0.0.1, localhost]\n`)).toMatch(
      /field "sourceAddresses.1": expected an IPv4 or IPv6 address, got "localhost"/,
    );
  });

  it("requires baseUrl and apiKey unless embedded", () => {
    expect(configError("targets:\n  s:\n    apiKey: k\n")).toMatch(/profile "s": field "baseUrl": required unless "embedded: true"/);
    expect(configError("targets:\n  s:\n    baseUrl: http://h/v1\n")).toMatch(/field "apiKey": required/);
  });

  it("refuses faults on a target that is not embedded", () => {
    expect(configError(`${REMOTE}    faults: [ip-binding-ignored]\n`)).toMatch(/field "faults": only an embedded target/);
  });

  it("interpolates ${VAR} and ${VAR:-fallback}", () => {
    const path = file("targets:\n  s:\n    baseUrl: ${BASE}\n    apiKey: ${KEY}\n    userAgent: ${UA:-fallback-agent}\n");
    const profile = selectProfile(loadTargetsFile(path, { BASE: "http://h:1/v1", KEY: "secret-key" }), "s");
    expect(profile.baseUrl).toBe("http://h:1/v1");
    expect(profile.apiKey).toBe("secret-key");
    expect(profile.userAgent).toBe("fallback-agent");
  });

  it("names a missing environment variable and the field that wanted it", () => {
    expect(configError("targets:\n  s:\n    baseUrl: http://h/v1\n    apiKey: ${STAGING_API_KEY}\n")).toMatch(
      /profile "s": field "apiKey": environment variable STAGING_API_KEY is not set/,
    );
  });

  it("names a default that points nowhere, an unknown --target, a missing file and broken YAML", () => {
    expect(configError(`default: prod\n${REMOTE}`)).toMatch(
      /"default": names profile "prod", which is not under "targets" \(have: staging\)/,
    );
    expect(() => selectProfile(loadTargetsFile(file(REMOTE), {}), "prod")).toThrow(/no profile named "prod" \(have: staging\)/);
    expect(() => loadTargetsFile(join(dir, "absent.yaml"), {})).toThrow(/cannot read the targets file \(no such file\)/);
    expect(configError("targets: [unclosed\n")).toMatch(/not valid YAML/);
    expect(configError("")).toMatch(/the file is empty/);
  });

  it("finds the file from --targets, then CONFORMANCE_TARGETS, then ./targets.yaml", () => {
    expect(targetsFilePath("a.yaml", { CONFORMANCE_TARGETS: "b.yaml" }, "/w")).toBe("/w/a.yaml");
    expect(targetsFilePath(undefined, { CONFORMANCE_TARGETS: "b.yaml" }, "/w")).toBe("/w/b.yaml");
    expect(targetsFilePath(undefined, {}, "/w")).toBe("/w/targets.yaml");
  });

  it("masks secrets when a profile is shown", () => {
    const profile = selectProfile(loadTargetsFile(file(REMOTE.replace("apiKey: k", "apiKey: abcdefghijklmnop")), {}), undefined);
    expect(JSON.stringify(maskProfile(profile))).not.toContain("abcdefghijkl");
  });
});

// Issue 7 part 5: bad input to the tool itself. Each gets one clear line and exit 2 (configuration) or
// 1 (the target failed), never a stack trace. test/cli.test.ts covers flags, suites, faults and YAML; these
// are the cases the transport and safety settings add, and files that are not what they should be.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnConformance } from "../support/spawn-run.js";
import { makeTestPki } from "../hostile/pki.js";
import { limit, NO_PROXY_ENV, tempDir } from "../hostile/support.js";

const dir = tempDir("bad-input");
const pkiDir = join(dir, "pki");
mkdirSync(pkiDir);
const pki = makeTestPki(pkiDir);
const slot = limit(3);
let n = 0;

function targets(profile: string): string {
  const path = join(dir, `targets-${++n}.yaml`);
  writeFileSync(path, `targets:\n  s:\n${profile.replace(/^/gm, "    ")}\n`);
  return path;
}

/** Runs the CLI; expects `code`, exactly one line on stderr matching `pattern`, and no stack trace anywhere. */
async function oneLine(args: string[], code: 1 | 2, pattern: RegExp): Promise<void> {
  const run = await slot(() => spawnConformance(args, { env: NO_PROXY_ENV, timeoutMs: 60_000 }));
  const out = `${run.stdout}\n${run.stderr}`;
  expect(out, "no stack trace").not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(run.code, out.slice(-2000)).toBe(code);
  if (code === 2) {
    const lines = run.stderr.trim().split("\n");
    expect(lines, "exactly one line on stderr").toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  } else {
    expect(
      run.summary?.tests.every((t) => t.status !== "failed" || pattern.test(t.message ?? "")),
      out.slice(-2000),
    ).toBe(true);
  }
}

const https = "baseUrl: https://127.0.0.1:9/v1\napiKey: k\n";

describe.concurrent("bad input to the tool: one clear line, the right exit code", () => {
  it("tls.ca names a missing file: exit 2, the field and the file", async () => {
    const missing = join(dir, "no-such-ca.pem");
    await oneLine(
      ["run", "--targets", targets(`${https}tls: { ca: ${missing} }`)],
      2,
      new RegExp(`profile "s": field "tls.ca": cannot read ${missing} \\(no such file\\)$`),
    );
  });

  it("tls.ca names a directory, or a path through a file: exit 2, said plainly", async () => {
    await oneLine(
      ["run", "--targets", targets(`${https}tls: { ca: ${pki.dir} }`)],
      2,
      /field "tls.ca": .*pki is a directory, expected a PEM file$/,
    );
    await oneLine(
      ["run", "--targets", targets(`${https}tls: { ca: ${pki.caCert}/ca.pem }`)],
      2,
      /field "tls.ca": cannot read .*ca\.pem\/ca\.pem \(a part of the path is not a directory\)$/,
    );
  });

  it("tls files that are not what the field needs: a certificate as the key, a key as the CA, a cert without its key", async () => {
    await oneLine(
      ["run", "--targets", targets(`${https}tls: { cert: ${pki.clientCert}, key: ${pki.clientCert} }`)],
      2,
      /field "tls.key": .*client\.pem holds no PEM private key/,
    );
    await oneLine(
      ["run", "--targets", targets(`${https}tls: { ca: ${pki.clientKey} }`)],
      2,
      /field "tls.ca": .*client\.key holds no PEM certificate/,
    );
    await oneLine(
      ["run", "--targets", targets(`${https}tls: { cert: ${pki.clientCert} }`)],
      2,
      /field "tls.key": a client certificate needs both tls.cert and tls.key$/,
    );
  });

  it("tls on a plain-http target, and rateLimit values out of range or misspelt: exit 2", async () => {
    await oneLine(
      ["run", "--targets", targets(`baseUrl: http://127.0.0.1:9/v1\napiKey: k\ntls: { rejectUnauthorized: false }`)],
      2,
      /field "tls": TLS settings need an https:\/\/ baseUrl \(got http:\/\/127\.0\.0\.1:9\/v1\)$/,
    );
    await oneLine(
      ["run", "--targets", targets(`${https}rateLimit: { requestsPerSecond: 0 }`)],
      2,
      /profile "s": field "rateLimit.requestsPerSecond": must be > 0, got 0$/,
    );
    await oneLine(
      ["run", "--targets", targets(`${https}rateLimit: { perSecond: 5 }`)],
      2,
      /field "rateLimit.perSecond": unknown field \(allowed here: requestsPerSecond, maxRetryAfterMs, maxRetries\)$/,
    );
  });

  it("a targets file that is a directory, and a flag without its value: exit 2", async () => {
    await oneLine(["run", "--targets", pki.dir], 2, /pki: cannot read the targets file \(is a directory\)$/);
    await oneLine(["targets", "--targets"], 2, /^conformance targets: Option '--targets <value>' argument missing/);
  });

  it("a target whose host name does not resolve: exit 1, every check says so", async () => {
    const file = targets("baseUrl: http://no-such-host.invalid/v1\napiKey: k\ntimeouts: { requestMs: 3000 }");
    await oneLine(["run", "headers", "--targets", file], 1, /host name (not found|lookup failed)|no complete answer|no answer/);
  });

  it("--reports naming a file, not a folder: exit 2 with one line", async () => {
    const file = targets("baseUrl: http://127.0.0.1:9/v1\napiKey: k");
    const run = await slot(() =>
      spawnConformance(["run", "headers", "--targets", file], { env: NO_PROXY_ENV, timeoutMs: 60_000, reportsDir: file }),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr.trim()).toMatch(/--reports .* is a file, not a folder$/);
  });

  it("--reports beneath a file (a folder that cannot be made): exit 2 with one line", async () => {
    const file = targets("baseUrl: http://127.0.0.1:9/v1\napiKey: k");
    const run = await slot(() =>
      spawnConformance(["run", "headers", "--targets", file], { env: NO_PROXY_ENV, timeoutMs: 60_000, reportsDir: join(file, "reports") }),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr.trim()).toMatch(/--reports .* cannot be written \(ENOTDIR\)$/);
  });
});

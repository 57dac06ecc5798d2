// Bad input to the tool gets one clear line and exit code 2; nothing is a stack trace.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnConformance } from "./support/spawn-run.js";

const dir = mkdtempSync(join(tmpdir(), "cli-"));
function targets(text: string): string {
  const path = join(dir, `t${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

async function configError(args: string[], pattern: RegExp, env?: NodeJS.ProcessEnv): Promise<void> {
  const run = await spawnConformance(args, { ...(env ? { env } : {}), timeoutMs: 30_000 });
  expect(run.code, run.stderr).toBe(2);
  const lines = run.stderr.trim().split("\n");
  expect(lines, "exactly one line on stderr").toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe("configuration errors exit 2 with one line", () => {
  it("an unknown field in targets.yaml", async () => {
    const file = targets("targets:\n  s:\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: k\n    colour: blue\n");
    await configError(["run", "--targets", file], /profile "s": field "colour": unknown field/);
  });

  it("a field of the wrong type", async () => {
    const file = targets("targets:\n  s:\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: k\n    strict: maybe\n");
    await configError(["run", "--targets", file], /profile "s": field "strict": expected boolean, got "maybe"/);
  });

  it("a missing environment variable", async () => {
    const file = targets("targets:\n  s:\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: ${NOT_SET_ANYWHERE_42}\n");
    await configError(["run", "--targets", file], /profile "s": field "apiKey": environment variable NOT_SET_ANYWHERE_42 is not set/);
  });

  it("an unknown suite, flag, fault, target or command; a missing targets file", async () => {
    await configError(["run", "no-such-suite"], /unknown suite "no-such-suite" \(have: .*authentication/);
    await configError(["run", "--colour"], /conformance run: Unknown option '--colour'/);
    await configError(["run", "--fault", "no-such-fault"], /unknown fault "no-such-fault"/);
    await configError(["run", "--target", "nowhere"], /no profile named "nowhere"/);
    await configError(["run", "--seed", "abc"], /--seed expects an integer, got "abc"/);
    await configError(["frobnicate"], /unknown command "frobnicate"/);
    await configError(["run", "--targets", join(dir, "absent.yaml")], /cannot read the targets file \(no such file\)/);
    await configError(["run"], /cannot read the targets file/, { CONFORMANCE_TARGETS: join(dir, "absent-too.yaml") });
  });
});

describe("conformance targets", () => {
  it("lists profiles with secrets masked", async () => {
    const file = targets("default: s\ntargets:\n  s:\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: very-secret-api-key-123456\n");
    const run = await spawnConformance(["targets", "--targets", file], { timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("http://127.0.0.1:9/v1");
    expect(run.stdout).not.toContain("very-secret-api-key");
  });
});

describe("a target that refuses connections", () => {
  it("fails the run with exit 1 and a plain message, and still writes the summary", async () => {
    const file = targets("targets:\n  down:\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: k\n    timeouts: { requestMs: 2000 }\n");
    const run = await spawnConformance(["run", "headers", "--targets", file], { timeoutMs: 60_000, env: { GITHUB_ACTIONS: "false" } });
    // The preflight finds no target: no check runs, and the summary says why in one error.
    expect(run.code, run.stderr).toBe(1);
    expect(run.summary?.tests).toEqual([]);
    expect(run.summary?.errors[0]).toMatch(/target unreachable: .*connection refused/);
  });
});

// Helpers shared by the hostile-server and safety self-tests: temp targets files, spawned runs, report checks.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { stringify } from "yaml";
import { spawnConformance, type SpawnedRun } from "../support/spawn-run.js";

/** Proxy variables cleared for spawned runs, so a proxy set on the machine does not change what is tested. */
export const NO_PROXY_ENV: NodeJS.ProcessEnv = {
  HTTP_PROXY: "",
  HTTPS_PROXY: "",
  http_proxy: "",
  https_proxy: "",
  NO_PROXY: "",
  no_proxy: "",
};

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

/** Writes a targets file with the given profiles; returns its path. */
export function writeTargets(dir: string, profiles: Record<string, Record<string, unknown>>, name = "targets.yaml"): string {
  const path = join(dir, name);
  writeFileSync(path, stringify({ targets: profiles }));
  return path;
}

/** `conformance run <suites> --targets <file> --target <name>` in a child process, with its own reports folder. */
export function runAgainst(
  targets: string,
  target: string,
  suites: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; preflight?: boolean } = {},
): Promise<SpawnedRun> {
  const flags = options.preflight === false ? ["--no-preflight"] : [];
  return spawnConformance(["run", ...suites, "--targets", targets, "--target", target, ...flags], {
    env: { ...NO_PROXY_ENV, ...options.env },
    timeoutMs: options.timeoutMs ?? 90_000,
  });
}

/** Every file under a folder, recursively. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The run ended on its own (not killed), as a verdict, with all three reports written and no crash. */
export function expectReportsWritten(run: SpawnedRun): void {
  const context = `stderr: ${run.stderr.slice(-1500)}\nstdout: ${run.stdout.slice(-1500)}`;
  expect(run.code, `exit code; ${context}`).not.toBeNull();
  expect(run.summary, `summary.json; ${context}`).toBeDefined();
  expect(run.summary!.errors, "errors outside tests (a crash, an unhandled rejection)").toEqual([]);
  expect(readFileSync(join(run.reportsDir, "junit.xml"), "utf8")).toContain("<testsuites");
  const results = filesUnder(join(run.reportsDir, "allure-results")).filter((f) => f.endsWith("-result.json"));
  expect(results.length, "allure results").toBeGreaterThan(0);
  expect(results.length).toBe(run.summary!.tests.length);
  expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/Unhandled (Rejection|Error)|ERR_UNHANDLED|Segmentation/);
}

/** Runs async jobs with at most `n` at a time (the machine has two cores). */
export function limit(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await job();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

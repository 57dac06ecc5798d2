import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RunSummary } from "../../report/reporters/summary-reporter.js";

export const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(PROJECT_ROOT, "bin", "conformance.js");

export interface SpawnedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  reportsDir: string;
  summary?: RunSummary;
  durationMs: number;
}

/** Runs `conformance <args>` in a child process with its own reports folder; never throws on a failed run. */
export function spawnConformance(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; reportsDir?: string; cwd?: string } = {},
): Promise<SpawnedRun> {
  const reportsDir = options.reportsDir ?? mkdtempSync(join(tmpdir(), "conformance-run-"));
  const env = Object.fromEntries(
    Object.entries({ ...process.env, ...options.env }).filter(([k]) => !k.startsWith("CONFORMANCE_") || (options.env && k in options.env)),
  );
  const withReports = args[0] === "run" ? [...args, "--reports", reportsDir] : args;
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...withReports], {
      cwd: options.cwd ?? PROJECT_ROOT,
      env: { ...env, FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      let summary: RunSummary | undefined;
      try {
        summary = JSON.parse(readFileSync(join(reportsDir, "summary.json"), "utf8")) as RunSummary;
      } catch {
        summary = undefined;
      }
      resolve({ code, stdout, stderr, reportsDir, durationMs: Date.now() - started, ...(summary ? { summary } : {}) });
    });
  });
}

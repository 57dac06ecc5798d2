import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Reporter } from "vitest/node";
import { withRunPlan, type RunPlan } from "../harness/run/run-plan.js";

export const PACKAGE_ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface VitestRunOptions {
  /** What the run does: handed to vitest.config.ts and the global setup for this vitest start (harness/run/run-plan.ts). */
  plan: RunPlan;
  /** The projects to run (default: every project of the plan). */
  projects?: string[];
  files: string[];
  reporters: (string | [string, Record<string, unknown>] | Reporter)[];
  grep?: string;
  testTimeout?: number;
  outputFile?: Record<string, string>;
  /** "i/n": run only the i-th of n parts of the test files (vitest --shard). */
  shard?: string;
  /** Test files run at once (default: see CONCURRENT_FILES). */
  maxWorkers?: number;
  /** Stop after this many failed tests (the rest are not run). */
  bail?: number;
}

/**
 * Conformance checks wait on the network far more than they compute, so more files than cores run at
 * once (vitest's default is cores - 1: a single worker on a 2-core CI machine). A run against a distant
 * target asks for more (cli/file-concurrency.ts).
 */
export const CONCURRENT_FILES = 4;

/** One vitest run of the package's own config (suites resolve from the package, not the caller's cwd). */
export async function runVitest(options: VitestRunOptions): Promise<void> {
  await withRunPlan(options.plan, () => startRun(options));
}

async function startRun(options: VitestRunOptions): Promise<void> {
  const { startVitest } = await import("vitest/node");
  const vitest = await startVitest("test", options.files, {
    root: PACKAGE_ROOT,
    config: join(PACKAGE_ROOT, "vitest.config.ts"),
    // Imported as the CLI imports its own modules (through tsx, sharing those already loaded), not bundled first.
    configLoader: "native",
    project: options.projects ?? [...options.plan.projects.keys()],
    run: true,
    watch: false,
    maxWorkers: options.maxWorkers ?? CONCURRENT_FILES,
    ...(options.grep === undefined ? {} : { testNamePattern: options.grep }),
    ...(options.testTimeout === undefined ? {} : { testTimeout: options.testTimeout }),
    ...(options.outputFile ? { outputFile: options.outputFile } : {}),
    ...(options.shard === undefined ? {} : { shard: options.shard }),
    ...(options.bail === undefined ? {} : { bail: options.bail }),
    // vitest's own exit code is not ours: the CLI decides from the summary.
    passWithNoTests: true,
    reporters: options.reporters as never,
  });
  await vitest?.close();
}

import { runInfo } from "../harness/conformance-summary.js";
import type { PreflightStep } from "../harness/preflight.js";
import type { TargetProfile } from "../harness/profile.js";
import { redactText } from "../harness/redact.js";
import type { RunSummary } from "../harness/reporters/summary-reporter.js";
import { SUITE_VERSION } from "../harness/version.js";
import { finishRun } from "./verdict.js";

/**
 * The target did not answer the preflight: no check runs, and the reports say INCOMPLETE with the reason
 * (one line, not one failure per check). Exit 1: the run could not judge the target.
 */
export function preflightIncomplete(options: {
  reportsDir: string;
  profile: TargetProfile;
  blocking: PreflightStep;
  seed: number;
  faults: string[];
  variants: string[];
  shard: string | undefined;
  suites: string[];
  grep: string | undefined;
}): number {
  const now = new Date().toISOString();
  const problem = redactText(`preflight: ${options.blocking.problem ?? options.blocking.check}${options.blocking.hint ? ` (hint: ${options.blocking.hint})` : ""}`);
  const summary: RunSummary = {
    target: options.profile.name,
    suiteVersion: SUITE_VERSION,
    startedAt: now,
    finishedAt: now,
    durationMs: 0,
    seed: options.seed,
    totals: { passed: 0, failed: 0, skipped: 0 },
    errors: [problem],
    tests: [],
  };
  const run = runInfo(options.profile, {
    faults: options.faults,
    variants: options.variants,
    seed: options.seed,
    startedAt: now,
    finishedAt: now,
    suites: options.suites,
    ...(options.grep === undefined ? {} : { grep: options.grep }),
    ...(options.shard === undefined ? {} : { shard: options.shard }),
  });
  finishRun({ reportsDir: options.reportsDir, summary, run, github: false });
  return 1;
}

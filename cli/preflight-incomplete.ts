import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInfo } from "../report/conformance-summary.js";
import type { PreflightStep } from "../harness/session/preflight.js";
import type { TargetProfile } from "../harness/profile/profile.js";
import { redactText } from "../harness/redact.js";
import type { RunSummary } from "../report/reporters/summary-reporter.js";
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
  const problem = redactText(
    `preflight: ${options.blocking.problem ?? options.blocking.check}${options.blocking.hint ? ` (hint: ${options.blocking.hint})` : ""}`,
  );
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
  // CI reads these files whatever happened: the summary with no test, and one JUnit error naming the cause.
  mkdirSync(options.reportsDir, { recursive: true });
  writeFileSync(join(options.reportsDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  writeFileSync(
    join(options.reportsDir, "junit.xml"),
    `<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="conformance (${xml(options.profile.name)})" tests="1" ` +
      `failures="0" errors="1" time="0">\n` +
      `    <testsuite name="preflight" tests="1" failures="0" errors="1" skipped="0" time="0">\n` +
      (`        <testcase classname="preflight" name="the target answers" time="0">\n            <error message="${xml(problem)}" ` +
        `type="Unreachable"/>\n        </testcase>\n`) +
      `    </testsuite>\n</testsuites>\n`,
  );
  finishRun({ reportsDir: options.reportsDir, summary, run, github: false });
  return 1;
}

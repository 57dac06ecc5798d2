// One test of summary.json as conformance.json records it: its name, outcome and blame, and whether a skip was "not applicable".
import { NOT_APPLICABLE } from "../harness/not-applicable.js";
import type { TestSummary } from "./reporters/summary-reporter.js";
import type { TestResult } from "./conformance-types.js";
import { judgeFailure } from "./failure-blame.js";
import { isSwitchedOff } from "./verdict-rule.js";

export function fullNameOf(test: Pick<TestSummary, "suite" | "name" | "fullName">): string {
  return test.fullName ?? `${test.suite} > ${test.name}`;
}

/**
 * A skip for an optional part the profile says the target does not offer (typed skipReason; a summary written
 * before it read the reason's "not applicable:" prefix).
 */
export function skippedNotApplicable(test: Pick<TestSummary, "status" | "skipReason" | "message">): boolean {
  if (test.status !== "skipped") return false;
  return test.skipReason !== undefined ? test.skipReason === "not-applicable" : (test.message ?? "").startsWith(NOT_APPLICABLE);
}

export function testResult(test: TestSummary, conventionsOff: string[]): TestResult {
  const base = { suite: test.suite, name: fullNameOf(test), status: test.status };
  if (test.status !== "failed") {
    return {
      ...base,
      outcome: test.status,
      requirements: test.requirements,
      blamed: [],
      ...(test.message ? { message: test.message } : {}),
      ...(test.notRun ? { notRun: test.notRun } : {}),
    };
  }
  // Typed, never read from the message: a test that ended with a TransportError blames no requirement.
  const { blamed, kind } = judgeFailure(test);
  const deviation = blamed.length > 0 && blamed.every((id) => isSwitchedOff(id, conventionsOff));
  return {
    ...base,
    outcome: deviation ? "deviation" : "failed",
    requirements: test.requirements,
    blamed,
    kind,
    message: test.message ?? "failed without a message",
  };
}

// The verdict of a run and its reason, from the requirements' outcomes; and what counts as a whole run.
import { requirements } from "../catalogue/requirements.js";
import { LEVELS, type RequirementResult, type RunInfo, type TestResult, type Verdict } from "./conformance-types.js";
import { plural } from "./plural.js";

/** A CONVENTION requirement the profile switched off: its failures are deviations. */
export function isSwitchedOff(id: string, conventionsOff: string[]): boolean {
  return conventionsOff.includes(id) && requirements().get(id)?.level === "CONVENTION";
}

export function shardsComplete(shards: string[]): boolean {
  const parsed = shards.map((s) => s.split("/").map(Number) as [number, number]);
  const count = parsed[0]?.[1] ?? 0;
  return parsed.length === count && parsed.every(([, n]) => n === count) && new Set(parsed.map(([i]) => i)).size === count;
}

export function decide(
  results: RequirementResult[],
  tests: TestResult[],
  errors: string[],
  run: RunInfo,
): { verdict: Verdict; reason: string } {
  const failed = results.filter((r) => r.status === "failed");
  const failedTests = tests.filter((t) => t.outcome === "failed");
  if (
    failedTests.length > 0 &&
    failedTests.every((t) => t.kind === "unreachable" || t.kind === "transport") &&
    !tests.some((t) => t.outcome === "passed")
  ) {
    // Nothing answered: no requirement could be judged, so no verdict on the target (the run still fails).
    return { verdict: "INCOMPLETE", reason: `the target could not be reached (${failedTests[0]!.message!.split("\n")[0]})` };
  }
  if (failed.length > 0) {
    const byLevel = LEVELS.map((l) => [l, failed.filter((r) => r.level === l).length] as const).filter(([, n]) => n > 0);
    return {
      verdict: "NOT CONFORMANT",
      reason: `${failed.length} of ${results.length} requirements failed (${byLevel.map(([l, n]) => `${n} ${l}`).join(", ")})`,
    };
  }
  // The preflight found no usable target: its one line is the reason (cli/preflight-incomplete.ts).
  if (tests.length === 0 && errors[0]?.startsWith("preflight: "))
    return { verdict: "INCOMPLETE", reason: errors[0].slice("preflight: ".length) };
  // A target that stopped answering mid-run: what was not run (and a set-up hook it cut short) says so first.
  const notRun = tests.filter((t) => t.notRun === "target-stopped-answering").length;
  if (notRun > 0) {
    return {
      verdict: "INCOMPLETE",
      reason:
        `the target stopped answering during the run: ${plural(notRun, "test")} not run after the profile's maxTransportErrors ` +
        `requests in a row got no answer; rerun when the target is back`,
    };
  }
  if (errors.length > 0)
    return {
      verdict: "INCOMPLETE",
      reason: `${plural(errors.length, "error")} outside any test (a suite file did not load or the run broke)`,
    };
  if (tests.length === 0) return { verdict: "INCOMPLETE", reason: "no test ran" };
  const weather = results.filter((r) => r.status === "skipped" && r.brokenByTransport);
  if (weather.length > 0) {
    const broken = tests.filter((t) => t.kind === "transport").length;
    return {
      verdict: "INCOMPLETE",
      reason:
        `${plural(weather.length, "requirement")} not checked because ${plural(broken, "test")} ended broken by transport (dropped ` +
        `connections, 5XX pages, rate limiting: weather, not a failure of a rule): ${weather.map((r) => r.id).join(", ")}; rerun, ` +
        `lower the load (rateLimit.requestsPerSecond) or raise the profile's retries`,
    };
  }
  const skipped = results.filter((r) => r.status === "skipped" && !r.notApplicable && !isSwitchedOff(r.id, run.conventionsOff));
  if (skipped.length > 0)
    return {
      verdict: "INCOMPLETE",
      reason:
        `${plural(skipped.length, "requirement")} not checked (every test naming it skipped or stopped early): ` +
        `${skipped.map((r) => r.id).join(", ")}`,
    };
  const deviations = results.filter((r) => r.status === "deviation").length;
  return {
    verdict: "CONFORMANT",
    reason:
      `${results.length === 1 ? "the one requirement" : `all ${results.length} requirements`} checked ` +
      `passed${deviations > 0 ? ` (${plural(deviations, "deviation")} from conventions the profile switched off)` : ""}`,
  };
}

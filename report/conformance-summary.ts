import { renderMarkdown } from "./conformance-markdown.js";
import { consumedFrom, uncheckedByField, type ConsumedFromTarget } from "./unfinished.js";
import { NOT_APPLICABLE } from "../harness/not-applicable.js";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TargetProfile } from "../harness/profile/profile.js";
import type { RunSummary, TestSummary } from "./reporters/summary-reporter.js";
import { leadingRequirementId, requirements, type Level, type Requirement } from "../catalogue/requirements.js";
import { specCoverageFigures, type CoverageFigures } from "../catalogue/spec-coverage.js";
import { SPEC_VERSION, SUITE_VERSION } from "../harness/version.js";

/**
 * The verdict a vendor can hand on: reports/conformance.json (for tools) and conformance.md (for a
 * pull request), built from summary.json and the run's facts. Rules, in one place:
 * - A failed test blames the requirement of the check that failed (summary.json's typed `failure`: a CheckFailure
 *   of a requirement the test names); any other failure (a crash, a timeout, an unreachable target) blames every
 *   requirement the test names. Outcomes are decided on those typed fields, never on a message's words (summaries
 *   written before the fields existed are read the old way: see legacyFailure).
 * - A failure whose blamed requirements are all CONVENTIONs the profile lists in `conventionsOff` is a
 *   deviation: reported, never a failure, and it does not fail the run.
 * - A requirement fails when a failed test blames it; deviates when a deviating test blames it; passes
 *   when a test naming it passed; otherwise it is skipped (every test naming it was skipped, or stopped
 *   early at another requirement's check).
 * - NOT CONFORMANT when a requirement failed; INCOMPLETE when a required one (any level but a switched-off
 *   CONVENTION) was skipped, a suite file broke, or nothing ran; else CONFORMANT. The verdict covers the
 *   requirements the run checked: a partial run (some suites, --grep, one shard) says so.
 */

export type Verdict = "CONFORMANT" | "NOT CONFORMANT" | "INCOMPLETE";
export type Outcome = "passed" | "failed" | "deviation" | "skipped";
/**
 * Why a test failed: a requirement check (the target's defect); no usable HTTP answer (connection refused,
 * timeout: harness/http/client.ts TransportError); the session bootstrap refused; or the test itself broke.
 */
export type FailureKind = "defect" | "unreachable" | "bootstrap" | "broken" | "transport";

export const FORMAT = "banking-api-conformance/1";
export const LEVELS: Level[] = ["MUST", "CONVENTION", "LENIENT"];

/** The facts of one run (or of merged shards) that the results alone do not carry. */
export interface RunInfo {
  target: string;
  suiteVersion: string;
  specVersion: string;
  /** SHA-256 of the target profile with secrets removed (canonical JSON). */
  profileSha256: string;
  conventionsOff: string[];
  /** Reference faults switched on (profile and --fault): a self-test, never a vendor's run. */
  faults: string[];
  /** Legal variants of the reference switched on (--variant): a self-test of the suite's tolerance. */
  variants?: string[];
  seed: number | null;
  startedAt: string;
  finishedAt: string;
  node: string;
  scope: {
    /** Suite files run; "all" when none was named. */
    suites: string[] | "all";
    grep: string | null;
    /** The shard of this run ("2/3"), or every shard merged; null when not sharded. */
    shards: string[] | null;
  };
}

interface TestResult {
  suite: string;
  name: string;
  status: TestSummary["status"];
  outcome: Outcome;
  requirements: string[];
  blamed: string[];
  kind?: FailureKind;
  message?: string;
  /** Not run: the target had stopped answering (profile maxTransportErrors). */
  notRun?: TestSummary["notRun"];
}

interface Counts {
  passed: number;
  failed: number;
  deviation: number;
  skipped: number;
}

interface RequirementResult {
  id: string;
  level: Level;
  part: string;
  resource: string;
  statement: string;
  status: Outcome;
  /** Tests naming the requirement. */
  tests: number;
  failures: { test: string; message: string }[];
  note?: string;
  /** Every test naming it skipped because the profile says the target lacks an optional part (a capability, signing). */
  notApplicable?: boolean;
  /** Unchecked only because tests naming it ended broken by transport (weather): the run says INCOMPLETE, never failed. */
  brokenByTransport?: number;
}

export interface ConformanceReport {
  format: typeof FORMAT;
  verdict: Verdict;
  reason: string;
  /** All suites, no --grep, no missing shard: the verdict covers the whole suite. */
  complete: boolean;
  run: RunInfo;
  /** tests.failed leaves out the tests broken by transport: they are counted apart in tests.brokenByTransport. */
  totals: { tests: Counts & { total: number; brokenByTransport?: number }; requirements: Counts & { total: number }; notChecked: number };
  levels: Record<Level, Counts>;
  parts: { part: string; counts: Counts; requirements: string[] }[];
  requirements: RequirementResult[];
  errors: string[];
  /** Canonical per-test results: sorted by suite and name, no timings. resultsSha256 is the SHA-256 of JSON.stringify(tests). */
  tests: TestResult[];
  resultsSha256: string;
  /** Filled in when a baseline was applied (report/expectations.ts). */
  expectations?: BaselineResult;
  /** The suite's coverage of the specification's statements (spec/coverage.yaml); absent when it cannot be read. */
  specCoverage?: CoverageFigures;
  /** LENIENT readings the target took (harness/lenient.ts): passes, which a strict profile would fail. */
  lenient?: { readings: number; observations: LenientReading[] };
  /** What the run used up of the target's own data (harness/consumption.ts); absent when nothing. */
  consumed?: ConsumedFromTarget[];
  /** Requirements left unchecked by skips, by the profile field that would check them; absent when none. */
  uncheckedByField?: { field: string; requirements: string[] }[];
  /** Per failed test (by name): the command that replays it alone, and a curl line for its last exchange. */
  reproduce?: Record<string, { rerun: string; curl?: string }>;
}

/**
 * One LENIENT reading the target took, over every test that observed it: a requirement and what strict
 * requires instead, or a requirement whose readings are only recorded (strict requires nothing more).
 */
export interface LenientReading {
  requirement: string;
  /** What a strict profile requires instead; absent when the reading is only recorded. */
  strict?: string;
  /** What the target did, each distinct text once (a check may name the place or a sample value). */
  observed: string[];
  tests: string[];
}

/** What a baseline (expectations/<target>.yaml) made of the run's failures. */
export interface BaselineResult {
  file: string;
  /** Failed tests the baseline expects, with the entry's reason. */
  expected: { test: string; reason: string }[];
  /** Failed tests no baseline entry covers: they fail the run. */
  newFailures: string[];
  /** "unexpected pass: …: remove it from the baseline": they fail the run. */
  unexpectedPasses: string[];
  /** Entries past their until: date: they fail the run, and excuse nothing. */
  expired: string[];
  /** Entries whose test or requirement this run did not check (another shard, suite or --grep). */
  notRun: string[];
}

/**
 * Messages of a target that gave no usable HTTP answer (harness/http/client.ts TransportError), and of a failed session
 * bootstrap. Allure's categories match messages (report/reporters/allure-results.ts); the verdict reads them only
 * in summaries written before tests carried their typed `failure` (legacyFailure).
 */
export const UNREACHABLE_SOURCE =
  "no complete answer within|connection refused|connection reset|connection closed by the server|host name not found|" +
  "host unreachable|closed the connection|connection aborted|source address not available|TLS:|TLS handshake failed|" +
  "maxResponseBytes|429 Too Many Requests|host name lookup failed|network unreachable|connecting timed out";
/** Messages of a session bootstrap that failed (harness/run/global-setup.ts, harness/run/target.ts). */
export const BOOTSTRAP_SOURCE = "no session for the primary user|session bootstrap";
const UNREACHABLE = new RegExp(UNREACHABLE_SOURCE, "i");
const BOOTSTRAP = new RegExp(BOOTSTRAP_SOURCE, "i");

function fullNameOf(test: Pick<TestSummary, "suite" | "name" | "fullName">): string {
  return test.fullName ?? `${test.suite} > ${test.name}`;
}

/**
 * Blame and kind of a failed test, from its typed fields: a check of a requirement the test names blames that one
 * (and is a defect); a check of one it does not name blames them all, a defect only when that is one requirement;
 * transport (weather) blames none; anything else blames them all, as what it is.
 */
export function judgeFailure(test: Pick<TestSummary, "requirements" | "broken" | "failure" | "message">): {
  blamed: string[];
  kind: FailureKind;
} {
  if (test.broken === "transport") return { blamed: [], kind: "transport" };
  if (!test.failure) return legacyFailure(test.message, test.requirements);
  const cause = test.failure;
  if (cause.kind === "check") {
    const blamed = test.requirements.includes(cause.requirement) ? [cause.requirement] : [...test.requirements];
    return { blamed, kind: blamed.length === 1 ? "defect" : "broken" };
  }
  return { blamed: [...test.requirements], kind: cause.kind === "error" ? "broken" : cause.kind };
}

/** A summary written before tests carried their typed `failure`: blame and kind read from the message, as then. */
function legacyFailure(message: string | undefined, named: string[]): { blamed: string[]; kind: FailureKind } {
  return { blamed: blamedBy(message, named), kind: failureKind(message, named) };
}

/** Legacy (legacyFailure): the requirement a failure message starts with ("HDR-003: …"), if the test names it. */
export function blamedBy(message: string | undefined, named: string[]): string[] {
  const first = leadingRequirementId(message);
  return first && named.includes(first) ? [first] : [...named];
}

/** Legacy (legacyFailure): the kind of a failure, from its message. */
function failureKind(message: string | undefined, named: string[]): FailureKind {
  if (blamedBy(message, named).length === 1 && leadingRequirementId(message) !== undefined) return "defect";
  return UNREACHABLE.test(message ?? "") ? "unreachable" : BOOTSTRAP.test(message ?? "") ? "bootstrap" : "broken";
}

/**
 * A skip for an optional part the profile says the target does not offer (typed skipReason; a summary written
 * before it read the reason's "not applicable:" prefix).
 */
function skippedNotApplicable(test: Pick<TestSummary, "status" | "skipReason" | "message">): boolean {
  if (test.status !== "skipped") return false;
  return test.skipReason !== undefined ? test.skipReason === "not-applicable" : (test.message ?? "").startsWith(NOT_APPLICABLE);
}

/** A CONVENTION requirement the profile switched off: its failures are deviations. */
export function isSwitchedOff(id: string, conventionsOff: string[]): boolean {
  return conventionsOff.includes(id) && requirements().get(id)?.level === "CONVENTION";
}

/** SHA-256 of the profile with its secrets removed, as canonical JSON (sorted keys). */
function profileSha256(profile: TargetProfile): string {
  const { apiKey: _a, secondaryApiKey: _s, spareApiKeys: _k, ...rest } = profile;
  return sha256(canonicalJson(rest));
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** "1 deviation", "2 deviations". */
export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function testResult(test: TestSummary, conventionsOff: string[]): TestResult {
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

const zero = (): Counts => ({ passed: 0, failed: 0, deviation: 0, skipped: 0 });

export function buildConformance(summary: RunSummary, run: RunInfo): ConformanceReport {
  const catalogue = requirements();
  // Skips for an optional part the target does not offer (a test result stays as conformance.json has always held it).
  const notApplicable = new WeakSet<TestResult>();
  const tests = summary.tests
    .filter((t) => !t.notSelected)
    .map((t) => {
      const result = testResult(t, run.conventionsOff);
      if (skippedNotApplicable(t)) notApplicable.add(result);
      return result;
    })
    .sort((a, b) => (a.suite === b.suite ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.suite < b.suite ? -1 : 1));

  const named = new Map<string, TestResult[]>();
  for (const test of tests) for (const id of test.requirements) named.set(id, [...(named.get(id) ?? []), test]);
  const order = [...catalogue.keys()];
  const ids = [...named.keys()].sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));

  const results = ids.map((id): RequirementResult => {
    const req: Requirement | undefined = catalogue.get(id);
    const mine = named.get(id)!;
    const blaming = (outcome: Outcome) => mine.filter((t) => t.outcome === outcome && t.blamed.includes(id));
    const failed = blaming("failed");
    const deviating = blaming("deviation");
    const status: Outcome =
      failed.length > 0 ? "failed" : deviating.length > 0 ? "deviation" : mine.some((t) => t.outcome === "passed") ? "passed" : "skipped";
    const weather = mine.filter((t) => t.kind === "transport").length;
    const note =
      status === "skipped" && weather > 0
        ? `not checked: ${plural(weather, "test")} naming it ended broken by transport (weather, not a failure of the rule)`
        : status === "skipped"
          ? mine.every((t) => t.outcome === "skipped")
            ? `skipped: ${[...new Set(mine.map((t) => t.message ?? "skipped"))].join("; ")}`
            : `not proven: its tests stopped at another requirement's check (${[...new Set(mine.flatMap((t) => t.blamed))].join(", ")})`
          : undefined;
    return {
      id,
      level: req?.level ?? "MUST",
      part: req?.part ?? "Unknown part",
      resource: req?.resource ?? "unknown",
      statement: req?.statement ?? "(not in spec/requirements.yaml)",
      status,
      tests: mine.length,
      failures: [...failed, ...deviating].map((t) => ({ test: t.name, message: t.message ?? "" })),
      ...(note ? { note } : {}),
      ...(status === "skipped" && weather > 0 ? { brokenByTransport: weather } : {}),
      ...(status === "skipped" && mine.every((t) => t.outcome === "skipped" && notApplicable.has(t)) ? { notApplicable: true } : {}),
    };
  });

  const levels = Object.fromEntries(LEVELS.map((l) => [l, zero()])) as Record<Level, Counts>;
  const partMap = new Map<string, { counts: Counts; requirements: string[] }>();
  const reqTotals = zero();
  for (const r of results) {
    levels[r.level][r.status]++;
    reqTotals[r.status]++;
    const part = partMap.get(r.part) ?? { counts: zero(), requirements: [] };
    part.counts[r.status]++;
    part.requirements.push(r.id);
    partMap.set(r.part, part);
  }
  const testTotals = zero();
  for (const t of tests) testTotals[t.outcome]++;
  const brokenByTransport = tests.filter((t) => t.kind === "transport").length;
  testTotals.failed -= brokenByTransport;

  const decided = decide(results, tests, summary.errors, run);
  const lenient = lenientReadings(summary.tests.filter((t) => !t.notSelected));
  const specCoverage = specCoverageFigures();
  const { verdict } = decided;
  const reason = `${decided.reason}${lenientClause(lenient)}`;
  const selected = summary.tests.filter((t) => !t.notSelected);
  const consumed = consumedFrom(selected);
  const skippedIds = results.filter((r) => r.status === "skipped" && !r.brokenByTransport && !r.notApplicable).map((r) => r.id);
  const unchecked = uncheckedByField(skippedIds, selected);
  return {
    format: FORMAT,
    verdict,
    reason,
    complete: run.scope.suites === "all" && run.scope.grep === null && (run.scope.shards === null || shardsComplete(run.scope.shards)),
    run,
    totals: {
      tests: { ...testTotals, total: tests.length, ...(brokenByTransport > 0 ? { brokenByTransport } : {}) },
      requirements: { ...reqTotals, total: results.length },
      notChecked: [...catalogue.values()].filter((r) => r.status !== "withdrawn" && r.status !== "not-testable" && !named.has(r.id)).length,
    },
    levels,
    parts: [...partMap].map(([part, v]) => ({ part, ...v })),
    requirements: results,
    errors: summary.errors,
    tests,
    resultsSha256: sha256(JSON.stringify(tests)),
    ...(specCoverage ? { specCoverage } : {}),
    lenient: { readings: lenient.length, observations: lenient },
    ...(consumed.length > 0 ? { consumed } : {}),
    ...(unchecked.length > 0 ? { uncheckedByField: unchecked } : {}),
  };
}

/** The LENIENT readings of the run's tests: one per requirement and strict expectation, with what was seen where. */
export function lenientReadings(tests: TestSummary[]): LenientReading[] {
  const readings = new Map<string, LenientReading>();
  for (const test of tests) {
    for (const o of test.lenient ?? []) {
      const key = `${o.requirement}\u0000${o.strict ?? ""}`;
      const reading = readings.get(key) ?? {
        requirement: o.requirement,
        ...(o.strict ? { strict: o.strict } : {}),
        observed: [],
        tests: [],
      };
      if (!reading.observed.includes(o.observed)) reading.observed.push(o.observed);
      const name = fullNameOf(test);
      if (!reading.tests.includes(name)) reading.tests.push(name);
      readings.set(key, reading);
    }
  }
  return [...readings.values()].sort(
    (a, b) => a.requirement.localeCompare(b.requirement) || (a.strict ?? "").localeCompare(b.strict ?? ""),
  );
}

/** "; 3 LENIENT readings observed (strict would require otherwise: PAGE-006, PAGE-019; recorded only: CARD-020)", or nothing. */
function lenientClause(readings: LenientReading[]): string {
  if (readings.length === 0) return "";
  const ids = (strict: boolean) => [...new Set(readings.filter((r) => Boolean(r.strict) === strict).map((r) => r.requirement))];
  const parts = [
    ids(true).length > 0 ? `strict would require otherwise: ${ids(true).join(", ")}` : "",
    ids(false).length > 0 ? `recorded only: ${ids(false).join(", ")}` : "",
  ];
  return `; ${plural(readings.length, "LENIENT reading")} observed (${parts.filter(Boolean).join("; ")})`;
}

function rank(order: string[], id: string): number {
  const i = order.indexOf(id);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}

export function shardsComplete(shards: string[]): boolean {
  const parsed = shards.map((s) => s.split("/").map(Number) as [number, number]);
  const count = parsed[0]?.[1] ?? 0;
  return parsed.length === count && parsed.every(([, n]) => n === count) && new Set(parsed.map(([i]) => i)).size === count;
}

function decide(results: RequirementResult[], tests: TestResult[], errors: string[], run: RunInfo): { verdict: Verdict; reason: string } {
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

export function writeConformance(reportsDir: string, report: ConformanceReport): void {
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(join(reportsDir, "conformance.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(reportsDir, "conformance.md"), renderMarkdown(report));
}

/** The run's facts for the summary (secrets never included: the profile enters only as a hash). */
export function runInfo(
  profile: TargetProfile,
  options: {
    faults: string[];
    variants?: string[];
    seed: number | null;
    startedAt: string;
    finishedAt: string;
    suites: string[];
    grep?: string;
    shard?: string;
  },
): RunInfo {
  return {
    target: profile.name,
    suiteVersion: SUITE_VERSION,
    specVersion: SPEC_VERSION,
    profileSha256: profileSha256(profile),
    conventionsOff: profile.conventionsOff,
    faults: options.faults,
    ...(options.variants && options.variants.length > 0 ? { variants: options.variants } : {}),
    seed: options.seed,
    startedAt: options.startedAt,
    finishedAt: options.finishedAt,
    node: process.version,
    scope: {
      suites: options.suites.length === 0 ? "all" : [...options.suites].sort(),
      grep: options.grep ?? null,
      shards: options.shard ? [options.shard] : null,
    },
  };
}

// The shape of reports/conformance.json and of the run's facts: shared by the code that builds, judges and renders it.
import type { ConsumedFromTarget } from "./unfinished.js";
import type { TestSummary } from "./reporters/summary-reporter.js";
import type { Level } from "../catalogue/requirements.js";
import type { CoverageFigures } from "../catalogue/spec-coverage.js";

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

export interface TestResult {
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

export interface Counts {
  passed: number;
  failed: number;
  deviation: number;
  skipped: number;
}

export interface RequirementResult {
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

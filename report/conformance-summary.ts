import { renderMarkdown } from "./conformance-markdown.js";
import { consumedFrom, uncheckedByField } from "./unfinished.js";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TargetProfile } from "../harness/profile/profile.js";
import type { RunSummary } from "./reporters/summary-reporter.js";
import { requirements, type Level, type Requirement } from "../catalogue/requirements.js";
import { specCoverageFigures } from "../catalogue/spec-coverage.js";
import { SPEC_VERSION, SUITE_VERSION } from "../harness/version.js";
import {
  FORMAT,
  LEVELS,
  type ConformanceReport,
  type Counts,
  type Outcome,
  type RequirementResult,
  type RunInfo,
  type TestResult,
} from "./conformance-types.js";
import { lenientClause, lenientReadings } from "./lenient-readings.js";
import { plural } from "./plural.js";
import { skippedNotApplicable, testResult } from "./test-result.js";
import { decide, shardsComplete } from "./verdict-rule.js";

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

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

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

function rank(order: string[], id: string): number {
  const i = order.indexOf(id);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
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

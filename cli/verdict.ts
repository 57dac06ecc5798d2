import { appendFileSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { buildConformance, writeConformance } from "../report/conformance-summary.js";
import type { ConformanceReport, RunInfo } from "../report/conformance-types.js";
import { plural } from "../report/plural.js";
import { applyBaseline, baselineFails, type Baseline } from "../report/expectations.js";
import { finishAllureResults } from "../report/reporters/allure-results.js";
import { githubAnnotations } from "../report/reporters/github.js";
import { readExchangeLog } from "../report/reporters/har.js";
import { finishJunit } from "../report/reporters/junit.js";
import type { RunSummary } from "../report/reporters/summary-reporter.js";
import { curlCommand, rerunCommand, type RerunContext } from "./reproduce.js";

export interface FinishOptions {
  reportsDir: string;
  summary: RunSummary;
  run: RunInfo;
  baseline?: Baseline;
  /** Print GitHub Actions annotations and append conformance.md to the step summary. */
  github: boolean;
  /** The run's flags, for each failure's rerun command (absent: a merge, which has no single command). */
  rerun?: RerunContext;
}

/** Each failed test's rerun command and, where it made a request, a curl line for its last exchange. */
function reproductions(
  summary: RunSummary,
  report: ConformanceReport,
  reportsDir: string,
  context: RerunContext,
): ConformanceReport["reproduce"] {
  const failed = new Set(report.tests.filter((t) => t.outcome === "failed" || t.outcome === "deviation").map((t) => t.name));
  if (failed.size === 0) return undefined;
  const lastExchange = new Map<string, ReturnType<typeof readExchangeLog>[number]>();
  for (const e of readExchangeLog(reportsDir)) if (e.test && failed.has(e.test)) lastExchange.set(e.test, e);
  const out: NonNullable<ConformanceReport["reproduce"]> = {};
  for (const test of summary.tests) {
    const name = test.fullName ?? `${test.suite} > ${test.name}`;
    if (!failed.has(name)) continue;
    const exchange = lastExchange.get(name);
    out[name] = { rerun: rerunCommand(context, test.suite, test.name), ...(exchange ? { curl: curlCommand(exchange) } : {}) };
  }
  return out;
}

/**
 * The end of a run or a merge: conformance.json/md, the Allure touches, the console verdict and,
 * on GitHub Actions, annotations. Returns the exit code: 1 when a check failed (deviations do not
 * count) or the run broke; with a baseline, 1 only on new failures, unexpected passes or expired entries.
 */
export function finishRun(options: FinishOptions): { code: number; report: ConformanceReport } {
  const report = buildConformance(options.summary, options.run);
  const baseline = options.baseline ? applyBaseline(report, options.baseline, report.run.startedAt.slice(0, 10)) : undefined;
  if (baseline) report.expectations = baseline;
  const reproduce = options.rerun ? reproductions(options.summary, report, options.reportsDir, options.rerun) : undefined;
  if (reproduce) report.reproduce = reproduce;
  writeConformance(options.reportsDir, report);
  finishAllureResults(join(options.reportsDir, "allure-results"), report);
  finishJunit(options.reportsDir, report);

  // A test broken by transport (weather) fails the run only where it kept the verdict from CONFORMANT.
  const failed = report.tests.filter((t) => t.outcome === "failed" && (t.kind !== "transport" || report.verdict !== "CONFORMANT"));
  const code = baseline ? (baselineFails(report, baseline) ? 1 : 0) : failed.length > 0 || report.errors.length > 0 ? 1 : 0;
  process.stdout.write(consoleVerdict(report, options.reportsDir));
  if (options.github) {
    process.stdout.write(`${githubAnnotations(report, baseline).join("\n")}\n`);
    const stepSummary = process.env.GITHUB_STEP_SUMMARY;
    // The step summary is exactly conformance.md, as written.
    if (stepSummary) appendFileSync(stepSummary, `${readFileSync(join(options.reportsDir, "conformance.md"), "utf8")}\n`);
  }
  return { code, report };
}

function consoleVerdict(report: ConformanceReport, reportsDir: string): string {
  const e = report.expectations;
  const expected = new Set(e?.expected.map((x) => x.test) ?? []);
  const lines: string[] = [""];
  const newFailures = report.tests.filter((t) => t.outcome === "failed" && !expected.has(t.name));
  if (newFailures.length > 0 || report.errors.length > 0) {
    lines.push(e ? "New failures (not in the baseline):" : "Failures:");
    for (const t of newFailures) {
      lines.push(
        `  ✗ ${t.name}`,
        ...t
          .message!.split("\n")
          .slice(0, 6)
          .map((l) => `      ${l}`),
      );
      const again = report.reproduce?.[t.name];
      if (again) lines.push(`      rerun: ${again.rerun}`, ...(again.curl ? [`      curl:  ${again.curl}`] : []));
    }
    for (const error of report.errors) lines.push(`  ✗ ${error.split("\n")[0]}`);
    lines.push("");
  }
  const skipped = report.tests.filter((t) => t.outcome === "skipped");
  if (skipped.length > 0) {
    // Grouped by cause: one line per reason, so a profile gap (no second user, no fixture) reads once.
    const causes = new Map<string, number>();
    for (const t of skipped) {
      const reason = (t.message ?? "skipped").split("\n")[0]!;
      causes.set(reason, (causes.get(reason) ?? 0) + 1);
    }
    lines.push(`Skipped (${skipped.length}), by cause:`);
    for (const [reason, count] of [...causes].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(count).padStart(3)} × ${reason}`);
    lines.push("");
  }
  const deviations = report.tests.filter((t) => t.outcome === "deviation");
  if (deviations.length > 0) {
    lines.push("Deviations (conventions the profile switched off; they do not fail the run):");
    for (const t of deviations) lines.push(`  ~ ${t.name}`, `      ${t.message!.split("\n")[0]}`);
    lines.push("");
  }
  if (e) {
    if (e.expected.length > 0) {
      lines.push(`Expected failures (${e.file}):`);
      for (const x of e.expected) lines.push(`  · ${x.test} (${x.reason})`);
      lines.push("");
    }
    const problems = [...e.unexpectedPasses, ...e.expired];
    if (problems.length > 0) lines.push("Baseline problems:", ...problems.map((p) => `  ✗ ${p}`), "");
  }
  const t = report.totals.tests;
  const near = relative(process.cwd(), reportsDir);
  const dir = near === "" ? "." : near.startsWith("..") ? reportsDir : near;
  lines.push(`Target ${report.run.target} (seed ${report.run.seed ?? "none"}), reports in ${dir}`);
  lines.push(
    `conformance: ${t.passed} passed, ${t.failed} failed${e && e.expected.length > 0 ? ` (${e.expected.length} expected)` : ""}, ` +
      `${t.skipped} skipped${t.deviation > 0 ? `, ${plural(t.deviation, "deviation")}` : ""}`,
  );
  lines.push(`verdict: ${report.verdict}: ${report.reason}${report.complete ? "" : " (partial run)"} (${join(dir, "conformance.md")})`);
  if (e) {
    const fails = newFailures.length + e.unexpectedPasses.length + e.expired.length + report.errors.length > 0;
    lines.push(
      `baseline ${e.file}: ${plural(newFailures.length, "new failure")}, ${e.expected.length} expected, ` +
        `${plural(e.unexpectedPasses.length, "unexpected pass", "unexpected passes")}, ${e.expired.length} expired: ` +
        `${fails ? "the run fails" : "no regressions"}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

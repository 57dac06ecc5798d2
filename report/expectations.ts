import { readFileSync } from "node:fs";
import { parse as parseYaml, stringify } from "yaml";
import { createAjv, type ErrorObject } from "../harness/ajv.js";
import { ConfigError } from "../harness/profile/config-error.js";
import type { BaselineResult, ConformanceReport } from "./conformance-types.js";
import { requirements } from "../catalogue/requirements.js";

/**
 * Expectation baselines (expectations/<target>.yaml), kept outside the tests like web-platform-tests
 * metadata: the failures a target is known to have, each with a reason and an optional until: date.
 * CI gates on regressions only: new failures, entries that now pass, and expired entries fail the run.
 */

interface ExpectationEntry {
  test?: string;
  requirement?: string;
  reason: string;
  until?: string;
}

export interface Baseline {
  file: string;
  target?: string;
  entries: ExpectationEntry[];
}

const SCHEMA_FILE = new URL("../schemas/expectations.schema.json", import.meta.url);
let validator: ReturnType<ReturnType<typeof createAjv>["compile"]> | undefined;

/** Reads and validates a baseline; any problem is one ConfigError line (exit 2). */
export function loadBaseline(file: string): Baseline {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`${file}: cannot read the expectations file (${code === "ENOENT" ? "no such file" : (code ?? String(error))})`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text, { prettyErrors: false });
  } catch (error) {
    throw new ConfigError(`${file}: not valid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (raw === null || raw === undefined) throw new ConfigError(`${file}: the file is empty; expected "expectations:" (a list, may be [])`);
  validator ??= createAjv().compile(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as object);
  if (!validator(raw)) throw new ConfigError(`${file}: ${describe(validator.errors ?? [], raw)}`);
  const parsed = raw as { target?: string; expectations: ExpectationEntry[] };
  const catalogue = requirements();
  const seen = new Set<string>();
  parsed.expectations.forEach((entry, i) => {
    const where = `${file}: expectations[${i}]`;
    if (entry.requirement !== undefined && !catalogue.has(entry.requirement)) {
      throw new ConfigError(`${where}: field "requirement": ${entry.requirement} is not in spec/requirements.yaml`);
    }
    if (entry.until !== undefined && !isRealDate(entry.until))
      throw new ConfigError(`${where}: field "until": ${entry.until} is not a calendar date`);
    const key = subject(entry);
    if (seen.has(key)) throw new ConfigError(`${where}: ${key} is listed twice`);
    seen.add(key);
  });
  return { file, ...(parsed.target === undefined ? {} : { target: parsed.target }), entries: parsed.expectations };
}

function isRealDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

function describe(errors: ErrorObject[], data: unknown): string {
  // The deepest error says the most; errors inside the oneOf branches are noise beside the oneOf itself
  // ("test or requirement, exactly one").
  const meaningful = errors.filter((e) => !e.schemaPath.includes("/oneOf/"));
  const error = [...(meaningful.length > 0 ? meaningful : errors)].sort(
    (a, b) => b.instancePath.split("/").length - a.instancePath.split("/").length,
  )[0]!;
  const path = error.instancePath.split("/").slice(1);
  const where =
    path.length === 0
      ? "top level"
      : path[0] === "expectations" && path.length >= 2
        ? `expectations[${path[1]}]${path.length > 2 ? `: field "${path.slice(2).join(".")}"` : ""}`
        : `field "${path.join(".")}"`;
  const params = error.params as Record<string, unknown>;
  const got = JSON.stringify(
    path.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), data),
  );
  switch (error.keyword) {
    case "additionalProperties":
      return (
        `${where}: unknown field "${String(params.additionalProperty)}" ` +
        `(allowed: ${path.length === 0 ? "target, expectations" : "test, requirement, reason, until"})`
      );
    case "required":
      return `${where}: field "${String(params.missingProperty)}" is missing`;
    case "oneOf":
      return `${where}: give exactly one of "test" (a full test name) or "requirement" (an ID)`;
    case "pattern":
      return `${where}: expected ${path[path.length - 1] === "until" ? "a date YYYY-MM-DD" : "a requirement ID like HDR-003"}, got ${got}`;
    case "type":
      return `${where}: expected ${String(params.type)}, got ${got}`;
    default:
      return `${where}: ${error.message ?? "is invalid"}, got ${got}`;
  }
}

function subject(entry: ExpectationEntry): string {
  return entry.test !== undefined ? `test "${entry.test}"` : `requirement ${entry.requirement}`;
}

/** Judges a run against a baseline. `today` is a UTC date (YYYY-MM-DD): entries are valid through their until: day. */
export function applyBaseline(report: ConformanceReport, baseline: Baseline, today: string): BaselineResult {
  const active = baseline.entries.filter((e) => e.until === undefined || e.until >= today);
  const expired = baseline.entries
    .filter((e) => !active.includes(e))
    .map((e) => `expired: ${subject(e)} (until ${e.until}; ${e.reason}): fix the target, or renew the date in the baseline`);
  const expected: BaselineResult["expected"] = [];
  const newFailures: string[] = [];
  for (const test of report.tests.filter((t) => t.outcome === "failed")) {
    const entry =
      active.find((e) => e.test === test.name) ?? active.find((e) => e.requirement !== undefined && test.blamed.includes(e.requirement));
    if (entry) expected.push({ test: test.name, reason: entry.reason });
    else newFailures.push(test.name);
  }
  const unexpectedPasses: string[] = [];
  const notRun: string[] = [];
  for (const entry of active) {
    const state =
      entry.test !== undefined
        ? report.tests.find((t) => t.name === entry.test)?.outcome
        : report.requirements.find((r) => r.id === entry.requirement)?.status;
    if (state === "passed") unexpectedPasses.push(`unexpected pass: ${subject(entry)} now passes: remove it from the baseline`);
    else if (state === undefined || state === "skipped")
      notRun.push(`${subject(entry)}: ${state === undefined ? "not run" : "skipped"} in this run`);
  }
  return { file: baseline.file, expected, newFailures, unexpectedPasses, expired, notRun };
}

/** Whether a run judged against a baseline fails: anything new, any stale entry, or an error outside the tests. */
export function baselineFails(report: ConformanceReport, result: BaselineResult): boolean {
  return result.newFailures.length > 0 || result.unexpectedPasses.length > 0 || result.expired.length > 0 || report.errors.length > 0;
}

/**
 * A baseline from a run: previous entries that still match a failure keep their reason and date;
 * entries whose test or requirement the run did not check stay; entries that now pass go. Each other
 * failure becomes a test entry whose reason quotes the failure.
 */
export function baselineFromReport(
  report: ConformanceReport,
  previous: Baseline | undefined,
): { text: string; kept: number; added: number; dropped: string[] } {
  const failed = report.tests.filter((t) => t.outcome === "failed");
  const stillFailing = (e: ExpectationEntry) =>
    failed.some((t) => (e.test !== undefined ? t.name === e.test : t.blamed.includes(e.requirement!)));
  const notChecked = (e: ExpectationEntry) =>
    e.test !== undefined
      ? !report.tests.some((t) => t.name === e.test && t.outcome !== "skipped")
      : !report.requirements.some((r) => r.id === e.requirement && r.status !== "skipped");
  const kept = (previous?.entries ?? []).filter((e) => stillFailing(e) || notChecked(e));
  const dropped = (previous?.entries ?? []).filter((e) => !kept.includes(e)).map(subject);
  const covered = (name: string, blamed: string[]) =>
    kept.some((e) => e.test === name || (e.requirement !== undefined && blamed.includes(e.requirement)));
  const day = report.run.startedAt.slice(0, 10);
  const added = failed
    .filter((t) => !covered(t.name, t.blamed))
    .map((t): ExpectationEntry => ({ test: t.name, reason: `failing since ${day}: ${clip((t.message ?? "").split("\n")[0]!, 160)}` }));
  const header = [
    `# Expectation baseline for target "${report.run.target}" (schemas/expectations.schema.json).`,
    "# Known failures by test (full name) or requirement ID, each with a reason and an optional until: YYYY-MM-DD.",
    "# `conformance run --expectations <this file>` fails on new failures, on entries that now pass and on expired entries.",
    `# Written by \`conformance expectations update\` from the run of ${report.run.startedAt} (suite ${report.run.suiteVersion}).`,
    "",
  ].join("\n");
  const body = stringify({ target: report.run.target, expectations: [...kept, ...added] }, { lineWidth: 0 });
  return { text: `${header}${body}`, kept: kept.length, added: added.length, dropped };
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "../../harness/profile/config-error.js";
import type { ConformanceReport, RunInfo } from "../../report/conformance-types.js";
import { shardsComplete } from "../../report/verdict-rule.js";
import { loadBaseline } from "../../report/expectations.js";
import type { RunSummary } from "../../report/reporters/summary-reporter.js";
import { parseFlags } from "../args.js";
import { finishRun } from "../verdict.js";

interface Part {
  dir: string;
  summary: RunSummary;
  run: RunInfo;
}

/**
 * conformance merge DIR… [--reports OUT] [--expectations FILE]: the reports folders of shards (or of
 * runs of different suites against the same target) become one: summary.json, allure-results and
 * conformance.json/md, judged as one run. Parts must come from the same target, profile, suite
 * version, seed and filters; shards must be complete (every I of N exactly once).
 */
export async function mergeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("merge", args, {
    reports: { type: "string" },
    expectations: { type: "string" },
  });
  if (positionals.length === 0)
    throw new ConfigError("conformance merge: name the reports folders to merge (conformance merge DIR… [--reports OUT])");
  const out = resolve(values.reports ?? "reports");
  const dirs = positionals.map((d) => resolve(d));
  if (dirs.includes(out)) throw new ConfigError(`conformance merge: --reports ${out} is also an input; write the merge to another folder`);
  const parts = dirs.map(readPart);
  const run = mergedRun(parts);
  const baseline = values.expectations === undefined ? undefined : loadBaseline(resolve(values.expectations));
  if (baseline?.target !== undefined && baseline.target !== run.target) {
    throw new ConfigError(`${baseline.file}: the baseline is for target "${baseline.target}", the merged runs are against "${run.target}"`);
  }

  const seen = new Map<string, string>();
  for (const part of parts) {
    for (const test of part.summary.tests) {
      const name = test.fullName ?? `${test.suite} > ${test.name}`;
      const other = seen.get(name);
      if (other) throw new ConfigError(`conformance merge: test "${name}" is in both ${other} and ${part.dir}: the parts overlap`);
      seen.set(name, part.dir);
    }
  }
  const summary = mergedSummary(parts, run);
  for (const old of ["allure-results", "allure-report", "summary.json", "conformance.json", "conformance.md"])
    rmSync(join(out, old), { recursive: true, force: true });
  mkdirSync(join(out, "allure-results"), { recursive: true });
  writeFileSync(join(out, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  for (const part of parts) copyAllureResults(join(part.dir, "allure-results"), join(out, "allure-results"));
  process.stdout.write(`merged ${parts.length} reports folders: ${summary.tests.length} tests\n`);
  return finishRun({ reportsDir: out, summary, run, github: process.env.GITHUB_ACTIONS === "true", ...(baseline ? { baseline } : {}) })
    .code;
}

function readPart(dir: string): Part {
  const read = <T>(file: string): T => {
    const path = join(dir, file);
    if (!existsSync(path))
      throw new ConfigError(`conformance merge: ${dir} has no ${file} (is it the reports folder of a conformance run?)`);
    try {
      return JSON.parse(readFileSync(path, "utf8")) as T;
    } catch (error) {
      throw new ConfigError(`conformance merge: ${path} is not valid JSON: ${(error as Error).message.split("\n")[0]}`);
    }
  };
  const summary = read<RunSummary>("summary.json");
  const report = read<ConformanceReport>("conformance.json");
  return { dir, summary, run: report.run };
}

function mergedRun(parts: Part[]): RunInfo {
  const first = parts[0]!.run;
  const same = (field: string, value: (r: RunInfo) => unknown) => {
    const wanted = JSON.stringify(value(first));
    const odd = parts.find((p) => JSON.stringify(value(p.run)) !== wanted);
    if (odd)
      throw new ConfigError(
        `conformance merge: ${odd.dir} differs in ${field} (${JSON.stringify(value(odd.run))}, not ${wanted}): only parts of one ` +
          `run can be merged`,
      );
  };
  same("target", (r) => r.target);
  same("profile (profileSha256)", (r) => r.profileSha256);
  same("suite version", (r) => r.suiteVersion);
  same("spec version", (r) => r.specVersion);
  same("seed (pass the same --seed to every shard)", (r) => r.seed);
  same("faults", (r) => [...r.faults].sort());
  same("test filter (--grep/--requirement)", (r) => r.scope.grep);
  const sharded = parts.filter((p) => p.run.scope.shards !== null);
  let shards: string[] | null = null;
  if (sharded.length > 0) {
    if (sharded.length !== parts.length)
      throw new ConfigError("conformance merge: some parts are shards and some are not: merge the shards of one run");
    same("suite selection", (r) => r.scope.suites);
    shards = parts.flatMap((p) => p.run.scope.shards!).sort();
    const duplicate = shards.find((s, i) => shards!.indexOf(s) !== i);
    if (duplicate) throw new ConfigError(`conformance merge: shard ${duplicate} is given twice`);
    if (!shardsComplete(shards)) {
      const count = Number(shards[0]!.split("/")[1]);
      const missing = Array.from({ length: count }, (_, i) => `${i + 1}/${count}`).filter((s) => !shards!.includes(s));
      throw new ConfigError(`conformance merge: shards ${missing.join(", ") || "of different counts"} missing (have ${shards.join(", ")})`);
    }
  }
  const suites = parts.some((p) => p.run.scope.suites === "all")
    ? "all"
    : [...new Set(parts.flatMap((p) => p.run.scope.suites as string[]))].sort();
  const times = parts.map((p) => p.run);
  return {
    ...first,
    startedAt: times.map((r) => r.startedAt).sort()[0]!,
    finishedAt: times
      .map((r) => r.finishedAt)
      .sort()
      .at(-1)!,
    scope: { suites, grep: first.scope.grep, shards },
  };
}

function mergedSummary(parts: Part[], run: RunInfo): RunSummary {
  const tests = parts.flatMap((p) => p.summary.tests);
  const count = (status: string) => tests.filter((t) => t.status === status).length;
  return {
    target: run.target,
    suiteVersion: run.suiteVersion,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationMs: Date.parse(run.finishedAt) - Date.parse(run.startedAt),
    seed: run.seed,
    // As summary-reporter.ts counts them: a test broken by transport is not a failure, and retries add up.
    totals: {
      passed: count("passed"),
      failed: count("failed") - tests.filter((t) => t.broken).length,
      skipped: count("skipped"),
      broken: tests.filter((t) => t.broken).length,
      retries: tests.reduce((sum, t) => sum + (t.retries ?? 0), 0),
    },
    errors: parts.flatMap((p) => p.summary.errors),
    tests,
  };
}

/** Result, container and attachment files have unique names; environment.properties is the same in every part. */
function copyAllureResults(from: string, to: string): void {
  if (!existsSync(from)) return;
  for (const file of readdirSync(from)) {
    if (file === "categories.json") continue; // rewritten for the merged run
    if (file === "environment.properties" && existsSync(join(to, file))) continue;
    copyFileSync(join(from, file), join(to, file));
  }
}

// A run split over CI machines (--shard I/N) and merged (`conformance merge`) gives the same totals,
// requirement results and verdict as one whole run. With a fault on, so the verdict has something to say.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ConformanceReport } from "../../report/conformance-types.js";
import type { RunSummary } from "../../report/reporters/summary-reporter.js";
import { spawnConformance, type SpawnedRun } from "../support/spawn-run.js";

const ARGS = ["run", "headers", "errors", "--fault", "cache-control-required", "--seed", "4242"];
const env = { GITHUB_ACTIONS: "false" };
const read = <T>(dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), "utf8")) as T;
const resultFiles = (dir: string) => readdirSync(join(dir, "allure-results")).filter((f) => f.endsWith("-result.json"));

let whole: SpawnedRun;
let shards: SpawnedRun[];
let merged: SpawnedRun;
let mergedDir: string;

beforeAll(async () => {
  shards = [];
  for (const shard of ["1/2", "2/2"]) shards.push(await spawnConformance([...ARGS, "--shard", shard], { env }));
  whole = await spawnConformance(ARGS, { env });
  mergedDir = join(shards[0]!.reportsDir, "..", `${shards[0]!.reportsDir.split("/").at(-1)}-merged`);
  merged = await spawnConformance(["merge", shards[0]!.reportsDir, shards[1]!.reportsDir, "--reports", mergedDir], { env });
}, 240_000);

describe("shards merged", () => {
  it("each shard runs part of the suite files and writes its own reports", () => {
    for (const shard of shards) {
      expect(shard.code, shard.stderr).toBe(shard.summary!.totals.failed > 0 ? 1 : 0);
      expect(read<ConformanceReport>(shard.reportsDir, "conformance.json").complete).toBe(false);
    }
    const suites = shards.map((s) => new Set(s.summary!.tests.map((t) => t.suite)));
    expect(
      suites.every((s) => s.size > 0),
      "both shards ran tests",
    ).toBe(true);
    expect(
      [...suites[0]!].filter((s) => suites[1]!.has(s)),
      "a suite file runs in one shard only",
    ).toEqual([]);
  });

  it("give the same totals, requirement results and verdict as the whole run, and the exit code of the whole run", () => {
    expect(merged.code, `${merged.stdout}\n${merged.stderr}`).toBe(whole.code);
    const one = read<ConformanceReport>(whole.reportsDir, "conformance.json");
    const two = read<ConformanceReport>(mergedDir, "conformance.json");
    expect(two.verdict).toBe("NOT CONFORMANT");
    expect(two.verdict).toBe(one.verdict);
    expect(two.totals).toEqual(one.totals);
    expect(two.levels).toEqual(one.levels);
    expect(two.requirements.map((r) => [r.id, r.status])).toEqual(one.requirements.map((r) => [r.id, r.status]));
    const outcomes = (r: ConformanceReport) => r.tests.map((t) => [t.name, t.outcome]);
    expect(outcomes(two)).toEqual(outcomes(one));
    expect(two.run.scope.shards).toEqual(["1/2", "2/2"]);
    expect(read<RunSummary>(mergedDir, "summary.json").totals).toEqual(whole.summary!.totals);
  });

  it("merge the Allure results and write conformance.md", () => {
    expect(resultFiles(mergedDir).length).toBe(resultFiles(shards[0]!.reportsDir).length + resultFiles(shards[1]!.reportsDir).length);
    expect(existsSync(join(mergedDir, "allure-results", "categories.json"))).toBe(true);
    expect(readFileSync(join(mergedDir, "conformance.md"), "utf8")).toMatch(/^## Banking API conformance: ❌ NOT CONFORMANT/);
  });

  it("a baseline applied at the merge gates the whole run", async () => {
    const file = join(mergedDir, "..", "merge-baseline.yaml");
    writeFileSync(file, "expectations:\n  - requirement: HDR-008\n    reason: Cache-Control required by the gateway\n");
    const out = `${mergedDir}-gated`;
    const gated = await spawnConformance(
      ["merge", shards[0]!.reportsDir, shards[1]!.reportsDir, "--reports", out, "--expectations", file],
      { env },
    );
    expect(gated.code, gated.stdout).toBe(0);
  });

  it("refuses a shard given twice, a missing shard, or parts of different runs (exit 2, one line)", async () => {
    const cases: [string[], RegExp][] = [
      [[shards[0]!.reportsDir, shards[0]!.reportsDir], /shard 1\/2 is given twice/],
      [[shards[1]!.reportsDir], /shards 1\/2 missing \(have 2\/2\)/],
      [[shards[0]!.reportsDir, whole.reportsDir], /some parts are shards and some are not/],
      [[shards[0]!.reportsDir, join(mergedDir, "nowhere")], /has no summary\.json/],
    ];
    for (const [dirs, pattern] of cases) {
      const run = await spawnConformance(["merge", ...dirs, "--reports", `${mergedDir}-refused`], { env, timeoutMs: 30_000 });
      expect(run.code, run.stdout).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(pattern);
    }
  });
});

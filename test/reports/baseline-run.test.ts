// CI gates on regressions only: `conformance run --expectations FILE` against the reference with two
// faults on (HDR-003 request id not echoed, HDR-008 Cache-Control required) and baselines listing
// one, both, or stale entries. The runs use the headers suite: a few seconds each.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "../../report/conformance-types.js";
import { spawnConformance } from "../support/spawn-run.js";

const FAULTS = ["--fault", "request-id-not-echoed", "--fault", "cache-control-required"];
const dir = mkdtempSync(join(tmpdir(), "baseline-run-"));
// Annotations are tested on their own; keep them out of these runs (and out of this project's own CI).
const env = { GITHUB_ACTIONS: "false" };

function baseline(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const conformance = (reportsDir: string) => JSON.parse(readFileSync(join(reportsDir, "conformance.json"), "utf8")) as ConformanceReport;
/** The ✗ lines the console prints for the failures that fail the run. */
const failureLines = (stdout: string) => stdout.split("\n").filter((l) => l.startsWith("  ✗"));

describe("a run judged against an expectation baseline", () => {
  let updated = "";

  it("with one of two faults in the baseline, exits 1 naming only the other", async () => {
    const file = baseline(
      "one.yaml",
      "target: reference\nexpectations:\n  - requirement: HDR-003\n    reason: request id echo not implemented (ticket 12)\n",
    );
    const run = await spawnConformance(["run", "headers", ...FAULTS, "--expectations", file], { env });
    expect(run.code, run.stderr).toBe(1);
    const lines = failureLines(run.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/HDR-008/);
    expect(run.stdout).toMatch(/New failures \(not in the baseline\):/);
    expect(run.stdout).toMatch(/· headers > .*HDR-003.*\(request id echo not implemented \(ticket 12\)\)/);
    const e = conformance(run.reportsDir).expectations!;
    expect(e.newFailures).toHaveLength(1);
    expect(e.newFailures[0]).toMatch(/HDR-008/);
    expect(e.expected.map((x) => x.test).join()).toMatch(/HDR-003/);
    expect(conformance(run.reportsDir).verdict, "the baseline changes the exit code, never the verdict").toBe("NOT CONFORMANT");

    // `expectations update` turns this run into a baseline that lists both (keeping the HDR-003 entry).
    updated = join(dir, "updated.yaml");
    writeFileSync(updated, readFileSync(file));
    const update = await spawnConformance(
      ["expectations", "update", "--target", "reference", "--reports", run.reportsDir, "--file", updated],
      { env },
    );
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(/2 entries \(1 kept, 1 added, 0 removed\)/);
  });

  it("with both faults in the baseline, exits 0", async () => {
    const run = await spawnConformance(["run", "headers", ...FAULTS, "--expectations", updated], { env });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(failureLines(run.stdout)).toEqual([]);
    expect(run.stdout).toMatch(/baseline .*: 0 new failures, \d+ expected, 0 unexpected passes, 0 expired: no regressions/);
  });

  it("with a fault switched off, its baseline entry is an unexpected pass and the run exits 1", async () => {
    const run = await spawnConformance(["run", "headers", "--fault", "request-id-not-echoed", "--expectations", updated], { env });
    expect(run.code).toBe(1);
    expect(failureLines(run.stdout)).toEqual([
      expect.stringMatching(/^ {2}✗ unexpected pass: test "headers > .*HDR-008.*" now passes: remove it from the baseline$/),
    ]);
  });

  it("an expired entry fails the run, and its failure counts as new again", async () => {
    const file = baseline(
      "expired.yaml",
      "expectations:\n  - requirement: HDR-003\n    reason: promised for spring\n    until: 2000-03-31\n",
    );
    const run = await spawnConformance(["run", "headers", "--fault", "request-id-not-echoed", "--expectations", file], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ expired: requirement HDR-003 \(until 2000-03-31; promised for spring\)/);
    const report = conformance(run.reportsDir);
    const again = report.expectations!.newFailures;
    expect(again.length).toBeGreaterThan(0);
    for (const name of again) expect(report.tests.find((t) => t.name === name)?.blamed, name).toContain("HDR-003");
  });

  it("a bad baseline, one for another target, or a baseline with --shard exits 2 with one line before anything runs", async () => {
    const cases: [string[], RegExp][] = [
      [
        ["--expectations", baseline("bad.yaml", "expectations:\n  - requirement: HDR-003\n")],
        /bad\.yaml: expectations\[0\]: field "reason" is missing/,
      ],
      [
        ["--expectations", baseline("other.yaml", "target: vendor-x\nexpectations: []\n")],
        /the baseline is for target "vendor-x", this run is against "reference"/,
      ],
      [["--expectations", join(dir, "absent.yaml")], /absent\.yaml: cannot read the expectations file \(no such file\)/],
      [["--expectations", updated, "--shard", "1/2"], /--expectations judges a whole run: apply it when merging the shards/],
      [["--shard", "3/2"], /--shard expects I\/N with 1 <= I <= N/],
    ];
    for (const [args, pattern] of cases) {
      const run = await spawnConformance(["run", "headers", ...args], { env, timeoutMs: 30_000 });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(pattern);
      expect(run.summary, "nothing ran").toBeUndefined();
    }
  });
});

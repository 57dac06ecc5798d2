// A vendor without a test-user factory (provisioning: none) gives what it can instead: a second user's key, two spare
// keys and allowDestructive: true (the embedded profile reference-shared makes those itself). The suite then checks all
// but what only a factory allows, on the users' own data, says beforehand what it would use up (--plan) and lists what
// it did use up; every reference fault whose requirement that setup checks is caught.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLANNED_CONSUMPTION } from "../../harness/consumption.js";
import type { ConformanceReport } from "../../report/conformance-types.js";
import type { KillMatrix } from "../../report/kill-matrix.js";
import { spawnConformance } from "../support/spawn-run.js";

describe("certifying a server without a test-user factory", () => {
  it("checks all but at most 5 requirements, passes the conformant reference, and lists what it used up within the plan", async () => {
    const run = await spawnConformance(["run", "--target", "reference-shared"], { timeoutMs: 300_000 });
    const failures = run.summary!.tests.filter((t) => t.status === "failed").map((t) => `${t.name}: ${t.message}`);
    expect(failures).toEqual([]);
    const report = JSON.parse(readFileSync(join(run.reportsDir, "conformance.json"), "utf8")) as ConformanceReport;
    const unchecked = report.requirements.filter((r) => r.status === "skipped" && !r.notApplicable).map((r) => r.id);
    expect(unchecked.length, `requirements not checked: ${unchecked.join(", ")}`).toBeLessThanOrEqual(5);
    expect(report.uncheckedByField?.flatMap((g) => g.requirements).sort()).toEqual(unchecked.sort());
    // What was used up, per requirement a consuming check leads with, stays within what --plan announces.
    const used = new Map<string, number>();
    for (const test of run.summary!.tests)
      for (const c of test.consumed ?? [])
        used.set(`${test.requirements[0]} ${c.kind}`, (used.get(`${test.requirements[0]} ${c.kind}`) ?? 0) + 1);
    expect(used.size, "the run used up nothing of the users' own data").toBeGreaterThan(0);
    for (const [key, count] of used) {
      const [id, ...kind] = key.split(" ");
      const planned = PLANNED_CONSUMPTION[id!];
      expect(planned, `${id} uses up ${kind.join(" ")} but PLANNED_CONSUMPTION has no entry for it`).toBeDefined();
      expect(planned!.kind).toBe(kind.join(" "));
      expect(count, `${id}: used up ${count}, planned at most ${planned!.upTo}`).toBeLessThanOrEqual(planned!.upTo);
    }
    const markdown = readFileSync(join(run.reportsDir, "conformance.md"), "utf8");
    expect(markdown).toContain("### Consumed from the target");
    expect(markdown).toMatch(/\| card made permanent \| \d+ \|/);
  }, 320_000);

  it("--plan says what a run would use up and sends nothing", async () => {
    const run = await spawnConformance(["run", "--plan", "--target", "reference-shared"]);
    expect(run.code, run.stderr).toBe(0);
    for (const kind of ["card made permanent", "card replaced", "spare key used up", "share invite answered"])
      expect(run.stdout).toMatch(new RegExp(`${kind}: up to \\d+`));
    expect(run.stdout).toContain("(nothing is sent)");
    // Nothing ran: no summary, no exchanges.
    expect(existsSync(join(run.reportsDir, "summary.json"))).toBe(false);
    expect(existsSync(join(run.reportsDir, "exchanges.ndjson"))).toBe(false);
    const fresh = await spawnConformance(["run", "--plan", "--target", "reference"]);
    expect(fresh.stdout).toMatch(/fresh users' data only/);
  });

  it(
    "catches every reference fault whose requirement this setup checks",
    async () => {
      const reports = mkdtempSync(join(tmpdir(), "no-factory-matrix-"));
      const args = ["kill-matrix", "--only", "faults", "--no-clean", "--target", "reference-shared", "--reports", reports];
      const run = await spawnConformance(args, { timeoutMs: 20 * 60_000 });
      const matrix = JSON.parse(readFileSync(join(reports, "kill-matrix.json"), "utf8")) as KillMatrix;
      const survived = matrix.verdicts.filter((v) => !v.killed && !v.notChecked).map((v) => `${v.fault} (${v.requirement}): ${v.note}`);
      expect(matrix.verdicts.length).toBeGreaterThan(100);
      expect(survived).toEqual([]);
      expect(run.code, run.stdout.slice(-2000)).toBe(0);
    },
    21 * 60_000,
  );
});

// The whole conformance suite against the clean embedded reference: zero failures, every report written.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnConformance } from "./support/spawn-run.js";

describe("the conformance suite against the clean reference", () => {
  it("passes with zero failures and writes allure-results, junit.xml and summary.json", async () => {
    const run = await spawnConformance(["run"]);
    expect(run.summary, `no summary.json; stderr: ${run.stderr.slice(-2000)}`).toBeDefined();
    const failures = run.summary!.tests.filter((t) => t.status === "failed").map((t) => `${t.name}: ${t.message}`);
    expect(failures).toEqual([]);
    expect(run.summary!.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.summary!.totals.passed).toBeGreaterThan(0);
    expect(run.summary!.tests.every((t) => t.requirements.length > 0)).toBe(true);
    expect(readdirSync(join(run.reportsDir, "allure-results")).some((f) => f.endsWith("-result.json"))).toBe(true);
    expect(readFileSync(join(run.reportsDir, "junit.xml"), "utf8")).toContain("<testsuites");
    expect(existsSync(join(run.reportsDir, "summary.json"))).toBe(true);
    expect(run.stdout).toMatch(/conformance: \d+ passed, 0 failed/);
  });
});

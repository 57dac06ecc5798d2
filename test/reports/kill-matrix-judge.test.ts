// How the kill matrix judges legal variants run in groups (report/kill-matrix.ts), on hand-made summaries.
import { describe, expect, it } from "vitest";
import { judge } from "../../report/kill-matrix.js";
import type { RunSummary, TestSummary } from "../../report/reporters/summary-reporter.js";
import { variantProject } from "../../faults/variant-groups.js";
import type { VariantSpec } from "../../faults/variant-spec.js";

const variant = (name: string): VariantSpec => ({ name, description: `${name} does something else`, allowedBy: "GAP-1" });
const a = variant("variant-a");
const b = variant("variant-b");

function run(project: string, status: TestSummary["status"], name = "HDR-001 a check"): TestSummary {
  return {
    project,
    suite: "headers",
    name,
    status,
    requirements: ["HDR-001"],
    durationMs: 1,
    ...(status === "failed" ? { message: "HDR-001: expected 200, got 400" } : {}),
  };
}

function summary(tests: TestSummary[]): RunSummary {
  return {
    target: "t",
    suiteVersion: "0",
    startedAt: "",
    durationMs: 1,
    seed: 1,
    totals: { passed: 0, failed: 0, skipped: 0 },
    errors: [],
    tests,
  };
}

const group = variantProject([a.name, b.name]);
/** What the run plan says each variant project ran. */
const ran = new Map([
  [group, [a.name, b.name]],
  [variantProject([a.name]), [a.name]],
  [variantProject([b.name]), [b.name]],
]);

describe("kill matrix: legal variants judged in groups", () => {
  it("a group that passed clears each member, beside the others", () => {
    const matrix = judge([], summary([run(group, "passed"), run(group, "skipped", "HDR-002 another")]), 1, [a, b], ran);
    expect(matrix.variants.map((v) => [v.variant, v.passed, v.tests, v.skipped, v.clearedWith])).toEqual([
      ["variant-a", true, 2, 1, ["variant-b"]],
      ["variant-b", true, 2, 1, ["variant-a"]],
    ]);
    expect(matrix.groupFailures).toEqual([]);
  });

  it("a failed group: each member is judged on its own run, and only the one that fails alone is flagged", () => {
    const matrix = judge(
      [],
      summary([run(group, "failed"), run(variantProject([a.name]), "passed"), run(variantProject([b.name]), "failed")]),
      1,
      [a, b],
      ran,
    );
    expect(matrix.variants.map((v) => [v.variant, v.passed, v.clearedWith])).toEqual([
      ["variant-a", true, undefined],
      ["variant-b", false, undefined],
    ]);
    expect(matrix.variants[1]!.failures).toEqual(["[headers] HDR-001 a check: HDR-001: expected 200, got 400"]);
    expect(matrix.groupFailures).toEqual([]);
  });

  it("a group that fails while every member passes alone is a failure of its own (the suite refuses the combination)", () => {
    const matrix = judge(
      [],
      summary([run(group, "failed"), run(variantProject([a.name]), "passed"), run(variantProject([b.name]), "passed")]),
      1,
      [a, b],
      ran,
    );
    expect(matrix.variants.every((v) => v.passed)).toBe(true);
    expect(matrix.groupFailures).toEqual([
      { variants: ["variant-a", "variant-b"], failures: ["[headers] HDR-001 a check: HDR-001: expected 200, got 400"] },
    ]);
  });

  it("a variant whose group never ran is no pass", () => {
    const matrix = judge([], summary([]), 1, [a], ran);
    expect(matrix.variants[0]).toMatchObject({ variant: "variant-a", passed: false, tests: 0 });
  });
});

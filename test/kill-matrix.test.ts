// The suite proves itself: with each reference fault on, some test naming the requirement the
// fault breaks must fail; against the reference with each legal variant on (a behaviour the
// specification allows), nothing may fail. One child process runs the whole matrix (one vitest
// project for every fault run, one per group of variants); the verdicts land in reports/kill-matrix.{md,json}.
// The clean reference is test/reference-clean.test.ts's run, so the matrix here leaves it out.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { KillMatrix } from "../report/kill-matrix.js";
import { PROJECT_ROOT, spawnConformance } from "./support/spawn-run.js";
import { faultCatalogue, variantCatalogue } from "../faults/catalogue.js";

const faults = faultCatalogue();
const variants = variantCatalogue();
let matrix: KillMatrix;
let output = "";

beforeAll(async () => {
  const reportsDir = join(PROJECT_ROOT, "reports");
  // The whole matrix on 2 cores next to the other self-tests: minutes, not seconds (README: what a run costs).
  const run = await spawnConformance(["kill-matrix", "--no-clean", "--reports", reportsDir], { timeoutMs: 45 * 60_000 });
  output = `${run.stdout}\n${run.stderr}`.slice(-4000);
  matrix = JSON.parse(readFileSync(join(reportsDir, "kill-matrix.json"), "utf8")) as KillMatrix;
}, 46 * 60_000);

describe("kill matrix", () => {
  it("no group of legal variants fails together while each of its members passes alone", () => {
    expect(matrix.groupFailures, output).toEqual([]);
  });

  it("every fault names a known requirement and at least one suite", () => {
    for (const fault of faults) {
      expect(fault.requirement, fault.name).toMatch(/^[A-Z]+-\d{3}$/);
      expect(fault.suites.length, fault.name).toBeGreaterThan(0);
    }
    expect(new Set(faults.map((f) => f.name)).size, "fault names are unique").toBe(faults.length);
  });

  for (const variant of variants) {
    it(`legal variant ${variant.name} (${variant.allowedBy}): the whole suite passes`, () => {
      const verdict = matrix.variants.find((v) => v.variant === variant.name);
      expect(verdict, `no verdict for variant ${variant.name}`).toBeDefined();
      expect(verdict!.tests, `no test ran with ${variant.name} on`).toBeGreaterThan(0);
      expect(verdict!.failures, `${variant.name} (${variant.description}): the suite failed a conformant behaviour`).toEqual([]);
    });
  }

  for (const fault of faults) {
    it(`${fault.name} is caught by a test naming ${fault.requirement}`, () => {
      const verdict = matrix.verdicts.find((v) => v.fault === fault.name);
      expect(verdict, `no verdict for ${fault.name}`).toBeDefined();
      expect(verdict!.killed, `${fault.name} (${fault.description}) survived: ${verdict!.note ?? ""}`).toBe(true);
    });
  }
});

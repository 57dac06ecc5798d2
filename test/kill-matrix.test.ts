// The suite proves itself: with each reference fault on, some test naming the requirement the
// fault breaks must fail; against the clean reference, nothing may fail. One child process runs the
// whole matrix (one vitest project per fault); the verdicts land in reports/kill-matrix.{md,json}.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { KillMatrix } from "../harness/kill-matrix.js";
import { PROJECT_ROOT, spawnConformance } from "../harness/spawn-run.js";
import { faultCatalogue } from "../reference/server.js";

const faults = faultCatalogue();
let matrix: KillMatrix;
let output = "";

beforeAll(async () => {
  const reportsDir = join(PROJECT_ROOT, "reports");
  const run = await spawnConformance(["kill-matrix", "--reports", reportsDir], { timeoutMs: 15 * 60_000 });
  output = `${run.stdout}\n${run.stderr}`.slice(-4000);
  matrix = JSON.parse(readFileSync(join(reportsDir, "kill-matrix.json"), "utf8")) as KillMatrix;
}, 16 * 60_000);

describe("kill matrix", () => {
  it("the clean reference passes every check in the same run", () => {
    expect(matrix.cleanFailures, output).toEqual([]);
  });

  it("every fault names a known requirement and at least one suite", () => {
    for (const fault of faults) {
      expect(fault.requirement, fault.name).toMatch(/^[A-Z]+-\d{3}$/);
      expect(fault.suites.length, fault.name).toBeGreaterThan(0);
    }
    expect(new Set(faults.map((f) => f.name)).size, "fault names are unique").toBe(faults.length);
  });

  for (const fault of faults) {
    it(`${fault.name} is caught by a test naming ${fault.requirement}`, () => {
      const verdict = matrix.verdicts.find((v) => v.fault === fault.name);
      expect(verdict, `no verdict for ${fault.name}`).toBeDefined();
      expect(verdict!.killed, `${fault.name} (${fault.description}) survived: ${verdict!.note ?? ""}`).toBe(true);
    });
  }
});

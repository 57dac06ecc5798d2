// The suite proves itself: every reference fault must make a run fail on a test that names the
// requirement the fault breaks. One child run per fault, two at a time (CI has 2 cores).
import { afterAll, describe, expect, it } from "vitest";
import { faultCatalogue } from "../reference/server.js";
import { runFault, writeKillMatrix, type FaultVerdict } from "../harness/kill-matrix.js";
import { PROJECT_ROOT } from "../harness/spawn-run.js";
import { join } from "node:path";

const faults = faultCatalogue();
const verdicts: FaultVerdict[] = [];
const started = Date.now();

// A small gate keeps two child runs going at once, however many tests vitest starts together.
let running = 0;
const waiting: (() => void)[] = [];
async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

describe.concurrent("kill matrix: each reference fault is caught by a test naming its requirement", () => {
  for (const fault of faults) {
    it(`${fault.name} (${fault.requirement})`, async () => {
      const verdict = await gated(() => runFault(fault));
      verdicts.push(verdict);
      expect(verdict.killed, `${fault.name} breaks ${fault.requirement}: ${verdict.note ?? ""}`).toBe(true);
    });
  }
});

afterAll(() => {
  writeKillMatrix(join(PROJECT_ROOT, "reports"), verdicts.sort((a, b) => a.fault.localeCompare(b.fault)), Date.now() - started);
});

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FaultSpec } from "../reference/faults.js";
import { spawnConformance, type SpawnedRun } from "./spawn-run.js";

export interface FaultVerdict {
  fault: string;
  requirement: string;
  description: string;
  suites: string[];
  /** The run failed and at least one failing test names the fault's requirement. */
  killed: boolean;
  exitCode: number | null;
  /** Failing tests that name the requirement. */
  caughtBy: string[];
  /** Other failing tests (collateral: the fault also broke checks of other requirements). */
  alsoFailed: string[];
  durationMs: number;
  /** Why a fault survived, in words. */
  note?: string;
}

/** Runs the suites that can see one fault against the reference with that fault on. */
export async function runFault(fault: FaultSpec, extraArgs: string[] = []): Promise<FaultVerdict> {
  const run: SpawnedRun = await spawnConformance(["run", ...fault.suites, "--fault", fault.name, ...extraArgs]);
  const failed = run.summary?.tests.filter((t) => t.status === "failed") ?? [];
  const caughtBy = failed.filter((t) => t.requirements.includes(fault.requirement)).map((t) => `[${t.suite}] ${t.name}`);
  const killed = run.code === 1 && caughtBy.length > 0;
  const note = killed
    ? undefined
    : !run.summary
      ? `no summary written (exit ${run.code}): ${run.stderr.trim().split("\n").slice(-3).join(" / ")}`
      : failed.length === 0
        ? "every check passed with the fault on"
        : `failures did not name ${fault.requirement}: ${failed.map((t) => t.name).join("; ")}`;
  return {
    fault: fault.name,
    requirement: fault.requirement,
    description: fault.description,
    suites: fault.suites,
    killed,
    exitCode: run.code,
    caughtBy,
    alsoFailed: failed.filter((t) => !t.requirements.includes(fault.requirement)).map((t) => `[${t.suite}] ${t.name}`),
    durationMs: run.durationMs,
    ...(note ? { note } : {}),
  };
}

/** Runs many faults, `parallel` at a time. */
export async function runFaults(faults: FaultSpec[], parallel = 2, onVerdict?: (v: FaultVerdict) => void): Promise<FaultVerdict[]> {
  const verdicts: FaultVerdict[] = [];
  const queue = [...faults];
  await Promise.all(
    Array.from({ length: Math.max(1, parallel) }, async () => {
      for (let fault = queue.shift(); fault; fault = queue.shift()) {
        const verdict = await runFault(fault);
        verdicts.push(verdict);
        onVerdict?.(verdict);
      }
    }),
  );
  return verdicts.sort((a, b) => a.fault.localeCompare(b.fault));
}

export function writeKillMatrix(reportsDir: string, verdicts: FaultVerdict[], wallMs: number): void {
  mkdirSync(reportsDir, { recursive: true });
  const killed = verdicts.filter((v) => v.killed).length;
  const rate = verdicts.length === 0 ? 1 : killed / verdicts.length;
  writeFileSync(join(reportsDir, "kill-matrix.json"), `${JSON.stringify({ faults: verdicts.length, killed, killRate: rate, wallMs, verdicts }, null, 2)}\n`);
  const lines = [
    "# Kill matrix",
    "",
    `${killed} of ${verdicts.length} reference faults caught (${(rate * 100).toFixed(1)} %), wall time ${(wallMs / 1000).toFixed(1)} s.`,
    "",
    "| fault | requirement | caught | caught by |",
    "| --- | --- | --- | --- |",
    ...verdicts.map((v) => `| \`${v.fault}\` | ${v.requirement} | ${v.killed ? "yes" : "**no**"} | ${v.killed ? v.caughtBy.map((c) => c.replace(/\|/g, "\\|")).join("<br>") : (v.note ?? "").replace(/\|/g, "\\|")} |`),
    "",
  ];
  const survivors = verdicts.filter((v) => !v.killed);
  if (survivors.length > 0) lines.push("## Surviving faults", "", ...survivors.map((v) => `- \`${v.fault}\` (${v.requirement}): ${v.note}`), "");
  writeFileSync(join(reportsDir, "kill-matrix.md"), lines.join("\n"));
}

// Runs the suite (in a child process, like a vendor would) against the reference server started here,
// directly or through the chaos proxy, with a temporary targets file whose baseUrl is the one to aim at.
import type { SpawnedRun } from "../support/spawn-run.js";
import { startReferenceServer, type RunningReference } from "../../reference/server.js";
import { runAgainst, tempDir, writeTargets } from "../hostile/support.js";
import { startChaosProxy, type ChaosOptions, type ChaosProxy } from "./chaos-proxy.js";

export interface ChaosRun {
  run: SpawnedRun;
  proxy?: ChaosProxy["stats"];
}

/** The profile of the embedded reference (targets.yaml "reference"), aimed at a server started by hand. */
function profileFor(reference: RunningReference, baseUrl: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    baseUrl,
    apiKey: reference.apiKey,
    provisioning: "sandbox-user",
    sourceAddresses: ["127.0.0.1", "127.0.0.2"],
    allowDestructive: true,
    capabilities: { ideal: true, pdfAttachments: true },
    encryption: true,
    seed: 20261122,
    fixtures: reference.fixtures,
    ...extra,
  };
}

/** One run of `suites` (all when empty) against a fresh reference: through the chaos proxy when `chaos` is given. */
export async function runReference(options: {
  suites?: string[];
  chaos?: ChaosOptions;
  profile?: Record<string, unknown>;
  timeoutMs?: number;
}): Promise<ChaosRun> {
  const reference = await startReferenceServer();
  const proxy = options.chaos ? await startChaosProxy(reference.baseUrl, options.chaos) : undefined;
  try {
    const targets = writeTargets(tempDir("chaos-targets"), {
      staging: profileFor(reference, proxy?.baseUrl ?? reference.baseUrl, options.profile ?? {}),
    });
    const run = await runAgainst(targets, "staging", options.suites ?? [], { timeoutMs: options.timeoutMs ?? 300_000 });
    return { run, ...(proxy ? { proxy: proxy.stats } : {}) };
  } finally {
    await proxy?.close();
    await reference.close();
  }
}

/** Failing tests of a run, "[suite] name: first line of the message". */
export function failures(run: SpawnedRun): string[] {
  return (run.summary?.tests ?? [])
    .filter((t) => t.status === "failed")
    .map((t) => `[${t.suite}] ${t.name}${t.broken ? " (broken: transport)" : ""}: ${(t.message ?? "").split("\n")[0]}`);
}

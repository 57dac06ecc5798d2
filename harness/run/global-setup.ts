import type { TestProject } from "vitest/node";
import { availableParallelism } from "node:os";
import { sharedKeyPair } from "../session/keys.js";
import "./provided.js";
import type { FaultRuns } from "./fault-run.js";
import { bootstrapRun } from "./bootstrap-run.js";
import { projectPlan, runPlan } from "./run-plan.js";

/**
 * Once per project: start the embedded reference when the profile asks for it, open the primary user's session
 * (and the second user's), and provide them to every test file (harness/run/bootstrap-run.ts). The kill matrix's
 * fault-run project gets each fault's profile instead: its files start their own servers (harness/run/fault-run.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // What this project runs, from the run plan (harness/run/run-plan.ts): its profile, resolved once by the CLI. A
  // kill-matrix legal-variant project runs against its own reference server with its variants on.
  const plan = runPlan();
  const { profile: base, variants, faultRuns } = projectPlan(plan, project.name);
  // Kill-matrix projects make fewer property runs (the seed stays the profile's). fast-check draws the same runs
  // in the same order for a seed, so the first ten are a prefix of the default 25: a fault caught here is caught
  // by a default run too. (A variant is cleared on those ten runs only: tolerance, not depth.)
  const propertyRuns = Math.min(base.propertyRuns, KILL_MATRIX_PROPERTY_RUNS);
  const seed = base.seed ?? Math.floor(Math.random() * 2 ** 31);
  // Each test worker paces its own client: they share the profile's rate evenly.
  const workers = project.globalConfig.maxWorkers || Math.max(availableParallelism() - 1, 1);
  const clientKey = await sharedKeyPair();
  if (faultRuns) {
    const runs: FaultRuns = { profiles: {}, seed, clientKey, reportsDir: plan.reportsDir, workers };
    for (const r of faultRuns) runs.profiles[r.fault] = { ...r.profile, embedded: true, faults: [r.fault], propertyRuns };
    project.provide("faultRuns", runs);
    return async () => {};
  }
  const profile = variants ? { ...base, embedded: true, variants, propertyRuns } : base;
  const { run, stop } = await bootstrapRun(profile, {
    seed,
    clientKey,
    reportsDir: plan.reportsDir,
    workers,
    // The legal-variant projects of the kill matrix would log hundreds of runs into one file.
    logExchanges: !variants,
  });
  project.provide("conformance", run);
  return stop;
}

/** Property runs in a fault run or legal-variant project of the kill matrix (the clean project keeps the profile's). */
const KILL_MATRIX_PROPERTY_RUNS = 10;

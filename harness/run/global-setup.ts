import type { TestProject } from "vitest/node";
import { availableParallelism } from "node:os";
import { sharedKeyPair } from "../session/keys.js";
import "./provided.js";
import type { MatrixRuns } from "./matrix-run.js";
import { projectPlan, runPlan } from "./run-plan.js";

/**
 * Once per project: start the embedded reference when the profile asks for it, open the primary user's session
 * (and the second user's), and provide them to every test file (harness/run/bootstrap-run.ts). A kill-matrix project
 * of runs gets each run's profile instead: its files start their own servers (harness/run/matrix-run.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // What this project runs, from the run plan (harness/run/run-plan.ts): its profile, resolved once by the CLI.
  const plan = runPlan();
  const { profile, matrixRuns, bootstrapped } = projectPlan(plan, project.name);
  // The CLI bootstrapped the target while vitest loaded, and stops it itself.
  if (bootstrapped) {
    project.provide("conformance", (await bootstrapped).run);
    return async () => {};
  }
  const seed = profile.seed ?? Math.floor(Math.random() * 2 ** 31);
  // Each test worker paces its own client: they share the profile's rate evenly.
  const workers = project.globalConfig.maxWorkers || Math.max(availableParallelism() - 1, 1);
  const clientKey = await sharedKeyPair();
  if (matrixRuns) {
    const profiles = Object.fromEntries(matrixRuns.map((r) => [r.label, r.profile]));
    project.provide("matrixRuns", { profiles, seed, clientKey, reportsDir: plan.reportsDir, workers } satisfies MatrixRuns);
    return async () => {};
  }
  // Loaded only here: through vite, the bootstrap's modules (the reference server's among them) take a second to load.
  const { bootstrapRun } = await import("./bootstrap-run.js");
  const { run, stop } = await bootstrapRun(profile, { seed, clientKey, reportsDir: plan.reportsDir, workers, logExchanges: true });
  project.provide("conformance", run);
  return stop;
}

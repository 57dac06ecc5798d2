import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { afterAll, describe, inject } from "vitest";
import { SUITES_DIR } from "../../catalogue/test-titles.js";
import type { TargetProfile } from "../profile/profile.js";
import { useSharedKeyPair, type KeyPair } from "../session/keys.js";
import { bootstrapRun } from "./bootstrap-run.js";
import { collectingFor, releaseTarget } from "./target.js";

/** What a kill-matrix project of runs hands its files (harness/run/global-setup.ts). */
export interface MatrixRuns {
  /** Each run's reference, by label ("fault:<name>", "variant:<name>+…"): its fault or its legal variants on. */
  profiles: Record<string, TargetProfile>;
  seed: number;
  clientKey: KeyPair;
  reportsDir: string;
  workers: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    matrixRuns: MatrixRuns;
  }
}

/**
 * How often this worker has loaded each suite: the query that makes vitest evaluate a suite afresh counts its loads in
 * the worker (`?run=3`), rather than naming the run. Workers then ask for the same few URLs, and vite transforms each
 * URL once for all of them: with a URL per run, transforming the suites again was most of the CLI thread's work.
 */
const loads = new Map<string, number>();

/**
 * One run of the kill matrix, called by the test file generated for it (cli/commands/kill-matrix.ts): a reference
 * server with one fault (or a group of legal variants) on, started in this test worker, and one suite's checks aimed
 * at it.
 *
 * The worker goes from run to run (one vitest project for all fault runs, one for all variant runs), so undici, ajv,
 * fast-check and the harness load once per worker, not once per run: vitest never shares a worker between projects,
 * and a project per fault started workers for each. The suite is imported under a query new to this worker, so each run
 * evaluates it afresh and registers its tests in this file, under a describe named by the label (the kill matrix's
 * test-name pattern picks a fault's tests by it); its checks call useTarget() as they load, and get this run's target
 * (harness/run/target.ts).
 */
export async function runMatrixSuite(label: string, suite: string): Promise<void> {
  const runs = inject("matrixRuns");
  const profile = runs.profiles[label];
  if (!profile) throw new Error(`the kill matrix planned no run "${label}"`);
  // The run's one client key (made in the CLI's process): the bootstrap installs it, and signs with it.
  useSharedKeyPair(runs.clientKey);
  const { run, stop } = await bootstrapRun(profile, {
    seed: runs.seed,
    clientKey: runs.clientKey,
    reportsDir: runs.reportsDir,
    workers: runs.workers,
    logExchanges: false,
  });
  afterAll(async () => {
    await releaseTarget(run.profile.baseUrl);
    await stop();
  });
  const load = (loads.get(suite) ?? 0) + 1;
  loads.set(suite, load);
  const url = `${pathToFileURL(join(SUITES_DIR, `${suite}.test.ts`)).href}?run=${load}`;
  describe(label, async () => {
    await collectingFor(run, () => import(/* @vite-ignore */ url));
  });
}

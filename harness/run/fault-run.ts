import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { afterAll, describe, inject } from "vitest";
import { SUITES_DIR } from "../../catalogue/test-titles.js";
import type { TargetProfile } from "../profile/profile.js";
import { useSharedKeyPair, type KeyPair } from "../session/keys.js";
import { bootstrapRun } from "./bootstrap-run.js";
import { collectingFor, releaseTarget } from "./target.js";
import { faultProject } from "./run-plan.js";

/** What the kill matrix's fault-run project hands its files (harness/run/global-setup.ts). */
export interface FaultRuns {
  /** Each fault's profile: the reference with that one fault on (its own target profile where it names one). */
  profiles: Record<string, TargetProfile>;
  seed: number;
  clientKey: KeyPair;
  reportsDir: string;
  workers: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    faultRuns: FaultRuns;
  }
}

/**
 * One fault run of the kill matrix, called by the test file generated for it (cli/commands/kill-matrix.ts): a
 * reference server with the fault on, started in this test worker, and one suite's checks aimed at it.
 *
 * The worker runs fault after fault (one vitest project for all of them), so undici, ajv, fast-check and the
 * harness load once per worker, not once per fault: a project per fault started a worker for each. The suite is
 * imported under a query of its own (`?fault=<name>`), so each run evaluates it afresh and registers its tests in
 * this file, under a describe named for the fault; its checks call useTarget() as they load, and get this run's
 * target (harness/run/target.ts).
 */
export async function runFaultSuite(fault: string, suite: string): Promise<void> {
  const runs = inject("faultRuns");
  const profile = runs.profiles[fault];
  if (!profile) throw new Error(`the kill matrix planned no run for fault "${fault}"`);
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
  const url = `${pathToFileURL(join(SUITES_DIR, `${suite}.test.ts`)).href}?fault=${encodeURIComponent(fault)}`;
  // Inside a describe named for the fault: the kill matrix's test-name pattern picks each fault's tests by it.
  describe(faultProject(fault), async () => {
    await collectingFor(run, () => import(/* @vite-ignore */ url));
  });
}

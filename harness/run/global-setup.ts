import type { TestProject } from "vitest/node";
import { availableParallelism } from "node:os";
import { HttpClient } from "../http/client.js";
import { discoverFixtures } from "../session/fixtures-discovery.js";
import { profileClientOptions } from "../http/client-options.js";
import { sharedKeyPair } from "../session/keys.js";
import type { ConformanceRun } from "./provided.js";
import "./provided.js";
import { redactText } from "../redact.js";
import { projectPlan, runPlan } from "./run-plan.js";
import { openSession, provisionUser, type Session } from "../session/session.js";
import type { TargetProfile } from "../profile/profile.js";
import { transportErrorIn } from "../http/transport-error.js";

/**
 * Once per run: start the embedded reference when the profile asks for it, open the primary user's
 * session (and the second user's), and provide them to every test file. A failed bootstrap does not
 * abort the run: it is handed on, so every check fails with its reason and the reports are still written.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // What this project runs, from the run plan (harness/run/run-plan.ts): its profile, resolved once by the CLI. A
  // kill-matrix fault project runs against its own reference server with that one fault on, built from the fault's
  // own target profile where it names one (FaultSpec.target); a variant project with its legal variants on.
  const plan = runPlan();
  const { profile: base, fault, variants } = projectPlan(plan, project.name);
  // Kill-matrix projects make fewer property runs (the seed stays the profile's). fast-check draws the same runs
  // in the same order for a seed, so the first ten are a prefix of the default 25: a fault caught here is caught
  // by a default run too. (A variant is cleared on those ten runs only: tolerance, not depth.)
  const propertyRuns = Math.min(base.propertyRuns, KILL_MATRIX_PROPERTY_RUNS);
  const profile = fault
    ? { ...base, embedded: true, faults: [fault], propertyRuns }
    : variants
      ? { ...base, embedded: true, variants, propertyRuns }
      : base;
  const seed = profile.seed ?? Math.floor(Math.random() * 2 ** 31);
  let stopServer: (() => Promise<void>) | undefined;
  let baseUrl = profile.baseUrl;
  let apiKey = profile.apiKey;
  let fixtures = profile.fixtures;
  if (profile.embedded) {
    const { startReferenceServer } = await import("../../reference/server.js");
    const server = await startReferenceServer({
      faults: profile.faults,
      variants: profile.variants,
      headerPrefix: profile.headerPrefix,
      // The profile's signing switches the embedded server's side on: it signs answers and requires signed bodies.
      signResponses: profile.signing?.verifyResponses ?? false,
      requireSignatures: profile.signing?.requests ? "all" : "off",
    });
    stopServer = server.close;
    baseUrl = server.baseUrl;
    apiKey = server.apiKey;
    fixtures = { ...server.fixtures, ...profile.fixtures };
  }
  // Each test worker paces its own client: they share the profile's rate evenly.
  const workers = project.globalConfig.maxWorkers || Math.max(availableParallelism() - 1, 1);
  const run: ConformanceRun = {
    profile: { ...profile, baseUrl: baseUrl!, ...(apiKey ? { apiKey } : {}), fixtures, workers },
    seed,
    clientKey: await sharedKeyPair(),
    reportsDir: plan.reportsDir,
    // The fault and variant projects of the kill matrix would log hundreds of runs into one file.
    logExchanges: !fault && !variants,
  };
  // The setup runs alone, before any worker: the whole rate is its own.
  const client = new HttpClient(profileClientOptions({ ...run.profile, workers: 1 }, {}, run.clientKey));
  const from = profile.sourceAddresses[0];
  // The second user's bootstrap does not wait for the primary's: against a distant target the two chains of
  // requests overlap. Its outcome counts only where the primary's session was opened.
  const secondary = secondSession(profile, client, from);
  try {
    run.primary = await openSession(client, { apiKey: apiKey!, from, description: "conformance primary" });
  } catch (error) {
    const message = (error as Error).message;
    run.bootstrapError = redactText(message.startsWith("session bootstrap") ? message : `session bootstrap: ${message}`);
    // Typed for the report: no usable answer (a TransportError) leaves the target unjudged; a refusal is a finding.
    run.bootstrapFailure = transportErrorIn(error) ? "unreachable" : "bootstrap";
  }
  if (run.primary && profile.discoverFixtures) {
    try {
      const found = await discoverFixtures(client, run.primary);
      // Ids the profile lists itself win over discovered ones.
      run.profile = { ...run.profile, fixtures: { ...found.fixtures, ...run.profile.fixtures } };
      if (found.problem) run.fixturesProblem = found.problem;
    } catch (error) {
      run.fixturesProblem = redactText(`fixtures: discover: ${(error as Error).message}`);
    }
  }
  const second = await secondary;
  if (run.primary) {
    if ("session" in second) run.secondary = second.session;
    else run.secondaryError = second.error;
  }
  await client.close();
  project.provide("conformance", run);
  return async () => {
    await stopServer?.();
  };
}

/** The second user's session: the profile's second key, else a provisioned user where the profile may write. */
async function secondSession(
  profile: TargetProfile,
  client: HttpClient,
  from: string | undefined,
): Promise<{ session: Session } | { error: string }> {
  try {
    if (profile.secondaryApiKey) return { session: await openSession(client, { apiKey: profile.secondaryApiKey, from }) };
    if (profile.provisioning === "sandbox-user" && profile.mode === "full")
      return { session: await openSession(client, { apiKey: await provisionUser(client, from), from }) };
    return { error: "no second user: set secondaryApiKey or provisioning: sandbox-user in the profile" };
  } catch (error) {
    return { error: redactText((error as Error).message) };
  }
}

/** Property runs in a fault or legal-variant project of the kill matrix (the clean project keeps the profile's). */
const KILL_MATRIX_PROPERTY_RUNS = 10;

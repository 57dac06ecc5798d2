import { HttpClient } from "../http/client.js";
import { discoverFixtures } from "../session/fixtures-discovery.js";
import { profileClientOptions } from "../http/client-options.js";
import type { KeyPair } from "../session/keys.js";
import type { ConformanceRun } from "./provided.js";
import { redactText } from "../redact.js";
import { installationsPerKey, openSession, provisionUser, type Session } from "../session/session.js";
import { transportErrorIn } from "../http/transport-error.js";
import { sharedKeyPair } from "../session/keys.js";
import { CONFORMANCE_PROJECT, projectPlan, type RunPlan } from "./run-plan.js";
import { provisionsUsers, type TargetProfile } from "../profile/profile.js";

/** What a run needs besides its profile. */
export interface BootstrapOptions {
  seed: number;
  clientKey: KeyPair;
  reportsDir: string;
  /** Test workers that share the profile's request rate. */
  workers: number;
  logExchanges: boolean;
}

/** A run's target ready for its checks, and how to stop what was started for it. */
export interface Bootstrapped {
  run: ConformanceRun;
  stop: () => Promise<void>;
}

/**
 * One run's target, ready for its checks: the embedded reference started where the profile asks for it (in the
 * calling thread), the primary user's session (and the second user's) opened. A failed bootstrap does not throw: it
 * is handed on in the run, so every check fails with its reason and the reports are still written.
 */
export async function bootstrapRun(profile: TargetProfile, options: BootstrapOptions): Promise<Bootstrapped> {
  let stop = async () => {};
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
    stop = server.close;
    baseUrl = server.baseUrl;
    apiKey = server.apiKey;
    fixtures = { ...server.fixtures, ...profile.fixtures };
  }
  const run: ConformanceRun = {
    profile: { ...profile, baseUrl: baseUrl!, ...(apiKey ? { apiKey } : {}), fixtures, workers: options.workers },
    seed: options.seed,
    clientKey: options.clientKey,
    reportsDir: options.reportsDir,
    logExchanges: options.logExchanges,
  };
  // The bootstrap runs before any check: the whole rate is its own.
  const client = new HttpClient(profileClientOptions({ ...run.profile, workers: 1 }, {}, run.clientKey));
  const from = profile.sourceAddresses[0];
  // The second user's bootstrap does not wait for the primary's: against a distant target the two chains of
  // requests overlap. Its outcome counts only where the primary's session was opened.
  if (profile.embedded && profile.provisioning === "none" && profile.mode === "full") {
    // The embedded reference stands in for a vendor's server without a user factory: the users such a vendor hands
    // over by hand (a second user, two spare keys) are made once here, through the sandbox endpoint it always serves.
    // A read-only profile sends nothing but GET after the bootstrap, so it gets none.
    // A server that refuses them (a fault under test) leaves the run without them: the checks that need them skip.
    const made = await Promise.all([0, 1, 2].map(() => provisionUser(client, from).catch(() => undefined)));
    const [second, ...spare] = made;
    run.profile = {
      ...run.profile,
      ...((run.profile.secondaryApiKey ?? second) ? { secondaryApiKey: run.profile.secondaryApiKey ?? second } : {}),
      spareApiKeys: run.profile.spareApiKeys.length > 0 ? run.profile.spareApiKeys : spare.filter((k) => k !== undefined),
    };
  }
  // Asked before any session is opened: the answer decides the key every installation registers.
  client.keyPerInstallation = apiKey !== undefined && (await installationsPerKey(client, apiKey, from).catch(() => false));
  if (client.keyPerInstallation) run.keyPerInstallation = true;
  const secondary = secondSession(run.profile, client, from);
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
  return { run, stop };
}

/**
 * Bootstraps the plan's conformance project in the CLI, while vitest loads, and hands the promise over in the plan
 * for the global setup to provide. Returns how to stop what was started: the caller calls it after the run, whether or
 * not vitest got as far as its global setup. A failed start (the embedded reference's) is the global setup's to
 * report: here it is marked handled, and leaves nothing to stop.
 */
export function bootstrapForGlobalSetup(
  plan: RunPlan,
  options: { seed: number; reportsDir: string; workers: number; logExchanges?: boolean },
): () => Promise<void> {
  const project = projectPlan(plan, CONFORMANCE_PROJECT);
  const started = sharedKeyPair().then((clientKey) => bootstrapRun(project.profile, { logExchanges: true, ...options, clientKey }));
  started.catch(() => undefined);
  project.bootstrapped = started;
  return () =>
    started.then(
      (b) => b.stop(),
      () => undefined,
    );
}

/** The second user's session: the profile's second key, else a provisioned user where the profile may write. */
async function secondSession(
  profile: TargetProfile,
  client: HttpClient,
  from: string | undefined,
): Promise<{ session: Session } | { error: string }> {
  try {
    if (profile.secondaryApiKey) return { session: await openSession(client, { apiKey: profile.secondaryApiKey, from }) };
    if (provisionsUsers(profile)) return { session: await openSession(client, { apiKey: await provisionUser(client, from), from }) };
    return { error: "no second user: set secondaryApiKey or provisioning: sandbox-user in the profile" };
  } catch (error) {
    return { error: redactText((error as Error).message) };
  }
}

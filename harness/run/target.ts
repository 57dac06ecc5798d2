import { isMainThread } from "node:worker_threads";
import { inject } from "vitest";
import { HttpClient } from "../http/client.js";
import { notApplicable } from "../not-applicable.js";
import { profileClientOptions } from "../http/client-options.js";
import { useSharedKeyPair } from "../session/keys.js";
import type { ConformanceRun } from "./provided.js";
import "./provided.js";
import type { Exchange } from "../http/exchange.js";
import { exchangeLogger } from "./exchange-log.js";
import { currentTest } from "./test-scope.js";
import { noteExchange } from "./weather.js";
import { SUITES_DIR } from "../../catalogue/test-titles.js";
import { registerSecret } from "../redact.js";
import { openSession, provisionUser, type Session } from "../session/session.js";
import { forgetTarget } from "../http/transport-limit.js";
import { processWide } from "./process-wide.js";
import { provisionsUsers } from "../profile/profile.js";
import { recordConsumed } from "../consumption.js";

/** What a suite file works with: the profile, a recording client, and the sessions. */
export interface Target {
  run: ConformanceRun;
  profile: ConformanceRun["profile"];
  client: HttpClient;
  /** Full name of a service header: header("Language") → "X-Service-Language". */
  header(name: string): string;
  /** The primary user's shared session; throws the bootstrap failure when there is none. */
  primary(): Session;
  /** The second user's session, or undefined with the reason in secondaryMissing(). */
  secondary(): Session | undefined;
  /** Why there is no second user (for skip messages). */
  secondaryMissing(): string;
  /** Whether fresh users can be had (provisioning: sandbox-user and a profile that may write). */
  canProvision(): boolean;
  /** A fresh user's API key (POST /sandbox-user-person). */
  freshApiKey(from?: string): Promise<string>;
  /** A fresh user with an open session. */
  freshSession(options?: { from?: string; permittedIps?: string[] }): Promise<Session>;
  /**
   * A key a check may bind or lock out: a fresh user's where the target provisions users, else the next of the profile's
   * spareApiKeys no check of this thread has taken (recorded as used up), else undefined.
   */
  throwAwayKey(from?: string): Promise<string | undefined>;
  /** /user/{id}{rest} for a session's user. */
  userPath(session: Session, rest?: string): string;
}

// Workers are reused across files (isolate: false), and files of different kill-matrix projects
// aim at different servers: cache per target base URL.
const cache = new Map<string, Target>();

/** The run whose suite a kill-matrix run is loading (harness/run/matrix-run.ts); one per thread. */
const collecting = () => processWide("target.collecting", () => ({ run: undefined as ConformanceRun | undefined }));

/**
 * Loads a suite (`load`) whose checks aim at `run` rather than the project's own target: files load one at a
 * time in a worker, and a suite asks for its target as it loads.
 */
export async function collectingFor<T>(run: ConformanceRun, load: () => Promise<T>): Promise<T> {
  const slot = collecting();
  slot.run = run;
  try {
    return await load();
  } finally {
    slot.run = undefined;
  }
}

/** A fault run is over: its client closes, and what the thread knew of its target is forgotten. */
export async function releaseTarget(baseUrl: string): Promise<void> {
  const target = cache.get(baseUrl);
  cache.delete(baseUrl);
  forgetTarget(new URL(baseUrl).origin);
  await target?.client.close();
}

/** The target for this test file (one client per worker, recording into the running Allure test). */
export function useTarget(): Target {
  const run = collecting().run ?? inject("conformance");
  const cached = cache.get(run.profile.baseUrl);
  if (cached) return cached;
  useSharedKeyPair(run.clientKey);
  for (const key of [run.profile.apiKey, run.profile.secondaryApiKey, ...run.profile.spareApiKeys]) registerSecret(key, "api key");
  for (const session of [run.primary, run.secondary]) {
    registerSecret(session?.sessionToken, "session token");
    registerSecret(session?.installationToken, "installation token");
  }
  // The kill matrix's fault and variant projects read only pass or fail: no exchange log, no Allure attachment.
  const onExchange = run.logExchanges ? loggingAndNoting(exchangeLogger(run.reportsDir, SUITES_DIR, !isMainThread)) : noteExchange;
  const client = new HttpClient(profileClientOptions(run.profile, { onExchange }, run.clientKey));
  client.keyPerInstallation = run.keyPerInstallation === true;
  // The shared sessions sign with their installation's own key, where it has one.
  for (const session of [run.primary, run.secondary]) {
    if (!session?.privateKeyPem) continue;
    registerSecret(session.privateKeyPem, "private key");
    client.signFor(session.installationToken, session.privateKeyPem);
    client.signFor(session.sessionToken, session.privateKeyPem);
  }
  const canProvision = () => provisionsUsers(run.profile);
  const target: Target = {
    run,
    profile: run.profile,
    client,
    header: (name) => client.header(name),
    primary() {
      if (!run.primary) {
        // Typed where it is raised: the report tells an unreachable target from a refused bootstrap by this record
        // (harness/setup/setup-requirements.ts), not by the words below.
        const test = currentTest();
        if (test) test.meta.noSession = run.bootstrapFailure ?? "bootstrap";
        throw new Error(`no session for the primary user: ${run.bootstrapError ?? "bootstrap did not run"}`);
      }
      return run.primary;
    },
    secondary: () => run.secondary,
    secondaryMissing: () => run.secondaryError ?? "no second user",
    canProvision,
    async freshApiKey(from) {
      if (!canProvision()) throw new Error("fresh users need provisioning: sandbox-user and mode: full");
      return provisionUser(client, from ?? run.profile.sourceAddresses[0]);
    },
    async freshSession(options = {}) {
      const from = options.from ?? run.profile.sourceAddresses[0];
      const apiKey = await target.freshApiKey(from);
      return openSession(client, { apiKey, from, ...(options.permittedIps ? { permittedIps: options.permittedIps } : {}) });
    },
    async throwAwayKey(from) {
      if (canProvision()) return target.freshApiKey(from);
      const taken = processWide(`spare-keys:${run.profile.baseUrl}`, () => ({ next: 0 }));
      const key = run.profile.spareApiKeys[taken.next++];
      if (key !== undefined) recordConsumed("spare key used up", `spare key ${taken.next} of spareApiKeys (…${key.slice(-4)})`);
      return key;
    },
    userPath: (session, rest = "") => `/user/${session.userId}${rest}`,
  };
  cache.set(run.profile.baseUrl, target);
  return target;
}

/**
 * Each exchange into the run's exchange log (exchanges.har, and the test's Allure result: the reporter reads the log as
 * each test file ends, report/reporters/allure-exchanges.ts) and the weather tally.
 */
function loggingAndNoting(log: (exchange: Exchange) => void): (exchange: Exchange) => void {
  return (exchange) => {
    log(exchange);
    noteExchange(exchange);
  };
}

/** Reasons for skips, worded once so reports read the same everywhere. */
export const SKIP = {
  capabilityOff: (name: string) => notApplicable(`capability ${name} is off in the profile`),
  signingOff: notApplicable("signing is off in the profile"),
  provisioning: "needs fresh users: set provisioning: sandbox-user (and mode: full) in the profile",
  noFactory: notApplicable("the profile's provisioning is none: the target offers no POST /sandbox-user-person (optional, conventions §4)"),
  twoAddresses: "needs two local source addresses: set sourceAddresses with two entries in the profile",
  lockoutAddress:
    "provokes a lock-out, which a server may apply to the caller's address for every key: add a third sourceAddresses entry that " +
    "may be locked out (the suite sends nothing else from it)",
  destructive: "destructive (uses up a key or sets a permanent state): set allowDestructive: true or provisioning: sandbox-user",
  cardsToChange:
    "changes cards: set allowDestructive: true (checks then change the primary and second users' own cards, taken in turns) or " +
    "provisioning: sandbox-user (fresh users)",
  spareKey: "locks a key out: set spareApiKeys (keys of throw-away users) or provisioning: sandbox-user (fresh users)",
  sharesToAnswer:
    "answers share invites for good: set allowDestructive: true (checks then answer the primary user's own invites) or " +
    "provisioning: sandbox-user (fresh users)",
  readOnly: "the profile is read-only (mode: read-only): this check writes",
} as const;

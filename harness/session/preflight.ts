// Before any check: is the target there, do the profile's keys, addresses, fixtures and provisioning work?
// A vendor's typo must read as a typo (exit 2, one line naming the field), an unreachable target as
// INCOMPLETE, and only a working server that breaks its own rules as requirement failures. The
// bootstrap's own answers tell a wrong key from a broken server: where the profile can provision users,
// a fresh sandbox key is tried too; if it works, the profile's key is wrong, if not, the server is.
import { createServer } from "node:net";
import type { HttpClient } from "../http/client.js";
import { discoverFixtures } from "./fixtures-discovery.js";
import { describeRequest, describeResponse, type Exchange } from "../http/exchange.js";
import { provisionsUsers, type TargetProfile } from "../profile/profile.js";
import { createSandboxUser, postDeviceServer, postInstallation, postSessionServer, type Session } from "./session.js";
import { TransportError } from "../http/transport-error.js";

/**
 * config: the profile is wrong (exit 2, the run does not start); unreachable: no usable answer (verdict
 * INCOMPLETE); finding: the server answers but breaks a rule the suites check (the run goes on).
 */
type PreflightKind = "config" | "unreachable" | "finding";

export interface PreflightStep {
  /** What was checked, e.g. "primary key: installation → device-server → session-server". */
  check: string;
  ok: boolean;
  kind?: PreflightKind;
  /** One line: what went wrong, naming the profile field. */
  problem?: string;
  /** What to do about it. */
  hint?: string;
}

export interface PreflightResult {
  steps: PreflightStep[];
  /** The first step that stops the run, if any (config or unreachable). */
  blocking?: PreflightStep;
  /** The quickest answer of the primary key's bootstrap, ms: about one round trip to the target (cli/file-concurrency.ts). */
  roundTripMs?: number;
}

type Profile = TargetProfile & { baseUrl: string };

const said = (e: Exchange) => `${describeRequest(e.request)} answered ${describeResponse(e)}`;

/** True when this machine can send from the address (an interface holds it). */
async function bindable(address: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen({ host: address, port: 0 }, () => server.close(() => resolve(undefined)));
  });
}

interface Bootstrap {
  session?: Session;
  /** The quickest of the three answers, ms. */
  quickestMs?: number;
  /** The step that refused, with its exchange. */
  refused?: { step: "installation" | "device-server" | "session-server"; exchange: Exchange };
}

async function bootstrap(client: HttpClient, apiKey: string, from: string | undefined): Promise<Bootstrap> {
  const installation = await postInstallation(client, { from });
  if (installation.exchange.status !== 200 || !installation.token)
    return { refused: { step: "installation", exchange: installation.exchange } };
  const device = await postDeviceServer(client, { token: installation.token, apiKey, from, description: "conformance preflight" });
  if (device.status !== 200) return { refused: { step: "device-server", exchange: device } };
  const session = await postSessionServer(client, { token: installation.token, apiKey, from });
  if (session.exchange.status !== 200 || !session.token || session.userId === undefined)
    return { refused: { step: "session-server", exchange: session.exchange } };
  return {
    session: {
      apiKey,
      userId: session.userId,
      sessionToken: session.token,
      installationToken: installation.token,
      ...(from ? { from } : {}),
    },
    quickestMs: Math.min(installation.exchange.durationMs, device.durationMs, session.exchange.durationMs),
  };
}

/** Runs every preflight step; stops at the first that makes the rest meaningless. */
export async function preflight(profile: Profile, client: HttpClient): Promise<PreflightResult> {
  const steps: PreflightStep[] = [];
  const stop = (step: PreflightStep): PreflightResult => {
    steps.push(step);
    return { steps, blocking: step };
  };
  const field = (name: string) => `profile "${profile.name}": ${name}`;

  for (const address of profile.sourceAddresses) {
    const error = await bindable(address);
    if (error) {
      return stop({
        check: `source address ${address}`,
        ok: false,
        kind: "config",
        problem: `${field("sourceAddresses")}: ${address} cannot be bound on this machine (${error})`,
        hint: "list only addresses an interface of this machine holds (ip addr), or leave sourceAddresses out",
      });
    }
    steps.push({ check: `source address ${address} binds`, ok: true });
  }
  const from = profile.sourceAddresses[0];

  // Reachability, TLS and a /v1 answer: the installation call needs no credentials.
  let primary: Bootstrap;
  try {
    if (!profile.apiKey) {
      return stop({
        check: "primary key",
        ok: false,
        kind: "config",
        problem: `${field("apiKey")} is missing`,
        hint: "set apiKey (e.g. apiKey: ${MY_API_KEY})",
      });
    }
    primary = await bootstrap(client, profile.apiKey, from);
  } catch (error) {
    if (error instanceof TransportError) {
      return stop({
        check: `reach ${profile.baseUrl}`,
        ok: false,
        kind: "unreachable",
        problem: `target unreachable: POST ${profile.baseUrl}/installation: ${error.message}`,
        hint:
          error.kind === "tls"
            ? `check ${field("tls")} (ca, cert, key) and the server's certificate`
            : `check ${field("baseUrl")} and that the server is running`,
      });
    }
    throw error;
  }
  const refused = primary.refused;
  if (refused?.step === "installation") {
    const e = refused.exchange;
    const looksLikeWrongPath = e.status === 404 || e.status === 405 || (e.status >= 300 && e.status < 400);
    if (looksLikeWrongPath && !isErrorEnvelope(e)) {
      return stop({
        check: "a /v1 answer",
        ok: false,
        kind: "config",
        problem: `${field("baseUrl")}: ${said(e)}: no API answers there`,
        hint: "baseUrl must be the API root ending in /v1 (e.g. https://staging.bank.example/v1)",
      });
    }
    steps.push({ check: "installation", ok: false, kind: "finding", problem: `the server refuses a valid installation: ${said(e)}` });
    return { steps };
  }
  steps.push({ check: `reach ${profile.baseUrl} and install a key`, ok: true });
  if (refused?.step === "device-server") {
    const verdict = await wrongKeyOrBrokenServer(profile, client, from);
    if (verdict === "broken") {
      steps.push({
        check: "primary key: device-server",
        ok: false,
        kind: "finding",
        problem:
          `the server refuses device registration for the profile's key ` + `and for a fresh sandbox key alike: ${said(refused.exchange)}`,
      });
      return { steps };
    }
    return stop({
      check: "primary key: device-server",
      ok: false,
      kind: "config",
      problem:
        `${field("apiKey")} was refused: ` +
        `${said(refused.exchange)}${verdict === "wrong-key" ? " (a fresh sandbox key works, so the key is wrong)" : ""}`,
      hint:
        `check apiKey, and that this machine's address${from ? ` (${from})` : ""} is one the key may be used from; if the key is ` +
        `right, the server's device registration is broken: run with --no-preflight to see the checks`,
    });
  }
  if (refused?.step === "session-server") {
    steps.push({
      check: "primary key: session-server",
      ok: false,
      kind: "finding",
      problem: `the device was registered, but the session was refused: ${said(refused.exchange)}`,
    });
    return { steps };
  }
  steps.push({ check: "primary key: installation → device-server → session-server", ok: true });
  const session = primary.session!;

  // The remaining steps need only the primary session: they go out side by side (a few round trips, against a distant
  // target, before any check), and are judged in this order, so the step that stops the run is the one it was when
  // they went one after another.
  const [secondary, fixtures, provisioned] = await Promise.allSettled([
    profile.secondaryApiKey ? bootstrap(client, profile.secondaryApiKey, from) : undefined,
    fixtureSteps(profile, client, session),
    provisionsUsers(profile) ? createSandboxUser(client, from) : undefined,
  ]);

  const second = settled(secondary);
  if (second) {
    if (second.refused?.step === "device-server") {
      return stop({
        check: "secondary key",
        ok: false,
        kind: "config",
        problem: `${field("secondaryApiKey")} was refused: ${said(second.refused.exchange)}`,
        hint: "check secondaryApiKey (a second user's API key), or leave it out: checks that need a second user are then skipped",
      });
    }
    if (second.session && second.session.userId === session.userId) {
      return stop({
        check: "secondary key",
        ok: false,
        kind: "config",
        problem: `${field("secondaryApiKey")} opens the same user (${session.userId}) as apiKey`,
        hint: "give the API key of another user",
      });
    }
    steps.push({
      check: "secondary key: a session for a second user",
      ok: second.session !== undefined,
      ...(second.session
        ? {}
        : { kind: "finding" as const, problem: `the second user's session was refused: ${said(second.refused!.exchange)}` }),
    });
  }

  const { discovery, problem } = settled(fixtures);
  if (discovery) steps.push(discovery);
  if (problem) return stop(problem);
  steps.push({ check: "fixtures exist and belong to the primary user", ok: true });

  const made = settled(provisioned);
  if (made) {
    if (made.exchange.status !== 200 || !made.apiKey) {
      return stop({
        check: "provisioning",
        ok: false,
        kind: "config",
        problem: `${field("provisioning")} is sandbox-user, but ${said(made.exchange)}`,
        hint: "set provisioning: none if the target has no POST /sandbox-user-person (checks needing fresh users are then skipped)",
      });
    }
    steps.push({ check: "provisioning: POST /sandbox-user-person gives a fresh key", ok: true });
  }
  return { steps, ...(primary.quickestMs === undefined ? {} : { roundTripMs: primary.quickestMs }) };
}

/** A step's outcome, in its turn: what it came to, or what it threw. */
function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}

/** Fixtures discovered where the profile asks (a finding if that fails), then each one checked. */
async function fixtureSteps(
  profile: Profile,
  client: HttpClient,
  session: Session,
): Promise<{ discovery?: PreflightStep; problem?: PreflightStep }> {
  let checked = profile;
  let discovery: PreflightStep | undefined;
  if (profile.discoverFixtures) {
    const found = await discoverFixtures(client, session);
    if (found.problem)
      discovery = {
        check: "fixtures: discover",
        ok: false,
        kind: "finding",
        problem: `${found.problem} (checks that need a fixture are skipped)`,
      };
    checked = { ...profile, fixtures: { ...found.fixtures, ...profile.fixtures } };
  }
  const problem = await checkFixtures(checked, client, session);
  return { ...(discovery ? { discovery } : {}), ...(problem ? { problem } : {}) };
}

function isErrorEnvelope(e: Exchange): boolean {
  const error = (e.json as { Error?: unknown } | undefined)?.Error;
  return Array.isArray(error) && error.length > 0;
}

/** Where the profile may provision users: does a fresh key get through device registration? */
async function wrongKeyOrBrokenServer(
  profile: Profile,
  client: HttpClient,
  from: string | undefined,
): Promise<"wrong-key" | "broken" | "unknown"> {
  if (!provisionsUsers(profile)) return "unknown";
  const made = await createSandboxUser(client, from);
  if (made.exchange.status !== 200 || !made.apiKey) return "unknown";
  const fresh = await bootstrap(client, made.apiKey, from);
  return fresh.session ? "wrong-key" : fresh.refused?.step === "device-server" ? "broken" : "unknown";
}

/** Each fixture id the API lets us read must answer 200 for the primary user. */
async function checkFixtures(profile: Profile, client: HttpClient, session: Session): Promise<PreflightStep | undefined> {
  const f = profile.fixtures;
  const reads: { name: string; id: number; path: string }[] = [];
  const user = `/user/${session.userId}`;
  if (f.oauthClientId !== undefined)
    reads.push({ name: "fixtures.oauthClientId", id: f.oauthClientId, path: `${user}/oauth-client/${f.oauthClientId}/callback-url` });
  (f.challengeRequestIds ?? []).forEach((id, i) =>
    reads.push({ name: `fixtures.challengeRequestIds[${i}]`, id, path: `${user}/challenge-request/${id}` }),
  );
  (f.featureAnnouncementIds ?? []).forEach((id, i) =>
    reads.push({ name: `fixtures.featureAnnouncementIds[${i}]`, id, path: `${user}/feature-announcement/${id}` }),
  );
  const answers = await Promise.all(reads.map((r) => client.request({ path: r.path, token: session.sessionToken, from: session.from })));
  const bad = reads.findIndex((_, i) => answers[i]!.status !== 200);
  if (bad < 0) return undefined;
  const r = reads[bad]!;
  return {
    check: "fixtures",
    ok: false,
    kind: "config",
    problem: `profile "${profile.name}": ${r.name} = ${r.id}: ${said(answers[bad]!)}`,
    hint: `give an id the primary user (${session.userId}) owns, or leave it out: the checks that need it are then skipped`,
  };
}

import type { HttpClient } from "../http/client.js";
import { firstOfType, objectsOfType, responseItems } from "../envelope.js";
import { describeRequest, describeResponse, type Exchange } from "../http/exchange.js";
import { installationKeyPair } from "./keys.js";
import { registerSecret } from "../redact.js";

/** A working session: what every resource call needs. Plain data, so it can be provided to test workers. */
export interface Session {
  apiKey: string;
  userId: number;
  sessionToken: string;
  installationToken: string;
  serverPublicKey?: string;
  /** Source address the device was registered from (undefined: the OS default). */
  from?: string;
  /** The installation's own private key, where it has one (keyPerInstallation): requests of the session are signed with it. */
  privateKeyPem?: string;
}

class BootstrapError extends Error {
  override readonly name = "BootstrapError";
}
/** The installation token refused (401) by device-server or session-server during a bootstrap: tried once more, alone. */
class TokenRefused extends BootstrapError {}

/** The user object types a session-server answer may carry (wire conventions §4). */
export const SESSION_USER_TYPES = ["UserPerson", "UserCompany", "UserApiKey"];

export interface InstallationResult {
  exchange: Exchange;
  token?: string;
  serverPublicKey?: string;
  /** The installation's private key, where it got a pair of its own (keyPerInstallation). */
  privateKeyPem?: string;
}

export async function postInstallation(
  client: HttpClient,
  options: { from?: string; publicKeyPem?: string } = {},
): Promise<InstallationResult> {
  const own = options.publicKeyPem === undefined ? await installationKeyPair(client.keyPerInstallation) : undefined;
  const publicKeyPem = options.publicKeyPem ?? own!.publicKeyPem;
  const exchange = await client.request({
    method: "POST",
    path: "/installation",
    json: { client_public_key: publicKeyPem },
    from: options.from,
  });
  const token = firstOfType(exchange.json, "Token")?.token;
  if (typeof token === "string") registerSecret(token, "installation token");
  const serverPublicKey = firstOfType(exchange.json, "ServerPublicKey")?.server_public_key;
  // A pair of its own (keyPerInstallation) signs for this installation; the run's pair is the client's already.
  const privateKeyPem = own && client.keyPerInstallation ? own.privateKeyPem : undefined;
  if (typeof token === "string" && privateKeyPem) client.signFor(token, privateKeyPem);
  return {
    exchange,
    ...(typeof token === "string" ? { token } : {}),
    ...(typeof serverPublicKey === "string" ? { serverPublicKey } : {}),
    ...(privateKeyPem ? { privateKeyPem } : {}),
  };
}

export async function postDeviceServer(
  client: HttpClient,
  options: { token: string | null; apiKey: string; from?: string; permittedIps?: string[]; description?: string },
): Promise<Exchange> {
  registerSecret(options.apiKey, "api key");
  return client.request({
    method: "POST",
    path: "/device-server",
    token: options.token,
    from: options.from,
    json: {
      description: options.description ?? "banking-api-conformance",
      secret: options.apiKey,
      ...(options.permittedIps ? { permitted_ips: options.permittedIps } : {}),
    },
  });
}

export interface SessionServerResult {
  exchange: Exchange;
  token?: string;
  userId?: number;
}

export async function postSessionServer(
  client: HttpClient,
  options: { token: string | null; apiKey: string; from?: string },
): Promise<SessionServerResult> {
  const exchange = await client.request({
    method: "POST",
    path: "/session-server",
    token: options.token,
    from: options.from,
    json: { secret: options.apiKey },
  });
  const token = firstOfType(exchange.json, "Token")?.token;
  if (typeof token === "string") registerSecret(token, "session token");
  // The session signs with its installation's key (keyPerInstallation).
  if (typeof token === "string" && options.token !== null) client.signLike(options.token, token);
  const user = objectsOfType(exchange.json, ...SESSION_USER_TYPES)[0];
  const userId = typeof user?.id === "number" ? user.id : undefined;
  return { exchange, ...(typeof token === "string" ? { token } : {}), ...(userId === undefined ? {} : { userId }) };
}

function fail(step: string, exchange: Exchange, expected: string): never {
  throw new BootstrapError(
    `session bootstrap, ${step}: ${describeRequest(exchange.request)}: expected ${expected}, got ${describeResponse(exchange)}`,
  );
}

type SessionOptions = { apiKey: string; from?: string; permittedIps?: string[]; description?: string };

/** The end of the last bootstrap run alone (see openSession). */
let aloneQueue: Promise<unknown> = Promise.resolve();

/**
 * installation → device-server → session-server, each step checked enough to go on. A server may keep one installation
 * per client key (blind round 5: both readers OPEN), so another bootstrap's installation with the run's key can make this
 * one's token unknown before its device-server or session-server call: a bootstrap refused so (401) runs once more, alone.
 */
export async function openSession(client: HttpClient, options: SessionOptions): Promise<Session> {
  try {
    return await bootstrap(client, options);
  } catch (error) {
    if (!(error instanceof TokenRefused)) throw error;
    const run = aloneQueue.then(() => bootstrap(client, options));
    aloneQueue = run.catch(() => undefined);
    return run;
  }
}

async function bootstrap(client: HttpClient, options: SessionOptions): Promise<Session> {
  registerSecret(options.apiKey, "api key");
  const installation = await postInstallation(client, { from: options.from });
  if (installation.exchange.status !== 200 || !installation.token) fail("installation", installation.exchange, "200 with a Token");
  const device = await postDeviceServer(client, { ...options, token: installation.token });
  if (device.status === 401) throw new TokenRefused(`session bootstrap, device-server: ${describeRequest(device.request)}: got 401`);
  if (device.status !== 200 || !responseItems(device.json)) fail("device-server", device, "200 with an Id");
  const session = await postSessionServer(client, { token: installation.token, apiKey: options.apiKey, from: options.from });
  if (session.exchange.status !== 200 || !session.token || session.userId === undefined) {
    const expected = `200 with a Token and a ${SESSION_USER_TYPES.join("/")} object with an integer id`;
    if (session.exchange.status === 401) {
      const got = describeResponse(session.exchange);
      throw new TokenRefused(
        `session bootstrap, session-server: ${describeRequest(session.exchange.request)}: expected ${expected}, got ${got}`,
      );
    }
    fail("session-server", session.exchange, expected);
  }
  return {
    apiKey: options.apiKey,
    userId: session.userId,
    sessionToken: session.token,
    installationToken: installation.token,
    ...(installation.serverPublicKey ? { serverPublicKey: installation.serverPublicKey } : {}),
    ...(installation.privateKeyPem ? { privateKeyPem: installation.privateKeyPem } : {}),
    ...(options.from ? { from: options.from } : {}),
  };
}

/**
 * Whether the target keeps one installation per client key: two installations with the run's key, then the first one's
 * token registers a device. A 401 there: the second installation replaced the first (the harness then gives each
 * installation a key pair of its own, keys.ts).
 */
export async function installationsPerKey(client: HttpClient, apiKey: string, from?: string): Promise<boolean> {
  const first = await postInstallation(client, { from });
  const second = first.token ? await postInstallation(client, { from }) : undefined;
  if (!first.token || !second?.token) return false;
  const device = await postDeviceServer(client, { token: first.token, apiKey, from, description: "conformance key check" });
  return device.status === 401;
}

/** A fresh user from POST /sandbox-user-person (wire conventions §4); returns its API key. */
export async function createSandboxUser(client: HttpClient, from?: string): Promise<{ exchange: Exchange; apiKey?: string }> {
  // Resent after weather (harness/http/client.ts): at worst a second throw-away user is made, which nobody reads.
  const exchange = await client.request({ method: "POST", path: "/sandbox-user-person", json: {}, from, resend: "same-request-id" });
  const apiKey = firstOfType(exchange.json, "ApiKey")?.api_key;
  if (typeof apiKey === "string") registerSecret(apiKey, "api key");
  return { exchange, ...(typeof apiKey === "string" ? { apiKey } : {}) };
}

export async function provisionUser(client: HttpClient, from?: string): Promise<string> {
  const created = await createSandboxUser(client, from);
  if (created.exchange.status !== 200 || !created.apiKey) fail("sandbox user", created.exchange, "200 with an ApiKey");
  return created.apiKey;
}

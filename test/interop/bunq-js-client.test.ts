// Interop with a client nobody here wrote: the provider's community JavaScript client
// (@bunq-community/bunq-js-client, pinned) runs installation → device-server → session-server → card list →
// share-invite list against the embedded reference in the provider's dialect (X-Bunq- headers, every
// answer signed, client signatures required), with its own response verification on. It proves our
// wire conventions (envelope, token objects, timestamps, user object, signing) against a real client.
//
// What the library needs here (read from its dist/ sources):
// - a store with get/set/remove (it keeps its session AES-encrypted in it): a Map;
// - environment URLs are fixed (SANDBOX/PRODUCTION); relative paths are completed with
//   Session.environmentUrl, which run() sets: we point it at the local origin after run();
// - its bundled axios 0.18 honours HTTP_PROXY but not NO_PROXY: its axios clients get proxy: false;
// - keepAlive off, so no session-refresh timer outlives the test;
// - ENV_CI unset (its CI escape hatch skips key generation and swallows failed verifications).
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A CommonJS package: from ESM its default import types as the whole module, whose .default is the class.
import type BunqJSClientModule from "@bunq-community/bunq-js-client";
import { startReferenceServer, type RunningReference } from "../../reference/server.js";

delete process.env.ENV_CI;

const require = createRequire(import.meta.url);
const BunqJSClient = (require("@bunq-community/bunq-js-client") as typeof BunqJSClientModule).default;

const API_KEY = "interop-primary-key-0123456789";
// A 32-character AES key for the client's encrypted session store (its README's format).
const ENCRYPTION_KEY = "3c7a4d431a846ed33a3bb1b1fa9b5c26";

interface ClientLog {
  lines: string[];
}

function memoryStore() {
  const data = new Map<string, unknown>();
  return {
    get: (key: string) => data.get(key),
    set: (key: string, value: unknown) => void data.set(key, value),
    remove: (key: string) => void data.delete(key),
  };
}

function quietLogger(log: ClientLog) {
  const keep = (level: string) => (value: unknown) =>
    void log.lines.push(`${level}: ${value instanceof Error ? value.message : typeof value === "string" ? value : JSON.stringify(value)}`);
  return { log: keep("log"), info: keep("info"), error: keep("error"), debug: () => undefined, trace: () => undefined, warn: keep("warn") };
}

/** A client set up as its README says, aimed at `server`; its RSA-2048 pair is generated in JavaScript (node-forge). */
async function clientFor(server: RunningReference, log: ClientLog) {
  const client = new BunqJSClient(memoryStore(), quietLogger(log));
  client.setKeepAlive(false);
  await client.run(API_KEY, [], "SANDBOX", ENCRYPTION_KEY);
  client.Session.environmentUrl = new URL(server.baseUrl).origin;
  const factory = client.ApiAdapter.RequestLimitFactory as unknown as { axiosClients: { defaults: { proxy?: false } }[] };
  for (const axios of factory.axiosClients) axios.defaults.proxy = false;
  return client;
}

function describeFailure(error: unknown, log: ClientLog): string {
  const e = error as { message?: string; errorCode?: string; response?: { status?: number; data?: unknown } };
  const answer = e.response?.status ? ` (HTTP ${e.response.status} ${JSON.stringify(e.response.data).slice(0, 300)})` : "";
  return `${e.errorCode ?? ""} ${e.message ?? String(error)}${answer}; client log: ${log.lines.slice(-5).join(" | ")}`;
}

describe("interop: @bunq-community/bunq-js-client against the reference in the X-Bunq- dialect", () => {
  let server: RunningReference;
  beforeAll(async () => {
    server = await startReferenceServer({ headerPrefix: "X-Bunq-", signResponses: true, requireSignatures: "all", apiKey: API_KEY });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("installs, registers a device, opens a session and lists cards and share invites, verifying every answer", async () => {
    const log: ClientLog = { lines: [] };
    const started = Date.now();
    const client = await clientFor(server, log);
    const keyMs = Date.now() - started;
    try {
      await client.install();
      await client.registerDevice("conformance interop");
      await client.registerSession();
    } catch (error) {
      throw new Error(`session bootstrap failed: ${describeFailure(error, log)}`);
    }
    // The session answer's user object and token timestamps were understood.
    const user = (client.Session.userInfo as Record<string, { id?: number }>).UserPerson;
    expect(user?.id, "UserPerson from POST /session-server").toBe(server.state.apiKeys.get(API_KEY)?.userId);
    expect(client.Session.sessionExpiryTime?.getTime(), "session expiry computed from Token.created + session_timeout").toBeGreaterThan(
      Date.now(),
    );

    let cards: Record<string, unknown>[];
    let shares: Record<string, unknown>[];
    try {
      cards = (await client.api.card.list(user!.id!)) as Record<string, unknown>[];
      shares = (await client.api.shareInviteMonetaryAccountResponse.list(user!.id!)) as Record<string, unknown>[];
    } catch (error) {
      throw new Error(`resource calls failed: ${describeFailure(error, log)}`);
    }
    expect(cards.length, "cards of the seeded primary user").toBeGreaterThan(0);
    expect(cards.every((item) => typeof (item.Card as { id?: unknown } | undefined)?.id === "number")).toBe(true);
    expect(shares.length, "share invites of the seeded primary user").toBeGreaterThan(0);
    expect(shares.every((item) => typeof (item.ShareInviteMonetaryAccountResponse as { id?: unknown } | undefined)?.id === "number")).toBe(
      true,
    );
    // For the record (the issue asks): how long the library's JavaScript key generation took.
    console.info(`bunq-js-client: key pair and setup ${keyMs} ms, whole flow ${Date.now() - started} ms`);
  }, 180_000);

  it("refuses an answer whose server signature was made over other bytes (its verification is really on)", async () => {
    const faulty = await startReferenceServer({
      headerPrefix: "X-Bunq-",
      signResponses: true,
      apiKey: API_KEY,
      faults: ["server-signs-other-body"],
    });
    const log: ClientLog = { lines: [] };
    try {
      const client = await clientFor(faulty, log);
      await client.install(); // the installation answer is not verified: the client has no server key yet
      const refused = await client.registerDevice("conformance interop").then(
        () => undefined,
        (error: unknown) => error as { errorCode?: string },
      );
      expect(refused?.errorCode, "the device-server answer must fail the client's verification").toBe("INVALID_RESPONSE_RECEIVED");
    } finally {
      await faulty.close();
    }
  }, 180_000);
});

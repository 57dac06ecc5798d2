import { randomBytes } from "node:crypto";
import { prepareServerKey } from "./server-key.js";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { registerAuthHook } from "./auth-hook.js";
import { type FaultName, type VariantName, faultCatalogue, variantCatalogue } from "../faults/catalogue.js";
import { Switches } from "./switches.js";
import { registerEncryption } from "./encryption.js";
import { registerErrorHandling } from "./errors.js";
import { HttpError } from "./http-error.js";
import type { ReferenceContext, SeededFixtures } from "./module.js";
import { resourceModules } from "./resources/index.js";
import { registerSigning, type SigningOptions } from "./signing.js";
import { ReferenceState, type User } from "./state.js";
import { registerTransportVariants, registerVariants } from "./variants.js";

export interface ReferenceOptions extends SigningOptions {
  /** Fault names to switch on (see faultCatalogue()). */
  faults?: string[];
  /** Legal variants to switch on (see variantCatalogue()): conformant behaviours the reference does not show by default. */
  variants?: string[];
  headerPrefix?: string;
  /** API key of the primary user; random when not given. */
  apiKey?: string;
  /**
   * At least this many items in each seeded list a user can page through (companies, pinned chains, callback URLs, share
   * invites): a long-lived account's lists, as the latency bench measures against. Each module's own seed when not given.
   */
  listItems?: number;
}

export interface RunningReference {
  app: FastifyInstance;
  baseUrl: string;
  apiKey: string;
  fixtures: SeededFixtures;
  state: ReferenceState;
  /** The options it was started with (a variant probe starts a signing twin with the same switches). */
  options: ReferenceOptions;
  close(): Promise<void>;
}

class UnknownFaultError extends Error {}

function buildReferenceServer(options: ReferenceOptions = {}): {
  app: FastifyInstance;
  ctx: ReferenceContext;
  primary: User;
  fixtures: SeededFixtures;
} {
  const known = new Set(faultCatalogue().map((f) => f.name));
  for (const name of options.faults ?? []) {
    if (!known.has(name)) throw new UnknownFaultError(`unknown fault "${name}" (see: conformance faults)`);
  }
  for (const name of options.variants ?? []) {
    if (!variantCatalogue().some((v) => v.name === name))
      throw new UnknownFaultError(`unknown variant "${name}" (see: conformance variants)`);
  }
  const prefix = options.headerPrefix ?? "X-Service-";
  // Switched apart: ctx.faults.on() takes fault names only, ctx.variants.on() variant names only (faults/catalogue.ts).
  // A variant that plays a strict-only fault (VariantSpec.plays) switches on that fault's seams.
  const played = variantCatalogue().flatMap((v) => (v.plays && options.variants?.includes(v.name) ? [v.plays] : []));
  const faults = new Switches<FaultName>([...(options.faults ?? []), ...played]);
  // A fault that plays a legal variant (FaultSpec.plays, judged strictly) switches on that variant's seams.
  const playing = faultCatalogue().flatMap((f) => (f.plays && options.faults?.includes(f.name) ? [f.plays] : []));
  const variants = new Switches<VariantName>([...(options.variants ?? []), ...playing]);
  const state = new ReferenceState({
    idsLarge: variants.on("ids-large"),
    idsPerUser: variants.on("ids-per-user"),
    tokensBase64url: variants.on("tokens-base64url"),
    idsPerUserPerResource: variants.on("ids-per-user-per-resource"),
  });
  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024, forceCloseConnections: true });
  const ctx: ReferenceContext = {
    state,
    faults,
    variants,
    header: (name) => `${prefix}${name}`,
    listItems: options.listItems ?? 0,
    fixturesOf: (userId) => fixturesByUser.get(userId),
    createUser(displayName, apiKey) {
      const user = state.createUser(apiKey ?? `sandbox_${randomBytes(24).toString("hex")}`, displayName);
      lastFixtures = { monetaryAccountId: user.monetaryAccountIds[0]! };
      for (const module of resourceModules) Object.assign(lastFixtures, module.seed?.(ctx, user) ?? {});
      fixturesByUser.set(user.id, lastFixtures);
      return user;
    },
  };
  let lastFixtures: SeededFixtures = {};
  const fixturesByUser = new Map<number, SeededFixtures>();

  // JSON bodies: an empty body is "no body"; malformed JSON is the client's error (400), never a crash.
  // The exact bytes stay on the request for signature checks (signing.ts).
  app.removeContentTypeParser("application/json");
  // Variant json-charset-body-unparsed (blind round 2, ruled open): the JSON parser is registered for the exact media
  // type, so a JSON body labelled "application/json; charset=utf-8" falls to the raw-bytes parser below.
  const jsonType = ctx.variants.on("json-charset-body-unparsed") ? /^application\/json$/ : "application/json";
  app.addContentTypeParser(jsonType, { parseAs: "buffer" }, (request, body, done) => {
    request.rawBody = body as Buffer;
    const text = (body as Buffer).toString("utf8");
    if (text.trim() === "") {
      // The careless server reads a member of the missing body and crashes.
      if (ctx.faults.on("empty-json-body-500")) return done(new HttpError(500, "Cannot read properties of undefined."), undefined);
      return done(null, undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpError(400, "The request body is not valid JSON.", "malformed-json"), undefined);
    }
  });
  app.removeContentTypeParser("text/plain");
  // Anything else (attachments) arrives as raw bytes.
  app.addContentTypeParser("*", { parseAs: "buffer" }, (request, body, done) => {
    request.rawBody = body as Buffer;
    done(null, body);
  });

  registerErrorHandling(app, ctx);
  registerAuthHook(app, ctx);
  registerEncryption(app, ctx);
  if (ctx.faults.on("created-as-epoch")) {
    // The careless serialiser: created timestamps as epoch numbers.
    app.addHook("onSend", async (_request, _reply, payload) =>
      typeof payload === "string"
        ? payload.replace(/"created":"([^"]*)"/g, (_m, t: string) => `"created":${Date.parse(`${t.replace(" ", "T").slice(0, 23)}Z`) || 0}`)
        : payload,
    );
  }
  if (ctx.faults.on("pagination-inside-response")) {
    // The careless list: Pagination pushed into Response as one more element.
    app.addHook("onSend", async (_request, _reply, payload) => {
      if (typeof payload !== "string" || !payload.includes('"Pagination"')) return payload;
      const body = JSON.parse(payload) as { Response?: unknown[]; Pagination?: unknown };
      if (!Array.isArray(body.Response) || body.Pagination === undefined) return payload;
      return JSON.stringify({ Response: [...body.Response, { Pagination: body.Pagination }] });
    });
  }
  if (ctx.faults.on("list-answers-text-plain")) {
    // Fault list-answers-text-plain: the list serialiser sends a pre-built string, which Fastify labels text/plain.
    app.addHook("onSend", async (_request, reply, payload) => {
      if (typeof payload === "string" && payload.includes('"Pagination"')) reply.header("content-type", "text/plain; charset=utf-8");
      return payload;
    });
  }
  registerVariants(app, ctx);
  registerSigning(app, ctx, options);
  registerTransportVariants(app, ctx);
  for (const module of resourceModules) module.register(app, ctx);

  const primary = ctx.createUser("Reference Primary", options.apiKey);
  return { app, ctx, primary, fixtures: lastFixtures };
}

/** Starts the reference server on host:port (port 0: an ephemeral port). */
export async function startReferenceServer(options: ReferenceOptions & { host?: string; port?: number } = {}): Promise<RunningReference> {
  // The key is made off the thread (and only once), not in the middle of the first request that needs it.
  await prepareServerKey();
  const { app, ctx, primary, fixtures } = buildReferenceServer(options);
  await app.listen({ host: options.host ?? "127.0.0.1", port: options.port ?? 0 });
  const address = app.server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    app,
    baseUrl: `http://${host}:${address.port}/v1`,
    apiKey: primary.apiKey,
    fixtures,
    state: ctx.state,
    options,
    close: () => app.close(),
  };
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sendError } from "./errors.js";
import { HttpError, badRequest, translate } from "./http-error.js";
import type { ReferenceContext, RouteConfig } from "./module.js";
import type { SessionRecord } from "./state.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Fault foreign-write-applied-then-refused: the write ran as the path's user; the answer is to be turned into a 403. */
    foreignWrite: boolean;
    /** Fault request-id-recorded-on-success-only: the scope whose used ids get this call's id once it answered 200. */
    requestIdScope?: string;
    /**
     * Variant r3-request-id-reuse-refused-after-handler (blind round 3, ruled open): the id was reused; the answer is to be
     * turned into the refusal.
     */
    requestIdReused: boolean;
  }
}

type Refuse = (status: number, kind: "token" | "ip" | "header", message: string) => HttpError;
type Auth = NonNullable<RouteConfig["auth"]>;

/** Status of an authentication refusal under the legal variants that answer other 4XX codes (conventions §3, §4, §6). */
function authStatus(ctx: ReferenceContext, status: number, kind: "token" | "ip" | "header"): number {
  if (ctx.variants.on("auth-refusals-403")) return 403;
  if (kind === "token" && ctx.variants.on("auth-token-refusals-400")) return 400;
  return status;
}

/** A header read the careless way: only under its exact spelling, from the raw header list. */
function exactCaseHeader(request: FastifyRequest, name: string): string | undefined {
  const raw = request.raw.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i] === name) return raw[i + 1];
  return undefined;
}

const USER_IN_PATH = /^\/v1\/user\/(\d+)(?:\/|$)/;

function normaliseIp(address: string | undefined): string {
  return (address ?? "").replace(/^::ffff:/, "");
}

function pathUserId(request: FastifyRequest): number | undefined {
  const match = USER_IN_PATH.exec(request.url);
  return match ? Number(match[1]) : undefined;
}

/** A session conjured for the user named in the path: how the auth faults model a missing check. */
function impersonate(request: FastifyRequest, ctx: ReferenceContext): SessionRecord | undefined {
  const match = USER_IN_PATH.exec(request.url);
  const userId = match ? Number(match[1]) : undefined;
  if (userId === undefined || !ctx.state.users.has(userId)) return undefined;
  return { id: 0, token: "", userId, deviceId: 0, ips: [request.callerIp] };
}

/** The list paths a careless server answers for anyone (fault unknown-user-empty-list). */
const LIST_PATH = new RegExp(
  "^/v1/user/\\d+/(company|card|certificate-pinned|share-invite-monetary-account-response|" +
    "oauth-client/\\d+/callback-url|monetary-account/\\d+/ideal-merchant-transaction)$",
);

/**
 * The common request rules (spec: Endpoints > Common request rules; Authentication; conventions §3–§4),
 * checked before any route runs: headers, token kind, IP binding, request-id reuse. The hooks read as the
 * specification; the faults and variants of this file act in the seams below them.
 */
export function registerAuthHook(app: FastifyInstance, ctx: ReferenceContext): void {
  const refuse: Refuse = (status, kind, message) => new HttpError(authStatus(ctx, status, kind), message);
  app.decorateRequest("callerIp", "");
  app.decorateRequest("foreignWrite", false);
  app.decorateRequest("requestIdScope", undefined);
  // Fault r3-session-bound-to-user-agent: the User-Agent each session token was first used with.
  const sessionAgents = new Map<string, string>();
  app.decorateRequest("requestIdReused", false);
  // Fault r5-request-id-post-retry-replayed: the first 200 answer of each POST, by request-id scope and id (empty otherwise).
  const firstAnswers = new Map<string, string>();
  const answerKeys = new WeakMap<FastifyRequest, string>();

  app.addHook("onRequest", async (request, reply) => {
    request.callerIp = callerAddress(ctx, request);
    const auth = (request.routeOptions.config as RouteConfig | undefined)?.auth ?? "session";
    checkCommonHeaders(ctx, request, refuse, auth);
    if (auth === "none") return;
    const token = authToken(ctx, request);
    if (auth === "installation" && madeUpInstallation(ctx, request, token)) return;
    if (typeof token !== "string" || token === "") {
      const conjured = auth === "session" ? servedWithoutToken(ctx, request) : undefined;
      if (!conjured) throw refuse(401, "token", "Missing authentication token.");
      request.session = conjured;
      return;
    }
    let scope: string;
    if (auth === "installation") {
      const installationToken = installationOf(ctx, request, token);
      if (!installationToken) throw refuse(401, "token", "Insufficient authentication.");
      request.installationToken = installationToken;
      scope = installationScope(ctx, installationToken);
    } else {
      const session = sessionOf(ctx, request, token);
      if (!session) throw refuse(401, "token", "Insufficient authentication.");
      if (!boundAddress(ctx, session, request.callerIp) && ipBindingChecked(ctx, request)) return ipRefused(ctx, reply, refuse);
      if (userAgentChanged(ctx, sessionAgents, token, request)) throw refuse(401, "token", "Insufficient authentication.");
      request.session = session;
      scope = sessionScope(ctx, token, session);
      const pathUser = pathUserId(request);
      if (pathUser !== undefined && pathUser !== session.userId) {
        const answered = otherUserInPath(ctx, request, reply, pathUser);
        if (answered) return answered;
      }
    }
    const requestId = requestIdOf(ctx, request);
    if (typeof requestId === "string" && requestId !== "" && requestIdKept(ctx, request)) {
      checkRequestIdFormat(ctx, requestId);
      scope = requestIdScope(ctx, request, scope);
      const used = usedRequestIds(ctx, scope);
      if (used.has(requestIdKey(ctx, requestId)) && reuseRefused(ctx, auth, request)) {
        const replay = retriedPostAnswer(ctx, request, firstAnswers, `${scope}|${requestId}`);
        if (replay !== undefined) return reply.code(200).type("application/json").send(replay);
        // Variant r3-request-id-reuse-refused-after-handler (blind round 3, ruled open): the reuse is only answered in the
        // response hook, after the route ran.
        if (ctx.variants.on("r3-request-id-reuse-refused-after-handler")) request.requestIdReused = true;
        else throw new HttpError(reuseStatus(ctx), "This request id was already used on this device.");
      }
      if (postAnswerKept(ctx, request)) answerKeys.set(request, `${scope}|${requestId}`);
      if (recordedBeforeAnswer(ctx)) used.add(requestIdKey(ctx, requestId));
      else request.requestIdScope = scope;
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    // Set only by fault foreign-write-applied-then-refused (otherUserInPath).
    if (request.foreignWrite && reply.statusCode === 200) payload = refusedAfterTheWrite(ctx, request, reply);
    // Set only by variant r3-request-id-reuse-refused-after-handler (the route has run; only the answer says no).
    if (request.requestIdReused)
      payload = refusedAfterTheWrite(ctx, request, reply, reuseStatus(ctx), "This request id was already used on this device.");
    const answerKey = answerKeys.get(request);
    // Set only by fault r5-request-id-post-retry-replayed: the POST's first 200 answer is kept for a retry with the same id.
    if (answerKey !== undefined && reply.statusCode === 200 && typeof payload === "string" && !firstAnswers.has(answerKey))
      firstAnswers.set(answerKey, payload);
    const requestId = requestIdOf(ctx, request);
    // Set only by fault request-id-recorded-on-success-only: the id is remembered once the call answered 200.
    if (request.requestIdScope !== undefined && typeof requestId === "string" && reply.statusCode === 200)
      usedRequestIds(ctx, request.requestIdScope).add(requestIdKey(ctx, requestId));
    if (typeof requestId === "string" && requestIdEchoed(ctx, reply, request)) reply.header(ctx.header("Client-Request-Id"), requestId);
    return payload;
  });
}

// ---- Seams: each decides one rule of the hooks above and names the faults and variants that bend it. ----

/**
 * The common headers (HDR-001, HDR-004 to HDR-011, HDR-017): User-Agent is required; geolocation, language and
 * region are optional and read leniently. The careless servers of the faults refuse more, or ignore the language.
 */
function checkCommonHeaders(ctx: ReferenceContext, request: FastifyRequest, refuse: Refuse, auth: Auth): void {
  const { faults } = ctx;
  const h = (name: string) => ctx.header(name).toLowerCase();
  const headers = request.headers;
  // The careless server: error texts never look at the language.
  if (faults.on("language-ignored")) delete headers[h("Language")];
  if (!headers["user-agent"] && userAgentRequired(ctx, auth, request)) throw refuse(400, "header", "The User-Agent header is required.");
  if (faults.on("cache-control-required") && !headers["cache-control"]) throw badRequest("The Cache-Control header is required.");
  // Fault r3-cache-control-required-on-writes: "needed for signed requests" read as needed on every resource write with a body.
  if (faults.on("r3-cache-control-required-on-writes") && auth === "session" && ["POST", "PUT"].includes(request.method)) {
    const withBody = Number(headers["content-length"] ?? 0) > 0 || headers["transfer-encoding"] !== undefined;
    if (withBody && !headers["cache-control"]) throw badRequest("The Cache-Control header is required.");
  }
  if (faults.on("user-agent-format-checked") && !/^[\w.-]+\/[\w.-]+/.test(String(headers["user-agent"] ?? "")))
    throw badRequest("The User-Agent is not valid.");
  if (geolocationRequired(ctx) && headers[h("Geolocation")] === undefined) throw badRequest("The geolocation header is required.");
  const geolocation = headers[h("Geolocation")];
  if (faults.on("zero-geolocation-rejected") && typeof geolocation === "string" && /^0 0 0 0/.test(geolocation)) {
    throw badRequest("The geolocation is not valid.");
  }
  // Fault r3-zero-geolocation-refused-on-card-writes: the card fraud check takes a 0,0 location for a spoofed one.
  if (
    faults.on("r3-zero-geolocation-refused-on-card-writes") &&
    request.method !== "GET" &&
    /^\/v1\/user\/\d+\/card(-batch-replace|\/\d+(\/replace)?)$/.test(request.url.split("?")[0]!) &&
    typeof geolocation === "string" &&
    /^0+(\.0+)? 0+(\.0+)?(\s|$)/.test(geolocation.trim())
  ) {
    throw badRequest("The geolocation is not valid.");
  }
  // Fault geolocation-negative-refused (and variant geolocation-unsigned-only, since the blind readers split on it): the
  // parser's number pattern has no sign, so -122.4 is "not a number".
  if (
    (faults.on("geolocation-negative-refused") || ctx.variants.on("geolocation-unsigned-only")) &&
    typeof geolocation === "string" &&
    geolocation
      .trim()
      .split(/\s+/)
      .slice(0, 4)
      .some((field) => field.startsWith("-"))
  ) {
    throw badRequest("The geolocation is not valid.");
  }
  const language = headers[h("Language")];
  // Fault language-without-country-500: language_COUNTRY is split and the country upper-cased; "de" has no country part.
  if (faults.on("language-without-country-500") && typeof language === "string" && !language.includes("_")) {
    throw new TypeError("Cannot read properties of undefined (reading 'toUpperCase')");
  }
  if (faults.on("nl-language-rejected") && language === "nl_NL") throw badRequest("Unsupported language.");
  if (faults.on("unsupported-language-rejected") && typeof language === "string" && !["en_US", "nl_NL"].includes(language)) {
    throw badRequest("Unsupported language.");
  }
  if (faults.on("region-rejected") && headers[h("Region")] !== undefined) throw badRequest("Unsupported region.");
  // Variant r6-region-limited-to-supported-languages: the region is validated against the list of supported languages (copied).
  const region = headers[h("Region")];
  if (ctx.variants.on("r6-region-limited-to-supported-languages") && typeof region === "string" && !["en_US", "nl_NL"].includes(region))
    throw badRequest("Unsupported region.");
}

/**
 * X-Service-Geolocation is optional (HDR-011, LENIENT): a server may require it, as the header is sent zero-valued
 * when unknown (variant geolocation-header-required; the fault geolocation-required fails the strict profile only).
 */
function geolocationRequired(ctx: ReferenceContext): boolean {
  return ctx.faults.on("geolocation-required") || ctx.variants.on("geolocation-header-required");
}

/** User-Agent is required on every call, those without a token included. */
function userAgentRequired(ctx: ReferenceContext, auth: Auth, request: FastifyRequest): boolean {
  const { faults } = ctx;
  // Fault r6-user-agent-unchecked-on-attachment-upload: the raw binary upload route skips the header check the JSON routes make.
  if (
    faults.on("r6-user-agent-unchecked-on-attachment-upload") &&
    request.method === "POST" &&
    request.routeOptions.url === "/v1/user/:userID/monetary-account/:monetaryAccountID/attachment"
  )
    return false;
  // Fault user-agent-unchecked-on-tokenless-calls: the check was placed after the early return of the calls without a token.
  return !faults.on("user-agent-not-required") && !(faults.on("user-agent-unchecked-on-tokenless-calls") && auth === "none");
}

/** The caller's address: the connection's; fault caller-ip-from-forwarded-header trusts X-Forwarded-For. */
function callerAddress(ctx: ReferenceContext, request: FastifyRequest): string {
  const forwarded = request.headers["x-forwarded-for"];
  if (ctx.faults.on("caller-ip-from-forwarded-header") && typeof forwarded === "string" && forwarded.trim() !== "") {
    return normaliseIp(forwarded.split(",")[0]!.trim());
  }
  return normaliseIp(request.socket.remoteAddress);
}

/**
 * The token, from its header under any spelling of the header's name (HDR-016, LENIENT): a server may read the
 * canonical spelling only (variant auth-header-canonical-case-only, fault auth-header-exact-case-only).
 */
function authToken(ctx: ReferenceContext, request: FastifyRequest): string | string[] | undefined {
  const name = ctx.header("Client-Authentication");
  const exactCase = ctx.faults.on("auth-header-exact-case-only") || ctx.variants.on("auth-header-canonical-case-only");
  const token = exactCase ? exactCaseHeader(request, name) : request.headers[name.toLowerCase()];
  // Fault r6-bearer-token-accepted: the OAuth access-token support also reads Authorization: Bearer, used when the service
  // header is missing.
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
  if (token === undefined && bearer !== undefined && ctx.faults.on("r6-bearer-token-accepted")) return bearer;
  return token;
}

/**
 * POST /device-server needs a valid installation token (AUTH-006). Fault device-server-without-installation makes
 * one up instead of refusing; true when it did (the request then goes on as that installation's).
 */
function madeUpInstallation(ctx: ReferenceContext, request: FastifyRequest, token: string | string[] | undefined): boolean {
  const { state } = ctx;
  if (!ctx.faults.on("device-server-without-installation") || !request.url.startsWith("/v1/device-server")) return false;
  if (typeof token === "string" && state.installations.has(token)) return false;
  const implicit = state.token();
  state.installations.set(implicit, { id: state.nextId(), token: implicit, publicKeyPem: "", deviceIds: [] });
  request.installationToken = implicit;
  return true;
}

/** A resource call without a token is refused (AUTH-004); fault auth-header-not-required serves it as the path's user. */
function servedWithoutToken(ctx: ReferenceContext, request: FastifyRequest): SessionRecord | undefined {
  return ctx.faults.on("auth-header-not-required") ? impersonate(request, ctx) : undefined;
}

/**
 * The installation an installation token names; any other token is refused (AUTH-024, LENIENT: variant
 * session-server-takes-session-token takes a device's session token on session-server too).
 */
function installationOf(ctx: ReferenceContext, request: FastifyRequest, token: string): string | undefined {
  const { state } = ctx;
  if (state.installations.has(token)) return token;
  const asSession = state.sessions.get(token);
  const sessionTokenTaken =
    ((ctx.faults.on("session-server-accepts-session-token") || ctx.variants.on("session-server-takes-session-token")) &&
      request.url.startsWith("/v1/session-server")) ||
    ((ctx.faults.on("device-server-accepts-session-token") || ctx.variants.on("device-server-takes-session-token")) &&
      request.url.startsWith("/v1/device-server"));
  if (asSession && sessionTokenTaken) {
    // The careless lookup: any token of ours will do; the session's own installation is used.
    return state.devices.get(asSession.deviceId)?.installationToken;
  }
  // Fault r3-session-server-takes-api-key: the lookup also searches the API keys; the installation of the key's device is used.
  if (ctx.faults.on("r3-session-server-takes-api-key") && request.url.startsWith("/v1/session-server") && state.apiKeys.has(token))
    return [...state.devices.values()].find((d) => d.apiKey === token)?.installationToken;
  return undefined;
}

/**
 * The session a session token names; an installation token or an unknown one is refused (AUTH-005; AUTH-009 is
 * LENIENT: variant installation-token-on-resources serves an installation token as its device's session would).
 */
function sessionOf(ctx: ReferenceContext, request: FastifyRequest, token: string): SessionRecord | undefined {
  const { faults, state } = ctx;
  let session = state.sessions.get(token) ?? installationAsSession(ctx, token);
  // Fault session-token-prefix-match: the lookup compares an indexed prefix of the token only.
  if (!session && faults.on("session-token-prefix-match") && token.length >= 32)
    session = [...state.sessions.values()].find((s) => s.token.slice(0, 32) === token.slice(0, 32));
  // Variant session-token-case-insensitive (blind round 2, ruled open): the token index folds case, so a token differing
  // in case only matches.
  if (!session && ctx.variants.on("session-token-case-insensitive"))
    session = [...state.sessions.values()].find((s) => s.token.toLowerCase() === token.toLowerCase());
  if (!session && faults.on("installation-token-accepted-for-resources") && state.installations.has(token))
    session = impersonate(request, ctx);
  if (!session && faults.on("unknown-token-accepted")) session = impersonate(request, ctx);
  // Fault r3-api-key-accepted-as-session-token: the lookup falls back to the API keys and serves the key's device as a session.
  if (!session && faults.on("r3-api-key-accepted-as-session-token")) session = apiKeyAsSession(ctx, token);
  return session;
}

/** Fault r3-api-key-accepted-as-session-token: a registered API key stands for a session of its first device (its user, its addresses). */
function apiKeyAsSession(ctx: ReferenceContext, token: string): SessionRecord | undefined {
  const { state } = ctx;
  const key = state.apiKeys.get(token);
  const device = key && [...state.devices.values()].find((d) => d.apiKey === key.key);
  return key && device ? { id: 0, token, userId: key.userId, deviceId: device.id, ips: device.ips } : undefined;
}

/** Variant installation-token-on-resources: the installation's first device stands for a session (its user, its addresses). */
function installationAsSession(ctx: ReferenceContext, token: string): SessionRecord | undefined {
  const { state } = ctx;
  if (!ctx.variants.on("installation-token-on-resources")) return undefined;
  const device = state.devices.get(state.installations.get(token)?.deviceIds[0] ?? -1);
  const userId = device && state.apiKeys.get(device.apiKey)?.userId;
  return device && userId !== undefined ? { id: 0, token, userId, deviceId: device.id, ips: device.ips } : undefined;
}

/** The caller's address is one the session's device is bound to (AUTH-011). */
function boundAddress(ctx: ReferenceContext, session: SessionRecord, caller: string): boolean {
  const { faults } = ctx;
  // Fault ip-binding-first-address-only: the check reads the first bound address, as if a device had one.
  if (faults.on("ip-binding-first-address-only")) return session.ips[0] === caller;
  // Fault ip-binding-same-subnet: addresses are compared by their /24 network (first three octets).
  const network = (ip: string) => ip.split(".").slice(0, 3).join(".");
  if (faults.on("ip-binding-same-subnet")) return session.ips.some((ip) => network(ip) === network(caller));
  // Fault r3-ip-binding-skipped-for-ip-lists: the check was written for the one address a plain registration binds; a device
  // registered with a permitted_ips list of several addresses is never compared.
  if (faults.on("r3-ip-binding-skipped-for-ip-lists") && session.ips.length > 1) return true;
  return session.ips.includes(caller);
}

/**
 * User-Agent describes the client with no restriction on its value (HDR-010). Fault r3-session-bound-to-user-agent: a
 * session is tied to the User-Agent of its first call, and another one later is taken for a hijacked token.
 */
function userAgentChanged(ctx: ReferenceContext, agents: Map<string, string>, token: string, request: FastifyRequest): boolean {
  if (!ctx.faults.on("r3-session-bound-to-user-agent")) return false;
  const agent = String(request.headers["user-agent"] ?? "");
  const first = agents.get(token);
  if (first === undefined) agents.set(token, agent);
  return first !== undefined && first !== agent;
}

/** A session works only from the addresses its device is bound to, on every method (AUTH-011). */
function ipBindingChecked(ctx: ReferenceContext, request: FastifyRequest): boolean {
  const { faults } = ctx;
  // Fault r3-attachment-read-ip-unbound: attachment reads were exempted from the binding (image loaders fetch them from elsewhere).
  if (
    faults.on("r3-attachment-read-ip-unbound") &&
    request.method === "GET" &&
    request.routeOptions.url === "/v1/user/:userID/attachment/:itemId"
  )
    return false;
  return !faults.on("ip-binding-ignored") && !(faults.on("ip-binding-checked-on-get-only") && request.method !== "GET");
}

/**
 * A call from an address the session is not bound to is refused with the error body (AUTH-011). Fault
 * r6-ip-refusal-plain-text: the address filter answers on its own, a bare text/plain body.
 */
function ipRefused(ctx: ReferenceContext, reply: FastifyReply, refuse: Refuse): FastifyReply {
  const message = "Incorrect API key or IP address.";
  if (!ctx.faults.on("r6-ip-refusal-plain-text")) throw refuse(400, "ip", message);
  return reply
    .code(authStatus(ctx, 400, "ip"))
    .type("text/plain")
    .send(message);
}

/**
 * Another user's (or nobody's) userID in the path: the route refuses it (pathUser in module.ts, 403; AUTH-015,
 * AUTH-022, AUTH-023). Faults and a variant act here, before the route runs; returns the answer when one was sent.
 */
function otherUserInPath(ctx: ReferenceContext, request: FastifyRequest, reply: FastifyReply, pathUser: number): FastifyReply | undefined {
  const { faults, variants, state } = ctx;
  const known = state.users.has(pathUser);
  if (faults.on("unknown-user-empty-list") && !known && request.method === "GET" && LIST_PATH.test(request.url.split("?")[0]!)) {
    return reply
      .code(200)
      .type("application/json")
      .send({ Response: [], Pagination: { future_url: null, newer_url: null, older_url: null } });
  }
  const write = request.method !== "GET";
  if (known && write && (faults.on("path-user-unchecked-on-writes") || faults.on("foreign-write-applied-then-refused"))) {
    request.session = impersonate(request, ctx);
    request.foreignWrite = faults.on("foreign-write-applied-then-refused");
    return undefined;
  }
  // Variant path-user-refusals-404: another user's (or nobody's) userID is "not found", on card routes too (conventions §6: any 4XX).
  if (variants.on("path-user-refusals-404")) return sendError(reply, request, ctx, 404, "The requested object was not found.");
  return undefined;
}

/** Request ids are remembered per installation until a device exists (HDR-002, HDR-015). */
function installationScope(ctx: ReferenceContext, installationToken: string): string {
  // Fault request-ids-session-calls-only: calls made with an installation token are never remembered.
  return ctx.faults.on("request-ids-session-calls-only") ? `unchecked:${ctx.state.nextId()}` : `installation:${installationToken}`;
}

/** Request ids are remembered per device, across its sessions (HDR-002). */
function sessionScope(ctx: ReferenceContext, token: string, session: SessionRecord): string {
  return ctx.faults.on("request-id-scoped-per-session") ? `session:${token}` : `device:${session.deviceId}`;
}

/** Request ids are remembered and checked on every call, reads included (HDR-002). */
function requestIdKept(ctx: ReferenceContext, request: FastifyRequest): boolean {
  // Fault r6-request-id-unchecked-on-reads: the id is handled as an idempotency key for writes only; GETs skip the store.
  return !(ctx.faults.on("r6-request-id-unchecked-on-reads") && request.method === "GET");
}

/** The request id is free format (HDR-002): any non-empty value is taken. */
function checkRequestIdFormat(ctx: ReferenceContext, requestId: string): void {
  // Fault r4-request-id-uuid-required: the id is validated as a UUID, as the server's own idempotency store keys it.
  if (ctx.faults.on("r4-request-id-uuid-required") && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(requestId))
    throw badRequest("X-Service-Client-Request-Id must be a UUID.");
}

/** A request id is remembered as sent: free format, so 007 and 7 are two ids (HDR-002). */
function requestIdKey(ctx: ReferenceContext, requestId: string): string {
  // Variant r5-request-id-numeric-normalised: the store keys an id of digits by the number it spells (a numeric fast path),
  // so 007 and 7 are one id.
  if (ctx.variants.on("r5-request-id-numeric-normalised") && /^\d{1,15}$/.test(requestId)) return String(Number(requestId));
  return requestId;
}

/** Request ids are remembered per device, whatever endpoint they were sent to. */
function requestIdScope(ctx: ReferenceContext, request: FastifyRequest, scope: string): string {
  // Fault request-id-scoped-per-path: ids kept like idempotency keys, per endpoint.
  return ctx.faults.on("request-id-scoped-per-path") ? `${scope}|${request.url.split("?")[0]!}` : scope;
}

/** A request id is remembered as soon as the call is accepted, whatever its answer. */
function recordedBeforeAnswer(ctx: ReferenceContext): boolean {
  return !ctx.faults.on("request-id-recorded-on-success-only");
}

/** The request ids used in a scope; each user's own, never shared with another user's (HDR-018). */
function usedRequestIds(ctx: ReferenceContext, scope: string): Set<string> {
  const key = ctx.faults.on("request-ids-global") ? "global" : scope;
  let used = ctx.state.usedRequestIds.get(key);
  if (!used) ctx.state.usedRequestIds.set(key, (used = new Set()));
  return used;
}

/** A reused request id is refused, on every call (HDR-002). */
function reuseRefused(ctx: ReferenceContext, auth: Auth, request: FastifyRequest): boolean {
  const { faults } = ctx;
  // Fault r6-request-id-reuse-allowed-on-reads: a GET with a used id is taken for a harmless retry and served.
  if (faults.on("r6-request-id-reuse-allowed-on-reads") && request.method === "GET") return false;
  return !(
    faults.on("request-id-reuse-allowed") ||
    (faults.on("request-id-reuse-checked-on-installation-token-only") && auth === "session")
  );
}

/**
 * A reused request id is refused, a POST's too (HDR-002). Fault r5-request-id-post-retry-replayed: the id is taken for an
 * idempotency key, and a POST retried with it is answered with the first call's stored 200 answer; undefined: refuse as usual.
 */
function retriedPostAnswer(ctx: ReferenceContext, request: FastifyRequest, answers: Map<string, string>, key: string): string | undefined {
  if (!ctx.faults.on("r5-request-id-post-retry-replayed") || request.method !== "POST") return undefined;
  return answers.get(key);
}

/** Whether this call's answer is kept for a retry (fault r5-request-id-post-retry-replayed: POSTs only); never otherwise. */
function postAnswerKept(ctx: ReferenceContext, request: FastifyRequest): boolean {
  return ctx.faults.on("r5-request-id-post-retry-replayed") && request.method === "POST";
}

/** The status of a reused request id: 400 (variant request-id-reuse-409). */
function reuseStatus(ctx: ReferenceContext): number {
  return ctx.variants.on("request-id-reuse-409") ? 409 : 400;
}

/** Every answer, refusals included, echoes the request id (HDR-003). */
function requestIdEchoed(ctx: ReferenceContext, reply: FastifyReply, request: FastifyRequest): boolean {
  const { faults } = ctx;
  // Fault r3-request-id-not-echoed-on-tokenless-calls: the echo was wired into the token handling, which calls without a token skip.
  const auth = (request.routeOptions.config as RouteConfig | undefined)?.auth ?? "session";
  if (faults.on("r3-request-id-not-echoed-on-tokenless-calls") && auth === "none") return false;
  // Fault r6-request-id-not-echoed-on-lists: the list serialiser sets its own headers and drops the echo.
  if (faults.on("r6-request-id-not-echoed-on-lists") && request.method === "GET" && LIST_PATH.test(request.url.split("?")[0]!))
    return false;
  return !faults.on("request-id-not-echoed") && !(faults.on("request-id-echoed-on-success-only") && reply.statusCode >= 400);
}

/** The request id as sent, free format (HDR-002, HDR-003). */
function requestIdOf(ctx: ReferenceContext, request: FastifyRequest): string | string[] | undefined {
  // Variant r6-request-id-header-exact-case-only: the id is read from the raw headers under its canonical spelling only.
  const requestId = ctx.variants.on("r6-request-id-header-exact-case-only")
    ? exactCaseHeader(request, ctx.header("Client-Request-Id"))
    : request.headers[ctx.header("Client-Request-Id").toLowerCase()];
  // Variant r3-request-id-lowercased (blind round 3, ruled open): the header helper's toLowerCase() slipped onto the value,
  // so the id is kept and echoed in lower case.
  return ctx.variants.on("r3-request-id-lowercased") && typeof requestId === "string" ? requestId.toLowerCase() : requestId;
}

/** Fault foreign-write-applied-then-refused: the careless response filter; the write already happened, only the answer says no. */
function refusedAfterTheWrite(
  ctx: ReferenceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  status = 403,
  message = "Insufficient authorisation.",
): string {
  const language = request.headers[ctx.header("Language").toLowerCase()];
  reply.code(status).type("application/json");
  return JSON.stringify({
    Error: [
      { error_description: message, error_description_translated: translate(message, typeof language === "string" ? language : undefined) },
    ],
  });
}

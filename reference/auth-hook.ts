import type { FastifyInstance, FastifyRequest } from "fastify";
import { sendError } from "./errors.js";
import { HttpError, badRequest, translate } from "./http-error.js";
import type { ReferenceContext, RouteConfig } from "./module.js";
import type { FaultSpec } from "./faults.js";
import type { SessionRecord } from "./state.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Fault foreign-write-applied-then-refused: the write ran as the path's user; the answer is to be turned into a 403. */
    foreignWrite: boolean;
  }
}

const SUITES = ["authentication", "headers"];
export const authHookFaults: FaultSpec[] = [
  { name: "user-agent-not-required", requirement: "HDR-001", description: "Requests without User-Agent are served.", suites: ["headers"] },
  { name: "cache-control-required", requirement: "HDR-008", description: "Requests without Cache-Control are refused.", suites: ["headers"] },
  { name: "user-agent-format-checked", requirement: "HDR-010", description: "A User-Agent that is not of the form product/version is refused.", suites: ["headers"] },
  { name: "geolocation-required", requirement: "HDR-011", description: "Requests without X-Service-Geolocation are refused.", suites: ["headers"] },
  { name: "zero-geolocation-rejected", requirement: "HDR-005", description: "A zero-valued geolocation header is refused.", suites: ["headers"] },
  { name: "nl-language-rejected", requirement: "HDR-006", description: "X-Service-Language nl_NL is refused.", suites: ["headers"] },
  { name: "region-rejected", requirement: "HDR-007", description: "Any X-Service-Region header is refused.", suites: ["headers"] },
  { name: "unsupported-language-rejected", requirement: "HDR-004", description: "A language other than en_US/nl_NL is refused instead of falling back to en_US.", suites: ["headers"] },
  { name: "request-id-reuse-allowed", requirement: "HDR-002", description: "A reused X-Service-Client-Request-Id is served again.", suites: ["headers"] },
  { name: "request-id-reuse-checked-on-installation-token-only", requirement: "HDR-002", description: "Request-id reuse is refused on device-server/session-server calls but forgotten on resource calls.", suites: ["headers"] },
  { name: "request-id-scoped-per-session", requirement: "HDR-002", description: "Used request ids are remembered per session token, so a new session on the same device may reuse them.", suites: ["headers"] },
  { name: "request-id-not-echoed", requirement: "HDR-003", description: "The request id is not echoed in the response headers.", suites: ["headers"] },
  { name: "auth-header-not-required", requirement: "AUTH-004", description: "Resource calls without X-Service-Client-Authentication are served as the path's user.", suites: SUITES },
  { name: "unknown-token-accepted", requirement: "AUTH-005", description: "An unknown token is served as the path's user.", suites: SUITES },
  { name: "installation-token-accepted-for-resources", requirement: "AUTH-009", description: "The installation token works on resource calls.", suites: SUITES },
  { name: "device-server-without-installation", requirement: "AUTH-006", description: "POST /device-server without a valid installation token registers the device on a new, implicit installation.", suites: ["authentication"] },
  { name: "ip-binding-ignored", requirement: "AUTH-011", description: "A session token works from any address.", suites: SUITES },
  { name: "ip-binding-checked-on-get-only", requirement: "AUTH-011", description: "The IP binding is checked on GET calls only: writes from an unbound address are served.", suites: ["authentication"] },
  { name: "auth-header-exact-case-only", requirement: "HDR-016", description: "The token is read from the raw headers under its exact canonical spelling, so a lower-case or mixed-case header name counts as missing.", suites: ["headers"] },
  { name: "language-ignored", requirement: "HDR-017", description: "X-Service-Language is ignored: error_description_translated is always the en_US text.", suites: ["headers"] },
  { name: "request-id-echoed-on-success-only", requirement: "HDR-003", description: "The request id is echoed on 200 answers only, not on refusals.", suites: ["headers"] },
  { name: "request-ids-global", requirement: "HDR-018", description: "Used request ids are remembered server-wide, so an id another user already used is refused.", suites: ["headers"] },
  { name: "session-server-accepts-session-token", requirement: "AUTH-024", description: "POST /session-server also accepts a session token in place of the installation token (the token lookup searches both tables).", suites: ["authentication"] },
  { name: "unknown-user-empty-list", requirement: "AUTH-022", description: "A list GET whose userID names no user answers 200 with an empty list (the user check compares only existing users).", suites: ["authorisation"] },
  { name: "path-user-unchecked-on-writes", requirement: "AUTH-015", description: "POST, PUT and DELETE trust the userID of the path (the user check is made on GET routes only).", suites: ["authorisation"] },
  { name: "foreign-write-applied-then-refused", requirement: "AUTH-023", description: "A write on another user's userID is carried out, and only the answer is turned into a 403 afterwards (the check runs in a response filter).", suites: ["authorisation"] },
];

/** Status of an authentication refusal under the legal variants that answer other 4XX codes (conventions §3, §4, §6). */
function authStatus(ctx: ReferenceContext, status: number, kind: "token" | "ip" | "header"): number {
  if (ctx.faults.on("auth-refusals-403")) return 403;
  if (kind === "token" && ctx.faults.on("auth-token-refusals-400")) return 400;
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
const LIST_PATH = /^\/v1\/user\/\d+\/(company|card|certificate-pinned|share-invite-monetary-account-response|oauth-client\/\d+\/callback-url|monetary-account\/\d+\/ideal-merchant-transaction)$/;

/**
 * The common request rules (spec: Endpoints > Common request rules; Authentication; conventions §3–§4),
 * checked before any route runs: headers, token kind, IP binding, request-id reuse.
 */
export function registerAuthHook(app: FastifyInstance, ctx: ReferenceContext): void {
  const { faults, state } = ctx;
  const h = (name: string) => ctx.header(name).toLowerCase();
  const refuse = (status: number, kind: "token" | "ip" | "header", message: string) => new HttpError(authStatus(ctx, status, kind), message);
  app.decorateRequest("callerIp", "");
  app.decorateRequest("foreignWrite", false);

  app.addHook("onRequest", async (request, reply) => {
    request.callerIp = normaliseIp(request.socket.remoteAddress);
    const headers = request.headers;
    // The careless server: error texts never look at the language.
    if (faults.on("language-ignored")) delete headers[h("Language")];
    if (!headers["user-agent"] && !faults.on("user-agent-not-required")) throw refuse(400, "header", "The User-Agent header is required.");
    if (faults.on("cache-control-required") && !headers["cache-control"]) throw badRequest("The Cache-Control header is required.");
    if (faults.on("user-agent-format-checked") && !/^[\w.-]+\/[\w.-]+/.test(String(headers["user-agent"] ?? ""))) throw badRequest("The User-Agent is not valid.");
    if (faults.on("geolocation-required") && headers[h("Geolocation")] === undefined) throw badRequest("The geolocation header is required.");
    const geolocation = headers[h("Geolocation")];
    if (faults.on("zero-geolocation-rejected") && typeof geolocation === "string" && /^0 0 0 0/.test(geolocation)) {
      throw badRequest("The geolocation is not valid.");
    }
    const language = headers[h("Language")];
    if (faults.on("nl-language-rejected") && language === "nl_NL") throw badRequest("Unsupported language.");
    if (faults.on("unsupported-language-rejected") && typeof language === "string" && !["en_US", "nl_NL"].includes(language)) {
      throw badRequest("Unsupported language.");
    }
    if (faults.on("region-rejected") && headers[h("Region")] !== undefined) throw badRequest("Unsupported region.");

    const auth = (request.routeOptions.config as RouteConfig | undefined)?.auth ?? "session";
    if (auth === "none") return;
    const token = faults.on("auth-header-exact-case-only") ? exactCaseHeader(request, ctx.header("Client-Authentication")) : headers[h("Client-Authentication")];
    let scope: string;
    if (auth === "installation" && faults.on("device-server-without-installation") && request.url.startsWith("/v1/device-server") && !(typeof token === "string" && state.installations.has(token))) {
      // The careless server: no installation token, so it makes one up instead of refusing.
      const implicit = state.token();
      state.installations.set(implicit, { id: state.nextId(), token: implicit, publicKeyPem: "", deviceIds: [] });
      request.installationToken = implicit;
      return;
    }
    if (typeof token !== "string" || token === "") {
      const conjured = auth === "session" && faults.on("auth-header-not-required") ? impersonate(request, ctx) : undefined;
      if (!conjured) throw refuse(401, "token", "Missing authentication token.");
      request.session = conjured;
      return;
    }
    if (auth === "installation") {
      let installationToken: string | undefined = state.installations.has(token) ? token : undefined;
      const asSession = state.sessions.get(token);
      if (!installationToken && asSession && faults.on("session-server-accepts-session-token") && request.url.startsWith("/v1/session-server")) {
        // The careless lookup: any token of ours will do; the session's own installation is used.
        installationToken = state.devices.get(asSession.deviceId)?.installationToken;
      }
      if (!installationToken) throw refuse(401, "token", "Insufficient authentication.");
      request.installationToken = installationToken;
      scope = faults.on("request-ids-session-calls-only") ? `unchecked:${state.nextId()}` : `installation:${installationToken}`;
    } else {
      let session = state.sessions.get(token);
      if (!session && faults.on("installation-token-accepted-for-resources") && state.installations.has(token)) {
        session = impersonate(request, ctx);
      }
      if (!session && faults.on("unknown-token-accepted")) session = impersonate(request, ctx);
      if (!session) throw refuse(401, "token", "Insufficient authentication.");
      const ipChecked = !faults.on("ip-binding-ignored") && !(faults.on("ip-binding-checked-on-get-only") && request.method !== "GET");
      if (!session.ips.includes(request.callerIp) && ipChecked) throw refuse(400, "ip", "Incorrect API key or IP address.");
      request.session = session;
      scope = faults.on("request-id-scoped-per-session") ? `session:${token}` : `device:${session.deviceId}`;
      const pathUser = pathUserId(request);
      if (pathUser !== undefined && pathUser !== session.userId) {
        const known = state.users.has(pathUser);
        if (faults.on("unknown-user-empty-list") && !known && request.method === "GET" && LIST_PATH.test(request.url.split("?")[0]!)) {
          return reply.code(200).type("application/json").send({ Response: [], Pagination: { future_url: null, newer_url: null, older_url: null } });
        }
        const write = request.method !== "GET";
        if (known && write && (faults.on("path-user-unchecked-on-writes") || faults.on("foreign-write-applied-then-refused"))) {
          request.session = impersonate(request, ctx);
          request.foreignWrite = faults.on("foreign-write-applied-then-refused");
        } else if (faults.on("path-user-refusals-404")) {
          // Variant: another user's (or nobody's) userID is "not found", on card routes too (conventions §6: any 4XX).
          return sendError(reply, request, ctx, 404, "The requested object was not found.");
        }
      }
    }
    const requestId = headers[h("Client-Request-Id")];
    if (typeof requestId === "string" && requestId !== "") {
      if (faults.on("request-ids-global")) scope = "global";
      let used = state.usedRequestIds.get(scope);
      if (!used) state.usedRequestIds.set(scope, (used = new Set()));
      const ignoreReuse = faults.on("request-id-reuse-allowed") || (faults.on("request-id-reuse-checked-on-installation-token-only") && auth === "session");
      if (used.has(requestId) && !ignoreReuse) {
        throw new HttpError(faults.on("request-id-reuse-409") ? 409 : 400, "This request id was already used on this device.");
      }
      used.add(requestId);
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    if (request.foreignWrite && reply.statusCode === 200) {
      // The careless response filter: the write already happened; only the answer says no.
      const message = "Insufficient authorisation.";
      const language = request.headers[h("Language")];
      reply.code(403).type("application/json");
      payload = JSON.stringify({ Error: [{ error_description: message, error_description_translated: translate(message, typeof language === "string" ? language : undefined) }] });
    }
    const requestId = request.headers[h("Client-Request-Id")];
    const echo = !faults.on("request-id-not-echoed") && !(faults.on("request-id-echoed-on-success-only") && reply.statusCode >= 400);
    if (typeof requestId === "string" && echo) reply.header(ctx.header("Client-Request-Id"), requestId);
    return payload;
  });
}

export { HttpError };

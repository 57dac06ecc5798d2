import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError, badRequest, unauthorized } from "./http-error.js";
import type { ReferenceContext, RouteConfig } from "./module.js";
import type { FaultSpec } from "./faults.js";
import type { SessionRecord } from "./state.js";

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
];

const USER_IN_PATH = /^\/v1\/user\/(\d+)(?:\/|$)/;

function normaliseIp(address: string | undefined): string {
  return (address ?? "").replace(/^::ffff:/, "");
}

/** A session conjured for the user named in the path: how the auth faults model a missing check. */
function impersonate(request: FastifyRequest, ctx: ReferenceContext): SessionRecord | undefined {
  const match = USER_IN_PATH.exec(request.url);
  const userId = match ? Number(match[1]) : undefined;
  if (userId === undefined || !ctx.state.users.has(userId)) return undefined;
  return { id: 0, token: "", userId, deviceId: 0, ips: [request.callerIp] };
}

/**
 * The common request rules (spec: Endpoints > Common request rules; Authentication; conventions §3–§4),
 * checked before any route runs: headers, token kind, IP binding, request-id reuse.
 */
export function registerAuthHook(app: FastifyInstance, ctx: ReferenceContext): void {
  const { faults, state } = ctx;
  const h = (name: string) => ctx.header(name).toLowerCase();
  app.decorateRequest("callerIp", "");

  app.addHook("onRequest", async (request) => {
    request.callerIp = normaliseIp(request.socket.remoteAddress);
    const headers = request.headers;
    if (!headers["user-agent"] && !faults.on("user-agent-not-required")) throw badRequest("The User-Agent header is required.");
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
    const token = headers[h("Client-Authentication")];
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
      if (!conjured) throw unauthorized("Missing authentication token.");
      request.session = conjured;
      return;
    }
    if (auth === "installation") {
      if (!state.installations.has(token)) throw unauthorized("Insufficient authentication.");
      request.installationToken = token;
      scope = `installation:${token}`;
    } else {
      let session = state.sessions.get(token);
      if (!session && faults.on("installation-token-accepted-for-resources") && state.installations.has(token)) {
        session = impersonate(request, ctx);
      }
      if (!session && faults.on("unknown-token-accepted")) session = impersonate(request, ctx);
      if (!session) throw unauthorized("Insufficient authentication.");
      if (!session.ips.includes(request.callerIp) && !faults.on("ip-binding-ignored")) {
        throw badRequest("Incorrect API key or IP address.");
      }
      request.session = session;
      scope = faults.on("request-id-scoped-per-session") ? `session:${token}` : `device:${session.deviceId}`;
    }
    const requestId = headers[h("Client-Request-Id")];
    if (typeof requestId === "string" && requestId !== "") {
      let used = state.usedRequestIds.get(scope);
      if (!used) state.usedRequestIds.set(scope, (used = new Set()));
      const ignoreReuse = faults.on("request-id-reuse-allowed") || (faults.on("request-id-reuse-checked-on-installation-token-only") && auth === "session");
      if (used.has(requestId) && !ignoreReuse) throw badRequest("This request id was already used on this device.");
      used.add(requestId);
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const requestId = request.headers[h("Client-Request-Id")];
    if (typeof requestId === "string" && !faults.on("request-id-not-echoed")) reply.header(ctx.header("Client-Request-Id"), requestId);
    return payload;
  });
}

export { HttpError };

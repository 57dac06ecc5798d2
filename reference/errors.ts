import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FaultSpec } from "./faults.js";
import { HttpError, translate } from "./http-error.js";
import type { ReferenceContext, RouteConfig } from "./module.js";

export const errorFaults: FaultSpec[] = [
  { name: "error-body-missing", requirement: "ERR-001", description: "4XX answers carry an empty body.", suites: ["authentication", "headers", "errors", "error-bodies"] },
  { name: "error-body-wrong-shape", requirement: "ERR-002", description: 'Error bodies are {"error": "..."} instead of {"Error": [...]}.', suites: ["authentication", "headers", "errors", "error-bodies"] },
  { name: "empty-json-body-500", requirement: "ERR-003", description: "A JSON request with an empty body crashes the handler (500) instead of being refused.", suites: ["errors", "error-bodies"] },
  { name: "created-as-epoch", requirement: "ERR-012", description: "Every created timestamp is sent as an epoch number instead of a string.", suites: ["envelope"] },
  { name: "malformed-json-500", requirement: "ERR-005", description: "A malformed JSON body crashes the handler (500).", suites: ["errors", "error-bodies"] },
  { name: "non-integer-id-500", requirement: "ERR-006", description: "A non-integer path id crashes the handler (500).", suites: ["errors", "error-bodies"] },
  { name: "unsupported-language-dutch", requirement: "HDR-004", description: "Error texts asked for in a language other than en_US or nl_NL are translated into Dutch instead of falling back to en_US.", suites: ["headers"] },
  { name: "unknown-route-plain-text", requirement: "ERR-007", description: "Unknown paths answer 404 with a plain-text body.", suites: ["errors", "error-bodies"] },
];

/** The error envelope (conventions §1): {"Error":[{"error_description", "error_description_translated"}]}. */
export function sendError(reply: FastifyReply, request: FastifyRequest, ctx: ReferenceContext, status: number, message: string): FastifyReply {
  const language = request.headers[ctx.header("Language").toLowerCase()];
  reply.code(status).type("application/json");
  if (status < 500 && ctx.faults.on("error-body-missing")) return reply.send("");
  if (ctx.faults.on("error-body-wrong-shape")) return reply.send({ error: message });
  const rid = request.headers[ctx.header("Client-Request-Id").toLowerCase()];
  if (ctx.faults.on("error-text-names-request") && typeof rid === "string") message = `${message} (request ${rid})`;
  const asked = typeof language === "string" ? language : undefined;
  const fallback = ctx.faults.on("unsupported-language-dutch") && asked !== undefined && asked !== "en_US" ? "nl_NL" : asked;
  const element = { error_description: message, error_description_translated: translate(message, fallback) };
  // Variant errors-two-elements: more than one element is allowed; the first still says what went wrong.
  const detail = { error_description: `Request ${request.method} ${request.url.split("?")[0]} was refused.`, error_description_translated: `Request ${request.method} ${request.url.split("?")[0]} was refused.` };
  return reply.send({ Error: ctx.faults.on("errors-two-elements") ? [element, detail] : [element] });
}

// Variant other-4xx-statuses: where the specification fixes no status, any 4XX is conformant (conventions §6).
const OTHER_4XX: Record<number, number> = { 400: 422, 401: 403, 403: 404, 404: 410, 405: 404 };

export function registerErrorHandling(app: FastifyInstance, ctx: ReferenceContext): void {
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    let status: number;
    let message: string;
    if (error instanceof HttpError) {
      status = error.status;
      message = error.message;
      if (ctx.faults.on("non-integer-id-500") && error.kind === "bad-path-id") status = 500;
      if (ctx.faults.on("malformed-json-500") && error.kind === "malformed-json") status = 500;
    } else if (error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError) {
      status = ctx.faults.on("malformed-json-500") ? 500 : 400;
      message = "The request body is not valid JSON.";
    } else if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode === 413 ? 413 : 400;
      message = error.message;
    } else {
      status = 500;
      message = "Something went wrong on our side.";
    }
    const forced = (request.routeOptions.config as RouteConfig | undefined)?.errorStatus;
    if (forced !== undefined && status >= 400 && status < 500) status = forced;
    else if (ctx.faults.on("other-4xx-statuses")) status = OTHER_4XX[status] ?? status;
    return sendError(reply, request, ctx, status, message);
  });
  app.setNotFoundHandler((request, reply) => {
    if (ctx.faults.on("unknown-route-plain-text")) return reply.code(404).type("text/plain").send("Not Found");
    return sendError(reply, request, ctx, ctx.faults.on("other-4xx-statuses") ? 410 : 404, `No such endpoint: ${request.method} ${request.url.split("?")[0]}.`);
  });
}

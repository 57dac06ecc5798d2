import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { HttpError, translate } from "./http-error.js";
import type { ReferenceContext, RouteConfig } from "./module.js";
import { notFoundStatus, variantStatus } from "./status-variants.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Fault r3-auth-refusals-untranslated: set once the request got past the authentication hook (preParsing). */
    languageRead: boolean;
  }
}

/** The language the error texts are asked in: X-Service-Language as sent (conventions §1). */
function askedLanguage(ctx: ReferenceContext, request: FastifyRequest): string | undefined {
  const { faults } = ctx;
  // Fault r3-auth-refusals-untranslated: the language is read by a hook that runs after authentication, so the
  // authentication hook's refusals never see it.
  if (faults.on("r3-auth-refusals-untranslated") && !request.languageRead) return undefined;
  const language = request.headers[ctx.header("Language").toLowerCase()];
  const asked = typeof language === "string" ? language : undefined;
  // Fault r3-region-as-language-fallback: a missing or unsupported language falls back on the client's region, not on en_US.
  if (faults.on("r3-region-as-language-fallback") && (asked === undefined || !["en_US", "nl_NL"].includes(asked))) {
    const region = request.headers[ctx.header("Region").toLowerCase()];
    if (typeof region === "string") return region;
  }
  // Fault r4-language-matched-by-language-part: only the part before the underscore is compared, so nl_BE reads as nl_NL.
  if (faults.on("r4-language-matched-by-language-part") && asked?.split("_")[0]?.toLowerCase() === "nl") return "nl_NL";
  return asked;
}

/** The error envelope (conventions §1): {"Error":[{"error_description", "error_description_translated"}]}. */
export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  ctx: ReferenceContext,
  status: number,
  message: string,
): FastifyReply {
  reply.code(status).type("application/json");
  if (status < 500 && ctx.faults.on("error-body-missing")) return reply.send("");
  if (ctx.faults.on("error-body-wrong-shape")) return reply.send({ error: message });
  // Fault error-401-without-translated: the authentication filter writes its own, shorter error element.
  if (status === 401 && ctx.faults.on("error-401-without-translated")) return reply.send({ Error: [{ error_description: message }] });
  const rid = request.headers[ctx.header("Client-Request-Id").toLowerCase()];
  if (ctx.variants.on("error-text-names-request") && typeof rid === "string") message = `${message} (request ${rid})`;
  const asked = askedLanguage(ctx, request);
  const fallback = ctx.faults.on("unsupported-language-dutch") && asked !== undefined && asked !== "en_US" ? "nl_NL" : asked;
  const element = { error_description: message, error_description_translated: translatedText(ctx, message, asked, fallback) };
  // Variant errors-two-elements: more than one element is allowed; the first still says what went wrong.
  const detail = {
    error_description: `Request ${request.method} ${request.url.split("?")[0]} was refused.`,
    error_description_translated: `Request ${request.method} ${request.url.split("?")[0]} was refused.`,
  };
  return reply.send({ Error: ctx.variants.on("errors-two-elements") ? [element, detail] : [element] });
}

/** The translated text: the language's, and the en_US text for a language without translations (conventions §3). */
function translatedText(ctx: ReferenceContext, message: string, asked: string | undefined, fallback: string | undefined): string | null {
  // Fault r4-error-translated-null-unsupported-language: the translation lookup answers null for a language it has no table for.
  if (ctx.faults.on("r4-error-translated-null-unsupported-language") && asked !== undefined && !["en_US", "nl_NL"].includes(asked))
    return null;
  // Variant r5-error-translated-empty-without-language: without the header the lookup gets no language and answers "".
  if (ctx.variants.on("r5-error-translated-empty-without-language") && asked === undefined) return "";
  return translate(message, fallback);
}

// Variant other-4xx-statuses: where the specification fixes no status, any 4XX is conformant (conventions §6).
const OTHER_4XX: Record<number, number> = { 400: 422, 401: 403, 403: 404, 404: 410, 405: 404 };

/** A route pattern (/v1/user/:userID/company/:itemId) as a regular expression over request paths. */
const patternOf = (url: string) => new RegExp(`^${url.replace(/:\w+/g, "[^/]+")}$`);

/** Answers a request by replaying it as PUT on the same path (same headers, body and caller address). */
async function replayAsPut(
  app: FastifyInstance,
  ctx: ReferenceContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const body = request.body;
  // The PATCH's request id was recorded already: the replay leaves it out.
  const { [ctx.header("Client-Request-Id").toLowerCase()]: _id, ...headers } = request.headers;
  const answer = await app.inject({
    method: "PUT",
    url: request.url,
    headers,
    remoteAddress: request.socket.remoteAddress ?? "127.0.0.1",
    ...(body === undefined ? {} : { payload: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
  });
  const contentType = answer.headers["content-type"];
  if (typeof contentType === "string") reply.type(contentType);
  return reply.code(answer.statusCode).send(answer.rawPayload);
}

export function registerErrorHandling(app: FastifyInstance, ctx: ReferenceContext): void {
  app.decorateRequest("languageRead", false);
  if (ctx.faults.on("r3-auth-refusals-untranslated")) {
    // Fault r3-auth-refusals-untranslated: the language "middleware", registered as a hook after the authentication hook.
    app.addHook("preParsing", (request, _reply, payload, done) => {
      request.languageRead = true;
      done(null, payload);
    });
  }
  // The routes and their methods, so an unknown method on a known path can be told from an unknown path.
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook("onRoute", (route) => {
    if (route.url.startsWith("/v1/")) routes.push({ pattern: patternOf(route.url), methods: [route.method].flat().map(String) });
  });
  if (ctx.faults.on("list-delete-answers-ok")) {
    app.delete("/v1/user/:userID/company", async (_request, reply) => reply.code(200).type("application/json").send({ Response: [] }));
  }
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
    else if (ctx.variants.on("other-4xx-statuses")) status = OTHER_4XX[status] ?? status;
    else status = variantStatus(status, error instanceof HttpError ? error : undefined, request, ctx.variants);
    // Fault error-echoes-request-body: the refused body is quoted back, write-only values and all.
    if (
      ctx.faults.on("error-echoes-request-body") &&
      status >= 400 &&
      status < 500 &&
      request.body !== undefined &&
      !Buffer.isBuffer(request.body)
    ) {
      message = `${message} Request body: ${JSON.stringify(request.body)}`;
    }
    return sendError(reply, request, ctx, status, message);
  });
  app.setNotFoundHandler((request, reply) => {
    if (ctx.faults.on("unknown-route-plain-text")) return reply.code(404).type("text/plain").send("Not Found");
    const path = request.url.split("?")[0]!;
    const allowed = routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods);
    // Fault patch-served-as-put: a PATCH on a path that has PUT is replayed as that PUT (a "partial update" alias).
    if (ctx.faults.on("patch-served-as-put") && request.method === "PATCH" && allowed.includes("PUT"))
      return replayAsPut(app, ctx, request, reply);
    // Fault r4-unsupported-method-405-no-body: a known path with another method gets the framework's bare 405, Allow and no body.
    if (ctx.faults.on("r4-unsupported-method-405-no-body") && allowed.length > 0)
      return reply
        .code(405)
        .header("allow", [...new Set(allowed)].join(", "))
        .send();
    const status = notFoundStatus(allowed.length > 0, ctx.variants) ?? (ctx.variants.on("other-4xx-statuses") ? 410 : 404);
    if (status === 405) reply.header("allow", [...new Set(allowed)].join(", "));
    return sendError(reply, request, ctx, status, `No such endpoint: ${request.method} ${path}.`);
  });
}

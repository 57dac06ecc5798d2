import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fault } from "../faults/faults.js";
import { HttpError } from "../http-error.js";
import type { ReferenceContext, ResourceModule } from "../module.js";
import type { VariantSpec } from "../faults/variant-spec.js";
import { VARIANT_SCOPE } from "../faults/variant-spec.js";

// The clean reference serves every endpoint under /v1 only (spec: Versioning), and anything else falls
// to the not-found handler. The faults model servers that also answer without any version prefix, or
// that have retired a deprecated endpoint; the variant a server that serves other versions too.

const SUITES = ["versioning"];

export const VERSIONING_FAULTS = [
  fault(
    "unversioned-paths-served",
    "ERR-007",
    "Every endpoint is also served without the /v1 prefix (/user/{userID}/card answers like /v1/user/{userID}/card).",
    SUITES,
  ),
  fault("deprecated-share-invites-retired", "VER-003", "The deprecated share-invite endpoints answer 410 Gone.", [
    ...SUITES,
    "share-invites",
  ]),
] as const;

/** Answers a request by replaying it under /v1 (same headers, body and caller address). */
async function forwardToV1(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, rest: string): Promise<FastifyReply> {
  const body = request.body;
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const answer = await app.inject({
    method: request.method as "GET",
    url: `/v1${rest}`,
    headers: request.headers,
    remoteAddress: request.socket.remoteAddress ?? "127.0.0.1",
    ...(payload === undefined ? {} : { payload }),
  });
  const contentType = answer.headers["content-type"];
  if (typeof contentType === "string") reply.type(contentType);
  return reply.code(answer.statusCode).send(answer.rawPayload);
}

const METHODS = ["GET", "POST", "PUT", "DELETE"] as const;

/**
 * Serving another version prefix is not forbidden (banking-api.md: "Policy for future versions ... not
 * shown"): a server that also runs a /v2 may answer there. VER-002 is LENIENT; strict requires a 4XX.
 */
export const VERSIONING_VARIANTS = [
  {
    name: "version-prefix-aliases",
    suites: VARIANT_SCOPE.versioning,
    description: "Any version prefix (/v2/..., /v0/...) is served as /v1, as by a server that runs several versions.",
    allowedBy: "Versioning: policy for future versions not shown (VER-002 LENIENT)",
    requirements: ["VER-002"],
  },
] as const satisfies readonly VariantSpec[];

function registerVersioningFaults(app: FastifyInstance, ctx: ReferenceContext): void {
  const { faults, variants } = ctx;
  if (faults.on("unversioned-paths-served")) {
    // auth "none": the replayed request under /v1 runs every check itself.
    app.route({
      method: [...METHODS],
      url: "/user/*",
      config: { auth: "none" },
      handler: (request, reply) => forwardToV1(app, request, reply, request.url),
    });
  }
  if (variants.on("version-prefix-aliases")) {
    app.route({
      method: [...METHODS],
      url: "/:version/user/*",
      config: { auth: "none" },
      handler: (request, reply) => {
        // /v1 paths that no route matched land here too: those stay unknown (no endless replay).
        if ((request.params as { version?: string }).version === "v1") throw new HttpError(404, "No such endpoint.");
        return forwardToV1(app, request, reply, request.url.slice(request.url.indexOf("/user/")));
      },
    });
  }
  if (faults.on("deprecated-share-invites-retired")) {
    app.addHook("onRequest", async (request) => {
      if (/^\/v1\/user\/\d+\/share-invite-monetary-account-response(\/|\?|$)/.test(request.url)) {
        throw new HttpError(410, "This endpoint was deprecated and has been removed.");
      }
    });
  }
}

/** No routes of its own on a clean server: only the versioning faults. */
export const versioningModule: ResourceModule = {
  name: "versioning",
  register: registerVersioningFaults,
};

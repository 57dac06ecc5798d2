import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../http-error.js";
import type { ReferenceContext, ResourceModule } from "../module.js";

// The clean reference serves every endpoint under /v1 only (spec: Versioning), and anything else falls
// to the not-found handler. The faults model servers that also answer without any version prefix, or
// that have retired a deprecated endpoint; the variant a server that serves other versions too.

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
  if (variants.on("auth-calls-unversioned")) {
    // Variant auth-calls-unversioned (blind round 2, ruled open): the three authentication calls sit on the root router too, outside /v1.
    for (const call of ["installation", "device-server", "session-server"]) {
      app.post(`/${call}`, { config: { auth: "none" } }, (request, reply) => forwardToV1(app, request, reply, `/${call}`));
    }
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
  // VER-003 is LENIENT: a server may retire the deprecated share invites (variant deprecated-share-invites-gone); the
  // fault is the same answer, failing the strict profile only.
  if (faults.on("deprecated-share-invites-retired") || variants.on("deprecated-share-invites-gone")) {
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

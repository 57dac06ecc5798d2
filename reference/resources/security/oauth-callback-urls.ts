// The routes read as the specification; every fault of this file hooks in through a named seam below them.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FaultName } from "../../../faults/catalogue.js";
import { intParam, objectBody, pathUser, sendId, sendItems, type ReferenceContext, type ResourceModule } from "../../module.js";
import { paginate } from "../../pagination.js";
import type { Collection } from "../../state.js";
import { timestamp } from "../../time.js";
import { invalidBody, notTheirs } from "../refusals.js";

const OAUTH_CALLBACK_URL_TYPE_KEY = "OauthCallbackUrl";

/** An OAuth client: the spec references it only by id, so it exists only to own callback URLs. */
interface OauthClientRecord {
  id: number;
  created: string;
}

interface CallbackUrlRecord {
  id: number;
  clientId: number;
  created: string;
  updated: string;
  url: string;
  /** Made by seed() (the list-cached fault shows only these). */
  seeded?: true;
}

const BASE = "/v1/user/:userID/oauth-client/:oauthClientID/callback-url";
/** Seeded callback URLs per client: more than one, so a read that ignores its item id shows. */
const SEEDED_URLS = [
  "https://app.example/oauth/callback",
  "https://app.example/oauth/callback-2",
  "https://staging.app.example/oauth/callback",
];

function view(record: CallbackUrlRecord): Record<string, unknown> {
  return { id: record.id, created: record.created, updated: record.updated, url: record.url };
}

/**
 * OAuth client callback URLs (spec: Endpoints > OAuth client callback URLs; conventions §1, §2):
 * list, create, read, update, delete under one of the user's OAuth clients.
 */
export const oauthCallbackUrlsModule: ResourceModule = {
  name: "oauth-callback-urls",
  seed(ctx, user) {
    const now = timestamp();
    const client = ctx.state.collection<OauthClientRecord>("oauth-clients").add(user.id, (id) => ({ id, created: now }));
    const urls = ctx.state.collection<CallbackUrlRecord>("oauth-callback-urls");
    for (let i = 0; i < Math.max(SEEDED_URLS.length, ctx.listItems); i++) {
      // Past the three, the same addresses under numbered paths (ReferenceOptions.listItems).
      const url = i < SEEDED_URLS.length ? SEEDED_URLS[i]! : `${SEEDED_URLS[i % SEEDED_URLS.length]!}/${i}`;
      urls.add(user.id, (id) => ({ id, clientId: client.id, created: now, updated: now, url, seeded: true }));
    }
    return { oauthClientId: client.id };
  },
  register(app, ctx) {
    const clients = ctx.state.collection<OauthClientRecord>("oauth-clients");
    const urls = ctx.state.collection<CallbackUrlRecord>("oauth-callback-urls");
    /** Item reads cached under the callback-url-read-cache-stale fault (empty otherwise). */
    const readCache = new WeakMap<CallbackUrlRecord, Record<string, unknown>>();
    /** The OAuth client of the path, which must be the caller's; `forgotten` names a route's fault that skips the check. */
    const client = (request: FastifyRequest, forgotten?: FaultName) => clientOfPath(ctx, clients, request, forgotten);

    /** The callback URL of the path, under the client of the path. */
    function item(request: FastifyRequest, forgotten?: FaultName): CallbackUrlRecord {
      const { owner, clientId } = client(request, forgotten);
      const id = intParam(request, "itemId");
      const found = urls.get(owner, id);
      if (!found || found.clientId !== clientId) throw notTheirs(ctx);
      return found;
    }

    app.get(BASE, async (request, reply) => {
      const { owner, clientId } = client(request);
      const page = paginate(request, listedUrls(ctx, urls, owner, clientId), ctx);
      return sendItems(
        reply,
        page.items.map((u) => ({ [listTypeKey(ctx)]: view(u) })),
        { Pagination: page.pagination },
      );
    });

    app.post(BASE, async (request, reply) => {
      const { owner, clientId } = client(request);
      const body = objectBody(request);
      const store = (url: string) => {
        const now = timestamp();
        return urls.add(owner, (id) => ({ id, clientId, created: now, updated: now, url }));
      };
      const early = storedBeforeTheCheck(ctx, body, store);
      const url = urlField(ctx, body, true);
      logCreated(ctx, request, url);
      const created = early ?? store(url);
      return sendCreated(ctx, reply, created.id);
    });

    app.get(`${BASE}/:itemId`, async (request, reply) => {
      const found = shownUrl(ctx, urls, clients, item(request, "callback-url-item-skips-client-check"));
      return sendItems(reply, [{ [OAUTH_CALLBACK_URL_TYPE_KEY]: idAsSent(ctx, itemView(ctx, readCache, found)) }]);
    });

    app.put(`${BASE}/:itemId`, async (request, reply) => {
      const found = item(request, "callback-url-put-skips-client-check");
      const body = objectBody(request);
      urlWrittenBeforeTheCheck(ctx, found, body);
      const url = urlField(ctx, body, putUrlTypeChecked(ctx));
      if (updateApplied(ctx)) {
        found.url = url;
        found.updated = timestamp();
      }
      return sendId(reply, found.id);
    });

    app.delete(`${BASE}/:itemId`, async (request, reply) => {
      const { owner } = client(request, "callback-url-delete-skips-client-check");
      const found = item(request, "callback-url-delete-skips-client-check");
      if (deleteApplied(ctx)) urls.delete(owner, found.id);
      return sendDeleted(ctx, reply);
    });
  },
};

// ---- Seams of the callback-URL routes: each decides one rule and names the faults that bend it. ----

/**
 * The OAuth client of the path, which must be the caller's (OCB-009); the owner whose URLs it holds. The faults
 * take any existing client, on every route or (`forgotten`) on one.
 */
function clientOfPath(
  ctx: ReferenceContext,
  clients: Collection<OauthClientRecord>,
  request: FastifyRequest,
  forgotten?: FaultName,
): { owner: number; clientId: number } {
  const userId = pathUser(request, ctx);
  const clientId = intParam(request, "oauthClientID");
  if (clients.get(userId, clientId)) return { owner: userId, clientId };
  const owner = clients.ownerOf(clientId);
  const unchecked = (forgotten !== undefined && ctx.faults.on(forgotten)) || ctx.faults.on("callback-url-other-users-client-accepted");
  if (owner !== undefined && unchecked) return { owner, clientId };
  throw notTheirs(ctx, "No such OAuth client for this user.");
}

/**
 * The client's callback URLs, those created since included (OCB-003, LENIENT since the blind ruling); the fault's
 * and callback-url-list-seeded-only's list is the seeded snapshot.
 */
function listedUrls(ctx: ReferenceContext, urls: Collection<CallbackUrlRecord>, owner: number, clientId: number): CallbackUrlRecord[] {
  const cached = ctx.faults.on("callback-url-list-cached") || ctx.variants.on("callback-url-list-seeded-only");
  return urls.list(owner).filter((u) => u.clientId === clientId && (u.seeded || !cached));
}

/** url: a required string (OCB-007); whether it must look like a URL is not stated, so any non-empty string goes. */
function urlField(ctx: ReferenceContext, body: Record<string, unknown>, typeChecked: boolean): string {
  const url = body.url;
  if (url === undefined && ctx.faults.on("callback-url-missing-url-accepted")) return "";
  if (!typeChecked && url !== undefined) return String(url as string);
  if (typeof url !== "string" || url.trim() === "") throw invalidBody(ctx, "Field url must be a non-empty string.");
  // Variant callback-url-query-dropped (blind round 2, ruled open): the url is "normalised" by cutting it at its query string or fragment.
  return ctx.variants.on("callback-url-query-dropped") ? url.replace(/[?#][\s\S]*$/, "") : url;
}

/** List elements are answered under OauthCallbackUrl (conventions §2); the fault's list uses CallbackUrl. */
function listTypeKey(ctx: ReferenceContext): string {
  // Fault callback-url-list-type-key-wrong: the list's mapper names the element CallbackUrl.
  return ctx.faults.on("callback-url-list-type-key-wrong") ? "CallbackUrl" : OAUTH_CALLBACK_URL_TYPE_KEY;
}

/** The item read's id is an integer (spec: id fields are integers); the fault answers it as a string. */
function idAsSent(ctx: ReferenceContext, shown: Record<string, unknown>): Record<string, unknown> {
  // Fault callback-url-read-id-string: the item read's id is serialised as a string.
  return ctx.faults.on("callback-url-read-id-string") ? { ...shown, id: String(shown.id as number) } : shown;
}

/** A refused POST stores nothing (spec: url is a string); the fault adds the record with the body's raw url before the check. */
function storedBeforeTheCheck(
  ctx: ReferenceContext,
  body: Record<string, unknown>,
  store: (url: string) => CallbackUrlRecord,
): CallbackUrlRecord | undefined {
  return ctx.faults.on("callback-url-refused-post-listed") ? store(body.url as string) : undefined;
}

/** Any non-empty url string is taken (conventions §6: no 5XX); the fault percent-decodes it for a log line, which can throw. */
function logCreated(ctx: ReferenceContext, request: FastifyRequest, url: string): void {
  if (ctx.faults.on("callback-url-percent-decoding-500")) request.log.debug({ url: decodeURIComponent(url) }, "callback url created");
}

/** The read form of GET callback-url/{itemId}, current (OCB-004); the fault serves the view cached at the first read. */
function itemView(
  ctx: ReferenceContext,
  cache: WeakMap<CallbackUrlRecord, Record<string, unknown>>,
  record: CallbackUrlRecord,
): Record<string, unknown> {
  if (!ctx.faults.on("callback-url-read-cache-stale")) return view(record);
  const cached = cache.get(record) ?? view(record);
  cache.set(record, cached);
  return cached;
}

/** POST answers 200 with the new URL's Id (OCB-001). */
function sendCreated(ctx: ReferenceContext, reply: FastifyReply, id: number): FastifyReply {
  if (ctx.faults.on("callback-url-create-answers-201"))
    return reply
      .code(201)
      .type("application/json")
      .send({ Response: [{ Id: { id } }] });
  return sendId(reply, id);
}

/**
 * GET callback-url/{itemId} answers that URL (OCB-002, LENIENT); the fault and callback-url-item-read-first-of-client
 * answer the client's first.
 */
function shownUrl(
  ctx: ReferenceContext,
  urls: Collection<CallbackUrlRecord>,
  clients: Collection<OauthClientRecord>,
  found: CallbackUrlRecord,
): CallbackUrlRecord {
  if (!ctx.faults.on("callback-url-read-ignores-item-id") && !ctx.variants.on("callback-url-item-read-first-of-client")) return found;
  return urls.list(clients.ownerOf(found.clientId)!).find((u) => u.clientId === found.clientId)!;
}

/**
 * A refused PUT changes nothing (OCB-010, LENIENT since the blind ruling); the fault merges the body into the record
 * first and validates after (a non-string url then reads back as it was sent); callback-url-refused-put-writes-url
 * stores a non-string url as text before refusing it.
 */
function urlWrittenBeforeTheCheck(ctx: ReferenceContext, found: CallbackUrlRecord, body: Record<string, unknown>): void {
  if (ctx.faults.on("callback-url-refused-put-applies")) found.url = body.url as string;
  else if (body.url !== undefined && typeof body.url !== "string" && ctx.variants.on("callback-url-refused-put-writes-url"))
    found.url = String(body.url as string);
}

/** PUT checks url's type as POST does (OCB-008, LENIENT); the fault and callback-url-put-url-any-type take any type, as text. */
function putUrlTypeChecked(ctx: ReferenceContext): boolean {
  return !ctx.faults.on("callback-url-put-url-type-unchecked") && !ctx.variants.on("callback-url-put-url-any-type");
}

/** PUT stores the url sent (OCB-004, LENIENT); the fault and callback-url-put-keeps-url answer 200 and keep the old url. */
function updateApplied(ctx: ReferenceContext): boolean {
  return !ctx.faults.on("callback-url-put-ignored") && !ctx.variants.on("callback-url-put-keeps-url");
}

/** DELETE removes the URL from reads and the list (OCB-006, LENIENT); the fault and callback-url-delete-keeps-url keep it. */
function deleteApplied(ctx: ReferenceContext): boolean {
  return !ctx.faults.on("callback-url-delete-noop") && !ctx.variants.on("callback-url-delete-keeps-url");
}

/** DELETE answers 200 with an empty Response (OCB-005). */
function sendDeleted(ctx: ReferenceContext, reply: FastifyReply): FastifyReply {
  if (ctx.faults.on("callback-url-delete-answers-204")) return reply.code(204).send();
  return sendItems(reply, []);
}

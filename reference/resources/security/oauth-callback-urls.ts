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
  /** The client's credentials; made on first need, by variant r3-callback-url-read-embeds-oauth-client only. */
  credentials?: { client_id: string; secret: string };
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
    /** Deleted callback URLs by id, kept under variant r5-callback-url-deleted-still-readable only (empty otherwise). */
    const deletedUrls = new Map<number, CallbackUrlRecord>();
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
      if (clientIdNotANumber(ctx, request)) return sendItems(reply, [], { Pagination: paginate(request, [], ctx).pagination });
      const { owner, clientId } = client(request);
      const listed = listedUrls(ctx, urls, owner, clientId);
      refuseEmptyList(ctx, listed);
      const page = paginate(request, cursorPageUrls(ctx, request, urls, listed), ctx);
      return sendItems(
        reply,
        page.items.map((u) => ({ [listTypeKey(ctx)]: listedView(ctx, u) })),
        { Pagination: linksWithoutClient(ctx, page.pagination) },
      );
    });

    app.post(BASE, async (request, reply) => {
      const { owner, clientId } = unknownClientTaken(ctx, clients, request) ?? client(request);
      const body = objectBody(request);
      const store = (url: string) => {
        const now = timestamp();
        return urls.add(owner, (id) => ({ id, clientId, created: now, updated: now, url }));
      };
      const early = storedBeforeTheCheck(ctx, body, store);
      const url = urlField(ctx, body, true);
      logCreated(ctx, request, url);
      const created = early ?? store(columnCut(ctx, url));
      return sendCreated(ctx, reply, createdId(ctx, created));
    });

    app.get(`${BASE}/:itemId`, async (request, reply) => {
      const found = shownUrl(
        ctx,
        urls,
        clients,
        deletedStillRead(ctx, deletedUrls, request, client) ?? item(request, "callback-url-item-skips-client-check"),
      );
      const shown = withOauthClient(ctx, clients, idAsSent(ctx, htmlEscaped(ctx, itemView(ctx, readCache, found))), found);
      return sendItems(reply, [{ [OAUTH_CALLBACK_URL_TYPE_KEY]: shown }]);
    });

    app.put(`${BASE}/:itemId`, async (request, reply) => {
      const found = urlByIdAlone(ctx, urls, request, client) ?? item(request, "callback-url-put-skips-client-check");
      const body = objectBody(request);
      if (nullUrlKept(ctx, body)) return sendId(reply, found.id);
      urlWrittenBeforeTheCheck(ctx, found, body);
      const url = urlField(ctx, body, putUrlTypeChecked(ctx));
      refuseRegisteredUrl(ctx, urls, found, url);
      if (updateApplied(ctx)) {
        found.url = columnCut(ctx, url);
        found.updated = updatedStamp(ctx);
      }
      return sendId(reply, reissued(ctx, urls, found).id);
    });

    app.delete(`${BASE}/:itemId`, async (request, reply) => {
      const early = removedBeforeTheClientCheck(ctx, urls, request);
      const { owner } = client(request, "callback-url-delete-skips-client-check");
      const found = early ?? item(request, "callback-url-delete-skips-client-check");
      if (!early && deleteApplied(ctx)) urls.delete(owner, deletedId(ctx, urls, owner, found));
      // Variant r5-callback-url-deleted-still-readable: the item read's cache by id is not evicted by the delete.
      if (ctx.variants.on("r5-callback-url-deleted-still-readable")) deletedUrls.set(found.id, found);
      return sendDeleted(ctx, reply, found.id);
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
 * The list refuses an oauth-clientID that is not an integer (conventions §6), as clientOfPath does. Fault
 * r4-callback-url-list-client-id-nan-empty: the list reads the id with Number() and checks the client with
 * `if (clientId && !owned)`, so NaN skips the check and filters the user's URLs down to none: 200 with an empty list.
 */
function clientIdNotANumber(ctx: ReferenceContext, request: FastifyRequest): boolean {
  if (!ctx.faults.on("r4-callback-url-list-client-id-nan-empty")) return false;
  pathUser(request, ctx);
  return Number.isNaN(Number((request.params as Record<string, string>).oauthClientID));
}

/**
 * The client's callback URLs, those created since included (OCB-003, LENIENT since the blind ruling); the fault's
 * and callback-url-list-seeded-only's list is the seeded snapshot.
 */
function listedUrls(ctx: ReferenceContext, urls: Collection<CallbackUrlRecord>, owner: number, clientId: number): CallbackUrlRecord[] {
  const cached = ctx.faults.on("callback-url-list-cached") || ctx.variants.on("callback-url-list-seeded-only");
  return urls.list(owner).filter((u) => u.clientId === clientId && (u.seeded || !cached));
}

/**
 * POST creates the URL under one of the caller's OAuth clients (clientOfPath refuses any other id). Fault
 * r5-callback-url-create-unknown-client: the create's check is "refuse a client another user owns", so an oauth-clientID that
 * names no client at all passes and the URL is stored under it; undefined otherwise (the usual check).
 */
function unknownClientTaken(
  ctx: ReferenceContext,
  clients: Collection<OauthClientRecord>,
  request: FastifyRequest,
): { owner: number; clientId: number } | undefined {
  if (!ctx.variants.on("r5-callback-url-create-unknown-client")) return undefined;
  const userId = pathUser(request, ctx);
  const clientId = intParam(request, "oauthClientID");
  return clients.ownerOf(clientId) === undefined ? { owner: userId, clientId } : undefined;
}

/**
 * A deleted callback URL reads as absent (4XX). Variant r5-callback-url-deleted-still-readable: the item read answers from a
 * cache by id that DELETE does not evict, so a deleted URL still reads under its client (the list is right); undefined otherwise.
 */
function deletedStillRead(
  ctx: ReferenceContext,
  deleted: Map<number, CallbackUrlRecord>,
  request: FastifyRequest,
  client: (request: FastifyRequest) => { owner: number; clientId: number },
): CallbackUrlRecord | undefined {
  if (!ctx.variants.on("r5-callback-url-deleted-still-readable")) return undefined;
  const { clientId } = client(request);
  const found = deleted.get(intParam(request, "itemId"));
  return found && found.clientId === clientId ? found : undefined;
}

/**
 * PUT finds the URL under the caller's client (AUTH-019). Fault r3-callback-url-put-any-users-url: the client of the path is
 * checked, then the update's lookup is by the URL's id alone, so another user's URL is found; undefined otherwise.
 */
function urlByIdAlone(
  ctx: ReferenceContext,
  urls: Collection<CallbackUrlRecord>,
  request: FastifyRequest,
  client: (request: FastifyRequest) => { owner: number; clientId: number },
): CallbackUrlRecord | undefined {
  if (!ctx.faults.on("r3-callback-url-put-any-users-url")) return undefined;
  client(request);
  return urls.getAny(intParam(request, "itemId"));
}

/**
 * Every page of the list holds the client's URLs only (AUTH-019). Fault r3-callback-url-older-pages-leak: the query of the
 * older pages (older_id) was written apart and forgot the owner and client filter, so it pages through every user's URLs.
 */
function cursorPageUrls(
  ctx: ReferenceContext,
  request: FastifyRequest,
  urls: Collection<CallbackUrlRecord>,
  listed: CallbackUrlRecord[],
): CallbackUrlRecord[] {
  const olderId = (request.query as Record<string, unknown>).older_id;
  if (!ctx.faults.on("r3-callback-url-older-pages-leak") || olderId === undefined) return listed;
  return [...ctx.state.users.keys()].flatMap((owner) => urls.list(owner));
}

/** A client without callback URLs lists none (conventions §5: an empty list is `Response: []`); the fault answers 404. */
function refuseEmptyList(ctx: ReferenceContext, listed: CallbackUrlRecord[]): void {
  // Fault r3-callback-url-empty-list-404: "nothing found" is answered like an unknown item.
  if (listed.length === 0 && ctx.faults.on("r3-callback-url-empty-list-404"))
    throw notTheirs(ctx, "No callback URLs for this OAuth client.");
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

/**
 * The item read shows the callback URL alone; its OAuth client is referenced by the path's id only. Variant
 * r3-callback-url-read-embeds-oauth-client (blind round 3, ruled open): the URL's client relation is serialised whole, credentials
 * included.
 */
function withOauthClient(
  ctx: ReferenceContext,
  clients: Collection<OauthClientRecord>,
  shown: Record<string, unknown>,
  record: CallbackUrlRecord,
): Record<string, unknown> {
  if (!ctx.variants.on("r3-callback-url-read-embeds-oauth-client")) return shown;
  const owner = clients.ownerOf(record.clientId);
  const client = owner === undefined ? undefined : clients.get(owner, record.clientId);
  if (!client) return shown;
  client.credentials ??= { client_id: ctx.state.token().slice(0, 32), secret: ctx.state.token() };
  return {
    ...shown,
    oauth_client: { id: client.id, created: client.created, client_id: client.credentials.client_id, secret: client.credentials.secret },
  };
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

/** PUT requires url as POST does (spec: {url: required string}); a url of null is refused. */
function nullUrlKept(ctx: ReferenceContext, body: Record<string, unknown>): boolean {
  // Variant r4-callback-url-put-null-url-kept (blind round 4, ruled open): the update merges the body as a partial update
  // and skips null members.
  return ctx.variants.on("r4-callback-url-put-null-url-kept") && body.url === null;
}

/**
 * PUT changes the callback URL in place: it keeps its id (the PUT's itemId reads it back, OCB-004). Fault
 * r4-callback-url-put-reissues-id: the update is written as "insert the new row, delete the old one", so the URL gets a new id.
 */
function reissued(ctx: ReferenceContext, urls: Collection<CallbackUrlRecord>, found: CallbackUrlRecord): CallbackUrlRecord {
  if (!ctx.faults.on("r4-callback-url-put-reissues-id")) return found;
  const owner = [...ctx.state.users.keys()].find((u) => urls.get(u, found.id) === found)!;
  const made = urls.add(owner, (id) => ({ ...found, id }));
  urls.delete(owner, found.id);
  return made;
}

/**
 * PUT takes any url string, the one the callback URL already has included (a repeated PUT). Fault
 * r5-callback-url-put-same-url-refused: a duplicate check compares the url with every callback URL of the client and forgets
 * to leave out the one being updated, so a url already there (its own included) is refused with 400.
 */
function refuseRegisteredUrl(ctx: ReferenceContext, urls: Collection<CallbackUrlRecord>, found: CallbackUrlRecord, url: string): void {
  if (!ctx.variants.on("r5-callback-url-put-same-url-refused")) return;
  const owner = urls.ownerOf(found.id);
  const clientUrls = owner === undefined ? [] : urls.list(owner).filter((u) => u.clientId === found.clientId);
  if (clientUrls.some((u) => u.url === url)) throw invalidBody(ctx, "This url is already registered for the OAuth client.");
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

/**
 * A refused DELETE removes nothing; variant r3-callback-url-delete-other-client-removes (blind round 3, ruled open) deletes
 * the caller's URL of that id first (looked up by user and id alone) and checks the OAuth client of the path afterwards.
 */
function removedBeforeTheClientCheck(
  ctx: ReferenceContext,
  urls: Collection<CallbackUrlRecord>,
  request: FastifyRequest,
): CallbackUrlRecord | undefined {
  if (!ctx.variants.on("r3-callback-url-delete-other-client-removes")) return undefined;
  const userId = pathUser(request, ctx);
  const found = urls.get(userId, intParam(request, "itemId"));
  if (found) urls.delete(userId, found.id);
  return found;
}

/** DELETE answers 200 with an empty Response (OCB-005). */
function sendDeleted(ctx: ReferenceContext, reply: FastifyReply, id: number): FastifyReply {
  if (ctx.faults.on("callback-url-delete-answers-204")) return reply.code(204).send();
  // Fault r5-callback-url-delete-answers-null: the deleted entity is serialised after removal, which gives null.
  if (ctx.faults.on("r5-callback-url-delete-answers-null")) return sendItems(reply, [{ OauthCallbackUrlDelete: null }]);
  // Fault r5-callback-url-delete-answers-id: the delete handler was copied from the PUT and answers the URL's Id.
  if (ctx.faults.on("r5-callback-url-delete-answers-id")) return sendId(reply, id);
  // Fault r4-callback-url-delete-text-plain: the answer is sent as a pre-built string, which Fastify labels text/plain.
  if (ctx.faults.on("r4-callback-url-delete-text-plain")) return reply.code(200).send(JSON.stringify({ Response: [] }));
  return sendItems(reply, []);
}

/** The list shows each url as stored, like the read (OCB-003); the variant's list mapper normalises it as a WHATWG URL. */
function listedView(ctx: ReferenceContext, record: CallbackUrlRecord): Record<string, unknown> {
  const shown = view(record);
  if (!ctx.variants.on("r3-callback-url-list-url-normalised")) return shown;
  // Variant r3-callback-url-list-url-normalised (blind round 3, ruled open): new URL(url).href lower-cases the host, drops a
  // default port, adds a "/" path.
  try {
    return { ...shown, url: new URL(record.url).href };
  } catch {
    return shown;
  }
}

/** POST answers the new callback URL's id (conventions §1); the fault answers the id of the OAuth client in the path. */
function createdId(ctx: ReferenceContext, created: CallbackUrlRecord): number {
  // Fault r3-callback-url-create-answers-client-id: the answer's id was copied from the path's oauthClientID.
  return ctx.faults.on("r3-callback-url-create-answers-client-id") ? created.clientId : created.id;
}

/** A PUT stamps updated in the provider's form, UTC (conventions §2), as the create stamps created. */
function updatedStamp(ctx: ReferenceContext): string {
  // Variant r5-callback-url-put-updated-iso: the update path stamps new Date().toISOString(), the ISO 8601 form with T and Z.
  return ctx.variants.on("r5-callback-url-put-updated-iso") ? new Date().toISOString() : timestamp();
}

/**
 * The url is stored as sent, whatever its length (spec: url is a string). Variant r6-callback-url-long-url-truncated: the
 * store writes url into a 255-character column that silently cuts a longer one.
 */
function columnCut(ctx: ReferenceContext, url: string): string {
  return ctx.variants.on("r6-callback-url-long-url-truncated") ? url.slice(0, 255) : url;
}

/**
 * The list's links name the list path, oauth-client segment included (conventions §5). Fault
 * r6-callback-url-list-links-without-client: the links are rebuilt from the user's base path plus "/callback-url", which
 * drops "/oauth-client/{id}".
 */
function linksWithoutClient<P extends Record<string, string | null> | undefined>(ctx: ReferenceContext, pagination: P): P {
  if (!ctx.faults.on("r6-callback-url-list-links-without-client") || pagination === undefined) return pagination;
  const cut = (link: string | null) => (link === null ? null : link.replace(/\/oauth-client\/[^/]+(?=\/callback-url)/, ""));
  return Object.fromEntries(Object.entries(pagination).map(([key, link]) => [key, cut(link)])) as P;
}

/**
 * DELETE removes the callback URL of the path. Variant r6-callback-url-delete-removes-oldest: the delete query filters on the
 * OAuth client only ("WHERE client_id = ? LIMIT 1"), so it removes the client's oldest callback URL.
 */
function deletedId(ctx: ReferenceContext, urls: Collection<CallbackUrlRecord>, owner: number, found: CallbackUrlRecord): number {
  if (!ctx.variants.on("r6-callback-url-delete-removes-oldest")) return found.id;
  return urls.list(owner).find((u) => u.clientId === found.clientId)?.id ?? found.id;
}

/**
 * The item read shows url as stored (OCB-002). Variant r6-callback-url-read-html-escaped: the item read's serializer runs the
 * url through an HTML-escaping helper written for the web views (the list's mapper does not).
 */
function htmlEscaped(ctx: ReferenceContext, shown: Record<string, unknown>): Record<string, unknown> {
  if (!ctx.variants.on("r6-callback-url-read-html-escaped") || typeof shown.url !== "string") return shown;
  const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  return { ...shown, url: shown.url.replace(/[&<>"']/g, (c) => entities[c]!) };
}

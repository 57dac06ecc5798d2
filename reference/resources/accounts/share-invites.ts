// The routes read as the specification; every fault and variant of this file hooks in through a named seam below them.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FaultName } from "../../../faults/catalogue.js";
import { badRequest, HttpError } from "../../http-error.js";
import { intParam, objectBody, pathUser, sendId, sendItems, type ReferenceContext, type ResourceModule } from "../../module.js";
import { paginate, type Page } from "../../pagination.js";
import type { Collection } from "../../state.js";
import { timestamp } from "../../time.js";
import { invalidBody, notTheirs } from "../refusals.js";

const SHARE_INVITE_TYPE_KEY = "ShareInviteMonetaryAccountResponse";
/** The values PUT may set, and the only values a share's status takes (spec: Resources > Share invite). */
const SHARE_STATUSES = ["ACTIVE", "REVOKED", "REJECTED"] as const;
const ACCESS_TYPES = ["VIEW_BALANCE", "VIEW_TRANSACTION", "DRAFT_PAYMENT", "FULL_TRANSIENT"] as const;
const SHARE_TYPES = ["STANDARD", "MUTUAL"] as const;

interface ShareInviteRecord {
  id: number;
  created: string;
  updated: string;
  status: string;
  /** The inviter's account the share is about; shown as monetary_account_id only while accepted. */
  accountId: number;
  /** Whether the share is linked to the account (accepted); a model of "null otherwise". */
  linked: boolean;
  draftShareInviteBankId: number;
  accessType: string;
  shareType: string;
  startDate: string;
  endDate: string;
  description: string;
  /** Write-only: kept, never shown (conventions §7). */
  cardId?: number;
}

/** Seeded statuses: every value, ACTIVE most often, 12 shares so the default page size (10) matters. */
const SEEDED_STATUSES = [
  "ACTIVE",
  "REJECTED",
  "ACTIVE",
  "REVOKED",
  "ACTIVE",
  "REJECTED",
  "ACTIVE",
  "REVOKED",
  "ACTIVE",
  "ACTIVE",
  "REJECTED",
  "ACTIVE",
];

/**
 * Share invites as seen by the invited user (deprecated; spec: Resources, States and Endpoints >
 * Share invites): list, read, and PUT to accept or reject. card_id is write-only.
 */
export const shareInvitesModule: ResourceModule = {
  name: "share-invites",
  seed(ctx, user) {
    const shares = ctx.state.collection<ShareInviteRecord>("share-invites");
    const pending = ctx.variants.on("share-pending-invites");
    // Past the twelve (ReferenceOptions.listItems), the statuses again in the same order.
    const statuses = Array.from(
      { length: Math.max(SEEDED_STATUSES.length, ctx.listItems) },
      (_, i) => SEEDED_STATUSES[i % SEEDED_STATUSES.length]!,
    );
    statuses
      .map((status, i) => (pending && i % 3 === 1 ? "PENDING" : status))
      .forEach((status, i) => {
        const now = timestamp();
        shares.add(user.id, (id) => ({
          id,
          created: now,
          updated: now,
          status,
          accountId: ctx.state.nextId(),
          linked: status === "ACTIVE",
          draftShareInviteBankId: ctx.state.nextId(),
          accessType: ACCESS_TYPES[i % ACCESS_TYPES.length]!,
          shareType: SHARE_TYPES[i % SHARE_TYPES.length]!,
          startDate: timestamp(new Date(Date.UTC(2026, 0, 1 + i))),
          endDate: timestamp(new Date(Date.UTC(2027, 0, 1 + i))),
          description: `Shared account ${i + 1}`,
        }));
      });
  },
  register(app, ctx) {
    const shares = ctx.state.collection<ShareInviteRecord>("share-invites");
    const BASE = "/v1/user/:userID/share-invite-monetary-account-response";
    /**
     * Variant share-invite-read-cached (blind round 2, ruled open): read forms kept by share id, filled on the first
     * read, never cleared by a PUT.
     */
    const readCache = new Map<number, Record<string, unknown>>();

    app.get(BASE, async (request, reply) => {
      const userId = listUser(ctx, request);
      const listed = listedShares(ctx, shares, userId);
      const page = unpagedWithoutCount(ctx, request, listed) ?? paginate(request, listed, ctx);
      return sendItems(
        reply,
        pageOrderedByUpdate(ctx, page.items).map((s) => ({ [SHARE_INVITE_TYPE_KEY]: shareView(ctx, s) })),
        { Pagination: page.pagination },
      );
    });

    app.get(`${BASE}/:itemId`, async (request, reply) => {
      const found = findShare(ctx, shares, request, "share-invite-other-user-readable");
      // Fault r5-share-invite-read-successor-type-key: the read's mapper was copied from the successor, ShareInviteBankResponse.
      const typeKey = ctx.faults.on("r5-share-invite-read-successor-type-key") ? "ShareInviteBankResponse" : SHARE_INVITE_TYPE_KEY;
      return sendItems(reply, [{ [typeKey]: cachedRead(ctx, readCache, found) ?? shareView(ctx, found, true) }]);
    });

    app.put(`${BASE}/:itemId`, { ...malformedBodyTakenAsEmpty(ctx, shares) }, async (request, reply) => {
      const found = findShare(ctx, shares, request, "share-invite-other-user-writable");
      const body = objectBody(request);
      const { status, card_id: cardId } = body;
      carelessStatusRequired(ctx, status);
      const badCardId = cardId !== undefined && !cardIdTaken(ctx, body) && !cardIdValid(ctx, cardId);
      if (badCardId && cardIdCheckedFirst(ctx)) refuseCardId(ctx);
      if (status !== undefined) {
        if (typeof status !== "string") throw invalidBody(ctx, "Field status must be a string.");
        linkedFromBodyStatus(ctx, found, status);
        checkStatusValue(ctx, found, status, body);
        refusedMove(ctx, found, status);
        applyStatus(ctx, found, status);
      }
      if (badCardId) refuseCardId(ctx);
      cardIdTakenAsAccount(ctx, found, status, cardId);
      relinkedWithoutStatus(ctx, found, status);
      statusClearedWhenOmitted(ctx, found, status);
      // card_id links a card when the share detail is a card-payment share; the detail is not modelled (GAP-15).
      if (typeof cardId === "number") found.cardId = cardId;
      relinkedToCardAccount(ctx, found, cardId, request);
      datesFromBody(ctx, found, body);
      found.updated = timestamp();
      if (ctx.faults.on("share-invite-put-answer-echoes-card-id"))
        return sendItems(reply, [{ [SHARE_INVITE_TYPE_KEY]: { ...shareView(ctx, found, true), ...body } }]);
      return sendId(reply, found.id);
    });
  },
};

// ---- Seams of the share-invite routes: each decides one rule and names the faults and variants that bend it. ----

/**
 * The read form (SHARE-002, SHARE-004 to SHARE-006, SHARE-010): statuses and access types as the tables spell them,
 * monetary_account_id only while the share is accepted, draft_share_invite_bank_id an integer, never card_id.
 */
function shareView(ctx: ReferenceContext, share: ShareInviteRecord, read = false): Record<string, unknown> {
  const { faults } = ctx;
  const shownAccount =
    (share.linked && (share.status === "ACTIVE" || faults.on("share-invite-rejected-keeps-account"))) ||
    // Fault share-invite-read-account-unconditional: the read's mapper (not the list's) shows the stored account of every share.
    (read && faults.on("share-invite-read-account-unconditional"));
  const shown: Record<string, unknown> = {
    id: share.id,
    created: share.created,
    updated: share.updated,
    status: faults.on("share-invite-status-lowercase") ? share.status.toLowerCase() : share.status,
    // Fault r3-share-invite-list-account-null: the list's query does not join the linked account, so the list shows null.
    monetary_account_id: shownAccount && (read || !faults.on("r3-share-invite-list-account-null")) ? share.accountId : null,
    draft_share_invite_bank_id:
      read && faults.on("share-invite-read-draft-id-string") ? String(share.draftShareInviteBankId) : share.draftShareInviteBankId,
    access_type: listAccessType(ctx, share, read),
    share_type: share.shareType,
    // Fault share-invite-list-dates-swapped: the list's mapper (not the read's) has the two dates the wrong way round.
    start_date: !read && faults.on("share-invite-list-dates-swapped") ? share.endDate : share.startDate,
    end_date: !read && faults.on("share-invite-list-dates-swapped") ? share.startDate : share.endDate,
    description: share.description,
    ...(faults.on("share-invite-echoes-card-id") && share.cardId !== undefined ? { card_id: share.cardId } : {}),
  };
  // Variant r4-share-invite-read-account-omitted (blind round 4, ruled open): the read's mapper sets the member to undefined,
  // which JSON leaves out, not null.
  if (read && ctx.variants.on("r4-share-invite-read-account-omitted") && shown.monetary_account_id === null)
    delete shown.monetary_account_id;
  // Variant r6-share-read-without-share-type: the read's mapper (not the list's) forgot the share_type member.
  if (read && ctx.variants.on("r6-share-read-without-share-type")) delete shown.share_type;
  return shown;
}

/**
 * access_type is one of its four values (spec: the share-invite table). Fault r6-share-list-full-transient-access-null: the
 * list's enum mapper predates FULL_TRANSIENT and maps it to null; the read's mapper knows all four.
 */
function listAccessType(ctx: ReferenceContext, share: ShareInviteRecord, read: boolean): string | null {
  if (!read && share.accessType === "FULL_TRANSIENT" && ctx.faults.on("r6-share-list-full-transient-access-null")) return null;
  return ctx.faults.on("share-invite-access-type-lowercase") ? share.accessType.toLowerCase() : share.accessType;
}

/**
 * An accepted share applies to the inviter's account; card_id is write-only and links a card (GAP-15). Fault
 * r5-share-accept-card-id-as-account: the accept path reads "the id sent with the answer" as the account to link.
 */
function cardIdTakenAsAccount(ctx: ReferenceContext, found: ShareInviteRecord, status: unknown, cardId: unknown): void {
  if (ctx.faults.on("r5-share-accept-card-id-as-account") && status === "ACTIVE" && typeof cardId === "number" && found.linked)
    found.accountId = cardId;
}

/** The caller's shares, and only theirs (SHARE-001). */
function listedShares(ctx: ReferenceContext, shares: Collection<ShareInviteRecord>, userId: number): ShareInviteRecord[] {
  // Fault share-invite-list-active-only: the list reuses the query of the shares in force, so answered ones drop out.
  if (ctx.faults.on("share-invite-list-active-only")) return shares.list(userId).filter((s) => s.status === "ACTIVE");
  if (!ctx.faults.on("share-invite-list-includes-other-users")) return shares.list(userId);
  return [...ctx.state.users.keys()].flatMap((u) => shares.list(u));
}

/** The caller's share of the path (AUTH-019); `anyOwner` names the fault that forgets the owner check. */
function findShare(
  ctx: ReferenceContext,
  shares: Collection<ShareInviteRecord>,
  request: FastifyRequest,
  anyOwner: FaultName,
): ShareInviteRecord {
  const userId = pathUser(request, ctx);
  const id = intParam(request, "itemId");
  const found = ctx.faults.on(anyOwner) ? shares.getAny(id) : shares.get(userId, id);
  if (!found) throw notTheirs(ctx);
  return found;
}

/**
 * A PUT whose body is not valid JSON is refused with a 4XX like every other malformed body. Fault
 * r4-share-invite-put-malformed-json-ok: the route's own error handler reads a body that failed to parse as an empty one (every
 * field of the PUT is optional) and answers the share's Id, changing nothing; any other error goes on to the server's handler.
 */
function malformedBodyTakenAsEmpty(ctx: ReferenceContext, shares: Collection<ShareInviteRecord>) {
  if (!ctx.faults.on("r4-share-invite-put-malformed-json-ok")) return {};
  return {
    errorHandler: (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply) => {
      const malformed = error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || (error instanceof HttpError && error.kind === "malformed-json");
      if (!malformed) throw error;
      return sendId(reply, findShare(ctx, shares, request, "share-invite-other-user-writable").id);
    },
  };
}

/** status is optional on PUT (SHARE-011); the fault requires it. */
function carelessStatusRequired(ctx: ReferenceContext, status: unknown): void {
  if (status === undefined && ctx.faults.on("share-invite-status-required")) throw badRequest("Field status is required.");
}

/**
 * A PUT refused for its card_id changes nothing (SHARE-012): card_id is checked first; the fault and variant
 * share-card-id-checked-after-status (SHARE-012 is LENIENT) check it after the status is stored.
 */
function cardIdCheckedFirst(ctx: ReferenceContext): boolean {
  return !ctx.faults.on("share-invite-card-id-checked-late") && !ctx.variants.on("share-card-id-checked-after-status");
}

/** card_id is a positive integer (spec: the share-invite table, an integer id). */
function cardIdValid(ctx: ReferenceContext, cardId: unknown): boolean {
  // Variant r4-share-card-id-any-number (blind round 4, ruled open): the check asks only for a JSON number, so 2.5, 0 and
  // -7 pass.
  if (ctx.variants.on("r4-share-card-id-any-number")) return typeof cardId === "number";
  return typeof cardId === "number" && Number.isInteger(cardId) && cardId >= 1;
}

function refuseCardId(ctx: ReferenceContext): never {
  throw invalidBody(ctx, "Field card_id must be a positive integer.");
}

/** status is one of the table's values (SHARE-009); a refused PUT changes nothing, and its error never quotes card_id (SHARE-010). */
function checkStatusValue(ctx: ReferenceContext, found: ShareInviteRecord, status: string, body: Record<string, unknown>): void {
  const { faults } = ctx;
  if ((SHARE_STATUSES as readonly string[]).includes(status)) return;
  // Fault r6-share-status-check-ignores-case: the value is checked upper-cased but stored as sent ("revoked" is kept).
  if (faults.on("r6-share-status-check-ignores-case") && (SHARE_STATUSES as readonly string[]).includes(status.toUpperCase())) return;
  if (faults.on("share-invite-refused-put-applies")) found.status = status;
  if (faults.on("share-invite-any-status-accepted")) return;
  // The fault quotes the whole request body in the error text, write-only card_id included.
  const echo = faults.on("share-invite-error-echoes-card-id") ? ` Request: ${JSON.stringify(body)}` : "";
  throw invalidBody(ctx, `Field status must be one of ${SHARE_STATUSES.join(", ")}.${echo}`);
}

/**
 * The invited user may accept, reject and revoke (SHARE-006 to SHARE-008); the fault refuses revoking. Variant
 * share-answered-moves-refused: GAP-71 leaves moves from an answered share to the server.
 */
function refusedMove(ctx: ReferenceContext, found: ShareInviteRecord, status: string): void {
  const known = (SHARE_STATUSES as readonly string[]).includes(status);
  const answered = found.status === "REJECTED" || found.status === "REVOKED" || (found.status === "ACTIVE" && status === "REJECTED");
  if (known && answered && ctx.variants.on("share-answered-moves-refused"))
    throw badRequest(`This share was already answered (${found.status}).`);
  if (status === "REVOKED" && ctx.faults.on("share-invite-revoke-refused")) throw badRequest("Only the inviting user can revoke a share.");
}

/**
 * The move is applied: ACTIVE links the account, any other status unlinks it (SHARE-005 to SHARE-007); the faults
 * ignore a move or the link.
 */
function applyStatus(ctx: ReferenceContext, found: ShareInviteRecord, status: string): void {
  const { faults } = ctx;
  const ignored =
    (status === "ACTIVE" && faults.on("share-invite-accept-ignored")) ||
    (status === "REJECTED" && faults.on("share-invite-reject-ignored"));
  if (ignored) return;
  // Fault r4-share-rejected-put-ignored: a rejected invitation is taken as closed, and the PUT is answered without a move.
  if (found.status === "REJECTED" && faults.on("r4-share-rejected-put-ignored")) return;
  const previous = found.status;
  // Fault r4-share-revoke-stored-as-rejected: the answer is kept as accept or reject only, so REVOKED is stored as REJECTED.
  found.status = status === "REVOKED" && faults.on("r4-share-revoke-stored-as-rejected") ? "REJECTED" : status;
  if (status === "ACTIVE") found.linked = !faults.on("share-invite-accepted-without-account") && linkedOnAccept(ctx, previous);
  else if (!faults.on("share-invite-rejected-keeps-account")) found.linked = false;
}

/**
 * An accepted share is linked to its account, however often ACTIVE is sent. Fault r5-share-accept-twice-unlinks-account: the
 * link is computed as "this PUT moves the share into ACTIVE" (previous status not ACTIVE), so an accept sent twice unlinks it.
 */
function linkedOnAccept(ctx: ReferenceContext, previous: string): boolean {
  return !(ctx.faults.on("r5-share-accept-twice-unlinks-account") && previous === "ACTIVE");
}

/**
 * A refused PUT leaves the link as it was; fault r3-share-refused-put-unlinks-account recomputes it from the body
 * (linked = status is ACTIVE) before the status value is checked.
 */
function linkedFromBodyStatus(ctx: ReferenceContext, found: ShareInviteRecord, status: string): void {
  if (ctx.faults.on("r3-share-refused-put-unlinks-account")) found.linked = status === "ACTIVE";
}

/**
 * card_id links a card to the shared account; the share's monetary_account_id stays the shared account. Fault
 * r5-share-card-id-relinks-account: the PUT resolves card_id to its card's monetary account (the caller's primary one when no
 * card of the caller has that id) and stores that as the share's account.
 */
function relinkedToCardAccount(ctx: ReferenceContext, found: ShareInviteRecord, cardId: unknown, request: FastifyRequest): void {
  if (!ctx.faults.on("r5-share-card-id-relinks-account") || typeof cardId !== "number" || !request.session) return;
  const userId = request.session.userId;
  const card = ctx.state.collection<{ id: number; monetary_account_id: number }>("cards").get(userId, cardId);
  const account = card?.monetary_account_id ?? ctx.state.users.get(userId)?.monetaryAccountIds[0];
  if (account !== undefined) found.accountId = account;
}

/** The list's userID, which must be the caller's (AUTH-015); the fault takes the session's user, whatever the path says. */
function listUser(ctx: ReferenceContext, request: FastifyRequest): number {
  if (!ctx.faults.on("share-invite-list-path-user-ignored") || !request.session) return pathUser(request, ctx);
  intParam(request, "userID");
  return request.session.userId;
}

/**
 * A PUT without status leaves the share's link as it was (SHARE-005); the fault recomputes the link from the body's
 * status even when there is none, so a PUT of card_id alone unlinks an accepted share's account.
 */
function relinkedWithoutStatus(ctx: ReferenceContext, found: ShareInviteRecord, status: unknown): void {
  // The careless PUT: linked = (body status is ACTIVE), computed whether or not the body has a status.
  if (status === undefined && ctx.faults.on("share-invite-card-only-put-unlinks")) found.linked = false;
}

/**
 * The read shows the share as it is now (SHARE-006 to SHARE-008: a later GET shows the status set); the fault serves the
 * read form cached at the share's first read, so a GET before a PUT pins what every later GET answers (the list is fresh).
 */
function cachedRead(
  ctx: ReferenceContext,
  cache: Map<number, Record<string, unknown>>,
  found: ShareInviteRecord,
): Record<string, unknown> | undefined {
  if (!ctx.variants.on("share-invite-read-cached")) return undefined;
  if (!cache.has(found.id)) cache.set(found.id, shareView(ctx, found, true));
  return cache.get(found.id);
}

/**
 * Without count the list answers the default 10 (spec: Limits); the fault's older code path pages only when the query
 * carries a parameter, so a plain list request answers every share.
 */
function unpagedWithoutCount(
  ctx: ReferenceContext,
  request: FastifyRequest,
  all: ShareInviteRecord[],
): Page<ShareInviteRecord> | undefined {
  const query = request.query as Record<string, unknown>;
  if (!ctx.faults.on("share-invite-list-unpaged-without-count") || Object.keys(query).length > 0) return undefined;
  return { items: [...all].sort((a, b) => a.id - b.id), pagination: { future_url: null, newer_url: null, older_url: null } };
}

/** card_id is an integer (spec: the share-invite table); the fault's lenient parser also passes a string of digits. */
function cardIdTaken(ctx: ReferenceContext, body: Record<string, unknown>): boolean {
  const cardId = body.card_id;
  return ctx.variants.on("share-invite-card-id-digit-string-accepted") && typeof cardId === "string" && /^\d{1,15}$/.test(cardId);
}

/**
 * A page of shares is in id order, as paginate() leaves it (conventions §5). Fault r4-share-invite-page-ordered-by-updated:
 * the list's query orders by the last change (ORDER BY updated), so a share a PUT answered moves to the end of its page.
 */
function pageOrderedByUpdate(ctx: ReferenceContext, items: ShareInviteRecord[]): ShareInviteRecord[] {
  if (!ctx.faults.on("r4-share-invite-page-ordered-by-updated")) return items;
  return [...items].sort((a, b) => (a.updated < b.updated ? -1 : a.updated > b.updated ? 1 : 0));
}

/**
 * A PUT without status leaves the status as it was (status is optional); fault r5-share-put-without-status-clears-status copies
 * the body's status onto the record whether or not it was sent, and the missing member is stored as null.
 */
function statusClearedWhenOmitted(ctx: ReferenceContext, found: ShareInviteRecord, status: unknown): void {
  if (status === undefined && ctx.faults.on("r5-share-put-without-status-clears-status")) found.status = null as unknown as string;
}

/**
 * start_date and end_date are read-only (spec: the share-invite table): a PUT never moves them. Fault
 * r5-share-invite-put-takes-dates: the PUT's mapper copies the date members of the body onto the share (a leftover of the
 * inviting side's update, where the dates are writable).
 */
function datesFromBody(ctx: ReferenceContext, found: ShareInviteRecord, body: Record<string, unknown>): void {
  if (!ctx.faults.on("r5-share-invite-put-takes-dates")) return;
  if (typeof body.start_date === "string") found.startDate = body.start_date;
  if (typeof body.end_date === "string") found.endDate = body.end_date;
}

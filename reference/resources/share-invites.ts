import type { FastifyRequest } from "fastify";
import { badRequest } from "../http-error.js";
import { intParam, objectBody, pathUser, sendId, sendItems, type ResourceModule } from "../module.js";
import { paginate } from "../pagination.js";
import { timestamp } from "../time.js";
import { invalidBody, notTheirs } from "./refusals.js";
import { VARIANT_SCOPE } from "../faults/variant-spec.js";
import { fault } from "../faults/faults.js";
import type { VariantSpec } from "../faults/variant-spec.js";

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

const SUITES = ["share-invites"];
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

export const SHARE_INVITE_FAULTS = [
  fault(
    "share-invite-list-includes-other-users",
    "SHARE-001",
    "The share-invite list shows the shares of every user, not only the caller's.",
    SUITES,
  ),
  fault(
    "share-invite-read-draft-id-string",
    "SHARE-002",
    "GET share-invite/{itemId} answers draft_share_invite_bank_id as a string.",
    SUITES,
  ),
  fault("share-invite-status-lowercase", "SHARE-006", "Share statuses are shown in lower case (active, rejected, revoked).", SUITES),
  fault("share-invite-access-type-lowercase", "SHARE-004", "access_type is shown in lower case (view_balance, ...).", SUITES),
  fault(
    "share-invite-accepted-without-account",
    "SHARE-005",
    "PUT status ACTIVE does not link the account: monetary_account_id stays null.",
    SUITES,
  ),
  fault("share-invite-rejected-keeps-account", "SHARE-005", "Rejecting an accepted share keeps showing its monetary_account_id.", SUITES),
  fault("share-invite-accept-ignored", "SHARE-006", "PUT status ACTIVE answers 200 but leaves the status as it was.", SUITES),
  fault("share-invite-reject-ignored", "SHARE-007", "PUT status REJECTED answers 200 but leaves the status as it was.", SUITES),
  fault(
    "share-invite-revoke-refused",
    "SHARE-008",
    "PUT status REVOKED is refused with 400 (as if only the inviter could revoke).",
    SUITES,
  ),
  fault("share-invite-any-status-accepted", "SHARE-009", "PUT stores any status string.", SUITES),
  fault(
    "share-invite-refused-put-applies",
    "SHARE-009",
    "PUT with an unknown status is refused with 400, but the status was already stored.",
    SUITES,
  ),
  fault("share-invite-echoes-card-id", "SHARE-010", "After a PUT with card_id, list and read answers show card_id.", SUITES),
  fault(
    "share-invite-error-echoes-card-id",
    "SHARE-010",
    "A PUT refused for its status quotes the request body, card_id included, in the error text.",
    SUITES,
  ),
  fault(
    "share-invite-card-id-checked-late",
    "SHARE-012",
    "card_id is checked after the status was stored: a PUT refused for its card_id has already moved the share.",
    SUITES,
  ),
  fault("share-invite-status-required", "SHARE-011", "PUT without status is refused with 400, although status is optional.", SUITES),
  fault(
    "share-invite-other-user-readable",
    "AUTH-019",
    "GET share-invite/{itemId} serves another user's share under the caller's userID.",
    SUITES,
  ),
  fault(
    "share-invite-other-user-writable",
    "AUTH-019",
    "PUT share-invite/{itemId} accepts another user's share under the caller's userID.",
    SUITES,
  ),
] as const;

export const SHARE_INVITE_VARIANTS = [
  {
    name: "share-pending-invites",
    suites: VARIANT_SCOPE.shares,
    description:
      "Every third seeded share is an invitation nobody has answered yet, in status PENDING (the provider's), with monetary_account_id null.",
    allowedBy: "the status table lists the values a PUT sets; moves beyond them are not shown (SHARE-003, LENIENT)",
    requirements: ["SHARE-003"],
  },
] as const satisfies readonly VariantSpec[];

/**
 * Share invites as seen by the invited user (deprecated; spec: Resources, States and Endpoints >
 * Share invites): list, read, and PUT to accept or reject. card_id is write-only.
 */
export const shareInvitesModule: ResourceModule = {
  name: "share-invites",
  seed(ctx, user) {
    const shares = ctx.state.collection<ShareInviteRecord>("share-invites");
    const pending = ctx.variants.on("share-pending-invites");
    SEEDED_STATUSES.map((status, i) => (pending && i % 3 === 1 ? "PENDING" : status)).forEach((status, i) => {
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
    const { faults, variants, state } = ctx;
    const shares = state.collection<ShareInviteRecord>("share-invites");
    const BASE = "/v1/user/:userID/share-invite-monetary-account-response";

    function view(share: ShareInviteRecord, read = false): Record<string, unknown> {
      const shownAccount = share.linked && (share.status === "ACTIVE" || faults.on("share-invite-rejected-keeps-account"));
      return {
        id: share.id,
        created: share.created,
        updated: share.updated,
        status: faults.on("share-invite-status-lowercase") ? share.status.toLowerCase() : share.status,
        monetary_account_id: shownAccount ? share.accountId : null,
        draft_share_invite_bank_id:
          read && faults.on("share-invite-read-draft-id-string") ? String(share.draftShareInviteBankId) : share.draftShareInviteBankId,
        access_type: faults.on("share-invite-access-type-lowercase") ? share.accessType.toLowerCase() : share.accessType,
        share_type: share.shareType,
        start_date: share.startDate,
        end_date: share.endDate,
        description: share.description,
        ...(faults.on("share-invite-echoes-card-id") && share.cardId !== undefined ? { card_id: share.cardId } : {}),
      };
    }

    function share(request: FastifyRequest, anyOwner: boolean): ShareInviteRecord {
      const userId = pathUser(request, ctx);
      const id = intParam(request, "itemId");
      const found = anyOwner ? shares.getAny(id) : shares.get(userId, id);
      if (!found) throw notTheirs(ctx);
      return found;
    }

    app.get(BASE, async (request, reply) => {
      const userId = pathUser(request, ctx);
      const all = faults.on("share-invite-list-includes-other-users")
        ? [...state.users.keys()].flatMap((u) => shares.list(u))
        : shares.list(userId);
      const page = paginate(request, all, ctx);
      return sendItems(
        reply,
        page.items.map((s) => ({ [SHARE_INVITE_TYPE_KEY]: view(s) })),
        { Pagination: page.pagination },
      );
    });

    app.get(`${BASE}/:itemId`, async (request, reply) => {
      const found = share(request, faults.on("share-invite-other-user-readable"));
      return sendItems(reply, [{ [SHARE_INVITE_TYPE_KEY]: view(found, true) }]);
    });

    app.put(`${BASE}/:itemId`, async (request, reply) => {
      const found = share(request, faults.on("share-invite-other-user-writable"));
      const body = objectBody(request);
      const { status, card_id: cardId } = body;
      if (status === undefined && faults.on("share-invite-status-required")) throw badRequest("Field status is required.");
      const badCardId = cardId !== undefined && (typeof cardId !== "number" || !Number.isInteger(cardId) || cardId < 1);
      const refuseCardId = () => {
        throw invalidBody(ctx, "Field card_id must be a positive integer.");
      };
      // The fault checks card_id only after the status was stored, so a refused PUT still moves the share.
      if (badCardId && !faults.on("share-invite-card-id-checked-late")) refuseCardId();
      if (status !== undefined) {
        const known = (SHARE_STATUSES as readonly unknown[]).includes(status);
        if (typeof status !== "string") throw invalidBody(ctx, "Field status must be a string.");
        if (!known && faults.on("share-invite-refused-put-applies")) found.status = status;
        if (!known && !faults.on("share-invite-any-status-accepted")) {
          // The fault quotes the whole request body in the error text, write-only card_id included.
          const echo = faults.on("share-invite-error-echoes-card-id") ? ` Request: ${JSON.stringify(body)}` : "";
          throw invalidBody(ctx, `Field status must be one of ${SHARE_STATUSES.join(", ")}.${echo}`);
        }
        // Variant share-answered-moves-refused: GAP-71 leaves moves from an answered share to the server.
        const answered = found.status === "REJECTED" || found.status === "REVOKED" || (found.status === "ACTIVE" && status === "REJECTED");
        if (known && answered && variants.on("share-answered-moves-refused"))
          throw badRequest(`This share was already answered (${found.status}).`);
        if (status === "REVOKED" && faults.on("share-invite-revoke-refused"))
          throw badRequest("Only the inviting user can revoke a share.");
        const ignored =
          (status === "ACTIVE" && faults.on("share-invite-accept-ignored")) ||
          (status === "REJECTED" && faults.on("share-invite-reject-ignored"));
        if (!ignored) {
          found.status = status;
          if (status === "ACTIVE") found.linked = !faults.on("share-invite-accepted-without-account");
          else if (!faults.on("share-invite-rejected-keeps-account")) found.linked = false;
        }
      }
      if (badCardId) refuseCardId();
      // card_id links a card when the share detail is a card-payment share; the detail is not modelled (GAP-15).
      if (typeof cardId === "number") found.cardId = cardId;
      found.updated = timestamp();
      return sendId(reply, found.id);
    });
  },
};

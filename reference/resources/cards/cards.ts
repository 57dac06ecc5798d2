// Cards (banking-api.md "Endpoints > Cards", "States and transitions > Card"; wire conventions §2):
// list, read and update. Every card failure answers exactly 400 (spec: Errors), hence the route
// config errorStatus: 400, which turns every 4XX a card route throws into a 400.
import { randomInt, randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FaultName } from "../../../faults/catalogue.js";
import type { FaultSet } from "../../switches.js";
import { sendError } from "../../errors.js";
import { badRequest, HttpError, notFound } from "../../http-error.js";
import {
  intParam,
  objectBody,
  pathUser,
  sendId,
  sendItems,
  type ReferenceContext,
  type ResourceModule,
  type RouteConfig,
  type Switchboard,
} from "../../module.js";
import { paginate } from "../../pagination.js";
import type { Collection, User } from "../../state.js";
import { timestamp } from "../../time.js";
import { checkPinEncryption } from "../../encryption.js";
import {
  CARD_STATUSES,
  orderMove,
  parseCardUpdate,
  PERMANENT,
  statusMove,
  type Amount,
  type CardUpdate,
  type Verdict,
} from "./card-rules.js";

export const CARD_TYPE_KEY = "Card";

/** One card number (PAN) of a card; a replacement gives the card a new one. */
export interface PanRecord {
  id: number;
  uuid: string;
  four_digit: string;
}

export interface CardRecord {
  id: number;
  created: string;
  updated: string;
  type: string;
  status: string;
  order_status: string;
  /** Whether the card was ever activated (the DEACTIVATED move needs it). */
  activated: boolean;
  name_on_card: string;
  preferred_name_on_card: string;
  second_line: string;
  expiry_date: string;
  monetary_account_id: number;
  monetary_account_id_fallback: number | null;
  card_limit: Amount;
  card_limit_atm: Amount;
  country_permission: { id: number; country: string }[];
  primary_account_numbers: PanRecord[];
  /** Write-only: stored, never shown. */
  pin_code?: string;
  cancellation_reason?: string;
}

/**
 * Seeded cards of every user: each order status, never-activated cards (ACCEPTED_FOR_PRODUCTION,
 * CARD_REQUEST_PENDING), activated ones in each post-delivery order status, and more than ten in all
 * so the default page size matters. Never-activated cards show DEACTIVATED (the closest of the five).
 */
const SEED: { order_status: string; status: string; activated: boolean }[] = [
  { order_status: "CARD_REQUEST_PENDING", status: "DEACTIVATED", activated: false },
  { order_status: "ACCEPTED_FOR_PRODUCTION", status: "DEACTIVATED", activated: false },
  { order_status: "ACCEPTED_FOR_PRODUCTION", status: "DEACTIVATED", activated: false },
  { order_status: "DELIVERED_TO_CUSTOMER", status: "ACTIVE", activated: true },
  { order_status: "DELIVERED_TO_CUSTOMER", status: "ACTIVE", activated: true },
  { order_status: "DELIVERED_TO_CUSTOMER", status: "ACTIVE", activated: true },
  { order_status: "CARD_UPDATE_REQUESTED", status: "ACTIVE", activated: true },
  { order_status: "CARD_UPDATE_SENT", status: "ACTIVE", activated: true },
  { order_status: "CARD_UPDATE_ACCEPTED", status: "ACTIVE", activated: true },
  { order_status: "DELIVERED_TO_CUSTOMER", status: "DEACTIVATED", activated: true },
  { order_status: "DELIVERED_TO_CUSTOMER", status: "ACTIVE", activated: true },
  { order_status: "DELIVERED_TO_CUSTOMER", status: "ACTIVE", activated: true },
  { order_status: "DELIVERED_TO_CUSTOMER", status: "ACTIVE", activated: true },
];

/** A new card number whose last four digits differ from the card's current ones. */
export function newPan(ctx: ReferenceContext, current: PanRecord[] = []): PanRecord {
  let four: string;
  do four = String(randomInt(0, 10_000)).padStart(4, "0");
  while (current.some((pan) => pan.four_digit === four));
  return { id: ctx.state.nextId(), uuid: randomUUID(), four_digit: four };
}

/**
 * The whole 16-digit number of a card number record, ending in its four_digit (only the careless replacement faults ever
 * show it): a fixed issuer prefix and eight digits drawn from the record's uuid, so a record always gives the same number.
 */
export function fullCardNumber(pan: PanRecord): string {
  const digits = pan.uuid
    .replace(/[^0-9]/g, "")
    .padEnd(8, "0")
    .slice(0, 8);
  return `5168${digits}${pan.four_digit.slice(-4)}`;
}

/** The card as the API shows it: write-only fields and internal flags never leave the server. */
export function cardView(card: CardRecord, ctx?: Switchboard): Record<string, unknown> {
  const faults = ctx?.faults;
  let status = card.status;
  if (faults?.on("card-status-pending-activation") && !card.activated && status === "DEACTIVATED") status = "PENDING_ACTIVATION";
  const orderStatus = card.order_status;
  const limit = faults?.on("card-limit-value-number") ? { ...card.card_limit, value: Number(card.card_limit.value) } : card.card_limit;
  return {
    id: card.id,
    created: card.created,
    updated: card.updated,
    type: card.type,
    status,
    order_status: orderStatus,
    name_on_card: card.name_on_card,
    preferred_name_on_card: card.preferred_name_on_card,
    second_line: card.second_line,
    expiry_date: card.expiry_date,
    card_limit: limit,
    card_limit_atm: card.card_limit_atm,
    country_permission: card.country_permission,
    pin_code_assignment: [
      {
        type: "PRIMARY",
        routing_type: "MANUAL",
        status: "ACTIVE",
        // Fault card-pin-assignment-account-id-string: the assignment's account id is copied from a string-keyed lookup.
        monetary_account_id: faults?.on("card-pin-assignment-account-id-string")
          ? String(card.monetary_account_id)
          : card.monetary_account_id,
      },
    ],
    primary_account_numbers: card.primary_account_numbers.map((pan) => ({
      id: pan.id,
      description: card.second_line,
      status: "ACTIVE",
      uuid: pan.uuid,
      four_digit: pan.four_digit,
      type: "PHYSICAL",
      monetary_account_id: card.monetary_account_id,
    })),
    ...(card.monetary_account_id_fallback === null && !ctx?.variants.on("card-fallback-null")
      ? {}
      : { monetary_account_id_fallback: card.monetary_account_id_fallback }),
  };
}

/** The card of the path, or 400 (spec: Errors); `anyOwner` names the fault that forgets the owner check. */
function findCard(
  cards: Collection<CardRecord>,
  userId: number,
  request: FastifyRequest,
  faults: FaultSet,
  anyOwner: FaultName,
): CardRecord {
  const id = intParam(request, "itemId");
  const card = faults.on(anyOwner) ? cards.getAny(id) : cards.get(userId, id);
  if (!servedById(card)) throw notFound("The card was not found.");
  return card;
}

/** Applies a validated update that the state table allows. */
function applyUpdate(ctx: ReferenceContext, card: CardRecord, update: CardUpdate, sentFallback: boolean): void {
  const { faults, variants } = ctx;
  const statusOnly = statusPutAppliesStatusOnly(ctx, update);
  if (update.status !== undefined && update.status !== card.status) {
    card.status = update.status;
    // Fault r4-card-reactivation-forgets-activation: the mark is assigned "is this a first activation" instead of being kept.
    if (update.status === "ACTIVE" && faults.on("r4-card-reactivation-forgets-activation"))
      card.activated = card.order_status === "ACCEPTED_FOR_PRODUCTION";
    else if (update.status === "ACTIVE") card.activated = true;
  }
  if (update.order_status !== undefined && !faults.on("card-request-pending-ignored")) {
    card.order_status = update.order_status;
    // The careless virtual card: produced as a new ACTIVE card even out of a permanent status.
    if (faults.on("card-request-pending-revives-permanent") && PERMANENT.has(card.status)) card.status = "ACTIVE";
  }
  if (update.status !== undefined && faults.on("card-status-put-ignores-texts")) {
    card.updated = timestamp();
    return;
  }
  listedFallbackKept(ctx, card);
  // Spec: "the fallback is removed when not supplied" (GAP-27: removed reads as absent).
  if (nullFallbackSkipped(ctx, update, sentFallback)) {
    // Variant r5-card-fallback-null-kept: the body is merged as a partial update that skips null members; the fallback stays.
  } else if (sentFallback && !statusOnly) {
    // Variant card-fallback-put-kept (CARD-021 LENIENT since blind round 2): a fallback sent in a PUT is not taken.
    if (!faults.on("card-fallback-not-stored") && !ctx.variants.on("card-fallback-put-kept"))
      card.monetary_account_id_fallback = storedFallback(ctx, update.monetary_account_id_fallback ?? null);
  } else if (
    !faults.on("card-fallback-kept-when-omitted") &&
    !(update.status !== undefined && faults.on("card-fallback-kept-on-status-change"))
  ) {
    card.monetary_account_id_fallback = null;
  }
  // Variant card-texts-put-kept (CARD-023 LENIENT since blind round 2): the texts wait for a reprint, the card keeps its own.
  const textsKept = variants.on("card-texts-put-kept");
  if (update.preferred_name_on_card !== undefined && !statusOnly && !textsKept) card.preferred_name_on_card = update.preferred_name_on_card;
  if (update.second_line !== undefined && !statusOnly && !textsKept && !faults.on("card-put-ignores-second-line"))
    card.second_line = update.second_line;
  if (update.pin_code !== undefined) card.pin_code = update.pin_code;
  if (update.cancellation_reason !== undefined) card.cancellation_reason = update.cancellation_reason;
  if (update.card_limit && !faults.on("card-limits-ignored")) card.card_limit = storedLimit(ctx, update.card_limit);
  // Variant r6-card-limit-put-nulls-atm-limit: the limits are saved as one record built from the body, the ATM limit not sent as null.
  if (update.card_limit && !update.card_limit_atm && variants.on("r6-card-limit-put-nulls-atm-limit"))
    card.card_limit_atm = null as unknown as Amount;
  // Fault card-limit-atm-overwrites-card-limit: the ATM line was copied from the one above and still writes card_limit.
  if (update.card_limit_atm && faults.on("card-limit-atm-overwrites-card-limit")) card.card_limit = update.card_limit_atm;
  else if (update.card_limit_atm) card.card_limit_atm = storedLimit(ctx, update.card_limit_atm);
  if (update.country_permission && variants.on("card-country-permission-merged")) {
    for (const country of update.country_permission)
      if (!card.country_permission.some((p) => p.country === country)) card.country_permission.push({ id: ctx.state.nextId(), country });
  } else if (update.country_permission)
    // Fault r6-card-country-permission-ids-null: the new rows are kept as built, before the insert gives them their ids.
    card.country_permission = update.country_permission.map((country) => ({
      id: faults.on("r6-card-country-permission-ids-null") ? (null as unknown as number) : ctx.state.nextId(),
      country,
    }));
  listedFallbackKept(ctx, card);
  card.updated = timestamp();
}

/**
 * A seed row as the faults and variants change it: the card of row 2 taken for a re-issue activated before (fault
 * card-reissued-activated, CARD-018), an order status outside the six (last row).
 */
function seedRow(ctx: Switchboard, row: (typeof SEED)[number], i: number): (typeof SEED)[number] {
  if (i === 1 && ctx.faults.on("card-reissued-activated")) return { ...row, activated: true };
  if (i === SEED.length - 1 && ctx.variants.on("card-order-status-open")) return { ...row, order_status: "NEW_CARD_REQUEST_RECEIVED" };
  return row;
}

/** Cards the list shows that the item routes do not know (variant card-listed-id-unreadable). */
const LISTED_ONLY = new WeakSet<CardRecord>();

/** Whether the item routes (read, update, replace) serve this card: every stored card, bar a variant's listed-only one. */
export function servedById(card: CardRecord | undefined): card is CardRecord {
  return card !== undefined && !LISTED_ONLY.has(card);
}

/**
 * The careless PUT route's own error handler, only with the faults that need it: malformed JSON answered
 * 422, or every refusal echoing the request body for debugging. Anything else is the usual card 400.
 */
function carelessPutErrors(ctx: ReferenceContext) {
  const { faults } = ctx;
  if (!faults.on("card-error-echoes-request-body") && !faults.on("card-put-malformed-json-422")) return {};
  return {
    errorHandler: (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply) => {
      const malformed = error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || (error instanceof HttpError && error.kind === "malformed-json");
      const status = malformed && faults.on("card-put-malformed-json-422") ? 422 : 400;
      if (!malformed && faults.on("card-error-echoes-request-body")) {
        return reply
          .code(status)
          .type("application/json")
          .send({
            Error: [{ error_description: error.message, error_description_translated: error.message, request: request.body ?? null }],
          });
      }
      return sendError(reply, request, ctx, status, malformed ? "The request body is not valid JSON." : error.message);
    },
  };
}

export const cardsModule: ResourceModule = {
  name: "cards",
  seed(ctx, user) {
    const cards = ctx.state.collection<CardRecord>("cards");
    if (ctx.variants.on("primary-without-cards") && user.displayName === "Reference Primary") return;
    SEED.forEach((row, i) => {
      const now = timestamp();
      cards.add(user.id, (id) => ({
        id,
        created: now,
        updated: now,
        type: "MASTERCARD",
        ...seedRow(ctx, row, i),
        name_on_card: user.displayName.toUpperCase(),
        preferred_name_on_card: user.displayName.toUpperCase(),
        second_line: `card ${i + 1}`,
        expiry_date: "2029-12-31",
        monetary_account_id: user.monetaryAccountIds[0]!,
        monetary_account_id_fallback: i % 2 === 0 ? user.monetaryAccountIds[1]! : null,
        card_limit: { value: "500.00", currency: "EUR" },
        card_limit_atm: { value: "200.00", currency: "EUR" },
        country_permission: ctx.variants.on("card-read-arrays-sorted")
          ? [
              { id: ctx.state.nextId(), country: "NL" },
              { id: ctx.state.nextId(), country: "BE" },
            ]
          : [{ id: ctx.state.nextId(), country: "NL" }],
        primary_account_numbers: [newPan(ctx)],
      }));
      if (i === 5) seedListedOnlyCard(ctx, cards, user);
    });
  },
  register(app, ctx) {
    const { faults, state } = ctx;
    const cards = state.collection<CardRecord>("cards");
    const view = (card: CardRecord) => ({ [CARD_TYPE_KEY]: cardView(card, ctx) });
    const listed = listedView(ctx);
    const read = cachedReadView(ctx);
    const retries = putRetries(ctx);

    app.get("/v1/user/:userID/card", { config: { errorStatus: 400 } }, async (request, reply) => {
      const userId = listOwner(ctx, request);
      forgiveBadCount(ctx, request);
      const page = listPage(ctx, request, reply, () => paginate(request, listedCards(ctx, cards, userId), ctx));
      if (!page) return reply;
      return sendItems(
        reply,
        page.items.map((card) => ({ [CARD_TYPE_KEY]: listed(card) })),
        // Fault r5-card-list-without-pagination: the page is cut as asked, but the answer leaves the Pagination object out.
        faults.on("r5-card-list-without-pagination") ? {} : { Pagination: page.pagination },
      );
    });

    app.get("/v1/user/:userID/card/:itemId", { config: readRouteConfig(ctx) }, async (request, reply) => {
      if (!routeMatchesItemId(ctx, request))
        return sendError(reply, request, ctx, 404, `No such endpoint: GET ${request.url.split("?")[0]}.`);
      const userId = pathUser(request, ctx, "card-item-path-user-not-checked");
      readIdFitsInt32(ctx, request);
      const card = findCard(cards, userId, request, faults, "card-other-user-readable");
      // Fault card-read-answers-all-cards: the read answers the user's whole list.
      if (faults.on("card-read-answers-all-cards")) return sendItems(reply, cards.list(userId).map(view));
      return sendItems(reply, [read(card)]);
    });

    app.put("/v1/user/:userID/card/:itemId", { config: { errorStatus: 400 }, ...carelessPutErrors(ctx) }, async (request, reply) => {
      const userId = pathUser(request, ctx, "card-put-path-user-not-checked");
      if (unknownCardAnswered404(ctx, cards, userId, request)) return sendError(reply, request, ctx, 404, "The card was not found.");
      const card = blockedCard(ctx, cards, request) ?? findCard(cards, userId, request, faults, "card-put-other-users-card");
      const body = objectBody(request);
      const replayed = retries.answerOf(card, body);
      if (replayed) return sendItems(reply, replayed);
      textsSavedEarly(ctx, card, body, "before-the-table");
      let update: CardUpdate;
      try {
        update = parseCardUpdate(body, ctx);
      } catch (error) {
        textsSavedEarly(ctx, card, body, "body-refused");
        throw error;
      }
      // Variant r3-card-refused-put-drops-fallback (blind round 3, ruled open): an omitted fallback is cleared as the body is
      // read, before any check.
      if (ctx.variants.on("r3-card-refused-put-drops-fallback") && !("monetary_account_id_fallback" in body))
        card.monetary_account_id_fallback = null;
      const pinRefusal = plaintextPinRefusal(ctx, request, body);
      if (pinRefusal) return sendError(reply, request, ctx, pinRefusal.status, pinRefusal.message);
      const fallback = update.monetary_account_id_fallback;
      if (typeof fallback === "number" && !fallbackAccountAllowed(ctx, userId, fallback)) {
        throw badRequest("monetary_account_id_fallback is not one of the user's monetary accounts.");
      }
      const judged = virtualCardRequestedEarly(ctx, card, update);
      if (update.status !== undefined && !virtualRequestSkipsTable(ctx, update)) {
        const verdict = statusMove(judged, update.status, ctx);
        if (!verdict.ok) {
          refusedMoveApplied(ctx, card, update.status, verdict);
          if (faults.on("card-refused-move-409")) return sendError(reply, request, ctx, 409, verdict.reason);
          // Fault r5-card-refused-move-answers-card: the refusal shows the card as it stays, under Response, not an Error body.
          if (faults.on("r5-card-refused-move-answers-card"))
            return reply
              .code(400)
              .type("application/json")
              .send({ Response: [{ [CARD_TYPE_KEY]: cardView(card, ctx) }] });
          throw badRequest(verdict.reason);
        }
      }
      if (update.order_status !== undefined) {
        const verdict = orderMove(card, update.order_status, ctx);
        if (!verdict.ok) throw badRequest(verdict.reason);
      }
      const before = { ...card };
      applyUpdate(ctx, card, update, "monetary_account_id_fallback" in body);
      fallbackSetOnEveryCard(ctx, cards, userId, card, update);
      checkPinEncryption(request, body, ctx, "after");
      retries.remember(card, body);
      return sendUpdatedCard(ctx, reply, card, update, before);
    });
  },
};

// ---- Seams of the card routes: each decides one rule and names the faults and variants that bend it. ----

/**
 * Every PUT is applied as it comes, one whose body the card got before included (the state table judges it anew). Fault
 * r5-card-put-same-body-replayed: a de-duplication of client retries keeps the answer of each body a card got, and a PUT with
 * a body already seen is answered with that stored answer and not applied.
 */
function putRetries(ctx: ReferenceContext) {
  const answers = new WeakMap<CardRecord, Map<string, Record<string, unknown>[]>>();
  const on = () => ctx.faults.on("r5-card-put-same-body-replayed");
  return {
    answerOf(card: CardRecord, body: Record<string, unknown>): Record<string, unknown>[] | undefined {
      return on() ? answers.get(card)?.get(JSON.stringify(body)) : undefined;
    },
    remember(card: CardRecord, body: Record<string, unknown>): void {
      if (!on()) return;
      const seen = answers.get(card) ?? new Map<string, Record<string, unknown>[]>();
      seen.set(JSON.stringify(body), [{ [CARD_TYPE_KEY]: cardView(card, ctx) }]);
      answers.set(card, seen);
    },
  };
}

/** The owner of the listed cards: the session's user (fault card-list-path-user-not-checked: whoever the path names). */
function listOwner(ctx: ReferenceContext, request: FastifyRequest): number {
  return ctx.faults.on("card-list-path-user-not-checked") ? intParam(request, "userID") : pathUser(request, ctx);
}

/**
 * A count that is not an integer from 1 to 200 is refused (CARD-011); the fault drops it and serves the default page.
 * Fault card-list-older-id-ignored: the query is trimmed to the parameters the first version of the list knew.
 */
function forgiveBadCount(ctx: ReferenceContext, request: FastifyRequest): void {
  const query = request.query as Record<string, unknown>;
  if (ctx.faults.on("card-list-ignores-bad-count") && !/^[1-9]\d{0,2}$/.test(String(query.count ?? "1"))) delete query.count;
  if (ctx.faults.on("card-list-older-id-ignored")) delete query.older_id;
}

/**
 * A bad count on GET /card is a card list failure: 400 (CARD-011). Fault r4-card-list-bad-count-422: the list answers the
 * pagination helper's refusals itself, as the generic list template's 422, past the route's errorStatus. Undefined when answered.
 */
function listPage<T>(ctx: ReferenceContext, request: FastifyRequest, reply: FastifyReply, page: () => T): T | undefined {
  if (!ctx.faults.on("r4-card-list-bad-count-422")) return page();
  try {
    return page();
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 400) throw error;
    sendError(reply, request, ctx, 422, error.message);
    return undefined;
  }
}

/** The cards GET /card lists: the user's, each once (CARD-001, CARD-025). */
function listedCards(ctx: ReferenceContext, cards: Collection<CardRecord>, userId: number): CardRecord[] {
  const { faults, state } = ctx;
  let all = faults.on("card-list-includes-other-users")
    ? [...state.users.keys()].flatMap((owner) => cards.list(owner))
    : cards.list(userId);
  if (faults.on("card-list-duplicates")) all = all.flatMap((card) => [card, card]);
  // Fault card-list-capped-at-ten: the careless query (ORDER BY id LIMIT 10) reads the oldest ten cards only.
  if (faults.on("card-list-capped-at-ten")) all = [...all].sort((a, b) => a.id - b.id).slice(0, 10);
  // Fault r6-card-list-hides-virtual-cards: the list joins the cards on their plastic-card order, which a virtual card has not.
  if (faults.on("r6-card-list-hides-virtual-cards")) all = all.filter((card) => card.order_status !== "CARD_REQUEST_PENDING");
  return all;
}

/** A listed card as it is now, under its own id, without write-only fields (CARD-007, CARD-024). */
function listedView(ctx: ReferenceContext): (card: CardRecord) => Record<string, unknown> {
  const { faults } = ctx;
  const listCache = new WeakMap<CardRecord, Record<string, unknown>>();
  return (card) => {
    // The careless cache: the view built at the first listing is served ever after.
    const cached = faults.on("card-list-cached") ? listCache.get(card) : undefined;
    const shown = cached ? { ...cached } : cardView(listedNumbers(ctx, card), ctx);
    stolenShownAsLost(ctx, shown);
    if (faults.on("card-list-cached") && !cached) listCache.set(card, { ...shown });
    if (faults.on("card-list-ids-offset")) shown.id = card.id + 1;
    if (faults.on("card-list-leaks-cancellation-reason") && card.cancellation_reason !== undefined)
      shown.cancellation_reason = card.cancellation_reason;
    // Variant r3-card-list-fallback-omitted (blind round 3, ruled open): the list's summary projection has no fallback column.
    if (ctx.variants.on("r3-card-list-fallback-omitted")) delete shown.monetary_account_id_fallback;
    // Fault r5-card-list-keeps-removed-fallback: the list's summary column keeps the last fallback a removal never cleared.
    const kept = LISTED_FALLBACK.get(card);
    if (faults.on("r5-card-list-keeps-removed-fallback") && card.monetary_account_id_fallback === null && kept !== undefined)
      shown.monetary_account_id_fallback = kept;
    // Fault r4-card-list-cancelled-spelled-canceled: the list's summary projection spells the status the American way.
    if (faults.on("r4-card-list-cancelled-spelled-canceled") && shown.status === "CANCELLED") shown.status = "CANCELED";
    return shown;
  };
}

/**
 * The card numbers a card had before its first replacement, kept only under fault r3-card-list-old-number-after-replace
 * (card-replacement.ts records them).
 */
export const FIRST_CARD_NUMBERS = new WeakMap<CardRecord, PanRecord[]>();

/** The list shows the card's current card number (REPL-004); the fault's list reads the number issued with the card. */
function listedNumbers(ctx: ReferenceContext, card: CardRecord): CardRecord {
  // Fault r3-card-list-old-number-after-replace: the list joins the card-number table on the card's first number.
  const first = ctx.faults.on("r3-card-list-old-number-after-replace") ? FIRST_CARD_NUMBERS.get(card) : undefined;
  return first ? { ...card, primary_account_numbers: first } : card;
}

/** A limit as stored: the Amount sent, its value as written (spec: limits can be changed). */
function storedLimit(ctx: ReferenceContext, amount: Amount): Amount {
  // Variant r5-card-limit-cents-floored: the limit is kept in whole cents, Math.floor(parseFloat(value) * 100), so a value the
  // binary float puts just below its cents (19.99 * 100 = 1998.9999…) loses a cent.
  if (!ctx.variants.on("r5-card-limit-cents-floored")) return amount;
  const cents = Math.floor(Number.parseFloat(amount.value) * 100);
  return { value: (cents / 100).toFixed(2), currency: amount.currency };
}

/**
 * The last fallback account each card had, as the list's summary column holds it: filled only under fault
 * r5-card-list-keeps-removed-fallback (the update writes the column when a fallback is there, never when it is removed).
 */
const LISTED_FALLBACK = new WeakMap<CardRecord, number>();

/** The list shows the card's fallback as it is now (the fallback is removed when not supplied); see LISTED_FALLBACK. */
function listedFallbackKept(ctx: ReferenceContext, card: CardRecord): void {
  if (ctx.faults.on("r5-card-list-keeps-removed-fallback") && card.monetary_account_id_fallback !== null)
    LISTED_FALLBACK.set(card, card.monetary_account_id_fallback);
}

/**
 * A PUT sets the fallback of the card of the path only. Variant r5-card-fallback-set-on-every-card: the fallback is written
 * as the user's setting (UPDATE card SET fallback = ? WHERE user_id = ?, the card id filter forgotten), so every card of the
 * user gets it.
 */
function fallbackSetOnEveryCard(
  ctx: ReferenceContext,
  cards: Collection<CardRecord>,
  userId: number,
  card: CardRecord,
  update: CardUpdate,
): void {
  if (!ctx.variants.on("r5-card-fallback-set-on-every-card") || typeof update.monetary_account_id_fallback !== "number") return;
  if (card.monetary_account_id_fallback === null) return;
  for (const other of cards.list(userId)) other.monetary_account_id_fallback = card.monetary_account_id_fallback;
}

/** A fallback sent as null removes it, as one not supplied does (CARD-021); the fault's merge skips null members. */
function nullFallbackSkipped(ctx: ReferenceContext, update: CardUpdate, sentFallback: boolean): boolean {
  return sentFallback && update.monetary_account_id_fallback === null && ctx.variants.on("r5-card-fallback-null-kept");
}

/** The fallback as stored: the integer sent (spec: Embedded card, monetary_account_id_fallback is an integer). */
function storedFallback(ctx: ReferenceContext, fallback: number | null): number | null {
  // Fault r4-card-fallback-stored-as-text: the update writes the id into a text column, so every later view shows a string.
  if (fallback !== null && ctx.faults.on("r4-card-fallback-stored-as-text")) return String(fallback) as unknown as number;
  return fallback;
}

/** The fallback is one of the user's monetary accounts (AUTH-019: another user's account is refused with the card 400). */
function fallbackAccountAllowed(ctx: ReferenceContext, userId: number, accountId: number): boolean {
  const { variants, state } = ctx;
  if (state.users.get(userId)?.monetaryAccountIds.includes(accountId)) return true;
  // Variant r5-card-fallback-any-owned-id: ids are server-wide, so the check asks "does the user own this id" of the object
  // tables it knows (cards, companies) instead of asking the user's monetary accounts.
  if (
    ctx.variants.on("r5-card-fallback-any-owned-id") &&
    ["cards", "companies"].some((name) => state.collection<{ id: number }>(name).ownerOf(accountId) === userId)
  )
    return true;
  // Variant r3-card-fallback-any-users-account (blind round 3, ruled open): the check asks whether the account exists at all,
  // not whether it is the user's.
  return (
    variants.on("r3-card-fallback-any-users-account") && [...state.users.values()].some((u) => u.monetaryAccountIds.includes(accountId))
  );
}

/**
 * The card of a PUT is the caller's (AUTH-019). Fault r3-card-block-any-users-card: the block path (status LOST, STOLEN or
 * CANCELLED) has its own lookup by card id alone, so another user's card is blocked; undefined otherwise (the usual lookup).
 */
function blockedCard(ctx: ReferenceContext, cards: Collection<CardRecord>, request: FastifyRequest): CardRecord | undefined {
  if (!ctx.faults.on("r3-card-block-any-users-card")) return undefined;
  const body = request.body as Record<string, unknown> | null | undefined;
  const status = body !== null && typeof body === "object" ? body.status : undefined;
  if (typeof status !== "string" || !PERMANENT.has(status)) return undefined;
  const card = cards.getAny(intParam(request, "itemId"));
  return servedById(card) ? card : undefined;
}

/** Every failure of a card read is a 400 (CARD-009); the fault's route forgot the route config that says so. */
function readRouteConfig(ctx: ReferenceContext): RouteConfig {
  return ctx.faults.on("card-error-404-instead-of-400") ? {} : { errorStatus: 400 };
}

/**
 * The read route takes any itemId and refuses one that is not an integer with the card 400 (CARD-036). The faults'
 * route patterns (/card/:itemId(\d+); integers, negative ones too) let other ids fall through to "no such endpoint" (404).
 */
function routeMatchesItemId(ctx: ReferenceContext, request: FastifyRequest): boolean {
  const itemId = (request.params as { itemId: string }).itemId;
  if (ctx.faults.on("card-read-non-integer-id-404") && !/^\d+$/.test(itemId)) return false;
  if (ctx.faults.on("card-route-integer-ids-only") && !/^-?\d+$/.test(itemId)) return false;
  return true;
}

/** The read and the list show the status a PUT set (spec: row 2 of the card states). */
function stolenShownAsLost(ctx: ReferenceContext, shown: Record<string, unknown>): void {
  // Fault r6-card-stolen-shown-as-lost: the read projections map the card network's block code back to a status, and the
  // network has one code for lost or stolen, mapped to LOST.
  if (ctx.faults.on("r6-card-stolen-shown-as-lost") && shown.status === "STOLEN") shown.status = "LOST";
}

/** Any integer itemId the read does not know is a card read failure: 400 (spec: Errors). */
function readIdFitsInt32(ctx: ReferenceContext, request: FastifyRequest): void {
  // Fault r6-card-read-id-above-int32-500: the card lookup binds the id as a 32-bit integer, and the driver throws past 2^31 - 1.
  if (ctx.faults.on("r6-card-read-id-above-int32-500") && intParam(request, "itemId") > 2_147_483_647)
    throw new RangeError("Value out of range for type integer.");
}

/** GET /card/{id} answers the card under Card, as the list shows it (CARD-003, CARD-023, CARD-032). */
function readView(ctx: ReferenceContext, card: CardRecord): Record<string, Record<string, unknown>> {
  const { faults, variants } = ctx;
  const shown = cardView(card, ctx);
  stolenShownAsLost(ctx, shown);
  if (faults.on("card-read-drops-preferred-name")) delete shown.preferred_name_on_card;
  if (faults.on("card-read-shows-pin-code") && card.pin_code !== undefined) shown.pin_code = card.pin_code;
  // Fault r3-card-read-shows-cancellation-reason: the read's mapper shows why a card was cancelled (the list's does not).
  if (faults.on("r3-card-read-shows-cancellation-reason") && card.cancellation_reason !== undefined)
    shown.cancellation_reason = card.cancellation_reason;
  if (variants.on("card-read-arrays-sorted")) {
    shown.country_permission = [...(shown.country_permission as { country: string }[])].sort((a, b) => a.country.localeCompare(b.country));
  }
  return { [faults.on("card-read-type-key-lowercase") ? "card" : CARD_TYPE_KEY]: shown };
}

/** GET /card/{id} answers the card as it is now; fault card-read-cached serves the view built at the card's first read. */
function cachedReadView(ctx: ReferenceContext): (card: CardRecord) => Record<string, Record<string, unknown>> {
  const readCache = new WeakMap<CardRecord, Record<string, Record<string, unknown>>>();
  return (card) => {
    if (!ctx.faults.on("card-read-cached")) return readView(ctx, card);
    const cached = readCache.get(card) ?? readView(ctx, card);
    readCache.set(card, cached);
    return cached;
  };
}

/**
 * A pin_code outside an encrypted request is refused with the card 400 (banking-api.md: Errors); fault
 * card-plaintext-pin-403 answers the refusal itself, as 403, past the route's errorStatus.
 */
function plaintextPinRefusal(
  ctx: ReferenceContext,
  request: FastifyRequest,
  body: Record<string, unknown>,
): { status: number; message: string } | undefined {
  try {
    checkPinEncryption(request, body, ctx, "before");
  } catch (error) {
    if (ctx.faults.on("card-plaintext-pin-403") && error instanceof HttpError) return { status: 403, message: error.message };
    throw error;
  }
  return undefined;
}

/** A PUT of a card the user does not have is a card failure: 400 (CARD-037); the fault answers 404 before the route's rules. */
function unknownCardAnswered404(ctx: ReferenceContext, cards: Collection<CardRecord>, userId: number, request: FastifyRequest): boolean {
  return ctx.faults.on("card-put-unknown-card-404") && !cards.get(userId, intParam(request, "itemId"));
}

/**
 * A refused PUT changes nothing (CARD-010, CARD-033). The faults save preferred_name_on_card and second_line too early:
 * before the state table is consulted (for a known status), or although the body was refused.
 */
function textsSavedEarly(
  ctx: ReferenceContext,
  card: CardRecord,
  body: Record<string, unknown>,
  moment: "before-the-table" | "body-refused",
): void {
  const { faults, variants } = ctx;
  // Variant card-refused-move-keeps-texts plays the fault's behaviour as a legal reading (CARD-033 is LENIENT).
  const early =
    moment === "before-the-table"
      ? (faults.on("card-refused-move-applies-texts") || variants.on("card-refused-move-keeps-texts")) &&
        typeof body.status === "string" &&
        CARD_STATUSES.includes(body.status)
      : faults.on("card-refused-put-still-applies");
  if (!early) return;
  if (typeof body.preferred_name_on_card === "string") card.preferred_name_on_card = body.preferred_name_on_card;
  if (typeof body.second_line === "string") card.second_line = body.second_line;
}

/**
 * A refused PUT leaves order_status as it was (the card is judged as it is). Variant r3-card-refused-put-moves-order-status
 * (blind round 3, ruled open): the virtual-card request goes to production first and the status move is judged on the copy
 * taken before, so a PUT refused for its status has already moved order_status. Returns the card as the move is to be judged.
 */
function virtualCardRequestedEarly(ctx: ReferenceContext, card: CardRecord, update: CardUpdate): CardRecord {
  if (!ctx.variants.on("r3-card-refused-put-moves-order-status") || update.order_status === undefined) return card;
  const judged = { ...card };
  if (orderMove(card, update.order_status, ctx).ok) card.order_status = update.order_status;
  return judged;
}

/** A status move the table refuses changes nothing (CARD-015, CARD-020); the faults apply it and refuse all the same. */
function refusedMoveApplied(ctx: ReferenceContext, card: CardRecord, to: string, verdict: Verdict): void {
  const { faults } = ctx;
  const applyAnyway =
    (!verdict.ok && verdict.kind === "unlisted" && faults.on("card-unlisted-move-refused-but-applied")) ||
    (PERMANENT.has(card.status) && faults.on("card-permanent-refusal-still-applies"));
  if (applyAnyway) card.status = to;
}

/**
 * The status of a PUT is judged by the state table, whatever else the PUT carries. Fault
 * r4-card-virtual-request-skips-status-table: with order_status CARD_REQUEST_PENDING the virtual-card path sets the status up as sent.
 */
function virtualRequestSkipsTable(ctx: ReferenceContext, update: CardUpdate): boolean {
  return ctx.faults.on("r4-card-virtual-request-skips-status-table") && update.order_status === "CARD_REQUEST_PENDING";
}

/**
 * A PUT applies every field it sends (CARD-034). Variant card-status-put-applies-status-only: with a status, the texts and
 * the fallback sent are dropped, as if not supplied (so the fallback is removed, CARD-022).
 */
function statusPutAppliesStatusOnly(ctx: Switchboard, update: CardUpdate): boolean {
  return update.status !== undefined && ctx.variants.on("card-status-put-applies-status-only");
}

/**
 * Every listed card reads by its id (CARD-007). Variant card-listed-id-unreadable: the list also shows an old CANCELLED
 * card, between the seeded ones, that the item routes do not know (reading its listed id answers 400).
 */
function seedListedOnlyCard(ctx: ReferenceContext, cards: Collection<CardRecord>, user: User): void {
  if (!ctx.variants.on("card-listed-id-unreadable")) return;
  const now = timestamp();
  const card = cards.add(user.id, (id) => ({
    id,
    created: now,
    updated: now,
    type: "MASTERCARD",
    status: "CANCELLED",
    order_status: "DELIVERED_TO_CUSTOMER",
    activated: true,
    name_on_card: user.displayName.toUpperCase(),
    preferred_name_on_card: user.displayName.toUpperCase(),
    second_line: "old card",
    expiry_date: "2025-12-31",
    monetary_account_id: user.monetaryAccountIds[0]!,
    monetary_account_id_fallback: null,
    card_limit: { value: "500.00", currency: "EUR" },
    card_limit_atm: { value: "200.00", currency: "EUR" },
    country_permission: [{ id: ctx.state.nextId(), country: "NL" }],
    primary_account_numbers: [newPan(ctx)],
  }));
  LISTED_ONLY.add(card);
}

/** PUT answers the updated card (CARD-008) and never its pin (CARD-024). */
function sendUpdatedCard(
  ctx: ReferenceContext,
  reply: FastifyReply,
  card: CardRecord,
  update: CardUpdate,
  before: CardRecord,
): FastifyReply {
  const { faults } = ctx;
  if (faults.on("card-put-answers-id-not-card")) return sendId(reply, card.id);
  // Fault card-put-answers-card-before-update: the answer is built from the copy taken before the update.
  const answer = cardView(faults.on("card-put-answers-card-before-update") ? before : card, ctx);
  // Fault r6-card-put-answer-id-string: the answer's id is copied from the path parameter, a string.
  if (faults.on("r6-card-put-answer-id-string")) answer.id = String(card.id);
  // Fault card-put-echoes-cancellation-reason: the cancellation path returns its reason for the confirmation screen.
  if (faults.on("card-put-echoes-cancellation-reason") && update.status === "CANCELLED" && update.cancellation_reason !== undefined)
    answer.cancellation_reason = update.cancellation_reason;
  if (faults.on("card-echoes-pin-code") && update.pin_code !== undefined) answer.pin_code = update.pin_code;
  // Fault card-put-echoes-activation-code: the deprecated activation path copies its code into the answer.
  if (faults.on("card-put-echoes-activation-code") && update.activation_code !== undefined) answer.activation_code = update.activation_code;
  // Fault card-activation-not-stored: the answer shows the activation, the card stays as it was (CARD-013).
  const activation = update.status === "ACTIVE" && before.order_status === "ACCEPTED_FOR_PRODUCTION" && before.status !== "ACTIVE";
  if (activation && faults.on("card-activation-not-stored")) Object.assign(card, { status: before.status, activated: before.activated });
  return sendItems(reply, [{ [CARD_TYPE_KEY]: answer }]);
}

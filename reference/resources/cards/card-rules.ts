// The card update rules: the body of PUT /user/{userID}/card/{itemId} (banking-api.md "Endpoints >
// Cards") and the state table ("States and transitions > Card"). The model is the table, nothing more
// (spec/gaps.md GAP-10): moves the table forbids and moves it does not list are both refused with 400.
import { badRequest } from "../../http-error.js";
import type { Switchboard } from "../../module.js";
import type { CardRecord } from "./cards.js";

export const CARD_STATUSES = ["ACTIVE", "DEACTIVATED", "LOST", "STOLEN", "CANCELLED"];
const ORDER_STATUSES = [
  "CARD_REQUEST_PENDING",
  "ACCEPTED_FOR_PRODUCTION",
  "DELIVERED_TO_CUSTOMER",
  "CARD_UPDATE_REQUESTED",
  "CARD_UPDATE_SENT",
  "CARD_UPDATE_ACCEPTED",
];
/** Row 2: permanent once set. */
export const PERMANENT = new Set(["LOST", "STOLEN", "CANCELLED"]);
/** Row 2: the order statuses LOST, STOLEN and CANCELLED may be set from. */
const REPORTABLE = new Set(ORDER_STATUSES.filter((s) => s !== "CARD_REQUEST_PENDING"));
/** Row 3: the order statuses an activated card may be DEACTIVATED (and reactivated) in. */
const DELIVERED = new Set([...REPORTABLE].filter((s) => s !== "ACCEPTED_FOR_PRODUCTION"));

export interface Amount {
  value: string;
  currency: string;
}

/** A validated card update body; undefined members were not sent. */
export interface CardUpdate {
  status?: string;
  order_status?: string;
  /** null: sent as null; undefined: not sent. Both remove the fallback. */
  monetary_account_id_fallback?: number | null;
  preferred_name_on_card?: string;
  second_line?: string;
  pin_code?: string;
  activation_code?: string;
  cancellation_reason?: string;
  card_limit?: Amount;
  card_limit_atm?: Amount;
  country_permission?: string[];
}

const STRING_FIELDS = [
  "status",
  "order_status",
  "preferred_name_on_card",
  "second_line",
  "pin_code",
  "activation_code",
  "cancellation_reason",
] as const;

/** Validates the body's JSON types and values (conventions: wrong types → 400); no state is read. */
export function parseCardUpdate(body: Record<string, unknown>, ctx: Switchboard): CardUpdate {
  const { faults, variants } = ctx;
  // Variant card-types-coerced: a server may coerce scalars of the wrong JSON type (GAP-24, CARD-012).
  const coerce = variants.on("card-types-coerced");
  const update: CardUpdate = {};
  for (const name of STRING_FIELDS) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== "string") {
      if (!coerce || value === null || typeof value === "object") throw badRequest(wrongTypeText(ctx, name, value));
      update[name] = String(value);
    } else update[name] = value;
  }
  // Variant r4-card-status-case-insensitive (blind round 4, ruled open): the status is upper-cased before the check, so
  // "lost" passes as LOST.
  if (update.status !== undefined && variants.on("r4-card-status-case-insensitive")) update.status = update.status.toUpperCase();
  if (update.status !== undefined && !CARD_STATUSES.includes(update.status) && !faults.on("card-unknown-status-accepted")) {
    throw badRequest(`Field status must be one of ${CARD_STATUSES.join(", ")}.`);
  }
  if (update.order_status !== undefined && !ORDER_STATUSES.includes(update.order_status)) {
    throw badRequest(`Field order_status must be one of ${ORDER_STATUSES.join(", ")}.`);
  }
  // Fault card-activation-code-refused: the deprecated field was dropped from the accepted body and is now refused.
  if (
    update.activation_code !== undefined &&
    (faults.on("card-activation-code-refused") || ctx.variants.on("card-activation-code-retired"))
  ) {
    throw badRequest("Field activation_code is not supported; activate the card by setting status ACTIVE.");
  }
  embossable(ctx, update.preferred_name_on_card);
  const fallback = body.monetary_account_id_fallback;
  if (fallback === null) update.monetary_account_id_fallback = null;
  else if (fallback !== undefined) {
    const asNumber = coerce && typeof fallback === "string" ? Number(fallback) : fallback;
    if (typeof asNumber !== "number" || !Number.isSafeInteger(asNumber))
      throw badRequest("Field monetary_account_id_fallback must be an integer.");
    update.monetary_account_id_fallback = asNumber;
  }
  // Variant card-limits-refused: the limit and country fields are not writable here (GAP-26, CARD-026).
  if (
    variants.on("card-limits-refused") &&
    ["card_limit", "card_limit_atm", "country_permission"].some((name) => body[name] !== undefined)
  ) {
    throw badRequest("Limits and country permissions cannot be changed through this endpoint.");
  }
  for (const name of ["card_limit", "card_limit_atm"] as const) {
    if (body[name] !== undefined) update[name] = parseAmount(body[name], name);
  }
  if (body.country_permission !== undefined) update.country_permission = parseCountries(body.country_permission, ctx);
  return update;
}

/** The refusal of a field of the wrong JSON type; fault card-type-error-quotes-value quotes the value (write-only ones too). */
function wrongTypeText(ctx: Switchboard, name: string, value: unknown): string {
  const quoted = ctx.faults.on("card-type-error-quotes-value") ? `, got ${JSON.stringify(value)}` : "";
  return `Field ${name} must be a string${quoted}.`;
}

/** Any string is a name (fault card-name-non-ascii-500: the embossing encoder throws on anything outside printable ASCII). */
function embossable(ctx: Switchboard, name: string | undefined): void {
  if (name !== undefined && ctx.faults.on("card-name-non-ascii-500") && /[^\x20-\x7e]/.test(name)) {
    throw new RangeError(`Cannot encode "${name}" for embossing.`);
  }
}

function parseAmount(value: unknown, name: string): Amount {
  const amount = value as Partial<Record<string, unknown>> | null;
  if (typeof amount !== "object" || amount === null || Array.isArray(amount)) throw badRequest(`Field ${name} must be an Amount object.`);
  if (typeof amount.value !== "string" || !/^\d{1,9}(\.\d{1,2})?$/.test(amount.value))
    throw badRequest(`Field ${name}.value must be a decimal string.`);
  if (typeof amount.currency !== "string" || !/^[A-Z]{3}$/.test(amount.currency))
    throw badRequest(`Field ${name}.currency must be a currency code.`);
  return { value: amount.value, currency: amount.currency };
}

function parseCountries(value: unknown, ctx: Switchboard): string[] {
  if (!Array.isArray(value)) throw badRequest("Field country_permission must be an array.");
  // Fault card-country-permission-empty-500: the first entry is read as the home country, so an empty array throws.
  if (ctx.faults.on("card-country-permission-empty-500")) void (value[0] as { country: unknown }).country;
  return value.map((entry: unknown) => {
    const country = (entry as { country?: unknown } | null)?.country;
    if (typeof country !== "string" || !/^[A-Z]{2}$/.test(country)) throw badRequest("Each country_permission entry needs a country code.");
    return country;
  });
}

export type Verdict = { ok: true } | { ok: false; kind: "forbidden" | "unlisted"; reason: string };
const OK: Verdict = { ok: true };
const forbidden = (reason: string): Verdict => ({ ok: false, kind: "forbidden", reason });
const unlisted = (reason: string): Verdict => ({ ok: false, kind: "unlisted", reason });

/** Whether PUT status `to` is a move the state table allows; variant card-unlisted-moves-applied applies unlisted ones. */
export function statusMove(card: CardRecord, to: string, ctx: Switchboard): Verdict {
  const verdict = tableStatusMove(card, to, ctx);
  return !verdict.ok && verdict.kind === "unlisted" && ctx.variants.on("card-unlisted-moves-applied") ? OK : verdict;
}

function tableStatusMove(card: CardRecord, to: string, ctx: Switchboard): Verdict {
  const { faults, variants } = ctx;
  const from = card.status;
  const order = card.order_status;
  // Fault r4-card-permanent-deactivatable: the DEACTIVATED branch sits above the permanence guard, so it lets a blocked card through.
  if (faults.on("r4-card-permanent-deactivatable") && to === "DEACTIVATED" && PERMANENT.has(from) && card.activated && DELIVERED.has(order))
    return OK;
  // Fault r6-card-activation-before-permanence-guard: the activation route (row 1) is judged first, whatever the card's status.
  if (
    faults.on("r6-card-activation-before-permanence-guard") &&
    PERMANENT.has(from) &&
    to === "ACTIVE" &&
    order === "ACCEPTED_FOR_PRODUCTION"
  )
    return OK;
  if (PERMANENT.has(from)) {
    if (to === from) return OK;
    if (faults.on("card-lost-reactivable") && from === "LOST" && to === "ACTIVE") return OK;
    // Fault card-permanent-status-relabel: the guard only keeps a permanent card from coming back into use.
    if (faults.on("card-permanent-status-relabel") && PERMANENT.has(to)) return OK;
    return forbidden(`A card that is ${from} cannot be changed.`);
  }
  if (to === "DEACTIVATED") {
    if (!card.activated) return forbidden("A card can be deactivated only after its first activation.");
    // Fault card-reissued-activated: the card is taken for a re-issue, activated before, waiting in ACCEPTED_FOR_PRODUCTION.
    if (faults.on("card-reissued-activated") && order === "ACCEPTED_FOR_PRODUCTION") return OK;
    const allowed = faults.on("card-deactivate-refused-after-update-request") ? order === "DELIVERED_TO_CUSTOMER" : DELIVERED.has(order);
    return allowed ? OK : unlisted(`A card cannot be deactivated while its order status is ${order}.`);
  }
  // Variant r5-card-activation-retry-refused: the activation route is treated as one-time, so a retried activation (the card
  // already ACTIVE, still ACCEPTED_FOR_PRODUCTION) is refused instead of being answered as a no-op.
  if (variants.on("r5-card-activation-retry-refused") && to === "ACTIVE" && from === "ACTIVE" && order === "ACCEPTED_FOR_PRODUCTION")
    return forbidden("The card is already activated.");
  if (to === from) return OK;
  if (to === "ACTIVE") {
    if (order === "ACCEPTED_FOR_PRODUCTION") {
      // Variant card-activation-refused-before-delivery: a rule of that server, so not one card-unlisted-moves-applied lifts.
      if (variants.on("card-activation-refused-before-delivery")) return forbidden("A card can be activated only once it is delivered.");
      return faults.on("card-activation-refused") ? unlisted("The card cannot be activated yet.") : OK;
    }
    const reactivable = faults.on("card-reactivation-refused-after-update") ? order === "DELIVERED_TO_CUSTOMER" : DELIVERED.has(order);
    if (from === "DEACTIVATED" && card.activated && reactivable && !faults.on("card-reactivation-refused")) return OK;
    return unlisted(`A card with order status ${order} cannot be set ACTIVE from ${from}.`);
  }
  if (PERMANENT.has(to)) {
    if (faults.on("card-cancel-refused-before-delivery") && to === "CANCELLED" && order === "ACCEPTED_FOR_PRODUCTION") {
      return unlisted("A card can be cancelled only after delivery.");
    }
    if (faults.on("card-report-requires-active") && from !== "ACTIVE") return forbidden(`A card that is ${from} cannot be set ${to}.`);
    // Fault card-report-refused-after-update-accepted: the reportable list was cut with slice(1, -1), losing CARD_UPDATE_ACCEPTED.
    if (faults.on("card-report-refused-after-update-accepted") && order === "CARD_UPDATE_ACCEPTED")
      return unlisted(`A card with order status ${order} cannot be set ${to}.`);
    return REPORTABLE.has(order) ? OK : unlisted(`A card with order status ${order} cannot be set ${to}.`);
  }
  // Only reachable with card-unknown-status-accepted.
  return OK;
}

/** Row 4: order_status may be set to CARD_REQUEST_PENDING from any state; no other order move is listed. */
export function orderMove(card: CardRecord, to: string, ctx: Switchboard): Verdict {
  // Fault card-request-pending-refused-while-active: a card in use is thought not to need a virtual one.
  if (ctx.faults.on("card-request-pending-refused-while-active") && to !== card.order_status && card.status === "ACTIVE") {
    return forbidden("A virtual card cannot be requested while the card is ACTIVE.");
  }
  // Fault card-request-pending-refused-when-permanent: a lost, stolen or cancelled card is thought not to get a virtual one.
  if (ctx.faults.on("card-request-pending-refused-when-permanent") && to !== card.order_status && PERMANENT.has(card.status)) {
    return forbidden(`A virtual card cannot be requested for a card that is ${card.status}.`);
  }
  // Fault r4-card-request-pending-refused-in-production: a virtual card is thought not to be needed while the plastic one is made.
  if (
    ctx.faults.on("r4-card-request-pending-refused-in-production") &&
    to !== card.order_status &&
    card.order_status === "ACCEPTED_FOR_PRODUCTION"
  ) {
    return forbidden("A virtual card cannot be requested while the card is being produced.");
  }
  if (to === card.order_status || to === "CARD_REQUEST_PENDING" || ctx.variants.on("card-unlisted-moves-applied")) return OK;
  return unlisted(`The order status cannot be set to ${to}.`);
}

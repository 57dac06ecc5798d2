import { randomUUID } from "node:crypto";
import { paginate } from "../pagination.js";
import { pathUser, sendItems, type ResourceModule } from "../module.js";
import { timestamp } from "../time.js";

export const CARD_TYPE_KEY = "Card";

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
  four_digit: string;
  monetary_account_id: number;
  monetary_account_id_fallback: number | null;
  card_limit: { value: string; currency: string };
  card_limit_atm: { value: string; currency: string };
  country_permission: { id: number; country: string }[];
}

/** Seeded cards: one per order status (so every state-table row can be exercised) plus enough to page through. */
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

/** The card as the API shows it: write-only fields and internal flags never leave the server. */
export function cardView(card: CardRecord): Record<string, unknown> {
  return {
    id: card.id,
    created: card.created,
    updated: card.updated,
    type: card.type,
    status: card.status,
    order_status: card.order_status,
    name_on_card: card.name_on_card,
    preferred_name_on_card: card.preferred_name_on_card,
    second_line: card.second_line,
    expiry_date: card.expiry_date,
    card_limit: card.card_limit,
    card_limit_atm: card.card_limit_atm,
    country_permission: card.country_permission,
    pin_code_assignment: [{ type: "PRIMARY", routing_type: "MANUAL", status: "ACTIVE", monetary_account_id: card.monetary_account_id }],
    primary_account_numbers: [
      { id: card.id * 10, description: card.second_line, status: "ACTIVE", uuid: randomUUIDFor(card.id), four_digit: card.four_digit, type: "PHYSICAL", monetary_account_id: card.monetary_account_id },
    ],
    ...(card.monetary_account_id_fallback === null ? {} : { monetary_account_id_fallback: card.monetary_account_id_fallback }),
  };
}

const uuids = new Map<number, string>();
function randomUUIDFor(id: number): string {
  let uuid = uuids.get(id);
  if (!uuid) uuids.set(id, (uuid = randomUUID()));
  return uuid;
}

export const cardsModule: ResourceModule = {
  name: "cards",
  faults: [],
  seed(ctx, user) {
    const cards = ctx.state.collection<CardRecord>("cards");
    SEED.forEach((row, i) => {
      const now = timestamp();
      cards.add(user.id, (id) => ({
        id,
        created: now,
        updated: now,
        type: "MASTERCARD",
        ...row,
        name_on_card: user.displayName.toUpperCase(),
        preferred_name_on_card: user.displayName.toUpperCase(),
        second_line: `card ${i + 1}`,
        expiry_date: "2029-12-31",
        four_digit: String(1000 + ((id * 7919) % 9000)).slice(-4),
        monetary_account_id: user.monetaryAccountIds[0]!,
        monetary_account_id_fallback: i % 2 === 0 ? user.monetaryAccountIds[1]! : null,
        card_limit: { value: "500.00", currency: "EUR" },
        card_limit_atm: { value: "200.00", currency: "EUR" },
        country_permission: [{ id: ctx.state.nextId(), country: "NL" }],
      }));
    });
  },
  register(app, ctx) {
    const cards = ctx.state.collection<CardRecord>("cards");
    app.get("/v1/user/:userID/card", { config: { errorStatus: 400 } }, async (request, reply) => {
      const userId = pathUser(request, ctx);
      const page = paginate(request, cards.list(userId), ctx.faults);
      return sendItems(reply, page.items.map((card) => ({ [CARD_TYPE_KEY]: cardView(card) })), { Pagination: page.pagination });
    });
  },
};

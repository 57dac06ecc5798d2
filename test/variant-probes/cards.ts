// Probes of the card variants (faults/cards.ts: CARD_VARIANTS; reference/resources/cards/). Each finds the variant's own
// mark on the primary user's cards; the plain reference shows none of them.
import { responseItems } from "../../harness/envelope.js";
import type { Probe, ProbeFn } from "./support.js";

const ORDER_STATUSES = [
  "CARD_REQUEST_PENDING",
  "ACCEPTED_FOR_PRODUCTION",
  "DELIVERED_TO_CUSTOMER",
  "CARD_UPDATE_REQUESTED",
  "CARD_UPDATE_SENT",
  "CARD_UPDATE_ACCEPTED",
];

type Shown = { id: number; status: string; order_status: string };

async function cards(p: Probe): Promise<Shown[]> {
  return (responseItems((await p.get(`/user/${p.session.userId}/card?count=200`)).json) ?? []).map(
    (item) => Object.values(item)[0] as Shown,
  );
}

async function put(p: Probe, card: Shown | undefined, body: Record<string, unknown>): Promise<number> {
  return card ? (await p.send("PUT", `/user/${p.session.userId}/card/${card.id}`, body)).status : 0;
}

export const PROBES: Record<string, ProbeFn> = {
  "card-order-status-open": async (p) => (await cards(p)).some((c) => !ORDER_STATUSES.includes(c.order_status)),
  "card-types-coerced": async (p) => (await put(p, (await cards(p))[0], { second_line: 42 })) === 200,
  // An order move the table does not list (only CARD_REQUEST_PENDING is): applied by the variant only.
  "card-unlisted-moves-applied": async (p) => {
    const card = (await cards(p)).find((c) => c.order_status === "CARD_REQUEST_PENDING" && c.status !== "ACTIVE");
    return (await put(p, card, { order_status: "DELIVERED_TO_CUSTOMER" })) === 200;
  },
  "card-limits-refused": async (p) => (await put(p, (await cards(p))[0], { card_limit: { value: "100.00", currency: "EUR" } })) === 400,
};

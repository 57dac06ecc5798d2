// Probes of the card and card-replacement variants (faults/cards.ts: CARD_VARIANTS, CARD_REPLACEMENT_VARIANTS). Each
// finds the variant's own mark on the primary user's cards; the plain reference shows none of them.
import { responseItems } from "../../harness/envelope.js";
import { ids, inner, type Probe, type ProbeFn } from "./support.js";

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
  // ---- Card replacement ----
  // An unknown card answers 400 instead of the plain reference's 404.
  "replace-refusals-400": async (p) => (await p.send("POST", `/user/${p.session.userId}/card/999999999/replace`, {})).status === 400,
  // The card's own name_on_card is refused.
  "replace-refuses-name-on-card": async (p) => {
    const card = inner(await p.get(`/user/${p.session.userId}/card`))[1];
    return (
      (await p.send("POST", `/user/${p.session.userId}/card/${String(card.id)}/replace`, { name_on_card: card.name_on_card })).status ===
      400
    );
  },
  // The old id is answered, yet the user now has one card more.
  "replace-new-card-answers-old-id": async (p) => {
    const list = `/user/${p.session.userId}/card?count=200`;
    const before = ids(await p.get(list));
    const id = before.at(-1)!;
    const answered = ids(await p.send("POST", `/user/${p.session.userId}/card/${id}/replace`, {}))[0];
    return answered === id && ids(await p.get(list)).length === before.length + 1;
  },
};

// Probes of the card-replacement variants (faults/cards.ts: CARD_REPLACEMENT_VARIANTS).
import { ids, inner, type ProbeFn } from "./support.js";

export const PROBES: Record<string, ProbeFn> = {
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

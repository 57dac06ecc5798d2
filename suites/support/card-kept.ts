// What a card PUT taken (200) may keep: the texts and the fallback as the card had them, in its answer and a later GET
// (CARD-021, CARD-023 are LENIENT), worded once for every suite that writes them (cards, pin-code).
import { failPlain, type About } from "../../harness/checks.js";
import type { LenientLog } from "../../harness/lenient.js";
import { canonical, type Card } from "./cards.js";

/**
 * A later GET shows `field` as the card had it before the PUT: the read does not reflect the PUT (blind ruling: no sentence
 * says a later card GET reflects a PUT; the answer and the state are stated). A field missing from the read is not the
 * card as it was, except the fallback, which reads as removed when absent (GAP-27).
 */
export function readsAsBefore(before: Card, after: Card, field: string): boolean {
  return shows(before, field) && shows(after, field) && canonical(after[field] ?? null) === canonical(before[field] ?? null);
}

/** The card read shows a value of `field` (an absent fallback reads as removed, GAP-27). */
export function shows(card: Card, field: string): boolean {
  return field in card || field === "monetary_account_id_fallback";
}

/**
 * The texts and the fallback: a card PUT taken (200) may keep them as the card had them, in its answer and a later GET (blind
 * ruling: no sentence says a PUT with texts or a fallback changes the card at once; texts may go through a reprint).
 */
const KEEPABLE = ["preferred_name_on_card", "second_line", "monetary_account_id_fallback"];

/** The answer to a PUT that sent `field` (a text or the fallback) shows it as the card had it before: the card kept it. */
export function keptInAnswer(before: Card, answer: Card, body: Record<string, unknown>, field: string): boolean {
  return KEEPABLE.includes(field) && field in body && readsAsBefore(before, answer, field);
}

/** " (or, noted, X as before the PUT)": the other reading a failure message names. */
export const notedAsBefore = (before: Card, field: string) => ` (or, noted, ${canonical(before[field] ?? null)} as before the PUT)`;

/** notedAsBefore where the answer may show `field` as the card had it, else nothing. */
export function orAsBefore(before: Card, body: Record<string, unknown>, field: string): string {
  return KEEPABLE.includes(field) && field in body && shows(before, field) ? notedAsBefore(before, field) : "";
}

/** The LENIENT reading of a PUT taken whose answer and a later GET keep fields as before it, worded once so its notes collapse. */
const KEPT = "a card PUT taken (200) kept, in its answer and a later GET, what the card had before";
const KEPT_STRICT = "the answer and a later GET showing the values sent";

/**
 * The fields whose answer showed them as before the PUT (`kept`): a later GET must show them as before too, the card kept them
 * (noted; strict: fails). A later GET showing anything else (the value sent: the answer was not the updated card) fails.
 */
export function expectKept(before: Card, after: Card, body: Record<string, unknown>, kept: string[], about: About, log: LenientLog): void {
  for (const field of kept) {
    if (readsAsBefore(before, after, field)) continue;
    const sent =
      canonical(after[field] ?? null) === canonical(body[field] ?? null) ? " (the value sent: the answer was not the updated card)" : "";
    failPlain(
      about,
      `the answer showed ${field} ${canonical(before[field] ?? null)} as before the PUT (kept), so a later GET must show it too; ` +
        `got ${canonical(after[field])}${sent}`,
    );
  }
  if (kept.length > 0) log.note(about, `${KEPT}: ${kept.join(", ")}`, KEPT_STRICT);
}

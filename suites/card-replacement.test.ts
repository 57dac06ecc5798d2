// Card replacement (banking-api.md "Endpoints > Card replacement"; wire conventions §6, §7; spec/gaps.md
// GAP-04, GAP-28 to GAP-30, GAP-50). A replacement uses up a card (and may be billed after the first one a
// year), so every replacement runs on a fresh user's card; refusals that name no card use a fresh user too
// where the target provisions them. Whether the replace answers the old card's id or a new card's is open
// (GAP-29): the replacement is the answered card where it carries a card number new to the user, else the
// one card of the user that does. A refusal must replace nothing: no card of the user (or of the victim)
// may carry a number it did not carry before. Since the blind ruling of 2026-11-28 (spec/rulings.md) a replacement may
// keep the card's texts, coerce a text of the wrong JSON type, answer a batch without cards with an empty one, and replace
// the user's first card for an id that names none (REPL-006, REPL-007, REPL-009, REPL-015, REPL-016 are LENIENT): recorded,
// and strict requires the first readings.
import { describe, test } from "vitest";
import {
  canonical,
  CardCalls,
  cardNumbers,
  cardOf,
  expectSameCard,
  freshCardUser,
  isPermanent,
  REPORTABLE_ORDER,
  needsDestructive,
  needsFreshUser,
  type Card,
  type Skip,
} from "./support/cards.js";
import { expectObjects, expectOk, expectRefused, expectSchema, expectThat, failPlain, type About } from "../harness/checks.js";
import type { Exchange } from "../harness/http/exchange.js";
import { LenientLog } from "../harness/lenient.js";
import { SHARED_IDS, writerSession } from "./support/resource-helpers.js";
import type { Session } from "../harness/session/session.js";
import { SKIP, useTarget } from "../harness/run/target.js";

const t = useTarget();
/** Refusals that name no card of the caller's: a fresh user where the target provisions them, else the primary. */
const writer = writerSession(t);

/** Cards worth replacing: not LOST, STOLEN or CANCELLED; active ones first. */
function replaceable(cards: Card[], skip: Skip, count = 1, note = ""): Card[] {
  const open = cards.filter((c) => !isPermanent(c)).sort((a, b) => Number(b.status === "ACTIVE") - Number(a.status === "ACTIVE"));
  skip(open.length < count, `the user has fewer than ${count} card(s) that are not LOST, STOLEN or CANCELLED${note}`);
  return open.slice(0, count);
}

const numbersOf = (cards: Card[]) => new Set(cards.flatMap(cardNumbers));
const showsNumbers = (cards: Card[]) => cards.some((c) => cardNumbers(c).length > 0);
const NO_NUMBERS = "the cards show no primary_account_numbers: card numbers cannot be compared (GAP-04)";

/** Month and year of an expiry date written as YYYY-MM(-DD) or MM/YY(YY); undefined for any other text. */
function monthOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const iso = /^(\d{4})-(\d{2})(?:-\d{2})?/.exec(value);
  if (iso) return `${iso[1]}-${iso[2]}`;
  const card = /^(\d{2})\/(\d{2}|\d{4})$/.exec(value);
  return card ? `${card[2]!.length === 2 ? `20${card[2]}` : card[2]}-${card[1]}` : undefined;
}
/** The day of an expiry date written as YYYY-MM-DD (a time may follow); undefined where no day is written. */
const dayOf = (value: unknown) => (typeof value === "string" ? /^\d{4}-\d{2}-(\d{2})/.exec(value)?.[1] : undefined);
/** The same date written another way: the same month and year, and the same day where both write one. */
const sameDate = (a: unknown, b: unknown) =>
  monthOf(a) !== undefined && monthOf(a) === monthOf(b) && (dayOf(a) === undefined || dayOf(b) === undefined || dayOf(a) === dayOf(b));

/**
 * REPL-005: the replacement reads the expiry_date its card read, where both carry it (GAP-04). The same month and year written
 * another way ("12/29" for "2029-12-31": REPL-019, blind round 4, both readers OPEN, the field's format is not shown) is noted;
 * strict requires the text the old card read.
 */
function expectExpiryKept(before: Card, after: Card, what: string): void {
  if (before.expiry_date === undefined || after.expiry_date === undefined) return;
  if (canonical(after.expiry_date) === canonical(before.expiry_date)) return;
  const expiry = { req: "REPL-005", what };
  if (sameDate(before.expiry_date, after.expiry_date))
    new LenientLog(t.profile.strict).note(
      { ...expiry, req: "REPL-019" },
      "a replacement read its expiry date written another way",
      "the expiry_date as before",
    );
  else failPlain(expiry, `expected expiry_date ${canonical(before.expiry_date)} as before, got ${canonical(after.expiry_date)}`);
}

/** The id a replace answers (conventions §7: Id). */
function answeredId(exchange: Exchange, about: About): number {
  expectOk(exchange, about);
  const id = expectObjects(exchange, ["Id"], about)[0];
  expectSchema(id, "id", about, exchange);
  return id!.id as number;
}

interface Replacement {
  card: Card;
  /** Some card of the user shows primary_account_numbers (else REPL-004 cannot be seen, GAP-04). */
  numbersShown: boolean;
  /** The replacement carries a card number none of the user's cards carried before. */
  newNumber: boolean;
}

/**
 * The replacement after one replace: the answered card if it carries a number new to the user, else the one card that
 * does. Which id the answer carries is not stated (blind round 2: both readers OPEN on an Id that names no card), so an
 * answered id the server refuses to read (4XX) only sends the search to the list; strict requires it to name a card.
 */
async function replacementOf(calls: CardCalls, before: Card[], answered: number, about: About): Promise<Replacement> {
  const old = numbersOf(before);
  const isNew = (card: Card) => cardNumbers(card).some((n) => !old.has(n));
  const what = `GET of card ${answered}, the id the replace answered`;
  const read = await calls.get(answered);
  const namesNoCard = !t.profile.strict && read.status >= 400 && read.status < 500;
  const card = namesNoCard ? undefined : cardOf(read, { ...about, what });
  if (card && isNew(card)) return { card, numbersShown: true, newNumber: true };
  const { cards } = await calls.all({ ...about, what: "listing the cards after the replace" });
  const fresh = cards.filter(isNew);
  if (fresh.length > 1)
    failPlain(
      about,
      `expected one card with a card number new to the user after one replace, got ${fresh.length} (cards ` +
        `${fresh.map((c) => c.id).join(", ")})`,
    );
  if (fresh.length === 1)
    return {
      card: await calls.read(fresh[0]!.id, { ...about, what: `GET of card ${fresh[0]!.id}, the card the new number shows on` }),
      numbersShown: true,
      newNumber: true,
    };
  if (!card)
    return failPlain(
      about,
      `expected the answered id ${answered} to name a card, or one card with a card number new to the user; got neither`,
    );
  return { card, numbersShown: old.size > 0 || showsNumbers(cards), newNumber: false };
}

/** A refused replace changed nothing: the card reads as it did `before`, and no card of the owner carries a new card number. */
async function expectReplacedNothing(
  calls: CardCalls,
  cardId: number,
  before: Card,
  cards: Card[],
  about: About,
  kind = "replace",
): Promise<void> {
  expectSameCard(before, await calls.read(cardId, about), { ...about, what: `${about.what}: the refused ${kind} must change nothing` });
  await expectNoNewNumber(calls, cards, about);
}

/** A refusal replaced nothing: none of the owner's cards carries a card number it did not carry before. */
async function expectNoNewNumber(calls: CardCalls, before: Card[], about: About): Promise<void> {
  const old = numbersOf(before);
  const { cards } = await calls.all({ ...about, what: `${about.what ?? ""}: listing the cards after the refusal` });
  const fresh = cards.filter((c) => cardNumbers(c).some((n) => !old.has(n))).map((c) => c.id);
  if (fresh.length > 0)
    failPlain(
      about,
      `expected a refused replace to replace nothing, but card(s) ${fresh.join(", ")} now carry a card number no card of the ` +
        `user carried before`,
    );
}

/** Expects the replacement to show each of `texts`. */
function expectTexts(replacement: Card, texts: Record<string, unknown>, about: About): void {
  for (const [field, value] of Object.entries(texts)) {
    if (replacement[field] !== value)
      failPlain(
        about,
        `expected the replacement (card ${replacement.id}) to show ${field} ${canonical(value)}, got ${canonical(replacement[field])}`,
      );
  }
}

/**
 * The texts a replacement shows (REPL-006): whether it takes the ones sent is open (blind ruling), so one that keeps its own
 * is recorded, and strict requires each text sent.
 */
function judgeTexts(log: LenientLog, replacement: Card, texts: Record<string, unknown>, about: About): void {
  if (t.profile.strict) return expectTexts(replacement, texts, { ...about, what: `${about.what ?? ""} (strict)` });
  const unshown = Object.keys(texts).filter((field) => replacement[field] !== texts[field]);
  if (unshown.length > 0) log.note(about, `the replacement does not show the ${unshown.join(" and ")} sent`, "each text sent");
}

/** Ids of `victim`'s cards that the caller does not also have (ids may be per user: SHARED_IDS). */
async function foreignCards(caller: Session, victim: Card[], skip: Skip, count = 1): Promise<Card[]> {
  const { cards } = await new CardCalls(t, caller).all({ req: "AUTH-019", what: "listing the caller's own cards" });
  const own = new Set(cards.map((c) => c.id));
  return replaceable(
    victim.filter((c) => !own.has(c.id)),
    skip,
    count,
    ` and whose id the caller does not also have (${SHARED_IDS})`,
  );
}

const unknownId = (cards: Card[]) => Math.max(0, ...cards.map((c) => c.id)) + 1_000_000_000;

// Independent: each check replaces (or is refused on) cards of fresh users of its own.
describe.concurrent("POST /user/{userID}/card/{cardID}/replace", () => {
  test(
    "REPL-001 a replace with preferred_name_on_card and second_line answers 200 with an Id, and the replacement shows both texts or " +
      "its own (strict: both texts sent)",
    { tags: ["REPL-003", "REPL-006"] },
    async ({ skip, annotate }) => {
      needsDestructive(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-001" });
      const [card] = replaceable(cards, skip);
      const body = { preferred_name_on_card: "CONFORMANCE REPLACED", second_line: "conformance repl" };
      const what = `with ${canonical(body)} on card ${card!.id}`;
      const exchange = await calls.replace(card!.id, body);
      expectOk(exchange, { req: "REPL-001", what });
      const { card: replacement } = await replacementOf(calls, cards, answeredId(exchange, { req: "REPL-003", what }), {
        req: "REPL-006",
        what,
      });
      const log = new LenientLog(t.profile.strict);
      judgeTexts(log, replacement, body, { req: "REPL-006", what: `replace ${what}` });
      await log.report(annotate);
    },
  );

  test(
    "REPL-002 a replace with an empty object answers 200, and the replacement has a card number new to the user and the old card's " +
      "expiry date",
    { tags: ["REPL-003", "REPL-004", "REPL-005", "REPL-019", "CARD-004"] },
    async ({ skip }) => {
      needsDestructive(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-002" });
      const [card] = replaceable(cards, skip);
      const before = await calls.read(card!.id, { req: "REPL-005", what: "before the replace" });
      const what = `with {} on card ${card!.id}`;
      const exchange = await calls.replace(card!.id, {});
      expectOk(exchange, { req: "REPL-002", what });
      const replacement = await replacementOf(calls, cards, answeredId(exchange, { req: "REPL-003", what }), { req: "REPL-004", what });
      // GAP-04: the expiry is compared where both reads carry it.
      const after = replacement.card;
      // The replacement is a card like any other: its fields keep their types (four_digit: four digits, never the new number).
      expectSchema(after, "card", { req: "CARD-004", what: `replacement (card ${after.id}) read after the replace ${what}` });
      expectExpiryKept(before, after, `replacement (card ${after.id}) of card ${card!.id}`);
      skip(!replacement.numbersShown, NO_NUMBERS);
      if (!replacement.newNumber) {
        failPlain(
          { req: "REPL-004", what: `replace ${what}` },
          `expected a card number none of the user's cards carried before (${[...numbersOf(cards)].length} numbers), on card ` +
            `${after.id} or another card; none appeared`,
        );
      }
    },
  );

  test(
    "REPL-014 a replace sending the card's own name_on_card with preferred_name_on_card is accepted and the replacement shows both, or " +
      "is refused with 4XX replacing nothing (strict: accepted)",
    { tags: ["REPL-006"] },
    async ({ skip, annotate }) => {
      needsDestructive(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-014" });
      const card = replaceable(cards, skip).find((c) => typeof c.name_on_card === "string" && c.name_on_card !== "");
      skip(!card, "the card shows no name_on_card: no name known to be available for the user");
      const body = { name_on_card: card!.name_on_card, preferred_name_on_card: "CONFORMANCE PREFERRED" };
      const about = { req: "REPL-014", what: `with ${canonical(body)} on card ${card!.id}, whose own name_on_card is sent` };
      const before = await calls.read(card!.id, { ...about, what: "before the replace" });
      const log = new LenientLog(t.profile.strict);
      const exchange = await calls.replace(card!.id, body);
      if (exchange.status === 200) {
        const { card: replacement } = await replacementOf(calls, cards, answeredId(exchange, { ...about, req: "REPL-003" }), about);
        expectTexts(replacement, { name_on_card: body.name_on_card }, about);
        judgeTexts(log, replacement, { preferred_name_on_card: body.preferred_name_on_card }, { ...about, req: "REPL-006" });
      } else {
        // The names available for the user are not shown (GAP-30): the card's own name may not be one of them.
        expectRefused(exchange, about);
        log.note(
          about,
          "a replace sending the card's own name_on_card was refused",
          "the replace accepted (the card's name is available for the user)",
        );
        await expectReplacedNothing(calls, card!.id, before, cards, about);
      }
      await log.report(annotate);
    },
  );

  test(
    "REPL-011 a replace or batch replace whose name_on_card is shown only on another user's cards, on none of the caller's, is " +
      "refused with 4XX and an error body, replacing nothing",
    async ({ skip }) => {
      needsDestructive(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-011" });
      const [card] = replaceable(cards, skip);
      // The names available for a user are not shown (GAP-30), but a name only another user's cards carry is that user's.
      const own = new Set(cards.map((c) => c.name_on_card));
      const others = [t.primary(), t.secondary()].filter((s): s is Session => s !== undefined && s.userId !== calls.session.userId);
      const theirs = await Promise.all(others.map(async (s) => (await new CardCalls(t, s).all({ req: "REPL-011" })).cards));
      const name = theirs.flat().find((c) => typeof c.name_on_card === "string" && c.name_on_card !== "" && !own.has(c.name_on_card));
      skip(!name, "no other user's card shows a name_on_card that none of this user's cards shows");
      const body = { name_on_card: name!.name_on_card };
      const about = {
        req: "REPL-011",
        what: `with ${canonical(body)} on card ${card!.id}: the name on another user's card ${String(name!.id)}, on none of this user's`,
      };
      const before = await calls.read(card!.id, { ...about, what: "before the replace" });
      expectRefused(await calls.replace(card!.id, body), about);
      await expectReplacedNothing(calls, card!.id, before, cards, about);
      // The batch replace names the card's name too: the same rule on the other path.
      const batch = { cards: [{ id: card!.id, ...body }] };
      const batchAbout = { req: "REPL-011", what: `batch replace ${canonical(batch)}: another user's name, on none of this user's cards` };
      expectRefused(await calls.batchReplace(batch), batchAbout);
      await expectReplacedNothing(calls, card!.id, before, cards, batchAbout, "batch replace");
    },
  );

  test(
    "REPL-011 a replace or batch replace whose name_on_card is the empty string (no name) is refused with 4XX and an error body, " +
      "replacing nothing",
    async ({ skip }) => {
      needsDestructive(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-011" });
      const [card] = replaceable(cards, skip);
      // "name_on_card is chosen among the names available for the user": whichever names those are, "" names nobody.
      for (const [what, send] of [
        ["replace", () => calls.replace(card!.id, { name_on_card: "" })],
        ["batch replace", () => calls.batchReplace({ cards: [{ id: card!.id, name_on_card: "" }] })],
      ] as const) {
        const about = { req: "REPL-011", what: `${what} of card ${card!.id} with {"name_on_card":""}` };
        const before = await calls.read(card!.id, { ...about, what: `${about.what}: before` });
        expectRefused(await send(), about);
        await expectReplacedNothing(calls, card!.id, before, cards, about);
      }
    },
  );

  test(
    "CARD-015 a replace of a LOST or STOLEN card, single or batch, accepted or refused, leaves that card LOST or STOLEN (permanent)",
    { tags: ["REPL-008"] },
    async ({ skip }) => {
      needsDestructive(t, skip);
      needsFreshUser(t, skip);
      // Two cards made permanent and replaced: only on a fresh user's cards, never on the target's own users'.
      skip(!t.canProvision(), SKIP.provisioning);
      const { calls, cards } = await freshCardUser(t, { req: "CARD-015" }, { permanent: true });
      // Cards whose order status lets them be reported LOST or STOLEN (the card table's row 2).
      const reportable = cards.filter((c) => REPORTABLE_ORDER.includes(String(c.order_status)));
      const [single, batched] = replaceable(reportable, skip, 2, " in an order status that can be reported lost or stolen");
      // A replaced card may be a new card (GAP-29): the card blocked keeps its id and its permanent status whatever the answer.
      const cases: [Card, string, () => Promise<Exchange>][] = [
        [single!, "STOLEN", () => calls.replace(single!.id, {})],
        [batched!, "LOST", () => calls.batchReplace({ cards: [{ id: batched!.id }] })],
      ];
      for (const [card, status, replace] of cases) {
        const about = { req: "CARD-015", what: `card ${card.id}, made ${status}, then replaced` };
        expectOk(await calls.put(card.id, { status }), { ...about, what: `PUT {"status":"${status}"} on card ${card.id}` });
        const answer = await replace();
        const after = await calls.read(card.id, { ...about, what: `GET of card ${card.id} after the replace (${answer.status})` });
        if (after.status !== status)
          failPlain(
            { ...about, what: `${about.what} (${answer.request.method} ${answer.request.path} answered ${answer.status})` },
            `expected status ${status} ("permanent; cannot be changed afterwards"), got ${canonical(after.status)}`,
          );
      }
    },
  );

  const wrongTypes: [string, Record<string, unknown>][] = [
    ["second_line is a number", { second_line: 42 }],
    ["preferred_name_on_card is a boolean", { preferred_name_on_card: true }],
    ["name_on_card is an object", { name_on_card: { name: "X" } }],
  ];
  test(
    "REPL-007 a replace with a field of the wrong JSON type is refused with 4XX and an error body replacing nothing, or taken (strict: " +
      "refused)",
    async ({ skip, annotate }) => {
      needsFreshUser(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-007" });
      const [card] = replaceable(cards, skip);
      // Whether a text of the wrong type must be refused is open (blind ruling): a replace that takes it is recorded,
      // and strict requires the refusal. A refusal replaces nothing, whatever the reading.
      const log = new LenientLog(t.profile.strict);
      let known = cards;
      for (const [what, body] of wrongTypes) {
        const about = { req: "REPL-007", what: `where ${what} (${canonical(body)}) on card ${card!.id}` };
        const before = await calls.read(card!.id, { ...about, what: "before the replace" });
        const exchange = await calls.replace(card!.id, body);
        if (exchange.status === 200) {
          answeredId(exchange, { ...about, req: "REPL-003" });
          log.note(about, `a replace with a text of the wrong JSON type taken (${Object.keys(body).join(", ")})`, "a refusal with 4XX");
          known = (await calls.all({ ...about, what: "listing the cards after the replace" })).cards;
          continue;
        }
        expectRefused(exchange, about);
        await expectReplacedNothing(calls, card!.id, before, known, about);
      }
      await log.report(annotate);
    },
  );

  test(
    "REPL-015 a replace of a card id that does not exist is refused with 4XX and an error body replacing none of the user's cards, or " +
      "replaces one of them (strict: refused)",
    async ({ skip, annotate }) => {
      needsFreshUser(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-015" });
      const id = unknownId(cards);
      const about = { req: "REPL-015", what: `on card id ${id}, which does not exist` };
      const exchange = await calls.replace(id, { second_line: "conformance 015" });
      // Whether an id the user does not have must be refused is open (blind ruling): a replace of one of the user's own
      // cards instead is recorded, and strict requires the refusal.
      if (exchange.status === 200) {
        const log = new LenientLog(t.profile.strict);
        answeredId(exchange, { ...about, req: "REPL-003" });
        log.note(about, "a replace of a card id that does not exist answered 200", "a refusal with 4XX, replacing nothing");
        await log.report(annotate);
        return;
      }
      expectRefused(exchange, about);
      await expectNoNewNumber(calls, cards, about);
    },
  );

  test(
    "AUTH-019 a replace of another user's card under the caller's own userID is refused with 4XX, and none of that user's cards is " +
      "replaced",
    async ({ skip }) => {
      needsFreshUser(t, skip);
      const victim = await freshCardUser(t, { req: "AUTH-019" }, { notPrimary: true });
      const [card] = await foreignCards(t.primary(), victim.cards, skip);
      const about = { req: "AUTH-019", what: `by the primary user on a fresh user's card ${card!.id}` };
      expectRefused(await new CardCalls(t, t.primary()).replace(card!.id, {}), about);
      await expectNoNewNumber(victim.calls, victim.cards, { ...about, what: `${about.what}, the owner listing its cards` });
    },
  );

  test(
    "AUTH-015 the primary session is refused on another user's userID, for a replace and a batch replace of that user's card, and none " +
      "of that user's cards is replaced",
    async ({ skip }) => {
      needsFreshUser(t, skip);
      const victim = await freshCardUser(t, { req: "AUTH-015" }, { notPrimary: true });
      const [card] = replaceable(victim.cards, skip);
      const primary = t.primary();
      const send = (rest: string, json: unknown) =>
        t.client.request({
          method: "POST",
          path: t.userPath(victim.calls.session, rest),
          token: primary.sessionToken,
          from: primary.from,
          json,
        });
      const about = { req: "AUTH-015", what: `with the primary session on the fresh user's id ${victim.calls.session.userId}` };
      expectRefused(await send(`/card/${card!.id}/replace`, {}), { ...about, what: `${about.what}: replace of its card ${card!.id}` });
      expectRefused(await send("/card-batch-replace", { cards: [{ id: card!.id }] }), {
        ...about,
        what: `${about.what}: batch replace of its card ${card!.id}`,
      });
      await expectNoNewNumber(victim.calls, victim.cards, { ...about, what: `${about.what}, the owner listing its cards` });
    },
  );
});

// Independent: fresh users of each check's own; the refusals on the file's writer name no card and change nothing.
describe.concurrent("POST /user/{userID}/card-batch-replace", () => {
  test(
    "REPL-008 a batch of two cards answers one CardBatchReplace listing both ids, and each card gets a replacement with a new card " +
      "number and the old card's expiry date, showing the second_line sent for it or not (strict: showing it)",
    { tags: ["REPL-004", "REPL-005", "REPL-016", "REPL-018", "REPL-019"] },
    async ({ skip, annotate }) => {
      needsDestructive(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-008" });
      const chosen = replaceable(cards, skip, 2);
      const entries = chosen.map((c, i) => ({ id: c.id, second_line: `conformance batch ${i + 1}` }));
      const body = { cards: entries };
      const about = { req: "REPL-008", what: `with ${canonical(body)}` };
      const exchange = await calls.batchReplace(body);
      expectOk(exchange, about);
      const results = expectObjects(exchange, ["CardBatchReplace"], about);
      expectThat(results.length === 1, exchange, "exactly one CardBatchReplace", about, `${results.length}`);
      expectSchema(results[0], "card-batch-replace", about, exchange);
      const listed = ((results[0]!.updated_card_ids as { id?: unknown }[]) ?? []).map((entry) => entry.id);
      const missing = chosen.filter((c) => !listed.includes(c.id)).map((c) => c.id);
      expectThat(
        missing.length === 0,
        exchange,
        `updated_card_ids holding ${chosen.map((c) => c.id).join(" and ")}`,
        about,
        `updated_card_ids ${canonical(listed)}`,
      );
      // GAP-29: a replacement may be a new card. Each entry's is the card showing its second_line with a new number, else
      // the card of its id if that carries a new number, else one of the other cards new numbers show on.
      const old = numbersOf(cards);
      const { cards: after } = await calls.all({ req: "REPL-016", what: "listing the cards after the batch replace" });
      const isNew = (c: Card) => cardNumbers(c).some((n) => !old.has(n));
      const pool = after.filter(isNew);
      const take = (fits: (c: Card) => boolean) => {
        const at = pool.findIndex(fits);
        return at < 0 ? undefined : pool.splice(at, 1)[0];
      };
      const replaced: [Card, Card][] = [];
      const unmatched = entries.filter((e) => {
        const replacement = take((c) => c.second_line === e.second_line) ?? take((c) => c.id === e.id);
        if (replacement) replaced.push([chosen.find((c) => c.id === e.id)!, replacement]);
        return !replacement;
      });
      // The batch keeps each card's expiry as the single replace does (blind round 5: a batch wrote it a day early).
      for (const [card, replacement] of replaced)
        expectExpiryKept(card, replacement, `replacement (card ${replacement.id}) of card ${card.id} in batch replace ${canonical(body)}`);
      const lacking = unmatched.filter(() => pool.splice(0, 1).length === 0).map((e) => e.id);
      // Whether a batch entry's second_line is applied is open (blind ruling): recorded, strict requires it.
      const log = new LenientLog(t.profile.strict);
      for (const entry of entries.filter((e) => !after.some((c) => c.second_line === e.second_line)))
        log.note(
          { req: "REPL-016", what: `batch replace ${canonical(body)}` },
          "no card shows the second_line sent for it in a batch replace",
          `a card showing second_line ${canonical(entry.second_line)}, the replacement of card ${entry.id}`,
        );
      skip(old.size === 0 && !showsNumbers(after), NO_NUMBERS);
      // A card the list showed with its old number may read with the new one (REPL-018, blind round 3: the readers split on a
      // list that lags the read): noted, strict requires the list to show it.
      const readNew = await Promise.all(lacking.map(async (id) => isNew(await calls.read(id, { req: "REPL-004", what: "read by id" }))));
      const stale = lacking.filter((_, i) => readNew[i]);
      if (stale.length > 0)
        log.note(
          { req: "REPL-018", what: `batch replace ${canonical(body)}` },
          "the card list still showed the old card number of a replaced card whose read showed the new one",
          "the card list showing the new card number",
        );
      const none = lacking.filter((id) => !stale.includes(id));
      if (none.length > 0)
        failPlain(
          { req: "REPL-004", what: `batch replace ${canonical(body)}` },
          `expected the replacements of card(s) ${none.join(", ")} to carry a card number no card of the user carried before; ` +
            `${after.filter(isNew).length} card(s) carry one for ${entries.length} replacements, in the list and in a read by id`,
        );
      await log.report(annotate);
    },
  );

  test(
    "REPL-017 a card is replaced, replaced again, and again in a batch: each replace answers 200 and gives a card number new to the " +
      "user (further replacements are billed, not refused)",
    { tags: ["REPL-004", "REPL-008"] },
    async ({ skip }) => {
      needsDestructive(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-017" });
      const [card] = replaceable(cards, skip);
      // Spec: Limits, "free card replacements | 1 per year; further replacements are billed": a further one is billed,
      // not refused. Each replace goes to the last replacement, a card still in use (GAP-29: it may be a new card).
      let known = cards;
      let current = card!;
      for (const round of ["a first replace", "a second replace", "a third replace, in a batch"]) {
        const batch = round.includes("batch");
        const what = `${round} of card ${current.id}${current === card ? "" : " (the replacement of the replace before)"}`;
        const exchange = batch ? await calls.batchReplace({ cards: [{ id: current.id }] }) : await calls.replace(current.id, {});
        expectOk(exchange, { req: "REPL-017", what });
        const answered = batch ? current.id : answeredId(exchange, { req: "REPL-003", what });
        const replacement = await replacementOf(calls, known, answered, { req: "REPL-004", what });
        skip(!replacement.numbersShown, NO_NUMBERS);
        if (!replacement.newNumber)
          failPlain({ req: "REPL-004", what }, `expected a card number none of the user's cards carried before; none appeared`);
        // Every number the user's cards ever carried stays known: a number a replace retired is not new when it comes back.
        known = [...known, ...(await calls.all({ req: "REPL-017", what: `listing the cards after ${round}` })).cards];
        current = replacement.card;
      }
    },
  );

  const badBodies: [string, unknown][] = [
    ["an empty object", {}],
    ["cards as a string", { cards: "1" }],
    ["cards as an object", { cards: { id: 1 } }],
    ["cards as null", { cards: null }],
  ];
  test.for(badBodies)(
    "REPL-009 a batch body with %s is refused with 4XX and an error body, or answered with an empty CardBatchReplace (strict: refused)",
    async ([what, body], { skip, annotate }) => {
      skip(t.profile.mode === "read-only", SKIP.readOnly);
      const exchange = await new CardCalls(t, await writer()).batchReplace(body);
      const about = { req: "REPL-009", what: `with ${what} (${canonical(body)})` };
      // Whether a batch without a cards array must be refused is open (blind ruling): an empty batch answered is recorded,
      // and strict requires the refusal.
      if (exchange.status === 200) {
        const log = new LenientLog(t.profile.strict);
        expectOk(exchange, about);
        const results = expectObjects(exchange, ["CardBatchReplace"], about);
        expectSchema(results[0], "card-batch-replace", about, exchange);
        const listed = (results[0]!.updated_card_ids as unknown[] | undefined) ?? [];
        expectThat(
          listed.length === 0,
          exchange,
          "an empty updated_card_ids (no cards array, so no card replaced)",
          about,
          canonical(listed),
        );
        log.note(about, "a batch without a cards array answered 200 with an empty CardBatchReplace", "a refusal with 4XX");
        await log.report(annotate);
        return;
      }
      expectRefused(exchange, about);
    },
  );

  test("REPL-010 a batch naming only a card id the user does not have is refused with 4XX and an error body", async ({ skip }) => {
    skip(t.profile.mode === "read-only", SKIP.readOnly);
    const calls = new CardCalls(t, await writer());
    const { cards } = await calls.all({ req: "REPL-010" });
    const unknown = unknownId(cards);
    expectRefused(await calls.batchReplace({ cards: [{ id: unknown }] }), {
      req: "REPL-010",
      what: `naming card id ${unknown}, which does not exist`,
    });
  });

  test(
    "REPL-010 a batch naming a card id that does not exist between two of the user's cards is refused with 4XX and an error body, and " +
      "replaces neither card",
    async ({ skip }) => {
      needsDestructive(t, skip);
      const { calls, cards } = await freshCardUser(t, { req: "REPL-010" });
      const [first, last] = replaceable(cards, skip, 2);
      const body = {
        cards: [
          { id: first!.id, second_line: "conformance 010 a" },
          { id: unknownId(cards) },
          { id: last!.id, second_line: "conformance 010 b" },
        ],
      };
      const about = { req: "REPL-010", what: `with ${canonical(body)} (the middle id does not exist)` };
      const before = await Promise.all([first!, last!].map((c) => calls.read(c.id, { ...about, what: "before the batch" })));
      expectRefused(await calls.batchReplace(body), about);
      for (const card of before)
        expectSameCard(card, await calls.read(card.id, about), { ...about, what: `${about.what}: a refused batch replaces nothing` });
      await expectNoNewNumber(calls, cards, about);
    },
  );

  test(
    "REPL-010 a batch naming another user's card between two of the caller's cards is refused with 4XX, and no card of either user is " +
      "replaced",
    { tags: ["AUTH-019"] },
    async ({ skip }) => {
      needsDestructive(t, skip);
      // The victim first: without provisioning it must be the second user, and the caller then gets the primary.
      const victim = await freshCardUser(t, { req: "REPL-010" }, { notPrimary: true });
      const caller = await freshCardUser(t, { req: "REPL-010" });
      const [first, last] = replaceable(caller.cards, skip, 2);
      const [foreign] = await foreignCards(caller.calls.session, victim.cards, skip);
      const body = { cards: [{ id: first!.id }, { id: foreign!.id }, { id: last!.id }] };
      const about = { req: "REPL-010", what: `by a fresh user with ${canonical(body)} (card ${foreign!.id} is another fresh user's)` };
      expectRefused(await caller.calls.batchReplace(body), about);
      await expectNoNewNumber(caller.calls, caller.cards, { ...about, what: `${about.what}: the caller's cards` });
      await expectNoNewNumber(victim.calls, victim.cards, { ...about, req: "AUTH-019", what: `${about.what}: the owner's cards` });
    },
  );

  test(
    "REPL-010 a batch naming only another user's card is refused with 4XX, and none of that user's cards is replaced",
    { tags: ["AUTH-019"] },
    async ({ skip }) => {
      needsFreshUser(t, skip);
      const victim = await freshCardUser(t, { req: "REPL-010" }, { notPrimary: true });
      const [card] = await foreignCards(t.primary(), victim.cards, skip);
      const body = { cards: [{ id: card!.id }] };
      const about = { req: "REPL-010", what: `by the primary user with ${canonical(body)}, a fresh user's card` };
      expectRefused(await new CardCalls(t, t.primary()).batchReplace(body), about);
      await expectNoNewNumber(victim.calls, victim.cards, { ...about, req: "AUTH-019", what: `${about.what}: the owner's cards` });
    },
  );
});

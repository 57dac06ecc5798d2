// Card replacement (banking-api.md "Endpoints > Card replacement"; wire conventions §7; spec/gaps.md
// GAP-28 to GAP-30, GAP-50). A replacement uses up a card (and may be billed after the first one a
// year), so every replacement runs on a fresh user's card; refusals that name no card use the primary user.
import { describe, test } from "vitest";
import { canonical, CardCalls, cardNumbers, freshCardUser, isPermanent, needsDestructive, needsFreshUser, type Card, type Skip } from "../harness/cards.js";
import { expectObjects, expectOk, expectRefused, expectSchema, expectThat, failPlain, type About } from "../harness/checks.js";
import { SHARED_IDS, writerSession } from "../harness/resource-helpers.js";
import { SKIP, useTarget } from "../harness/target.js";

const t = useTarget();
/** Refusals that name no card of the caller's: a fresh user where the target provisions them, else the primary. */
const writer = writerSession(t);




/** Cards worth replacing: not LOST, STOLEN or CANCELLED; active ones first. */
function replaceable(cards: Card[], skip: Skip, count = 1, note = ""): Card[] {
  const open = cards.filter((c) => !isPermanent(c)).sort((a, b) => Number(b.status === "ACTIVE") - Number(a.status === "ACTIVE"));
  skip(open.length < count, `the user has fewer than ${count} card(s) that are not LOST, STOLEN or CANCELLED${note}`);
  return open.slice(0, count);
}

/**
 * The card carries a card number it did not carry before (REPL-004). Where neither read shows a
 * primary_account_numbers entry the number cannot be seen (GAP-04: the card's fields beyond the embedded
 * table are not shown), and the check is skipped.
 */
function expectNewNumber(before: Card, after: Card, about: About, skip: Skip): void {
  skip(cardNumbers(before).length === 0 && cardNumbers(after).length === 0, `card ${after.id} shows no primary_account_numbers before or after the replacement: its card number cannot be compared (GAP-04)`);
  const old = new Set(cardNumbers(before));
  const fresh = cardNumbers(after).filter((n) => !old.has(n));
  if (fresh.length === 0) {
    failPlain(about, `expected card ${after.id} to carry a primary_account_numbers entry it did not carry before (${[...old].join(", ") || "none"}), got ${cardNumbers(after).join(", ") || "none"}`);
  }
}

/** A refused replace replaces nothing: the card keeps the numbers it had. */
function expectSameNumber(before: Card, after: Card, about: About): void {
  if (canonical(cardNumbers(after).sort()) !== canonical(cardNumbers(before).sort())) {
    failPlain(about, `expected card ${before.id} to keep its card numbers ${cardNumbers(before).join(", ") || "(none)"}, got ${cardNumbers(after).join(", ") || "(none)"}`);
  }
}

/**
 * Cards whose id the primary user does not also have: ids may be per user, and naming an id the primary
 * has would rightly replace the primary's own card (SHARED_IDS).
 */
async function notPrimarys(): Promise<(card: Card) => boolean> {
  const { cards } = await new CardCalls(t, t.primary()).all({ req: "AUTH-019", what: "listing the primary user's own cards" });
  const own = new Set(cards.map((c) => c.id));
  return (card) => !own.has(card.id);
}

/** The id a replace answers (conventions §7: Id); GAP-29: the checks read back that card. */
function answeredId(exchange: Parameters<typeof expectOk>[0], about: About): number {
  expectOk(exchange, about);
  const id = expectObjects(exchange, ["Id"], about)[0];
  expectSchema(id, "id", about, exchange);
  return id!.id as number;
}

describe("POST /user/{userID}/card/{cardID}/replace", () => {
  test("REPL-001 REPL-003 REPL-006 a replace with preferred_name_on_card and second_line answers 200 with an Id, and the card then shows both texts", async ({ skip }) => {
    needsDestructive(t, skip);
    const { calls, cards } = await freshCardUser(t, { req: "REPL-001" });
    const [card] = replaceable(cards, skip);
    const body = { preferred_name_on_card: "CONFORMANCE REPLACED", second_line: "conformance repl" };
    const exchange = await calls.replace(card!.id, body);
    const what = `with ${canonical(body)} on card ${card!.id}`;
    expectOk(exchange, { req: "REPL-001", what });
    const id = answeredId(exchange, { req: "REPL-003", what });
    const after = await calls.read(id, { req: "REPL-006", what: `GET of card ${id} after the replace` });
    for (const [field, value] of Object.entries(body)) {
      if (after[field] !== value) failPlain({ req: "REPL-006", what: `GET of card ${id} after the replace ${what}` }, `expected ${field} ${canonical(value)}, got ${canonical(after[field])}`);
    }
  });

  test("REPL-002 REPL-004 REPL-005 a replace with an empty object answers 200, and the card then has a new card number and the same expiry date", async ({ skip }) => {
    needsDestructive(t, skip);
    const { calls, cards } = await freshCardUser(t, { req: "REPL-002" });
    const [card] = replaceable(cards, skip);
    const before = await calls.read(card!.id, { req: "REPL-004", what: "before the replace" });
    const exchange = await calls.replace(card!.id, {});
    const what = `with {} on card ${card!.id}`;
    expectOk(exchange, { req: "REPL-002", what });
    const after = await calls.read(answeredId(exchange, { req: "REPL-003", what }), { req: "REPL-004", what: "after the replace" });
    // GAP-04: the expiry is compared where both reads carry it.
    if (before.expiry_date !== undefined && after.expiry_date !== undefined && canonical(after.expiry_date) !== canonical(before.expiry_date)) {
      failPlain({ req: "REPL-005", what: `GET of card ${after.id} after the replace ${what}` }, `expected expiry_date ${canonical(before.expiry_date)} as before, got ${canonical(after.expiry_date)}`);
    }
    expectNewNumber(before, after, { req: "REPL-004", what: `replace ${what}` }, skip);
  });

  const wrongTypes: [string, Record<string, unknown>][] = [
    ["second_line is a number", { second_line: 42 }],
    ["preferred_name_on_card is a boolean", { preferred_name_on_card: true }],
    ["name_on_card is an object", { name_on_card: { name: "X" } }],
  ];
  test("REPL-007 a replace with a field of the wrong JSON type is refused with 4XX and an error body, and replaces nothing", async ({ skip }) => {
    needsFreshUser(t, skip);
    const { calls, cards } = await freshCardUser(t, { req: "REPL-007" });
    const [card] = replaceable(cards, skip);
    for (const [what, body] of wrongTypes) {
      const about = { req: "REPL-007", what: `where ${what} (${canonical(body)})` };
      const before = await calls.read(card!.id, { ...about, what: "before the replace" });
      expectRefused(await calls.replace(card!.id, body), about);
      expectSameNumber(before, await calls.read(card!.id, about), about);
    }
  });

  test("AUTH-019 a replace of another user's card under the caller's own userID is refused with 4XX, and that card keeps its number", async ({ skip }) => {
    needsFreshUser(t, skip);
    const victim = await freshCardUser(t, { req: "AUTH-019" });
    const [card] = replaceable(victim.cards.filter(await notPrimarys()), skip, 1, ` and whose id the primary user does not also have (${SHARED_IDS})`);
    const about = { req: "AUTH-019", what: `by the primary user on a fresh user's card ${card!.id}` };
    const before = await victim.calls.read(card!.id, { ...about, what: "the owner reading its card" });
    expectRefused(await new CardCalls(t, t.primary()).replace(card!.id, {}), about);
    expectSameNumber(before, await victim.calls.read(card!.id, { ...about, what: "the owner reading its card" }), about);
  });
});

describe("POST /user/{userID}/card-batch-replace", () => {
  test("REPL-008 REPL-004 a batch of two cards answers one CardBatchReplace listing both ids, and both cards then have new card numbers", async ({ skip }) => {
    needsDestructive(t, skip);
    const { calls, cards } = await freshCardUser(t, { req: "REPL-008" });
    const chosen = await Promise.all(replaceable(cards, skip, 2).map((c) => calls.read(c.id, { req: "REPL-004", what: "before the batch replace" })));
    const body = { cards: [{ id: chosen[0]!.id, second_line: "conformance batch" }, { id: chosen[1]!.id }] };
    const about = { req: "REPL-008", what: `with ${canonical(body)}` };
    const exchange = await calls.batchReplace(body);
    expectOk(exchange, about);
    const results = expectObjects(exchange, ["CardBatchReplace"], about);
    expectThat(results.length === 1, exchange, "exactly one CardBatchReplace", about, `${results.length}`);
    expectSchema(results[0], "card-batch-replace", about, exchange);
    const listed = ((results[0]!.updated_card_ids as { id?: unknown }[]) ?? []).map((entry) => entry.id);
    const missing = chosen.filter((c) => !listed.includes(c.id)).map((c) => c.id);
    expectThat(missing.length === 0, exchange, `updated_card_ids holding ${chosen.map((c) => c.id).join(" and ")}`, about, `updated_card_ids ${canonical(listed)}`);
    // GAP-29: a replacement may be a new card, so the new numbers are looked for on all the user's cards.
    const old = new Set(cards.flatMap(cardNumbers));
    const { cards: afterCards } = await calls.all({ req: "REPL-004", what: "listing the cards after the batch replace" });
    const fresh = afterCards.flatMap(cardNumbers).filter((n) => !old.has(n));
    skip(old.size === 0 && fresh.length === 0, "the cards show no primary_account_numbers: card numbers cannot be compared (GAP-04)");
    if (fresh.length < chosen.length) failPlain({ req: "REPL-004", what: `batch replace ${canonical(body)}` }, `expected ${chosen.length} card numbers the user's cards did not carry before, got ${fresh.length}`);
  });

  const badBodies: [string, unknown][] = [
    ["an empty object", {}],
    ["cards as a string", { cards: "1" }],
    ["cards as an object", { cards: { id: 1 } }],
    ["cards as null", { cards: null }],
  ];
  test.for(badBodies)("REPL-009 a batch body with %s is refused with 4XX and an error body", async ([what, body], { skip }) => {
    skip(t.profile.mode === "read-only", SKIP.readOnly);
    const exchange = await new CardCalls(t, await writer()).batchReplace(body);
    expectRefused(exchange, { req: "REPL-009", what: `with ${what} (${canonical(body)})` });
  });

  test("REPL-010 a batch naming only a card id the user does not have is refused with 4XX and an error body", async ({ skip }) => {
    skip(t.profile.mode === "read-only", SKIP.readOnly);
    const calls = new CardCalls(t, t.primary());
    const { cards } = await calls.all({ req: "REPL-010" });
    const unknown = Math.max(0, ...cards.map((c) => c.id)) + 1_000_000_000;
    expectRefused(await calls.batchReplace({ cards: [{ id: unknown }] }), { req: "REPL-010", what: `naming card id ${unknown}, which does not exist` });
  });

  test("REPL-010 a batch naming one of the user's cards and a card id that does not exist is refused with 4XX and an error body", async ({ skip }) => {
    needsDestructive(t, skip);
    const { calls, cards } = await freshCardUser(t, { req: "REPL-010" });
    const [card] = replaceable(cards, skip);
    const unknown = Math.max(...cards.map((c) => c.id)) + 1_000_000_000;
    const body = { cards: [{ id: card!.id }, { id: unknown }] };
    const about = { req: "REPL-010", what: `with ${canonical(body)} (the second id does not exist)` };
    const before = await calls.read(card!.id, about);
    expectRefused(await calls.batchReplace(body), about);
    expectSameNumber(before, await calls.read(card!.id, about), { ...about, what: `${about.what}: a refused batch replaces nothing` });
  });

  test("REPL-010 AUTH-019 a batch naming another user's card is refused with 4XX, and that card keeps its number", async ({ skip }) => {
    needsFreshUser(t, skip);
    const victim = await freshCardUser(t, { req: "REPL-010" });
    const [card] = replaceable(victim.cards.filter(await notPrimarys()), skip, 1, ` and whose id the primary user does not also have (${SHARED_IDS})`);
    const body = { cards: [{ id: card!.id }] };
    const about = { req: "REPL-010", what: `by the primary user with ${canonical(body)}, a fresh user's card` };
    const before = await victim.calls.read(card!.id, { req: "AUTH-019", what: "the owner reading its card" });
    expectRefused(await new CardCalls(t, t.primary()).batchReplace(body), about);
    expectSameNumber(before, await victim.calls.read(card!.id, { req: "AUTH-019", what: "the owner reading its card" }), { ...about, req: "AUTH-019" });
  });
});

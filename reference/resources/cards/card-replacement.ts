// Card replacement (banking-api.md "Endpoints > Card replacement"; wire conventions §7): single
// replace answers Id, batch replace answers CardBatchReplace. A replacement keeps the card (same id,
// same expiry date) and gives it a new card number. Free replacements per year (spec: Limits) are
// not modelled: billing is not observable through the API, so every replacement is accepted.
import type { FastifyReply } from "fastify";
import type { VariantSet } from "../../switches.js";
import { badRequest, notFound } from "../../http-error.js";
import {
  intParam,
  objectBody,
  pathUser,
  sendId,
  sendItems,
  type ReferenceContext,
  type ResourceModule,
  type RouteConfig,
} from "../../module.js";
import type { Collection } from "../../state.js";
import { timestamp, zoneOffsetMs } from "../../time.js";
import {
  cardView,
  fullCardNumber,
  newPan,
  servedById,
  CARD_TYPE_KEY,
  FIRST_CARD_NUMBERS,
  type CardRecord,
  type PanRecord,
} from "./cards.js";

interface Texts {
  name_on_card?: string;
  preferred_name_on_card?: string;
  second_line?: string;
}

/** The optional texts of a replacement, each a string when present (wrong JSON types → 400). */
function parseTexts(body: Record<string, unknown>, names: (keyof Texts)[], coerce: boolean): Texts {
  const texts: Texts = {};
  for (const name of names) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value === "string") texts[name] = value;
    else if (coerce && (typeof value === "number" || typeof value === "boolean")) texts[name] = String(value);
    else throw badRequest(`Field ${name} must be a string.`);
  }
  return texts;
}

/** name_on_card must be one of the names available for the user: here, the names on the user's cards. */
function checkNameOnCard(ctx: ReferenceContext, texts: Texts, userCards: CardRecord[], variants: VariantSet): void {
  const sent = texts.name_on_card;
  if (
    sent !== undefined &&
    (variants.on("replace-refuses-name-on-card") || !userCards.some((c) => nameAvailable(ctx, c.name_on_card, sent)))
  ) {
    throw badRequest("name_on_card is not one of the names available for the user.");
  }
}

/** Whether the name sent is this available name. */
function nameAvailable(ctx: ReferenceContext, available: string, sent: string): boolean {
  // Fault r6-replace-name-on-card-prefix-match: the check reuses the name picker's search (name LIKE 'sent%'), so any beginning
  // of a name, the empty string included, passes.
  if (ctx.faults.on("r6-replace-name-on-card-prefix-match")) return available.startsWith(sent);
  return available === sent;
}

/** How often each card was replaced (spec: Limits, one free replacement a year; the rest are billed, not refused). */
const replacements = new WeakMap<CardRecord, number>();

function replace(ctx: ReferenceContext, card: CardRecord, sent: Texts): number {
  const { faults, variants } = ctx;
  const texts = textsApplied(ctx, sent);
  replacements.set(card, (replacements.get(card) ?? 0) + 1);
  const newCard = variants.on("replace-new-card-answers-old-id");
  if (variants.on("replace-issues-new-card") || newCard) {
    // Legal variant: the replacement is a new card; the old one stays as it was.
    const cards = ctx.state.collection<CardRecord>("cards");
    const owner = [...ctx.state.users.keys()].find((u) => cards.get(u, card.id) === card)!;
    const made = cards.add(owner, (id) => ({
      ...card,
      id,
      created: timestamp(),
      updated: timestamp(),
      primary_account_numbers: [issuedPan(ctx, card.primary_account_numbers)],
      country_permission: card.country_permission.map((p) => ({ ...p })),
      preferred_name_on_card: texts.preferred_name_on_card ?? card.preferred_name_on_card,
      second_line: texts.second_line ?? card.second_line,
      name_on_card: texts.name_on_card ?? card.name_on_card,
    }));
    return newCard ? card.id : made.id;
  }
  // Fault r3-card-list-old-number-after-replace: the card's first number is what the list keeps showing.
  if (faults.on("r3-card-list-old-number-after-replace") && !FIRST_CARD_NUMBERS.has(card))
    FIRST_CARD_NUMBERS.set(card, card.primary_account_numbers);
  if (!faults.on("replace-same-card-number")) card.primary_account_numbers = [replacementNumber(ctx, card)];
  if (faults.on("replace-new-expiry")) card.expiry_date = `${Number(card.expiry_date.slice(0, 4)) + 3}${card.expiry_date.slice(4)}`;
  card.expiry_date = keptExpiry(ctx, card.expiry_date);
  if (texts.preferred_name_on_card !== undefined) card.preferred_name_on_card = texts.preferred_name_on_card;
  if (texts.second_line !== undefined) card.second_line = texts.second_line;
  if (faults.on("replace-name-on-card-from-preferred") && texts.preferred_name_on_card !== undefined)
    card.name_on_card = texts.preferred_name_on_card;
  else if (texts.name_on_card !== undefined) card.name_on_card = texts.name_on_card;
  card.updated = timestamp();
  return card.id;
}

export const cardReplacementModule: ResourceModule = {
  name: "card-replacement",
  register(app, ctx) {
    const { variants, state } = ctx;
    const cards = state.collection<CardRecord>("cards");
    const config = replaceRouteConfig(ctx);

    app.post("/v1/user/:userID/card/:cardID/replace", { config }, async (request, reply) => {
      const userId = pathUser(request, ctx, "replace-path-user-not-checked");
      const card = cardToReplace(ctx, cards, userId, intParam(request, "cardID"));
      if (!card) throw notFound("The card was not found.");
      const body = objectBody(request);
      replacedBeforeTheChecks(ctx, card);
      const texts = parseTexts(body, ["name_on_card", "preferred_name_on_card", "second_line"], wrongTypesCoerced(ctx));
      carelessTextRefusals(ctx, texts);
      textsWrittenBeforeNameCheck(ctx, card, texts);
      checkNameOnCard(ctx, texts, namesOffered(ctx, cards, userId), variants);
      refuseBilledReplacement(ctx, card);
      const replacedId = replace(ctx, card, omittedTextsCleared(ctx, texts));
      return sendReplaced(ctx, reply, card, replacedId);
    });

    app.post("/v1/user/:userID/card-batch-replace", { config }, async (request, reply) => {
      const userId = pathUser(request, ctx, "replace-path-user-not-checked");
      const body = objectBody(request);
      const entries = body.cards;
      if (!Array.isArray(entries)) return refuseMissingCards(ctx, reply);
      if (entries.length === 0) throw badRequest("Field cards must name at least one card.");
      // Everything is checked before anything is replaced: a refused batch replaces nothing.
      const planned: Planned[] = [];
      const shared: Texts = {};
      for (const entry of entries as unknown[]) {
        if (entry === null || typeof entry !== "object" || Array.isArray(entry)) throw badRequest("Each entry of cards must be an object.");
        const fields = entry as Record<string, unknown>;
        if (typeof fields.id !== "number" || !Number.isSafeInteger(fields.id)) throw badRequest("Each entry of cards needs an integer id.");
        const card = batchCard(ctx, cards, userId, fields.id, planned.length === 0);
        if (!card) {
          if (unknownBatchCard(ctx, planned) === "skip") continue;
          throw notFound(`Card ${fields.id} was not found.`);
        }
        if (planned.some((p) => p.card.id === card.id)) throw badRequest(`Card ${card.id} is named twice.`);
        const texts = sharedTexts(ctx, shared, parseTexts(fields, ["name_on_card", "second_line"], false));
        if (batchNameChecked(ctx)) checkNameOnCard(ctx, texts, cards.list(userId), variants);
        refuseBilledReplacement(ctx, card);
        planned.push({ card, texts: batchTexts(ctx, texts) });
      }
      if (batchReplaced(ctx))
        for (const { card, texts } of planned) {
          replace(ctx, card, texts);
          batchReplacementActivated(ctx, card);
          batchReplacementFallbackDropped(ctx, card);
          expiryThroughPrinterOrder(ctx, card);
        }
      const ids = planned.map(({ card }) => ({ id: batchAnswerId(ctx, card), ...answeredCardNumber(ctx, card) }));
      // Fault r5-batch-replace-answers-ids: the batch answers as the single replace does, one Id element per card.
      if (ctx.faults.on("r5-batch-replace-answers-ids"))
        return sendItems(
          reply,
          ids.map(({ id }) => ({ Id: { id } })),
        );
      const answer = [{ CardBatchReplace: { updated_card_ids: updatedCardIds(ctx, ids) } }];
      // Fault r6-batch-replace-answers-202: the batch is taken for a queued job and answered 202 Accepted.
      if (ctx.faults.on("r6-batch-replace-answers-202")) return reply.code(202).type("application/json").send({ Response: answer });
      return sendItems(reply, answer);
    });
  },
};

interface Planned {
  card: CardRecord;
  texts: Texts;
}

// ---- Seams of the replace routes: each decides one rule and names the faults and variants that bend it. ----

/**
 * Each batch entry's texts are its own card's. Variant r6-batch-replace-texts-shared: the entries' texts are merged into one
 * object declared outside the loop, and every planned card keeps a reference to it, so all get the last texts sent.
 */
function sharedTexts(ctx: ReferenceContext, shared: Texts, texts: Texts): Texts {
  return ctx.variants.on("r6-batch-replace-texts-shared") ? Object.assign(shared, texts) : texts;
}

/** A batch entry's name_on_card is one of the user's names, as for a single replace (spec: Card replacement). */
function batchNameChecked(ctx: ReferenceContext): boolean {
  // Fault r4-batch-replace-name-on-card-unchecked: the batch route was written apart and never got the name check.
  return !ctx.faults.on("r4-batch-replace-name-on-card-unchecked");
}

/** Refusals of the replace routes keep their own 4XX (variant replace-refusals-400 answers 400 for all, as cards do). */
function replaceRouteConfig(ctx: ReferenceContext): RouteConfig {
  return ctx.variants.on("replace-refusals-400") ? { errorStatus: 400 } : {};
}

/**
 * The caller's card of the path (AUTH-019, REPL-015). The fault replaces the user's first card for any id the user does not
 * have; variant replace-unknown-id-replaces-first-card (a legal reading since the blind ruling: REPL-015 is LENIENT) only
 * for an id that names no card at all, so another user's card id is still refused (AUTH-019).
 */
function cardToReplace(ctx: ReferenceContext, cards: Collection<CardRecord>, userId: number, id: number): CardRecord | undefined {
  const { faults, variants } = ctx;
  const found = faults.on("replace-other-users-card") ? cards.getAny(id) : cards.get(userId, id);
  const card = servedById(found) ? found : undefined;
  const firstInstead =
    faults.on("replace-unknown-id-falls-back-to-first-card") ||
    (variants.on("replace-unknown-id-replaces-first-card") && cards.ownerOf(id) === undefined);
  if (!card && firstInstead) return cards.list(userId).find(servedById);
  return card;
}

/**
 * The cards whose names a single replace offers as name_on_card: the user's (spec: "the names available for the user").
 * Fault r3-replace-name-on-card-any-users-name: the name query forgot its owner filter and reads every user's cards.
 */
function namesOffered(ctx: ReferenceContext, cards: Collection<CardRecord>, userId: number): CardRecord[] {
  if (!ctx.faults.on("r3-replace-name-on-card-any-users-name")) return cards.list(userId);
  return [...ctx.state.users.keys()].flatMap((owner) => cards.list(owner));
}

/** Nothing is replaced before the body is checked (REPL-007); the fault replaces first. */
function replacedBeforeTheChecks(ctx: ReferenceContext, card: CardRecord): void {
  if (ctx.faults.on("replace-type-check-after-replace")) replace(ctx, card, {});
}

/**
 * A text of the wrong JSON type is refused (REPL-007); the fault, and variant replace-types-coerced (a legal reading since
 * the blind ruling: REPL-007 is LENIENT), coerce numbers and booleans.
 */
function wrongTypesCoerced(ctx: ReferenceContext): boolean {
  return ctx.faults.on("replace-wrong-type-accepted") || ctx.variants.on("replace-types-coerced");
}

/** Every text is optional, second_line included (REPL-001, REPL-002); the faults refuse an empty body or any second_line. */
function carelessTextRefusals(ctx: ReferenceContext, texts: Texts): void {
  const { faults } = ctx;
  if (faults.on("replace-empty-body-refused") && Object.keys(texts).length === 0) throw badRequest("Nothing to replace.");
  if (faults.on("replace-rejects-second-line") && texts.second_line !== undefined) throw badRequest("second_line is not valid.");
}

/**
 * A refused replace changes nothing; variant r3-replace-refused-name-applies-texts (blind round 3, ruled open) writes
 * preferred_name_on_card and second_line onto the card before name_on_card is checked.
 */
function textsWrittenBeforeNameCheck(ctx: ReferenceContext, card: CardRecord, texts: Texts): void {
  if (!ctx.variants.on("r3-replace-refused-name-applies-texts")) return;
  if (texts.preferred_name_on_card !== undefined) card.preferred_name_on_card = texts.preferred_name_on_card;
  if (texts.second_line !== undefined) card.second_line = texts.second_line;
}

/**
 * Texts a replace does not send stay as the card has them (spec: "all optional strings"). Fault
 * r5-replace-omitted-texts-cleared: the single replace maps the body onto the new plastic's texts with "" for what is missing.
 */
function omittedTextsCleared(ctx: ReferenceContext, texts: Texts): Texts {
  if (!ctx.variants.on("r5-replace-omitted-texts-cleared")) return texts;
  return { ...texts, preferred_name_on_card: texts.preferred_name_on_card ?? "", second_line: texts.second_line ?? "" };
}

/** A single replace answers the Id (REPL-003). */
function sendReplaced(ctx: ReferenceContext, reply: FastifyReply, card: CardRecord, replacedId: number): FastifyReply {
  if (ctx.faults.on("replace-answers-card-not-id")) return sendItems(reply, [{ [CARD_TYPE_KEY]: cardView(card, ctx) }]);
  // Fault replace-answers-pan-id: the answer takes the id of the card number just issued.
  if (ctx.faults.on("replace-answers-pan-id")) return sendId(reply, card.primary_account_numbers[0]?.id ?? replacedId);
  return sendId(reply, replacedId);
}

/**
 * A batch without a cards array is refused (REPL-009); the fault, and variant batch-replace-empty-without-cards (a legal
 * reading since the blind ruling: REPL-009 is LENIENT), answer an empty batch.
 */
function refuseMissingCards(ctx: ReferenceContext, reply: FastifyReply): FastifyReply {
  if (ctx.faults.on("batch-replace-accepts-missing-cards") || ctx.variants.on("batch-replace-empty-without-cards"))
    return sendItems(reply, [{ CardBatchReplace: { updated_card_ids: [] } }]);
  throw badRequest("Field cards must be an array.");
}

/** Each card of a batch is the caller's (REPL-010); the faults look among every user's cards (from the second entry on, for one). */
function batchCard(
  ctx: ReferenceContext,
  cards: Collection<CardRecord>,
  userId: number,
  id: number,
  first: boolean,
): CardRecord | undefined {
  const { faults } = ctx;
  const anyOwner =
    faults.on("batch-replace-accepts-other-users-card") || (faults.on("batch-replace-owner-checked-on-first-only") && !first);
  const card = anyOwner ? cards.getAny(id) : cards.get(userId, id);
  return servedById(card) ? card : undefined;
}

/**
 * An unknown card refuses the whole batch, before anything is replaced (REPL-010); the faults skip it, or replace
 * the cards read so far.
 */
function unknownBatchCard(ctx: ReferenceContext, planned: Planned[]): "skip" | "refuse" {
  const { faults } = ctx;
  if (faults.on("batch-replace-skips-unknown-ids")) return "skip";
  if (faults.on("batch-replace-partial-before-refusal")) for (const p of planned) replace(ctx, p.card, p.texts);
  return "refuse";
}

/**
 * A batch entry's texts are applied like a single replace's (REPL-016); the fault, and variant
 * batch-replace-drops-second-line (a legal reading since the blind ruling: REPL-016 is LENIENT), drop its second_line.
 */
function batchTexts(ctx: ReferenceContext, texts: Texts): Texts {
  const drop = ctx.faults.on("batch-replace-ignores-second-line") || ctx.variants.on("batch-replace-drops-second-line");
  return drop ? { ...texts, second_line: undefined } : texts;
}

/**
 * A replacement shows the texts sent (REPL-006); the fault, and variant replace-ignores-texts (a legal reading since the
 * blind ruling: REPL-006 is LENIENT), keep the card's preferred_name_on_card and second_line. name_on_card is applied.
 */
function textsApplied(ctx: ReferenceContext, texts: Texts): Texts {
  if (!ctx.faults.on("replace-ignores-names") && !ctx.variants.on("replace-ignores-texts")) return texts;
  return { ...texts, preferred_name_on_card: undefined, second_line: undefined };
}

/** A replacement keeps the card's status (permanent ones stay so); the fault's batch path sets every replaced card ACTIVE. */
function batchReplacementActivated(ctx: ReferenceContext, card: CardRecord): void {
  // Fault r4-batch-replace-reactivates-card: the batch path marks each new plastic as in use, whatever the card's status was.
  if (ctx.faults.on("r4-batch-replace-reactivates-card")) card.status = "ACTIVE";
}

/**
 * A replacement keeps what the card is linked to, its fallback account included. Variant r5-batch-replace-drops-fallback: the
 * batch path saves each replaced card through the card update routine with a body that has no fallback, and "the fallback is
 * removed when not supplied".
 */
function batchReplacementFallbackDropped(ctx: ReferenceContext, card: CardRecord): void {
  if (ctx.variants.on("r5-batch-replace-drops-fallback")) card.monetary_account_id_fallback = null;
}

/** The batch replaces every card it names (REPL-004). */
function batchReplaced(ctx: ReferenceContext): boolean {
  return !ctx.faults.on("batch-replace-answers-without-replacing");
}

/** Each entry of updated_card_ids is a card's id; fault batch-replace-lists-pan-ids maps the new card number's id instead. */
function batchAnswerId(ctx: ReferenceContext, card: CardRecord): number {
  return ctx.faults.on("batch-replace-lists-pan-ids") ? (card.primary_account_numbers[0]?.id ?? card.id) : card.id;
}

/** The new card number a replacement issues; only its last four digits are ever shown (four_digit). */
function issuedPan(ctx: ReferenceContext, current: PanRecord[]): PanRecord {
  const pan = newPan(ctx, current);
  // Fault r3-replace-shows-full-card-number: the replacement's mapper writes the whole new number into four_digit (no slice(-4)).
  if (ctx.faults.on("r3-replace-shows-full-card-number")) pan.four_digit = fullCardNumber(pan);
  // Fault r6-replace-four-digit-as-number: the new number's last four digits are parsed off the number with Number(), not sliced.
  if (ctx.faults.on("r6-replace-four-digit-as-number")) pan.four_digit = Number(pan.four_digit) as unknown as string;
  return pan;
}

/** Card numbers a replacement took out of use, per card: kept only under fault r4-replace-restores-previous-number. */
const retiredNumbers = new WeakMap<CardRecord, PanRecord[]>();

/**
 * Every replacement issues a card number the card never had (spec: "gets a new card number"). Fault
 * r4-replace-restores-previous-number: the number a replacement retires is kept as the card's "spare", and the next
 * replacement swaps the spare back in instead of issuing a new one.
 */
function replacementNumber(ctx: ReferenceContext, card: CardRecord): PanRecord {
  if (!ctx.faults.on("r4-replace-restores-previous-number")) return issuedPan(ctx, card.primary_account_numbers);
  const spare = retiredNumbers.get(card) ?? [];
  const next = spare.pop() ?? issuedPan(ctx, card.primary_account_numbers);
  retiredNumbers.set(card, [...spare, ...card.primary_account_numbers]);
  return next;
}

/** An updated_card_ids entry is the card's id and nothing else (conventions §7). */
function answeredCardNumber(ctx: ReferenceContext, card: CardRecord): { primary_account_number?: string } {
  const pan = card.primary_account_numbers[0];
  // Variant r3-batch-replace-answers-card-numbers (blind round 3, ruled open): the batch answer carries the new card number,
  // whole, for the card printer.
  if (!ctx.variants.on("r3-batch-replace-answers-card-numbers") || !pan) return {};
  return { primary_account_number: fullCardNumber(pan) };
}

/** Replacements past the free one are billed (spec: Limits); fault replace-second-in-year-refused refuses them instead. */
function refuseBilledReplacement(ctx: ReferenceContext, card: CardRecord): void {
  if (ctx.faults.on("replace-second-in-year-refused") && (replacements.get(card) ?? 0) >= 1) {
    throw badRequest("The free replacement of this card for this year has already been used.");
  }
}

/** updated_card_ids lists every card replaced (REPL-008). */
function updatedCardIds(ctx: ReferenceContext, ids: { id: number }[]): { id: number | string }[] {
  // Fault batch-replace-ids-as-strings: the ids are copied from the path-style lookup keys, as strings.
  if (ctx.faults.on("batch-replace-ids-as-strings")) return ids.map(({ id }) => ({ id: String(id) }));
  return ctx.faults.on("batch-replace-missing-ids") ? ids.slice(0, 1) : ids;
}

/** The replacement keeps the old card's expiry date as it was (spec: Card replacement); the fault rewrites its form. */
function keptExpiry(ctx: ReferenceContext, expiry: string): string {
  // Fault r4-replace-expiry-as-mm-yy: the replacement copies the expiry from the card-printer record, in its embossed MM/YY form.
  const date = /^\d{2}(\d{2})-(\d{2})-\d{2}$/.exec(expiry);
  if (!ctx.faults.on("r4-replace-expiry-as-mm-yy") || !date) return expiry;
  return `${date[2]}/${date[1]}`;
}

/**
 * A batch replacement keeps the card's expiry date (spec: Card replacement). Fault r5-batch-replace-expiry-day-early: the batch
 * path sends each card through the card-printer order, which holds the expiry as local midnight in Amsterdam, and writes it back
 * with toISOString().slice(0, 10): the UTC date of that midnight, one day earlier.
 */
function expiryThroughPrinterOrder(ctx: ReferenceContext, card: CardRecord): void {
  if (!ctx.faults.on("r5-batch-replace-expiry-day-early")) return;
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(card.expiry_date);
  if (!date) return;
  const utcMidnight = new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])));
  const localMidnight = new Date(utcMidnight.getTime() - zoneOffsetMs(utcMidnight, "Europe/Amsterdam"));
  card.expiry_date = localMidnight.toISOString().slice(0, 10);
}

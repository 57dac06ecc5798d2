// Helpers of the card and card-replacement suites: the card calls, reading a card out of an answer,
// and the comparisons the state-table checks repeat. The assertions stay in the tests.
import { expectErrorBody, expectObjects, expectOk, expectStatus, fail, failPlain, type About } from "../../harness/checks.js";
import { paginationOf, responseItems, typeKeyOf } from "../../harness/envelope.js";
import type { Exchange } from "../../harness/http/exchange.js";
import type { Session } from "../../harness/session/session.js";
import { recordConsumed } from "../../harness/consumption.js";
import { currentTest, onScopeEnd } from "../../harness/run/test-scope.js";
import { SKIP, type Target } from "../../harness/run/target.js";

/** Type keys a card may sit under (wire conventions §2; strict: Card). */
export const CARD_TYPES = ["Card", "CardDebit", "CardCredit"];
export const CARD_STATUSES = ["ACTIVE", "DEACTIVATED", "LOST", "STOLEN", "CANCELLED"];
export const ORDER_STATUSES = [
  "CARD_REQUEST_PENDING",
  "ACCEPTED_FOR_PRODUCTION",
  "DELIVERED_TO_CUSTOMER",
  "CARD_UPDATE_REQUESTED",
  "CARD_UPDATE_SENT",
  "CARD_UPDATE_ACCEPTED",
];
/** State table row 2: permanent statuses, and the order statuses they may be set from. */
export const PERMANENT = ["LOST", "STOLEN", "CANCELLED"];
export const REPORTABLE_ORDER = ORDER_STATUSES.filter((s) => s !== "CARD_REQUEST_PENDING");
/** State table row 3: order statuses in which an activated card may be DEACTIVATED. */
export const DELIVERED_ORDER = REPORTABLE_ORDER.filter((s) => s !== "ACCEPTED_FOR_PRODUCTION");
/** Write-only card fields (spec: Endpoints > Cards; conventions §7). */
const WRITE_ONLY = ["pin_code", "activation_code", "cancellation_reason"];

export type Card = Record<string, unknown> & { id: number };

/** Calls of one user's card endpoints, sent from the address the session is bound to. */
export class CardCalls {
  constructor(
    private readonly t: Target,
    readonly session: Session,
    /** The target's own user's cards (no provisioning): what they use up is recorded (harness/consumption.ts). */
    private readonly options: { ownedByTarget?: boolean } = {},
  ) {}

  private call(method: string, rest: string, json?: unknown, query?: Record<string, string | number>, raw?: string): Promise<Exchange> {
    return this.t.client.request({
      method,
      path: this.t.userPath(this.session, rest),
      token: this.session.sessionToken,
      from: this.session.from,
      ...(json === undefined ? {} : { json }),
      ...(raw === undefined ? {} : { body: raw, headers: { "Content-Type": "application/json" } }),
      ...(query ? { query } : {}),
    });
  }

  list(query?: Record<string, string | number>): Promise<Exchange> {
    return this.call("GET", "/card", undefined, query);
  }
  /** `id` may be any path segment (a non-integer id is a card read failure). */
  get(id: number | string): Promise<Exchange> {
    return this.call("GET", `/card/${id}`);
  }
  async put(id: number | string, body: unknown): Promise<Exchange> {
    const exchange = await this.call("PUT", `/card/${id}`, body);
    const status = (body as { status?: unknown } | null)?.status;
    if (this.options.ownedByTarget && exchange.status === 200 && PERMANENT.includes(String(status)))
      recordConsumed("card made permanent", `card ${id} of user ${this.session.userId} (${String(status)})`);
    return exchange;
  }
  /** PUT with these exact body bytes, labelled application/json (malformed JSON included). */
  putText(id: number, text: string): Promise<Exchange> {
    return this.call("PUT", `/card/${id}`, undefined, undefined, text);
  }
  async replace(id: number, body: unknown): Promise<Exchange> {
    const exchange = await this.call("POST", `/card/${id}/replace`, body);
    if (this.options.ownedByTarget && exchange.status === 200) recordConsumed("card replaced", `card ${id} of user ${this.session.userId}`);
    return exchange;
  }
  async batchReplace(body: unknown): Promise<Exchange> {
    const exchange = await this.call("POST", "/card-batch-replace", body);
    const ids = ((body as { cards?: unknown } | null)?.cards ?? []) as { id?: unknown }[];
    if (this.options.ownedByTarget && exchange.status === 200 && Array.isArray(ids))
      for (const entry of ids) recordConsumed("card replaced", `card ${String(entry?.id)} of user ${this.session.userId}`);
    return exchange;
  }

  /** Every card of the user: count=200, then older_url until it is null (conventions §5). */
  async all(about: About): Promise<{ cards: Card[]; pages: Exchange[] }> {
    const pages: Exchange[] = [];
    let exchange = await this.list({ count: 200 });
    for (;;) {
      pages.push(exchange);
      expectOk(exchange, { ...about, what: about.what ?? "listing the user's cards" });
      const older = paginationOf(exchange.json)?.older_url;
      if (typeof older !== "string" || pages.length >= 50) break;
      exchange = await this.t.client.request({ path: older, token: this.session.sessionToken, from: this.session.from });
    }
    const cards = pages.flatMap((page) => (responseItems(page.json) ?? []).map(innerObject)).filter(isCard);
    return { cards, pages };
  }

  /** GET one card: 200 with a card object under a card type key (checked), returned. */
  async read(id: number, about: About): Promise<Card> {
    const exchange = await this.get(id);
    return cardOf(exchange, { ...about, what: about.what ?? "reading the card back" });
  }
}

function innerObject(item: Record<string, unknown>): unknown {
  const key = typeKeyOf(item);
  return key === undefined ? undefined : item[key];
}

function isCard(value: unknown): value is Card {
  return value !== null && typeof value === "object" && typeof (value as { id?: unknown }).id === "number";
}

/** The one card an answer carries (GET or PUT): 200, a card type key, an integer id. */
export function cardOf(exchange: Exchange, about: About): Card {
  expectOk(exchange, about);
  const card = expectObjects(exchange, CARD_TYPES, about)[0];
  if (!isCard(card)) return fail(about, exchange, "a card with an integer id", JSON.stringify(card));
  return card;
}

/** Exactly 400 with an error body: card failures (spec: Errors). */
export function expect400(exchange: Exchange, about: About): void {
  expectStatus(exchange, 400, about);
  expectErrorBody(exchange, about);
}

/** The fallback as a number, or null when absent or null (GAP-27: both read as removed). */
export function fallbackOf(card: Card): unknown {
  return card.monetary_account_id_fallback ?? null;
}

/** JSON with sorted keys, for comparing objects whatever their key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** The fields of the specification's card table (plus expiry_date), which a refused PUT must leave as they were. */
export function snapshot(card: Card): Record<string, unknown> {
  const fields = [
    "status",
    "order_status",
    "preferred_name_on_card",
    "second_line",
    "card_limit",
    "card_limit_atm",
    "country_permission",
    "pin_code_assignment",
    "primary_account_numbers",
    "expiry_date",
  ];
  // No order is given for the card's arrays: compared as sets.
  const value = (f: string) => (Array.isArray(card[f]) ? (card[f] as unknown[]).map(canonical).sort() : (card[f] ?? null));
  return { id: card.id, ...Object.fromEntries(fields.map((f) => [f, value(f)])), monetary_account_id_fallback: fallbackOf(card) };
}

/**
 * Fails unless two reads of a card agree on every snapshot field (`before` is the earlier read).
 * `sharedOnly`: compare only the fields both carry (a list may show fewer fields than a read).
 */
export function expectSameCard(before: Card, after: Card, about: About, options: { sharedOnly?: boolean } = {}): void {
  const changed = cardChanges(before, after, options);
  if (changed.length > 0) failPlain(about, `expected card ${before.id} to read as before, but ${changed.map((c) => c.text).join("; ")}`);
}

/** The snapshot fields that differ between two reads of a card, each with "field went from A to B" (none: the same card). */
export function cardChanges(before: Card, after: Card, options: { sharedOnly?: boolean } = {}): { field: string; text: string }[] {
  const a = snapshot(before);
  const b = snapshot(after);
  const compared = Object.keys(a).filter((k) => !options.sharedOnly || (k in before && k in after) || k === "id");
  return compared
    .filter((k) => canonical(a[k]) !== canonical(b[k]))
    .map((k) => ({ field: k, text: `${k} went from ${canonical(a[k])} to ${canonical(b[k])}` }));
}

/** Paths of write-only keys anywhere in a JSON value. */
export function writeOnlyKeys(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => writeOnlyKeys(v, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => [
    ...(WRITE_ONLY.includes(k) ? [`${path}.${k}`] : []),
    ...writeOnlyKeys(v, `${path}.${k}`),
  ]);
}

/** One key per card number the card carries (id, uuid and last four digits of each primary_account_numbers entry). */
export function cardNumbers(card: Card): string[] {
  const entries = Array.isArray(card.primary_account_numbers) ? (card.primary_account_numbers as Record<string, unknown>[]) : [];
  return entries.map((e) => canonical({ id: e?.id ?? null, uuid: e?.uuid ?? null, four_digit: e?.four_digit ?? null }));
}

/** The monetary account ids a user's cards show (pin assignments, card numbers, fallbacks). */
export function accountIdsOf(cards: Card[]): number[] {
  const ids = new Set<number>();
  for (const card of cards) {
    for (const list of [card.pin_code_assignment, card.primary_account_numbers]) {
      for (const entry of Array.isArray(list) ? (list as { monetary_account_id?: unknown }[]) : []) {
        if (typeof entry?.monetary_account_id === "number") ids.add(entry.monetary_account_id);
      }
    }
    if (typeof card.monetary_account_id_fallback === "number") ids.add(card.monetary_account_id_fallback);
  }
  return [...ids];
}

export const isPermanent = (card: Card): boolean => PERMANENT.includes(String(card.status));

/** The `skip` of a vitest test context. */
export type Skip = (condition: boolean, note?: string) => void;

/**
 * Checks that change cards: a fresh user's where the target provisions users; else, with allowDestructive, the
 * primary and second users' own cards (issue: certify a server without a user factory), taken in turns.
 */
export function needsFreshUser(t: Target, skip: Skip): void {
  skip(t.profile.mode === "read-only", SKIP.readOnly);
  skip(!t.canProvision() && !t.profile.allowDestructive, SKIP.cardsToChange);
}

/** Permanent states, order moves and replacements use up cards: the same owners, and the same profile settings. */
export function needsDestructive(t: Target, skip: Skip): void {
  needsFreshUser(t, skip);
}

/** The cards a check may change, and whose they are. */
export interface CardOwner {
  calls: CardCalls;
  cards: Card[];
}

/**
 * A user whose cards this check may change, and those cards. With provisioning: a fresh user. Without: the primary or
 * the second user, whichever has more cards left that are not permanent (a second call in the same check gets the
 * other); the check holds them alone until it ends (cardTurn), and each card it moved between ACTIVE and DEACTIVATED is
 * put back then, so the next check finds the cards as they were. `notPrimary`: an owner other than the primary (the
 * check acts on it with the primary's session). `permanent`: the check makes cards permanent or replaces them, so the
 * last card of its kind (status and order status) of each user is kept back for the checks that need one.
 */
export async function freshCardUser(
  t: Target,
  about: About,
  options: { notPrimary?: boolean; permanent?: boolean; need?: (card: Card) => boolean } = {},
): Promise<CardOwner> {
  if (t.canProvision()) {
    const calls = new CardCalls(t, await t.freshSession());
    const { cards } = await calls.all({ ...about, what: "listing a fresh user's cards" });
    return { calls, cards };
  }
  const turn = await cardTurn();
  const candidates = [t.secondary(), options.notPrimary ? undefined : t.primary()].filter(
    (s): s is Session => s !== undefined && !turn.handedOut.includes(s.userId),
  );
  if (candidates.length === 0) {
    failPlain(about, `needs ${options.notPrimary ? "a second user" : "another user"} whose cards it may change: set secondaryApiKey`);
  }
  const owners = await Promise.all(
    candidates.map(async (session) => {
      const calls = new CardCalls(t, session, { ownedByTarget: true });
      return { calls, cards: (await calls.all({ ...about, what: `listing user ${session.userId}'s own cards` })).cards };
    }),
  );
  const left = (o: CardOwner) => o.cards.filter((c) => !isPermanent(c)).length;
  // `need`: the card the check asks for; an owner who has one comes first, then the one with more cards left.
  const has = (o: CardOwner) =>
    Number(options.need === undefined || (options.permanent ? spareOfEachKind(o.cards) : o.cards).some(options.need));
  const owner = owners.sort((a, b) => has(b) - has(a) || left(b) - left(a))[0]!;
  turn.handedOut.push(owner.calls.session.userId);
  turn.restore.push(owner);
  return { calls: owner.calls, cards: options.permanent ? spareOfEachKind(owner.cards) : owner.cards };
}

/** A card awaiting activation: row 1 activates it, row 3's condition needs one never activated. */
export const awaitingActivation = (c: Card): boolean =>
  c.order_status === "ACCEPTED_FOR_PRODUCTION" && c.status !== "ACTIVE" && !isPermanent(c);

/**
 * The cards of a user but the last one of each kind (status and order status) that is not permanent: the checks that
 * need one kind find it (a card awaiting activation included, for row 1 and row 3's condition).
 */
function spareOfEachKind(cards: Card[]): Card[] {
  const kind = (c: Card) => `${String(c.status)} ${String(c.order_status)}`;
  const counts = new Map<string, number>();
  for (const c of cards.filter((x) => !isPermanent(x))) counts.set(kind(c), (counts.get(kind(c)) ?? 0) + 1);
  const kept = new Set<string>();
  return cards.filter((c) => {
    if (isPermanent(c) || counts.get(kind(c))! > 1) return true;
    if (kept.has(kind(c))) return true;
    kept.add(kind(c));
    return false;
  });
}

/** One check at a time holds the users' own cards (per thread: without provisioning the files run one at a time). */
interface Turn {
  handedOut: number[];
  restore: CardOwner[];
}
const turns = new Map<string, Turn>();
let queue: Promise<void> = Promise.resolve();

async function cardTurn(): Promise<Turn> {
  const test = currentTest();
  const key = test?.id ?? "outside a test";
  const held = turns.get(key);
  if (held) return held;
  const turn: Turn = { handedOut: [], restore: [] };
  turns.set(key, turn);
  let release!: () => void;
  const previous = queue;
  queue = new Promise<void>((resolve) => (release = resolve));
  await previous;
  const handBack = async () => {
    try {
      await Promise.all(turn.restore.map((owner) => putBackStatuses(owner)));
    } finally {
      turns.delete(key);
      release();
    }
  };
  // Given back when the check ends; outside a test scope there is no end to wait for, so nothing is held.
  if (!onScopeEnd(handBack)) {
    turns.delete(key);
    release();
  }
  return turn;
}

/** Cards a check moved between ACTIVE and DEACTIVATED go back to the status they had; nothing else is touched. */
async function putBackStatuses(owner: CardOwner): Promise<void> {
  const reversible = ["ACTIVE", "DEACTIVATED"];
  const now = await owner.calls.list({ count: 200 }).catch(() => undefined);
  const current = new Map(
    (responseItems(now?.json) ?? [])
      .map(innerObject)
      .filter(isCard)
      .map((c) => [c.id, c] as const),
  );
  for (const card of owner.cards) {
    const status = current.get(card.id)?.status;
    if (status !== card.status && reversible.includes(String(status)) && reversible.includes(String(card.status)))
      await owner.calls.put(card.id, { status: card.status }).catch(() => undefined);
  }
}

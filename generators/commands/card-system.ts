// The system under test for the card commands: one fresh user's cards, the calls made so far (so a
// failure reads as the script that led to it), and the one routine every PUT command shares: send the
// move, hold the answer to the table's verdict, read the card back, and move the model along.
import type fc from "fast-check";
import { cardOf, expect400, type Card, type CardCalls } from "../../suites/support/cards.js";
import { expectErrorBody, expectStatus, fail, failPlain, type About } from "../../harness/checks.js";
import type { LenientLog } from "../../harness/lenient.js";
import { afterStatus, PERMANENT, statusVerdict, type CardState, type Verdict } from "./card-table.js";

export interface CardModel {
  cards: CardState[];
}

export class CardSystem {
  /** Every call made in this run, as "PUT /card/7 {...} → 400". */
  readonly script: string[] = [];

  constructor(
    readonly calls: CardCalls,
    /** Card id per model slot. */
    readonly ids: number[],
    readonly lenient: LenientLog,
  ) {}

  /** The calls so far, for failure messages. */
  history(): string {
    return this.script.length === 0 ? "(first call of the run)" : `(after ${this.script.join("; ")})`;
  }

  async put(slot: number, body: Record<string, unknown>) {
    const id = this.ids[slot]!;
    const exchange = await this.calls.put(id, body);
    this.script.push(`PUT /card/${id} ${JSON.stringify(body)} → ${exchange.status}`);
    return exchange;
  }

  async read(slot: number, about: About): Promise<Card> {
    const id = this.ids[slot]!;
    const exchange = await this.calls.get(id);
    this.script.push(`GET /card/${id} → ${exchange.status}`);
    return cardOf(exchange, about);
  }
}

export type CardCommand = fc.AsyncCommand<CardModel, CardSystem>;

/** "PUT /card/7 {"status":"LOST"}", with the slot label until the command has run and knows its card. */
export function describePut(card: number | string, body: Record<string, unknown>): string {
  return `PUT /card/${card} ${JSON.stringify(body)}`;
}

function stateOf(card: Card): string {
  return `status ${String(card.status)}, order_status ${String(card.order_status)}`;
}

/**
 * Sends PUT `body` to the card in `slot` and checks the answer against `verdict`: allowed → 200 and a
 * read shows `field` = `to`; forbidden → exactly 400 with an error body and the card unchanged;
 * undecided → either of those (recorded as a LENIENT observation when applied). The model then
 * follows what the card shows.
 */
export async function runMove(
  model: CardModel,
  real: CardSystem,
  slot: number,
  body: Record<string, unknown>,
  verdict: Verdict,
  field: "status" | "order_status",
): Promise<void> {
  const before = model.cards[slot]!;
  const to = body[field] as string;
  const history = real.history();
  const about = (req: string): About => ({ req, what: `${history}: ${verdict.rule}` });
  const exchange = await real.put(slot, body);

  const expectUnchanged = async (req: string) => {
    const card = await real.read(slot, about(req));
    if (card.status !== before.status || card.order_status !== before.order) {
      failPlain(
        about(req),
        `a refused PUT must leave the card as it was (status ${before.status}, order_status ${before.order}), but card ` +
          `${real.ids[slot]} now shows ${stateOf(card)}`,
      );
    }
  };
  const expectApplied = async (req: string): Promise<Card> => {
    const card = await real.read(slot, about(req));
    if (card[field] !== to)
      failPlain(about(req), `after 200 a read of card ${real.ids[slot]} must show ${field} ${to}, but it shows ${stateOf(card)}`);
    return card;
  };

  if (verdict.kind === "forbidden") {
    expect400(exchange, about(verdict.req));
    await expectUnchanged(verdict.req);
    return;
  }
  if (verdict.kind === "allowed") expectStatus(exchange, 200, about(verdict.req));
  else if (exchange.status === 400) {
    expectErrorBody(exchange, about(verdict.req));
    await expectUnchanged(verdict.req);
    return;
  } else if (exchange.status !== 200)
    fail(about(verdict.req), exchange, "HTTP 200 (the move applied) or exactly 400 (refused, card unchanged)");

  const card = await expectApplied(verdict.req);
  if (verdict.kind === "undecided") {
    real.lenient.note(
      { req: verdict.req, what: history },
      `${verdict.rule}: applied (200)`,
      verdict.strictRefusal ? "a refusal with exactly 400" : undefined,
    );
  }
  // Row 2: a permanent status cannot be changed afterwards, whatever the PUT set (an order status included).
  if (PERMANENT.includes(before.status) && card.status !== before.status) {
    failPlain(
      about("CARD-015"),
      `row 2: ${before.status} is permanent, but after ${describePut(real.ids[slot]!, body)} (answered ${exchange.status}) card ` +
        `${real.ids[slot]} shows status ${String(card.status)}`,
    );
  }
  let next: CardState = field === "status" ? afterStatus(before, to, verdict.req) : { ...before, order: to, since: verdict.req };
  // The table names only the field the PUT sets; if the other one moved too (say, activation marks the
  // card delivered), the table has nothing against it: recorded, and the model follows the card.
  const other = field === "status" ? "order_status" : "status";
  const expected = field === "status" ? next.order : next.status;
  if (card[other] !== expected) {
    real.lenient.note(
      { req: "CARD-020", what: history },
      `${describePut("{card}", body)} on a card with status ${before.status}, order_status ${before.order} also set ${other} ` +
        `${String(card[other])}`,
    );
    next = {
      ...next,
      status: String(card.status),
      order: String(card.order_status),
      activated: card.status === "ACTIVE" ? true : next.activated,
    };
  }
  model.cards[slot] = next;
}

/** PUT {"status": X} on the card in one slot; the files put-status-*.ts each fix X. */
export abstract class PutStatusCommand implements CardCommand {
  /** The card id once the command has run (fresh users: ids differ from run to run). */
  protected card: number | undefined;

  constructor(
    readonly slot: number,
    readonly status: string,
  ) {}

  check(model: Readonly<CardModel>): boolean {
    return this.slot < model.cards.length;
  }

  async run(model: CardModel, real: CardSystem): Promise<void> {
    this.card = real.ids[this.slot];
    await runMove(model, real, this.slot, { status: this.status }, statusVerdict(model.cards[this.slot]!, this.status), "status");
  }

  toString(): string {
    return describePut(this.card ?? `{card ${this.slot}}`, { status: this.status });
  }
}

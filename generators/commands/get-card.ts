// GET /card/{id}: the card shows the status and order status the model holds, i.e. what the table's moves
// so far produced (a refused move changed nothing).
import fc from "fast-check";
import { failPlain } from "../../harness/checks.js";
import type { CardCommand, CardModel, CardSystem } from "./card-system.js";

export class GetCard implements CardCommand {
  private card: number | undefined;

  constructor(readonly slot: number) {}

  check(model: Readonly<CardModel>): boolean {
    return this.slot < model.cards.length;
  }

  async run(model: CardModel, real: CardSystem): Promise<void> {
    this.card = real.ids[this.slot];
    const expected = model.cards[this.slot]!;
    const about = { req: expected.since, what: `GET /card/${this.card} ${real.history()}` };
    const card = await real.read(this.slot, about);
    if (card.status !== expected.status || card.order_status !== expected.order) {
      failPlain(
        about,
        `expected status ${expected.status} and order_status ${expected.order}, as the moves so far left it, got status ` +
          `${String(card.status)}, order_status ${String(card.order_status)}`,
      );
    }
  }

  toString(): string {
    return `GET /card/${this.card ?? `{card ${this.slot}}`}`;
  }

  [fc.cloneMethod](): GetCard {
    return new GetCard(this.slot);
  }
}

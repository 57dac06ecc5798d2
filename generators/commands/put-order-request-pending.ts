// PUT {"order_status":"CARD_REQUEST_PENDING"}: row 4, from any state ("a virtual card is produced"); the
// order status then reads CARD_REQUEST_PENDING (CARD-019), from LOST, STOLEN or CANCELLED too, whose status stays (GAP-10).
import fc from "fast-check";
import { describePut, runMove, type CardCommand, type CardModel, type CardSystem } from "./card-system.js";
import { REQUEST_PENDING, requestPendingVerdict } from "./card-table.js";

export class PutOrderRequestPending implements CardCommand {
  private card: number | undefined;

  constructor(readonly slot: number) {}

  check(model: Readonly<CardModel>): boolean {
    return this.slot < model.cards.length;
  }

  async run(model: CardModel, real: CardSystem): Promise<void> {
    this.card = real.ids[this.slot];
    await runMove(
      model,
      real,
      this.slot,
      { order_status: REQUEST_PENDING },
      requestPendingVerdict(model.cards[this.slot]!),
      "order_status",
    );
  }

  toString(): string {
    return describePut(this.card ?? `{card ${this.slot}}`, { order_status: REQUEST_PENDING });
  }

  [fc.cloneMethod](): PutOrderRequestPending {
    return new PutOrderRequestPending(this.slot);
  }
}

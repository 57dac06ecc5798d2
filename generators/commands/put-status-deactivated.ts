// PUT {"status":"DEACTIVATED"}: row 3, only after the first activation and while order_status is one of
// DELIVERED_TO_CUSTOMER, CARD_UPDATE_* (CARD-016); never on a card never activated (CARD-018).
import fc from "fast-check";
import { PutStatusCommand } from "./card-system.js";

export class PutStatusDeactivated extends PutStatusCommand {
  constructor(slot: number) {
    super(slot, "DEACTIVATED");
  }

  [fc.cloneMethod](): PutStatusDeactivated {
    return new PutStatusDeactivated(this.slot);
  }
}

// PUT {"status":"LOST"}: row 2, from any order status but CARD_REQUEST_PENDING (CARD-014), and permanent
// afterwards (CARD-015).
import fc from "fast-check";
import { PutStatusCommand } from "./card-system.js";

export class PutStatusLost extends PutStatusCommand {
  constructor(slot: number) {
    super(slot, "LOST");
  }

  [fc.cloneMethod](): PutStatusLost {
    return new PutStatusLost(this.slot);
  }
}

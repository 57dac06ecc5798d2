// PUT {"status":"ACTIVE"}: row 1 (activation while order_status is ACCEPTED_FOR_PRODUCTION, CARD-013) and
// row 3 (a DEACTIVATED card back to ACTIVE, CARD-017); refused once LOST, STOLEN or CANCELLED (CARD-015).
import fc from "fast-check";
import { PutStatusCommand } from "./card-system.js";

export class PutStatusActive extends PutStatusCommand {
  constructor(slot: number) {
    super(slot, "ACTIVE");
  }

  [fc.cloneMethod](): PutStatusActive {
    return new PutStatusActive(this.slot);
  }
}

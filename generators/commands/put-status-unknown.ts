// PUT {"status": <not one of the five>}: refused with exactly 400 and the card unchanged (CARD-010), in
// every state.
import fc from "fast-check";
import { PutStatusCommand } from "./card-system.js";
import { CARD_STATUSES } from "./card-table.js";

export class PutStatusUnknown extends PutStatusCommand {
  [fc.cloneMethod](): PutStatusUnknown {
    return new PutStatusUnknown(this.slot, this.status);
  }
}

/** Status words a card does not have: near misses and made-up ones, never one of the five. */
export const unknownStatus = fc
  .oneof(
    fc.constantFrom("PENDING_ACTIVATION", "BLOCKED", "EXPIRED", "SUSPENDED", "ACTIVATED", "REPLACED", "FROZEN"),
    fc.stringMatching(/^[A-Z][A-Z_]{2,15}$/),
  )
  .filter((status) => !CARD_STATUSES.includes(status));

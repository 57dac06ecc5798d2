// The card commands for fc.commands: each picks one of the model's card slots (check() drops commands
// whose slot the run has no card for).
import fc from "fast-check";
import type { CardCommand } from "./card-system.js";
import { GetCard } from "./get-card.js";
import { PutOrderRequestPending } from "./put-order-request-pending.js";
import { PutStatusActive } from "./put-status-active.js";
import { PutStatusCancelled } from "./put-status-cancelled.js";
import { PutStatusDeactivated } from "./put-status-deactivated.js";
import { PutStatusLost } from "./put-status-lost.js";
import { PutStatusStolen } from "./put-status-stolen.js";
import { PutStatusUnknown, unknownStatus } from "./put-status-unknown.js";

export { CardSystem, type CardModel } from "./card-system.js";
export type { CardState } from "./card-table.js";

/**
 * The command arbitraries over `slots` card slots. fc.commands picks among them uniformly, so the list
 * repeats ACTIVE and DEACTIVATED: LOST, STOLEN and CANCELLED end a card's story (after them every status
 * move is a refusal to check), so ACTIVE ⇄ DEACTIVATED chains need the room. Every PUT reads the card
 * back, so GET is there for the scripts' sake.
 */
export function cardCommands(slots: number, options: { permanent: boolean } = { permanent: true }): fc.Arbitrary<CardCommand>[] {
  // Most moves go to the first card, so that chains of moves on one card are common.
  const slot =
    slots <= 1 ? fc.constant(0) : fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat({ max: slots - 1 }) });
  const active = slot.map((s) => new PutStatusActive(s));
  const deactivated = slot.map((s) => new PutStatusDeactivated(s));
  return [
    active,
    active,
    active,
    deactivated,
    deactivated,
    deactivated,
    // Moves that cannot be undone are left out where the cards are the target's own (no fresh users); the order of
    // the others stays, so a seed draws the same scripts as before where they are in.
    ...(options.permanent
      ? [slot.map((s) => new PutStatusLost(s)), slot.map((s) => new PutStatusStolen(s)), slot.map((s) => new PutStatusCancelled(s))]
      : []),
    fc.tuple(slot, unknownStatus).map(([s, status]) => new PutStatusUnknown(s, status)),
    ...(options.permanent ? [slot.map((s) => new PutOrderRequestPending(s))] : []),
    slot.map((s) => new GetCard(s)),
  ];
}

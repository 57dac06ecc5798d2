// Blind round 4 (bug shape: state): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS, STRICT_ONLY } from "../../fault.js";

import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND4_STATE_FAULTS = [
  // banking-api.md, States and transitions > Card, row 2: "| ... | PUT with status LOST, STOLEN or CANCELLED | order_status is
  // one of those on the left | LOST, STOLEN or CANCELLED | permanent; cannot be changed afterwards |"
  fault(
    "r4-card-permanent-deactivatable",
    "CARD-015",
    "The card state check looks at a PUT of status DEACTIVATED before it looks at the permanent statuses, so an activated " +
      "LOST, STOLEN or CANCELLED card in a delivered order status can be set DEACTIVATED (and from there ACTIVE again).",
    ["cards", "card-state-machine"],
  ),
  // banking-api.md, States and transitions > Card, row 2: "permanent; cannot be changed afterwards"
  fault(
    "r4-card-virtual-request-skips-status-table",
    "CARD-015",
    "A card PUT that carries order_status CARD_REQUEST_PENDING applies the status sent beside it without consulting the " +
      "state table (the virtual-card path sets up the new card as asked), so a LOST card comes back ACTIVE.",
    ["cards"],
    FRESH_USERS,
  ),
  // banking-api.md, States and transitions > Card, row 3: "| order_status in DELIVERED_TO_CUSTOMER, CARD_UPDATE_REQUESTED,
  // CARD_UPDATE_SENT, CARD_UPDATE_ACCEPTED (after initial activation) | PUT with status DEACTIVATED | only after initial
  // activation | DEACTIVATED | reversible to ACTIVE |"
  fault(
    "r4-card-reactivation-forgets-activation",
    "CARD-016",
    "Every move to ACTIVE rewrites the card's was-activated mark as 'this is a first activation', so a card reactivated out " +
      "of DEACTIVATED counts as never activated and a second PUT of status DEACTIVATED is refused with 400.",
    ["cards", "card-state-machine"],
  ),
  // banking-api.md, States and transitions > Card, row 4: "| any | PUT with order_status CARD_REQUEST_PENDING | | order status
  // CARD_REQUEST_PENDING | a virtual card is produced |"
  fault(
    "r4-card-request-pending-refused-in-production",
    "CARD-019",
    "PUT order_status CARD_REQUEST_PENDING is refused with 400 while the card's order_status is ACCEPTED_FOR_PRODUCTION " +
      "(a virtual card is thought not to be needed while the plastic one is being made).",
    ["cards", "card-state-machine"],
  ),
  // banking-api.md, Resources > Card: "Card status values: ACTIVE, DEACTIVATED, LOST, STOLEN, CANCELLED."
  fault(
    "r4-card-list-cancelled-spelled-canceled",
    "CARD-005",
    "GET /card (the list, not the read or the PUT answer) shows a CANCELLED card's status as CANCELED, a value outside the five.",
    ["cards"],
    FRESH_USERS,
  ),
  // banking-api.md, States and transitions > Card, row 2: "permanent; cannot be changed afterwards"
  fault(
    "r4-batch-replace-reactivates-card",
    "CARD-015",
    "POST /card-batch-replace sets every card it replaces to status ACTIVE, a LOST, STOLEN or CANCELLED one included " +
      "(the single replace keeps the card's status).",
    ["card-replacement"],
    FRESH_USERS,
  ),
  // banking-api.md, States and transitions > Share invite: "PUT sets status to one of ACTIVE, REVOKED, REJECTED. This accepts
  // or rejects an invitation."
  fault(
    "r4-share-revoke-stored-as-rejected",
    "SHARE-008",
    "A share-invite PUT of status REVOKED answers its Id but stores REJECTED (the answer is kept as accept or reject only), " +
      "so a later read and the list show REJECTED.",
    ["share-invites"],
  ),
  // banking-api.md, States and transitions > Share invite: "PUT sets status to one of ACTIVE, REVOKED, REJECTED."
  fault(
    "r4-share-rejected-put-ignored",
    "SHARE-014",
    "A share-invite PUT of a status on a share whose status is REJECTED answers its Id but leaves the status as it was (a " +
      "rejected invitation is taken as closed), so PUT ACTIVE or REVOKED there keeps it REJECTED.",
    ["share-invites"],
    STRICT_ONLY,
  ),
  // wire-conventions.md §7: "Challenge request PUT answers `Id`; a later GET shows the status that was set."
  // banking-api.md, States and transitions > Challenge request: "PUT sets status to ACCEPTED_PENDING_RESPONSE or
  // REJECTED_PENDING_RESPONSE."
  fault(
    "r4-challenge-answer-locked-silently",
    "CHAL-005",
    "Once a challenge request has been answered, a further PUT answers its Id but keeps the first answer, so a later GET " +
      "does not show the status the second PUT set.",
    ["challenge-requests"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND4_STATE_VARIANTS = [
  // banking-api.md, Resources > Card: "Card status values: ACTIVE, DEACTIVATED, LOST, STOLEN, CANCELLED."
  // and Endpoints > Cards: "| status | string | optional | ACTIVE, DEACTIVATED, LOST, STOLEN, CANCELLED; see States and transitions |"
  {
    name: "r4-card-status-case-insensitive",
    description:
      'A card PUT upper-cases the status before it checks it, so a status outside the five values such as "lost" or ' +
      '"Cancelled" is accepted and stored as LOST or CANCELLED.',
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
] as const satisfies readonly VariantSpec[];

// Blind round 6 (part: cards): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND6_CARDS_FAULTS = [
  // banking-api.md, Endpoints > Cards: "| GET | /user/{userID}/card | none | cards the user can access; 400 on error |"
  fault(
    "r6-card-list-hides-virtual-cards",
    "CARD-001",
    "GET /card leaves out every card whose order_status is CARD_REQUEST_PENDING (a virtual card, the seeded one and any a PUT " +
      "asked for), although GET /card/{id} still reads it.",
    ["cards"],
  ),
  // banking-api.md, Errors: "| Card list, read and update failures | HTTP 400 |"
  fault(
    "r6-card-read-id-above-int32-500",
    "ERR-003",
    "GET /card/{itemId} with an integer itemId above 2147483647 crashes with 500 instead of answering the card read failure 400.",
    ["errors", "error-bodies"],
  ),
  // banking-api.md, States and transitions > Card: "| order_status in ACCEPTED_FOR_PRODUCTION, DELIVERED_TO_CUSTOMER,
  // CARD_UPDATE_REQUESTED, CARD_UPDATE_SENT, CARD_UPDATE_ACCEPTED | PUT with status LOST, STOLEN or CANCELLED | order_status is
  // one of those on the left | LOST, STOLEN or CANCELLED | permanent; cannot be changed afterwards |"
  fault(
    "r6-card-stolen-shown-as-lost",
    "CARD-014",
    "A card set STOLEN is answered STOLEN by the PUT, but GET /card/{id} and GET /card show its status as LOST.",
    ["cards", "card-state-machine"],
  ),
  // banking-api.md, Resources and their fields: "Conventions: id fields are integers; all other scalar fields are strings
  // unless stated"
  fault(
    "r6-card-put-answer-id-string",
    "CARD-008",
    'The answer of PUT /card/{itemId} shows the card\'s id as a JSON string ("7" instead of 7); the read and the list show an integer.',
    ["cards"],
  ),
  // banking-api.md, Resources and their fields > Company, Embedded card: "| country_permission | array of {country (string),
  // id (integer)} |"
  fault(
    "r6-card-country-permission-ids-null",
    "CARD-004",
    "After a card PUT with country_permission, every country_permission entry of the card shows id null instead of an integer.",
    ["cards"],
  ),
  // banking-api.md, States and transitions > Card, row 2: "| LOST, STOLEN or CANCELLED | permanent; cannot be changed afterwards |"
  fault(
    "r6-card-activation-before-permanence-guard",
    "CARD-015",
    "A LOST, STOLEN or CANCELLED card whose order_status is ACCEPTED_FOR_PRODUCTION is set ACTIVE by a PUT of status ACTIVE " +
      "(the activation route is judged before the permanent statuses).",
    ["cards", "card-state-machine"],
  ),
  // banking-api.md, Endpoints > Card replacement: "name_on_card is chosen among the names available for the user."
  fault(
    "r6-replace-name-on-card-prefix-match",
    "REPL-011",
    "Card replacement (single and batch) accepts as name_on_card any beginning of one of the user's names, the empty string " +
      'included ("" or "REF"), and prints it on the card as sent.',
    ["card-replacement"],
  ),
  // banking-api.md, Resources and their fields > Company, Embedded card: "| primary_account_numbers | array of {id (integer),
  // description, status, uuid, four_digit, type (string), monetary_account_id (integer)} |"
  fault(
    "r6-replace-four-digit-as-number",
    "CARD-004",
    "A replaced card (single or batch) shows the four_digit of its new card number as a JSON number (leading zeros lost) " +
      "instead of a string.",
    ["card-replacement"],
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND6_CARDS_VARIANTS = [
  // banking-api.md, Resources and their fields > Company, Embedded card: "| card_limit, card_limit_atm | Amount |"
  {
    name: "r6-card-limit-put-nulls-atm-limit",
    description:
      "A card PUT that sends card_limit without card_limit_atm stores card_limit_atm as null, so the answer, the read and the list " +
      "show card_limit_atm null instead of an Amount.",
    allowedBy: "blind round 6: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // wire-conventions.md §7: "Batch `POST /user/{u}/card-batch-replace` body `{"cards": [{"id": N, "name_on_card"?,
  // "second_line"?}]}`"; banking-api.md, Endpoints > Card replacement: "Its description, and optionally its PIN, can be changed."
  {
    name: "r6-batch-replace-texts-shared",
    description:
      "POST /card-batch-replace gives every card of the batch the texts of the last entry that sent them, so each card shows " +
      "the last entry's second_line (and name_on_card) instead of its own.",
    allowedBy: "blind round 6: the readers split (vendor STATED, certifier OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.replacement,
  },
] as const satisfies readonly VariantSpec[];

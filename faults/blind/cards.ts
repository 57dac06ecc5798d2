// Blind round 1 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites were mapped after the first kill-matrix run
// (four were missed, closed by checks in cards, pin-code and card-replacement).
import { fault } from "../fault.js";

// The state-table faults are also seen by the model-based card-state-machine suite.
const STATE_TABLE = ["cards", "card-state-machine"];

export const BLIND_CARDS_FAULTS = [
  // wire-conventions.md §7: "Write-only fields (`pin_code`, `activation_code`, `cancellation_reason`, `card_id`) never appear
  // in any response (MUST: write-only)."
  fault(
    "card-put-echoes-activation-code",
    "CARD-024",
    "The PUT /card/{id} answer carries the deprecated activation_code that was sent (copied from the body by the activation path).",
    ["cards"],
  ),
  // wire-conventions.md §7: "Write-only fields (`pin_code`, `activation_code`, `cancellation_reason`, `card_id`) never appear
  // in any response (MUST: write-only)."
  fault(
    "card-type-error-quotes-value",
    "ERR-016",
    "A card PUT refused for a field of the wrong JSON type quotes the value in its error text, a non-string pin_code included.",
    ["pin-code"],
  ),
  // banking-api.md, States and transitions > Card: "| order_status in ACCEPTED_FOR_PRODUCTION, DELIVERED_TO_CUSTOMER,
  // CARD_UPDATE_REQUESTED, CARD_UPDATE_SENT, CARD_UPDATE_ACCEPTED | PUT with status LOST, STOLEN or CANCELLED | order_status is
  // one of those on the left | LOST, STOLEN or CANCELLED | permanent; cannot be changed afterwards |"
  fault(
    "card-permanent-status-relabel",
    "CARD-015",
    "A LOST, STOLEN or CANCELLED card can be moved to another of the three (LOST to STOLEN): only ACTIVE and DEACTIVATED are refused.",
    STATE_TABLE,
  ),
  // banking-api.md, States and transitions > Card: "| order_status in ACCEPTED_FOR_PRODUCTION, DELIVERED_TO_CUSTOMER,
  // CARD_UPDATE_REQUESTED, CARD_UPDATE_SENT, CARD_UPDATE_ACCEPTED | PUT with status LOST, STOLEN or CANCELLED | order_status is
  // one of those on the left | LOST, STOLEN or CANCELLED | permanent; cannot be changed afterwards |"
  fault(
    "card-report-requires-active",
    "CARD-014",
    "PUT status LOST, STOLEN or CANCELLED is refused unless the card's status is ACTIVE (a DEACTIVATED card cannot be reported).",
    STATE_TABLE,
  ),
  // banking-api.md, States and transitions > Card: "| any | PUT with order_status CARD_REQUEST_PENDING | | order status
  // CARD_REQUEST_PENDING | a virtual card is produced |"
  fault(
    "card-request-pending-refused-while-active",
    "CARD-019",
    "PUT order_status CARD_REQUEST_PENDING is refused with 400 while the card's status is ACTIVE.",
    STATE_TABLE,
  ),
  // banking-api.md, Authentication: "The user id in every path is the authenticated user's id."
  fault(
    "card-list-path-user-not-checked",
    "AUTH-015",
    "GET /user/{userID}/card lists the cards of whatever user the path names (an empty list for a userID that names nobody).",
    ["authentication", "authorisation", "error-bodies"],
  ),
  // banking-api.md, Limits: "older_url uses older_id, the id of the first item of the current page, and fetches the
  // previous page."
  fault(
    "card-list-older-id-ignored",
    "PAGE-016",
    "GET /card drops the older_id query parameter, so following older_url serves the newest page again.",
    ["pagination"],
  ),
  // banking-api.md, Endpoints > Cards: "| PUT | /user/{userID}/card/{itemId} | Card update body | card; 400 on error |"
  fault(
    "card-refused-move-409",
    "CARD-015",
    "A card PUT whose status move the state table refuses answers 409 Conflict instead of 400.",
    STATE_TABLE,
  ),
  // banking-api.md, Errors: "| Card list, read and update failures | HTTP 400 |"
  fault(
    "card-name-non-ascii-500",
    "ERR-003",
    "A card PUT with a preferred_name_on_card holding a character outside printable ASCII (an accent, say) crashes with 500.",
    ["cards", "error-bodies"],
  ),
  // banking-api.md, Versioning: "Deprecated items are marked: the share invite monetary account response endpoints, the
  // iDEAL merchant transaction view, and the activation_code field of the card update."
  // The field is optional, but what makes an activation code valid is not shown: a check cannot tell this from a server
  // refusing the (random) code it was sent, so only the strict profile requires a PUT carrying one to be taken.
  fault(
    "card-activation-code-refused",
    "CARD-040",
    "A card PUT that carries the deprecated (but still optional) activation_code is refused with 400.",
    ["cards"],
    { target: "reference-strict" },
  ),
  // wire-conventions.md §5: "A request without cursor returns the newest `count` items."
  fault(
    "card-list-capped-at-ten",
    "CARD-001",
    "GET /card reads at most the user's ten oldest cards, so newer cards never appear whatever count is asked for.",
    ["cards"],
  ),
  // banking-api.md, Errors: "| Card list, read and update failures | HTTP 400 |"
  fault(
    "card-plaintext-pin-403",
    "CARD-029",
    "A card PUT with a pin_code in a request that is not encrypted is refused with 403 instead of 400.",
    ["pin-code"],
  ),
  // wire-conventions.md §7: "Batch `POST /user/{u}/card-batch-replace` body `{"cards": [{"id": N, "name_on_card"?,
  // "second_line"?}]}` → `[{"CardBatchReplace": {"updated_card_ids": [{"id": N}]}}]`."
  fault(
    "batch-replace-lists-pan-ids",
    "REPL-008",
    "POST /card-batch-replace lists the ids of the new card numbers in updated_card_ids instead of the card ids.",
    ["card-replacement"],
  ),
  // banking-api.md, Limits: "| free card replacements | 1 per year; further replacements are billed | card replacement |"
  fault(
    "replace-second-in-year-refused",
    "REPL-017",
    "A second replacement of the same card (single or batch) is refused with 400 instead of being billed.",
    ["card-replacement"],
  ),
] as const;

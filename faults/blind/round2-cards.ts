// Blind round 2 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites are mapped after the first run.
import { fault, FRESH_USERS, STRICT_ONLY } from "../fault.js";

export const BLIND2_CARDS_FAULTS = [
  // banking-api.md, Resources and their fields > Embedded card: "| pin_code_assignment | array of {type, routing_type, status
  // (string), monetary_account_id (integer)} |"
  fault(
    "card-pin-assignment-account-id-string",
    "CARD-004",
    "Every card view (list, read, PUT answer) shows pin_code_assignment[].monetary_account_id as a JSON string instead of an integer.",
    ["cards"],
  ),
  // banking-api.md, States and transitions > Card: "| order_status in ACCEPTED_FOR_PRODUCTION, DELIVERED_TO_CUSTOMER,
  // CARD_UPDATE_REQUESTED, CARD_UPDATE_SENT, CARD_UPDATE_ACCEPTED | PUT with status LOST, STOLEN or CANCELLED | order_status is
  // one of those on the left | LOST, STOLEN or CANCELLED | permanent; cannot be changed afterwards |"
  fault(
    "card-report-refused-after-update-accepted",
    "CARD-014",
    "PUT status LOST, STOLEN or CANCELLED is refused with 400 while the order status is CARD_UPDATE_ACCEPTED " +
      "(the last order status is cut off the reportable list).",
    ["cards"],
    FRESH_USERS,
  ),
  // banking-api.md, Endpoints > Cards: "The endpoint description also says limits and country permissions can be changed"
  fault(
    "card-limit-atm-overwrites-card-limit",
    "CARD-026",
    "PUT with card_limit_atm writes the amount into card_limit (a copy-paste slip): card_limit_atm stays as it was.",
    ["cards"],
    STRICT_ONLY,
  ),
  // banking-api.md, Endpoints > Cards: "| GET | /user/{userID}/card/{itemId} | none | one card; 400 on error |"
  fault(
    "card-read-cached",
    "CARD-010",
    "GET /card/{id} serves the view the card had at its first read, so later PUTs and replacements never show " +
      "in the read (the list is live).",
    ["card-state-machine"],
  ),
  // banking-api.md, Endpoints > Cards: "| PUT | /user/{userID}/card/{itemId} | Card update body | card; 400 on error |"
  fault(
    "card-put-answers-card-before-update",
    "CARD-008",
    "PUT /card/{id} answers the card as it was before the update (the answer is built from the pre-update copy); the update is stored.",
    ["cards"],
  ),
  // wire-conventions.md §7: "Write-only fields (`pin_code`, `activation_code`, `cancellation_reason`, `card_id`) never appear in
  // any response (MUST: write-only)."
  fault(
    "card-put-echoes-cancellation-reason",
    "CARD-024",
    "The answer of a PUT that sets status CANCELLED carries the cancellation_reason that was sent (for the confirmation screen).",
    ["cards"],
  ),
  // banking-api.md, Errors: "| Card list, read and update failures | HTTP 400 |" (wire-conventions.md §6: "A 5XX is never a pass.")
  fault(
    "card-country-permission-empty-500",
    "ERR-003",
    "PUT with an empty country_permission array crashes with 500 (the parser reads the first entry as the home country).",
    ["error-bodies"],
    FRESH_USERS,
  ),
  // banking-api.md, States and transitions > Card: "| any | PUT with order_status CARD_REQUEST_PENDING | | order status
  // CARD_REQUEST_PENDING | a virtual card is produced |"
  fault(
    "card-request-pending-refused-when-permanent",
    "CARD-019",
    "PUT order_status CARD_REQUEST_PENDING is refused with 400 when the card is LOST, STOLEN or CANCELLED.",
    ["cards", "card-state-machine"],
  ),
  // wire-conventions.md §7: "Card replace `POST /user/{u}/card/{c}/replace` → `Id`." (banking-api.md, Resources: "id fields are
  // integers"; the replacement "gets a new card number")
  fault(
    "replace-answers-pan-id",
    "REPL-003",
    "POST /card/{id}/replace answers the id of the new card number (primary_account_numbers[].id) in Id instead of the card's id.",
    ["card-replacement"],
    STRICT_ONLY,
  ),
  // wire-conventions.md §7: "Batch `POST /user/{u}/card-batch-replace` body `{"cards": [{"id": N, "name_on_card"?,
  // "second_line"?}]}` → `[{"CardBatchReplace": {"updated_card_ids": [{"id": N}]}}]`." (banking-api.md: "id fields are integers")
  fault(
    "batch-replace-ids-as-strings",
    "REPL-008",
    "POST /card-batch-replace lists each id of updated_card_ids as a JSON string instead of an integer.",
    ["card-replacement"],
  ),
] as const;

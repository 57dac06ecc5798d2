// The faults and legal variants of the card area (reference/resources/cards/): cards, their state table, and
// card replacement.
import { fault } from "./fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "./variant-spec.js";

const CARDS = ["cards"];

// The state-table faults are also seen by the model-based card-state-machine suite.
const STATE_TABLE = [...CARDS, "card-state-machine"];

export const CARD_FAULTS = [
  fault("card-list-duplicates", "CARD-001", "GET /card lists every card twice.", CARDS),
  fault("card-read-answers-all-cards", "CARD-002", "GET /card/{id} answers every card of the user, not just the one asked for.", CARDS),
  fault("card-read-type-key-lowercase", "CARD-003", "GET /card/{id} puts the card under the type key card instead of Card.", CARDS),
  fault("card-limit-value-number", "CARD-004", "card_limit.value is a JSON number instead of a string.", CARDS),
  fault(
    "card-status-pending-activation",
    "CARD-005",
    "Cards never activated show status PENDING_ACTIVATION, outside the five values.",
    CARDS,
  ),
  // Legal by default (CARD-007 is LENIENT since the blind ruling): only the strict profile requires listed ids to read as the card.
  fault(
    "card-list-ids-offset",
    "CARD-007",
    "GET /card shows every card id one too high, so reading a listed id gives another card or an error.",
    CARDS,
    { target: "reference-strict" },
  ),
  fault("card-put-answers-id-not-card", "CARD-008", "PUT /card/{id} answers Id instead of the updated card.", CARDS),
  fault(
    "card-error-404-instead-of-400",
    "CARD-009",
    "GET /card/{id} answers failures with their own status (404, 403) instead of 400.",
    CARDS,
  ),
  fault("card-other-user-readable", "CARD-009", "GET /card/{id} serves another user's card through the caller's own userID.", CARDS),
  fault(
    "card-item-path-user-not-checked",
    "AUTH-015",
    "GET /user/{userID}/card/{id} serves any existing user's card, whoever the session belongs to.",
    CARDS,
  ),
  fault("card-put-other-users-card", "AUTH-019", "PUT /card/{id} updates another user's card through the caller's own userID.", CARDS),
  fault("card-unknown-status-accepted", "CARD-010", "PUT /card/{id} accepts and stores a status outside the five values.", STATE_TABLE),
  fault(
    "card-refused-put-still-applies",
    "CARD-010",
    "A PUT refused for its status still applies preferred_name_on_card and second_line.",
    CARDS,
    // The blind ruling of CARD-033 made a refusal that keeps the fields sent beside it legal (variant
    // card-refused-move-keeps-texts): strict only.
    { target: "reference-strict" },
  ),
  fault("card-list-ignores-bad-count", "CARD-011", "GET /card ignores a count that is below 1 or not an integer and answers 200.", CARDS),
  // Legal by default (CARD-013 is LENIENT since the blind ruling): only the strict profile requires the activation.
  fault("card-activation-refused", "CARD-013", "PUT status ACTIVE on an ACCEPTED_FOR_PRODUCTION card is refused.", STATE_TABLE, {
    target: "reference-strict",
  }),
  fault(
    "card-activation-not-stored",
    "CARD-013",
    "PUT status ACTIVE on an ACCEPTED_FOR_PRODUCTION card answers ACTIVE but the card stays as it was.",
    STATE_TABLE,
  ),
  fault(
    "card-cancel-refused-before-delivery",
    "CARD-014",
    "PUT status CANCELLED is refused while the order status is ACCEPTED_FOR_PRODUCTION.",
    STATE_TABLE,
  ),
  fault("card-lost-reactivable", "CARD-015", "A LOST card can be set ACTIVE again.", STATE_TABLE),
  fault(
    "card-permanent-refusal-still-applies",
    "CARD-015",
    "A status change of a LOST, STOLEN or CANCELLED card answers 400 but is applied.",
    STATE_TABLE,
  ),
  fault(
    "card-deactivate-refused-after-update-request",
    "CARD-016",
    "PUT status DEACTIVATED is refused unless the order status is DELIVERED_TO_CUSTOMER.",
    STATE_TABLE,
  ),
  fault("card-reactivation-refused", "CARD-017", "A DEACTIVATED card cannot be set ACTIVE again.", STATE_TABLE),
  fault(
    "card-request-pending-ignored",
    "CARD-019",
    "PUT order_status CARD_REQUEST_PENDING answers 200 but the order status stays as it was.",
    STATE_TABLE,
  ),
  fault(
    "card-unlisted-move-refused-but-applied",
    "CARD-020",
    "A status move the table does not list answers 400 but is applied.",
    STATE_TABLE,
  ),
  // Strict only since blind round 2 (CARD-021 split, CARD-023 both OPEN): a card PUT may leave these fields as they were.
  fault("card-fallback-not-stored", "CARD-021", "PUT with monetary_account_id_fallback answers 200 but keeps the old fallback.", CARDS, {
    target: "reference-strict",
  }),
  fault(
    "card-fallback-kept-when-omitted",
    "CARD-022",
    "A PUT without monetary_account_id_fallback keeps the fallback instead of removing it.",
    CARDS,
  ),
  fault("card-put-ignores-second-line", "CARD-023", "PUT /card/{id} answers 200 but does not change second_line.", CARDS, {
    target: "reference-strict",
  }),
  fault("card-echoes-pin-code", "CARD-024", "The PUT answer echoes the pin_code that was sent.", [...CARDS, "pin-code"]),
  fault(
    "card-list-leaks-cancellation-reason",
    "CARD-024",
    "GET /card shows the cancellation_reason a PUT stored (the read and PUT answers do not).",
    CARDS,
  ),
  fault("card-list-includes-other-users", "CARD-025", "GET /card lists the cards of every user.", CARDS),
  // Strict only since blind round 2: a limit accepted but not shown by a later GET was ruled OPEN by both readers.
  fault("card-limits-ignored", "CARD-026", "PUT with card_limit answers 200 but the limit stays as it was.", CARDS, {
    target: "reference-strict",
  }),
  fault(
    "card-request-pending-revives-permanent",
    "CARD-015",
    "PUT order_status CARD_REQUEST_PENDING on a LOST, STOLEN or CANCELLED card produces the virtual card as ACTIVE.",
    STATE_TABLE,
  ),
  fault(
    "card-reactivation-refused-after-update",
    "CARD-017",
    "A DEACTIVATED card can be set ACTIVE again only while its order status is DELIVERED_TO_CUSTOMER.",
    STATE_TABLE,
  ),
  fault(
    "card-fallback-kept-on-status-change",
    "CARD-022",
    "A PUT that only changes the status keeps the fallback (the status route returns before the fallback rule).",
    CARDS,
  ),
  fault(
    "card-read-drops-preferred-name",
    "CARD-023",
    "GET /card/{id} leaves preferred_name_on_card out (the list and the PUT answer show it).",
    CARDS,
  ),
  // Legal by default (CARD-033 and CARD-034 are LENIENT since the blind ruling): only the strict profile catches these two.
  fault(
    "card-refused-move-applies-texts",
    "CARD-033",
    "preferred_name_on_card and second_line are saved before the state table is consulted, so a refused move keeps them.",
    CARDS,
    { target: "reference-strict" },
  ),
  fault(
    "card-status-put-ignores-texts",
    "CARD-034",
    "A PUT that carries a status applies only the status; the names, second_line and fallback sent with it are dropped.",
    CARDS,
    { target: "reference-strict" },
  ),
  fault(
    "card-error-echoes-request-body",
    "CARD-035",
    "The error answer of a refused card PUT carries the request body (cancellation_reason and activation_code included) for debugging.",
    CARDS,
  ),
  fault(
    "card-read-non-integer-id-404",
    "CARD-036",
    "GET /card/{itemId} with an itemId that is not an integer answers 404 (the route does not match) instead of 400.",
    CARDS,
  ),
  // Variant until the blind ruling of 2026-11-28 made CARD-036 a MUST (a card read failure is exactly 400).
  fault(
    "card-route-integer-ids-only",
    "CARD-036",
    "GET /card/{itemId} with an itemId that is not an integer answers 404 with an error body: the route matches integers only.",
    CARDS,
  ),
  // Variant until the blind ruling of 2026-11-28 made CARD-018 a MUST (DEACTIVATED only after initial activation).
  fault(
    "card-reissued-activated",
    "CARD-018",
    "The first ACCEPTED_FOR_PRODUCTION card, never ACTIVE, accepts PUT status DEACTIVATED (taken for a re-issue activated before).",
    STATE_TABLE,
  ),
  fault("card-put-unknown-card-404", "CARD-037", "PUT /card/{itemId} of a card the user does not have answers 404 instead of 400.", CARDS),
  fault(
    "card-put-malformed-json-422",
    "CARD-038",
    "PUT /card/{itemId} with a body that is not valid JSON answers 422 instead of 400.",
    CARDS,
  ),
  fault(
    "card-list-cached",
    "CARD-007",
    "GET /card serves the view each card had at its first listing, so later PUTs never show in the list.",
    CARDS,
  ),
  fault(
    "card-put-path-user-not-checked",
    "CARD-039",
    "PUT /user/{userID}/card/{id} updates any existing user's card, whoever the session belongs to.",
    CARDS,
  ),
] as const;

/** Legal variants of the card endpoints (each plays a LENIENT reading; test/variant-probes/cards.ts). */
export const CARD_VARIANTS = [
  {
    name: "card-texts-put-kept",
    suites: VARIANT_SCOPE.cards,
    description:
      "A card PUT with preferred_name_on_card and second_line answers 200 and the card keeps the texts it had (a reprint pending).",
    allowedBy: "blind round 2, 2026-11-28 (certifier OPEN, vendor OPEN): no sentence says a card PUT changes the card's texts",
    requirements: ["CARD-023"],
  },
  {
    name: "card-fallback-put-kept",
    suites: VARIANT_SCOPE.cards,
    description: "A card PUT with monetary_account_id_fallback answers 200 and keeps the card's fallback as it was.",
    allowedBy: "blind round 2, 2026-11-28 (certifier STATED, vendor OPEN): no sentence says a card PUT takes the fallback sent",
    requirements: ["CARD-021"],
  },
  {
    name: "card-activation-code-retired",
    suites: VARIANT_SCOPE.cards,
    description: "A card PUT carrying the deprecated activation_code is refused with 400 (the field is retired).",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN): retiring deprecated items is not shown",
    requirements: ["CARD-040"],
  },
  {
    name: "card-order-status-open",
    suites: VARIANT_SCOPE.cards,
    description: "One seeded card shows order_status NEW_CARD_REQUEST_RECEIVED, a value outside the six the specification names.",
    allowedBy: 'Resources > Card: order status values "that occur" (the list is not closed); GAP-05',
    requirements: ["CARD-006"],
  },
  {
    name: "card-types-coerced",
    suites: VARIANT_SCOPE.cards,
    description: 'PUT /card/{id} coerces scalar fields of the wrong JSON type (42 → "42", "7" → 7) instead of refusing them.',
    allowedBy: "Endpoints > Cards (which inputs fail is not listed); GAP-24",
    requirements: ["CARD-012"],
  },
  {
    name: "card-unlisted-moves-applied",
    suites: VARIANT_SCOPE.cards,
    description: "Status and order-status moves the state table does not list are applied instead of refused.",
    allowedBy: "States and transitions > Card: complete card transition graph not shown; GAP-10",
    requirements: ["CARD-020"],
  },
  {
    name: "card-limits-refused",
    suites: VARIANT_SCOPE.cards,
    description:
      "PUT /card/{id} with card_limit, card_limit_atm or country_permission is refused with 400 (the fields are not writable here).",
    allowedBy: "Endpoints > Cards: their field names in the update body are not listed; GAP-26",
    requirements: ["CARD-026"],
  },
  // The readings the blind ruling of 2026-11-28 made legal (spec/rulings.md); probes: test/variant-probes/ruled-cards.ts.
  {
    name: "card-listed-id-unreadable",
    suites: VARIANT_SCOPE.cards,
    description:
      "GET /card lists, between the user's cards, an old CANCELLED card whose listed id reads as 400 (GET, PUT and replace " +
      "do not know it): a listed id need not read as the card the list shows.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor STATED)",
    requirements: ["CARD-007"],
  },
  {
    name: "card-activation-refused-before-delivery",
    suites: VARIANT_SCOPE.cards,
    description:
      "PUT status ACTIVE on a card whose order_status is ACCEPTED_FOR_PRODUCTION is refused with 400 (the card is not delivered yet).",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["CARD-013"],
  },
  {
    name: "card-pin-plaintext-accepted",
    suites: VARIANT_SCOPE.cards,
    description: "A card PUT carrying pin_code in plaintext (not encrypted) is accepted and the pin stored; the pin never shows.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["CARD-029"],
  },
  // Only the pin-code suite sends encrypted requests.
  {
    name: "card-encryption-unsupported",
    suites: ["pin-code"],
    description:
      "The provider's request encryption is not supported: the encryption headers are ignored, so an encrypted body is parsed as " +
      "plain JSON and refused with 400 as malformed.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["CARD-030"],
  },
  {
    name: "card-encryption-hmac-unchecked",
    suites: ["pin-code"],
    description: "An encrypted request is decrypted without checking its HMAC: a wrong, IV-less or missing HMAC is accepted.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["CARD-031"],
  },
  {
    name: "card-refused-move-keeps-texts",
    suites: VARIANT_SCOPE.cards,
    description:
      "A card PUT with a status saves preferred_name_on_card and second_line before the state table is consulted, so a refused " +
      "move (400) keeps them.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["CARD-033"],
  },
  {
    name: "card-status-put-applies-status-only",
    suites: VARIANT_SCOPE.cards,
    description:
      "A card PUT that carries a status applies only the status: preferred_name_on_card, second_line and " +
      "monetary_account_id_fallback sent with it are dropped (the fallback, not supplied, is removed).",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["CARD-034"],
  },
] as const satisfies readonly VariantSpec[];

const REPL = ["card-replacement"];

// Faults with target reference-strict play a reading the blind ruling of 2026-11-28 made legal (REPL-006, REPL-007, REPL-009,
// REPL-015, REPL-016 are LENIENT): only the strict profile requires the first reading.
export const CARD_REPLACEMENT_FAULTS = [
  fault("replace-rejects-second-line", "REPL-001", "POST /card/{id}/replace refuses any body that carries second_line.", REPL),
  fault("replace-empty-body-refused", "REPL-002", "POST /card/{id}/replace refuses an empty object (it wants at least one field).", REPL),
  fault("replace-answers-card-not-id", "REPL-003", "POST /card/{id}/replace answers the card under Card instead of Id.", REPL),
  fault("replace-same-card-number", "REPL-004", "A replacement keeps the old card number.", REPL),
  fault("batch-replace-answers-without-replacing", "REPL-004", "POST /card-batch-replace answers the ids but replaces nothing.", REPL),
  fault("replace-new-expiry", "REPL-005", "A replacement gets a new expiry date, three years on.", REPL),
  fault("replace-ignores-names", "REPL-006", "A replacement ignores preferred_name_on_card and second_line.", REPL, {
    target: "reference-strict",
  }),
  fault("replace-wrong-type-accepted", "REPL-007", "POST /card/{id}/replace coerces a second_line of the wrong JSON type.", REPL, {
    target: "reference-strict",
  }),
  fault("batch-replace-missing-ids", "REPL-008", "POST /card-batch-replace lists only the first card in updated_card_ids.", REPL),
  fault(
    "batch-replace-accepts-missing-cards",
    "REPL-009",
    "POST /card-batch-replace without a cards array answers an empty CardBatchReplace.",
    REPL,
    { target: "reference-strict" },
  ),
  fault("batch-replace-accepts-other-users-card", "REPL-010", "POST /card-batch-replace replaces another user's card.", REPL),
  fault("batch-replace-skips-unknown-ids", "REPL-010", "POST /card-batch-replace skips ids it does not know and replaces the rest.", REPL),
  fault(
    "batch-replace-partial-before-refusal",
    "REPL-010",
    "POST /card-batch-replace replaces each card as it reads the list, so a batch refused for a later " +
      "unknown id has already replaced the earlier cards.",
    REPL,
  ),
  fault(
    "replace-other-users-card",
    "AUTH-019",
    "POST /card/{id}/replace replaces another user's card through the caller's own userID.",
    REPL,
  ),
  fault(
    "replace-name-on-card-from-preferred",
    "REPL-014",
    "A replacement takes its name_on_card from preferred_name_on_card (a copy-paste slip), not from the name_on_card sent.",
    REPL,
  ),
  fault(
    "replace-unknown-id-falls-back-to-first-card",
    "REPL-015",
    "POST /card/{id}/replace of a card id the user does not have replaces the user's first card instead.",
    REPL,
    { target: "reference-strict" },
  ),
  fault(
    "replace-path-user-not-checked",
    "AUTH-015",
    "The replace routes serve any existing user's cards, whoever the session belongs to.",
    REPL,
  ),
  fault(
    "batch-replace-owner-checked-on-first-only",
    "REPL-010",
    "POST /card-batch-replace checks that the first card is the caller's; later entries are looked up among every user's cards.",
    REPL,
  ),
  fault(
    "batch-replace-ignores-second-line",
    "REPL-016",
    "POST /card-batch-replace replaces the cards but drops the second_line of each entry (single replace applies it).",
    REPL,
    { target: "reference-strict" },
  ),
  fault(
    "replace-type-check-after-replace",
    "REPL-007",
    "POST /card/{id}/replace replaces the card first and only then refuses a field of the wrong JSON type.",
    REPL,
  ),
] as const;

export const CARD_REPLACEMENT_VARIANTS = [
  {
    name: "replace-refusals-400",
    suites: VARIANT_SCOPE.replacement,
    description:
      "Every refusal of the two replace endpoints answers 400, as the card endpoints do (an unknown or " +
      "foreign card included, not 404 or 403).",
    allowedBy: "conventions §6 (card replace is not a card list, read or update: any 4XX)",
    requirements: ["REPL-007", "REPL-009", "REPL-010", "REPL-015"],
  },
  {
    name: "replace-refuses-name-on-card",
    suites: VARIANT_SCOPE.replacement,
    description:
      "Every name_on_card sent to a replace is refused with 400: the names available for the user are a " +
      "list the API does not show, and it holds none of the card's names.",
    allowedBy: "banking-api.md: name_on_card is chosen among the names available for the user (not shown; GAP-30)",
    requirements: ["REPL-014"],
  },
  {
    name: "replace-new-card-answers-old-id",
    suites: VARIANT_SCOPE.replacement,
    description:
      "A replacement is a new card (new id, new number, same expiry, the texts sent), but the single " +
      "replace answers the old card's Id; the old card stays as it was.",
    allowedBy: "GAP-29 (old or new card's id is open); conventions §7 (→ Id)",
  },
  // The readings the blind ruling of 2026-11-28 made legal (spec/rulings.md); probes: test/variant-probes/ruled-cards.ts.
  {
    name: "replace-ignores-texts",
    suites: VARIANT_SCOPE.replacement,
    description: "A replacement (single or batch) keeps the card's preferred_name_on_card and second_line: the texts sent are ignored.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["REPL-006"],
  },
  {
    name: "replace-types-coerced",
    suites: VARIANT_SCOPE.replacement,
    description: 'POST /card/{id}/replace coerces a number or boolean sent for a text (42 → "42") instead of refusing it.',
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["REPL-007"],
  },
  {
    name: "batch-replace-empty-without-cards",
    suites: VARIANT_SCOPE.replacement,
    description: "POST /card-batch-replace without a cards array (or with cards not an array) answers an empty CardBatchReplace.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["REPL-009"],
  },
  {
    name: "replace-unknown-id-replaces-first-card",
    suites: VARIANT_SCOPE.replacement,
    description:
      "POST /card/{id}/replace of an id that names no card at all replaces the user's first card instead (another user's card " +
      "id is still refused).",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["REPL-015"],
  },
  {
    name: "batch-replace-drops-second-line",
    suites: VARIANT_SCOPE.replacement,
    description: "POST /card-batch-replace replaces the cards but ignores the second_line of each entry (a single replace applies it).",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["REPL-016"],
  },
] as const satisfies readonly VariantSpec[];

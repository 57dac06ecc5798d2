// Blind round 5 (bug shape: numbers): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND5_NUMBERS_FAULTS = [
  // banking-api.md, Resources and their fields > Company: "| name, public_nick_name, language, region, country,
  // chamber_of_commerce_number, legal_form, [...] | string |"
  fault(
    "r5-company-put-coc-number-numeric",
    "COMP-005",
    "PUT company stores a chamber_of_commerce_number made only of digits as a number, so the company's read form and list " +
      'show it as a JSON number without its leading zeros ("01234567" reads back 1234567); POST keeps it a string.',
    ["companies"],
  ),
  // banking-api.md, Resources and their fields > Company: "| customer_limit | {limit_monetary_account,
  // limit_monetary_account_remaining, limit_card_debit_maestro, limit_card_debit_mastercard, limit_card_debit_wildcard,
  // limit_card_wildcard, limit_card_replacement (integers); limit_amount_monthly, spent_amount_monthly (Amount)} |"
  fault(
    "r5-company-list-customer-limit-strings",
    "COMP-005",
    "GET company (the list, not the read by id) shows the seven integer members of customer_limit as JSON strings " +
      '("25", "1"); the read by id shows integers.',
    ["companies"],
  ),
  // banking-api.md, Resources and their fields > Share invite: "| monetary_account_id | integer | read-only | the account an
  // accepted share applies to; null otherwise |" (and "| card_id | integer | write-only | [...] |")
  fault(
    "r5-share-accept-card-id-as-account",
    "SHARE-005",
    "A share-invite PUT of status ACTIVE that also carries card_id links the share to that card id as if it were the " +
      "account, so the share's read and list show the card_id sent as monetary_account_id.",
    ["share-invites"],
  ),
  // banking-api.md, Limits: "| maximum count | 200 | the count query parameter of list requests |"
  fault(
    "r5-ideal-list-count-capped-100",
    "PAGE-005",
    "The iDEAL transaction list refuses a count from 101 to 200 with 400 (it keeps an older cap of 100); other lists take " +
      "counts up to 200.",
    ["ideal", "pagination"],
    FRESH_USERS,
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND5_NUMBERS_VARIANTS = [
  // banking-api.md, Endpoints > Cards: "The endpoint description also says limits and country permissions can be changed;
  // their field names in the update body are not listed." (Shared objects: "| Amount | value (string), currency (string) |")
  {
    name: "r5-card-limit-cents-floored",
    description:
      "A card PUT converts card_limit and card_limit_atm to whole cents with a floating-point multiply rounded down, so a " +
      'limit such as "19.99" or "4.35" is answered and read back one cent lower ("19.98", "4.34"); "250.00" is kept.',
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // banking-api.md, Endpoints > Cards: "| monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient; the fallback is removed when not supplied |"
  {
    name: "r5-card-fallback-any-owned-id",
    description:
      "A card PUT takes as monetary_account_id_fallback any id of an object the user owns (one of the user's card ids or " +
      "company ids, say), not only one of the user's monetary accounts, and shows that id as the card's fallback account.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // wire-conventions.md §6: "A path id that is not an integer, or a userID other than the session's user, → 4XX."
  // (banking-api.md, Common request rules: "Path parameters userID, itemId, cardID, monetary-accountID, oauth-clientID are
  // integers and required.")
  {
    name: "r5-challenge-put-id-number-coerced",
    description:
      "PUT challenge-request/{itemId} reads the item id with Number(), so an itemId such as 1001.0, 1.001e3 or 0x3E9 names " +
      "challenge request 1001 and is answered (and applied) instead of refused; GET still refuses such ids.",
    allowedBy: "blind round 5: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.challenges,
  },
  // banking-api.md, Common request rules: "| X-Service-Client-Request-Id | optional | id unique for the logged-in user, free
  // format; reusing an id on the same registered device yields an error |"
  {
    name: "r5-request-id-numeric-normalised",
    description:
      "A request id made only of digits is remembered as the number it spells, so after request id 7 (or 42) a call with a " +
      "different id such as 007 (or 0042) on the same device is refused as a reused request id.",
    allowedBy: "blind round 5: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
  },
] as const satisfies readonly VariantSpec[];

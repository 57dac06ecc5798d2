// Blind round 5 (bug shape: numbers): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";

export const BLIND5_NUMBERS_FAULTS = [
  // banking-api.md, Endpoints > Cards: "The endpoint description also says limits and country permissions can be changed;
  // their field names in the update body are not listed." (Shared objects: "| Amount | value (string), currency (string) |")
  fault(
    "r5-card-limit-cents-floored",
    "TBD-0",
    "A card PUT converts card_limit and card_limit_atm to whole cents with a floating-point multiply rounded down, so a " +
      'limit such as "19.99" or "4.35" is answered and read back one cent lower ("19.98", "4.34"); "250.00" is kept.',
    [],
  ),
  // banking-api.md, Endpoints > Cards: "| monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient; the fallback is removed when not supplied |"
  fault(
    "r5-card-fallback-any-owned-id",
    "TBD-0",
    "A card PUT takes as monetary_account_id_fallback any id of an object the user owns (one of the user's card ids or " +
      "company ids, say), not only one of the user's monetary accounts, and shows that id as the card's fallback account.",
    [],
  ),
  // banking-api.md, Resources and their fields > Company: "| name, public_nick_name, language, region, country,
  // chamber_of_commerce_number, legal_form, [...] | string |"
  fault(
    "r5-company-put-coc-number-numeric",
    "TBD-0",
    "PUT company stores a chamber_of_commerce_number made only of digits as a number, so the company's read form and list " +
      'show it as a JSON number without its leading zeros ("01234567" reads back 1234567); POST keeps it a string.',
    [],
  ),
  // banking-api.md, Resources and their fields > Company: "| customer_limit | {limit_monetary_account,
  // limit_monetary_account_remaining, limit_card_debit_maestro, limit_card_debit_mastercard, limit_card_debit_wildcard,
  // limit_card_wildcard, limit_card_replacement (integers); limit_amount_monthly, spent_amount_monthly (Amount)} |"
  fault(
    "r5-company-list-customer-limit-strings",
    "TBD-0",
    "GET company (the list, not the read by id) shows the seven integer members of customer_limit as JSON strings " +
      '("25", "1"); the read by id shows integers.',
    [],
  ),
  // banking-api.md, Resources and their fields > Share invite: "| monetary_account_id | integer | read-only | the account an
  // accepted share applies to; null otherwise |" (and "| card_id | integer | write-only | [...] |")
  fault(
    "r5-share-accept-card-id-as-account",
    "TBD-0",
    "A share-invite PUT of status ACTIVE that also carries card_id links the share to that card id as if it were the " +
      "account, so the share's read and list show the card_id sent as monetary_account_id.",
    [],
  ),
  // wire-conventions.md §6: "A path id that is not an integer, or a userID other than the session's user, → 4XX."
  // (banking-api.md, Common request rules: "Path parameters userID, itemId, cardID, monetary-accountID, oauth-clientID are
  // integers and required.")
  fault(
    "r5-challenge-put-id-number-coerced",
    "TBD-0",
    "PUT challenge-request/{itemId} reads the item id with Number(), so an itemId such as 1001.0, 1.001e3 or 0x3E9 names " +
      "challenge request 1001 and is answered (and applied) instead of refused; GET still refuses such ids.",
    [],
  ),
  // banking-api.md, Common request rules: "| X-Service-Client-Request-Id | optional | id unique for the logged-in user, free
  // format; reusing an id on the same registered device yields an error |"
  fault(
    "r5-request-id-numeric-normalised",
    "TBD-0",
    "A request id made only of digits is remembered as the number it spells, so after request id 7 (or 42) a call with a " +
      "different id such as 007 (or 0042) on the same device is refused as a reused request id.",
    [],
  ),
  // wire-conventions.md §5: "Items are ordered by id; within a page either ascending (the specification's reading [...]) or
  // descending (the provider's)" and "A request without cursor returns the newest `count` items."
  fault(
    "r5-cert-list-sorted-as-text",
    "TBD-0",
    "GET certificate-pinned orders the chains by id compared as text, so once ids reach another number of digits (9999 " +
      "then 10000) the pages are out of id order and the first page is not the newest chains; other lists are right.",
    [],
  ),
  // banking-api.md, Limits: "| maximum count | 200 | the count query parameter of list requests |"
  fault(
    "r5-ideal-list-count-capped-100",
    "TBD-0",
    "The iDEAL transaction list refuses a count from 101 to 200 with 400 (it keeps an older cap of 100); other lists take " +
      "counts up to 200.",
    [],
  ),
] as const;

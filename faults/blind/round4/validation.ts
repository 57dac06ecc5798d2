// Blind round 4 (bug shape: validation): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS } from "../../fault.js";

import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

/** The iDEAL suite and the suites that read every resource (as faults/accounts.ts scopes the iDEAL variants). */
const IDEAL_SCOPE = ["ideal", ...VARIANT_SCOPE.attachments.filter((suite) => suite !== "attachments")];

export const BLIND4_VALIDATION_FAULTS = [
  // banking-api.md, Resources and their fields > Shared objects:
  // "| Address (request) | street, house_number, po_box, postal_code, city, country, extra, mailbox_name (all string) |"
  fault(
    "r4-company-house-number-number-accepted",
    "COMP-010",
    "POST and PUT company take an address_main or address_postal whose house_number is a JSON number and store it as sent, so " +
      "the company's read form shows house_number as a number.",
    ["companies"],
  ),
  // banking-api.md, Endpoints > Card replacement: "name_on_card is chosen among the names available for the user."
  fault(
    "r4-batch-replace-name-on-card-unchecked",
    "REPL-011",
    "POST /card-batch-replace takes any name_on_card in its entries and prints it on the replacement; the single replace " +
      "still refuses a name that is not one of the user's.",
    ["card-replacement"],
    FRESH_USERS,
  ),
  // banking-api.md, Endpoints > Common request rules: "| X-Service-Language | optional | language code (ISO 639-1), underscore,
  // country code (ISO 3166-1 alpha-2); only en_US and nl_NL are supported; anything else defaults to en_US |"
  fault(
    "r4-language-matched-by-language-part",
    "HDR-004",
    "X-Service-Language is matched on its language part only, so nl_BE (or any nl_xx) gets the Dutch error texts instead " +
      "of the en_US ones.",
    ["headers"],
  ),
  // banking-api.md, Endpoints > Common request rules: "| X-Service-Client-Request-Id | optional | id unique for the logged-in
  // user, free format; reusing an id on the same registered device yields an error |"
  fault(
    "r4-request-id-uuid-required",
    "HDR-002",
    "Every call whose X-Service-Client-Request-Id is not a UUID (req-1, 42) is refused with 400, although the id is free format.",
    ["headers"],
  ),
  // wire-conventions.md §7: "A chain entry that is not a PEM certificate → 4XX (CONVENTION)."
  fault(
    "r4-cert-any-pem-key-accepted",
    "CERT-007",
    "POST certificate-pinned validates each entry by loading it as a public key, so an entry that is a PEM public key (or a " +
      "PEM private key) rather than a certificate is pinned.",
    ["certificate-pinned"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND4_VALIDATION_VARIANTS = [
  // banking-api.md, Resources and their fields > Share invite: "| card_id | integer | write-only | card linked to the shared
  // account; used only when the share detail is a card-payment share |"
  {
    name: "r4-share-card-id-any-number",
    description:
      "PUT share-invite checks only that card_id is a JSON number, so a card_id of 2.5, 0 or -7 is accepted (with the status " +
      "sent applied) instead of refused.",
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.shares,
  },
  // banking-api.md, Endpoints > OAuth client callback URLs: "| PUT | /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId}
  // | {url: required string} | see gap list |"
  {
    name: "r4-callback-url-put-null-url-kept",
    description:
      "PUT callback-url reads its body as a partial update: a url of null answers 200 with the Id and leaves the callback URL " +
      "as it was, where POST refuses the same body.",
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // banking-api.md, Resources and their fields > Shared objects: "| Amount | value (string), currency (string) |";
  // wire-conventions.md §7: "create body `{"amount_requested": Amount, "issuer": BIC}`"
  {
    name: "r4-ideal-amount-value-number-accepted",
    description:
      "POST ideal-merchant-transaction takes an amount_requested whose value is a JSON number (10.5) and records it as the " +
      'string "10.5" instead of refusing it.',
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: IDEAL_SCOPE,
  },
  // banking-api.md, Authentication: "The device-server request can carry an array of IP addresses."
  {
    name: "r4-permitted-ips-string-wrapped",
    description:
      'POST /device-server takes a permitted_ips that is a single string ("127.0.0.1") as a list of that one address and ' +
      "registers the device, instead of refusing a permitted_ips that is not an array.",
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
  },
] as const satisfies readonly VariantSpec[];

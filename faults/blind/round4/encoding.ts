// Blind round 4 (bug shape: encoding): faults written by an author who read only spec/, reference/ and faults/.
import { fault, STRICT_ONLY } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND4_ENCODING_FAULTS = [
  // banking-api.md, Resources and their fields > Embedded card: "| monetary_account_id_fallback | integer |"
  // (Conventions: "id fields are integers")
  fault(
    "r4-card-fallback-stored-as-text",
    "CARD-021",
    "A card PUT that sets monetary_account_id_fallback stores it as text, so the PUT answer, the card read and the card list " +
      'show the fallback as a JSON string ("123") instead of an integer; seeded fallbacks stay integers.',
    ["cards"],
  ),
  // banking-api.md, Endpoints > Card replacement: "The replacement keeps the old card's expiry date and pricing and gets a
  // new card number."
  fault(
    "r4-replace-expiry-as-mm-yy",
    "REPL-019",
    'A replaced card shows its expiry_date in the embossed MM/YY form ("12/29") instead of the date it had ("2029-12-31").',
    ["card-replacement"],
    STRICT_ONLY,
  ),
  // wire-conventions.md §7: "Attachment upload answers `Id`; `GET /user/{u}/attachment/{id}` answers `AttachmentUser` with
  // `attachment.content_type` and `attachment.description` as uploaded."
  fault(
    "r4-attachment-description-plus-as-space",
    "ATT-006",
    "The Attachment-Description header is decoded like a form field, so a '+' in the description is stored as a space and a " +
      "percent escape such as %2C as the character it names ('Tickets 2+1' reads back 'Tickets 2 1').",
    ["attachments"],
  ),
  // banking-api.md, Endpoints > Pinned certificates:
  // "| GET | /user/{userID}/certificate-pinned | none | array of {certificate_chain: string, id: integer} |"
  // (wire-conventions.md §7: "Pinned certificate read form joins the chain's PEM certificates with newlines.")
  fault(
    "r4-cert-list-chain-double-encoded",
    "CERT-004",
    "GET certificate-pinned (the list, not the read by id) shows each certificate_chain JSON-encoded twice: a string that " +
      "starts and ends with a quote and holds the two characters \\n where the PEM has line breaks.",
    ["certificate-pinned"],
  ),
  // banking-api.md, Endpoints > Common request rules: "Successful responses are HTTP 200 with application/json."
  fault(
    "r4-callback-url-delete-text-plain",
    "ERR-010",
    'DELETE callback-url/{itemId} answers its 200 body {"Response":[]} with Content-Type text/plain; charset=utf-8.',
    ["oauth-callback-urls"],
  ),
  // wire-conventions.md §1: "Every element of `Response` is an object with exactly one key, the object type:
  // `{"Id": {"id": 7}}`, `{"UserCompany": {...}}`."
  fault(
    "r4-challenge-put-status-beside-id",
    "CHAL-001",
    'PUT challenge-request answers {"Id": {"id": N}, "status": "…"} as its one Response element: the new status sits ' +
      "beside the Id as a second key.",
    ["challenge-requests"],
  ),
  // wire-conventions.md §3: "`X-Service-Language` other than `en_US`/`nl_NL` → no error, and `error_description_translated`
  // equals the `en_US` text."
  fault(
    "r4-error-translated-null-unsupported-language",
    "HDR-004",
    "An error answered to a call whose X-Service-Language is neither en_US nor nl_NL (de_DE, say) carries " +
      "error_description_translated null instead of the en_US text.",
    ["headers"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND4_ENCODING_VARIANTS = [
  // banking-api.md, Endpoints > Common request rules: "Successful responses are HTTP 200 with application/json."
  // (with the Company table: "| name, public_nick_name, ... | string |")
  {
    name: "r4-company-read-latin1-body",
    description:
      "GET company/{itemId} (not the list) sends its JSON encoded as ISO-8859-1 and labelled application/json; charset=iso-8859-1, " +
      "so a company name with an accent arrives as bytes that are not UTF-8 and characters outside Latin-1 arrive garbled.",
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Endpoints > Companies: "| PUT | /user/{userID}/company/{itemId} | Company body | see gap list |"
  // (Company body: "| name | string | yes |"; the Company table lists name as a string the company answers carry)
  {
    name: "r4-company-put-text-cut-at-emoji",
    description:
      "PUT company stores every text of the body cut off before its first character outside the Basic Multilingual Plane " +
      "(an emoji), so a name 'Bakkerij 🥐 de Zon' reads back as 'Bakkerij '; POST stores the whole text.",
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Share invite table: "| monetary_account_id | integer | read-only | the account an accepted share applies
  // to; null otherwise |"
  {
    name: "r4-share-invite-read-account-omitted",
    description:
      "GET share-invite/{itemId} (not the list) leaves monetary_account_id out of a share that is not accepted instead of " +
      "sending it as null.",
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.shares,
  },
] as const satisfies readonly VariantSpec[];

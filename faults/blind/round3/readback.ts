// Blind round 3 (bug shape: readback): faults written by an author who read only spec/, reference/ and faults/.
import { fault, STRICT_ONLY } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

/** The iDEAL suite and the suites that read every resource (as faults/accounts.ts scopes the iDEAL variants). */
const IDEAL_SCOPE = ["ideal", ...VARIANT_SCOPE.attachments.filter((suite) => suite !== "attachments")];

export const BLIND3_READBACK_FAULTS = [
  // wire-conventions.md §5: "Items are ordered by id; within a page either ascending (the specification's reading: `newer_id`
  // is the page's last item) or descending (the provider's): LENIENT, `strict` requires ascending."
  fault(
    "r3-company-list-page-sorted-by-name",
    "PAGE-019",
    "The company list picks the right companies for a page but orders them by name (as text) instead of by id; other lists keep id order.",
    ["pagination"],
  ),
  // banking-api.md, Endpoints > Card replacement: "The replacement keeps the old card's expiry date and pricing and gets a new
  // card number."
  fault(
    "r3-card-list-old-number-after-replace",
    "REPL-018",
    "After a replacement GET /card (the list) still shows the card's first card number in primary_account_numbers; " +
      "GET /card/{id} shows the new one.",
    ["card-replacement"],
    STRICT_ONLY,
  ),
  // wire-conventions.md §7: "Pinned certificate read form joins the chain's PEM certificates with newlines."
  // (banking-api.md: "| GET | /user/{userID}/certificate-pinned | none | array of {certificate_chain: string, id: integer} |")
  fault(
    "r3-cert-list-first-certificate-only",
    "CERT-004",
    "GET certificate-pinned (the list) shows only the first certificate of each chain; the read by id shows the whole chain.",
    ["certificate-pinned"],
  ),
  // wire-conventions.md §1: "Creates (POST) answer `{"Response": [{"Id": {"id": N}}]}` (also where the table writes
  // `{id: integer}`)." (banking-api.md: "| GET | /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId} | ...")
  fault(
    "r3-callback-url-create-answers-client-id",
    "OCB-002",
    "POST callback-url answers, as the new callback URL's Id, the id of the OAuth client in the path.",
    ["oauth-callback-urls"],
    STRICT_ONLY,
  ),
  // banking-api.md, Share invite table: "| monetary_account_id | integer | read-only | the account an accepted share applies
  // to; null otherwise |"
  fault(
    "r3-share-invite-list-account-null",
    "SHARE-005",
    "GET share-invite (the list) shows monetary_account_id null on every share, accepted ones included; the read by id shows it.",
    ["share-invites"],
  ),
  // wire-conventions.md §7: "Attachment upload answers `Id`; `GET /user/{u}/attachment/{id}` answers `AttachmentUser` with
  // `attachment.content_type` and `attachment.description` as uploaded."
  fault(
    "r3-attachment-jpeg-read-as-jpg",
    "ATT-006",
    "A JPEG uploaded as image/jpeg reads back with attachment.content_type image/jpg (the type is rebuilt from the file extension).",
    ["attachments"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND3_READBACK_VARIANTS = [
  // banking-api.md, Shared objects: "| Address (response) | the request fields plus province (string), is_user_address_updated
  // (boolean) |"
  {
    name: "r3-company-address-members-dropped",
    description:
      "The company read form (list and read) shows only street, house_number, postal_code, city and country of address_main " +
      "and address_postal: the po_box, extra and mailbox_name sent are lost.",
    allowedBy: "blind round 3: the certifier STATED, the vendor OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Endpoints > Cards: "| monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient; the fallback is removed when not supplied |"
  {
    name: "r3-card-list-fallback-omitted",
    description: "GET /card (the list) leaves monetary_account_id_fallback out of every card, as if none had one; GET /card/{id} shows it.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // banking-api.md, Endpoints > OAuth client callback URLs: "| POST | /user/{userID}/oauth-client/{oauth-clientID}/callback-url |
  // {url: required string} | see gap list |" (read back: "OAuth callback URL: fields: not shown beyond url (string).")
  {
    name: "r3-callback-url-list-url-normalised",
    description:
      "GET callback-url (the list) shows each url in WHATWG-normalised form (host lower-cased, default port dropped, a slash " +
      "added after a bare host); the read by id shows the url as sent.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // wire-conventions.md §7: "iDEAL merchant transactions (deprecated), the provider's paths: `POST|GET
  // /user/{u}/monetary-account/{m}/ideal-merchant-transaction`, `GET .../ideal-merchant-transaction/{id}`; object fields
  // `issuer` (BIC), `monetary_account_id`, ..."
  {
    name: "r3-ideal-list-all-accounts",
    description:
      "GET ideal-merchant-transaction (the list) under one monetary account lists the transactions of every account of the user; " +
      "the read by id still refuses one of another account.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: IDEAL_SCOPE,
  },
] as const satisfies readonly VariantSpec[];

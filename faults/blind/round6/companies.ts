// Blind round 6 (part: companies): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND6_COMPANIES_FAULTS = [
  // wire-conventions.md §6: "A 5XX is never a pass."; banking-api.md, Endpoints > Companies: "| PUT |
  // /user/{userID}/company/{itemId} | Company body | see gap list |" with the sample body's "ubo (array of UBO)".
  fault(
    "r6-company-put-ubo-object-500",
    "COMP-010",
    "PUT company with ubo sent as a single object instead of an array crashes with a 500 (the update normalises ubo with " +
      ".map before validating); POST refuses the same body with 400.",
    ["companies"],
  ),
  // banking-api.md, Endpoints > Attachments: "| POST | /user/{userID}/monetary-account/{monetary-accountID}/attachment | ...
  // | {id: integer} |" and "| GET | /user/{userID}/attachment/{itemId} | none | Attachment (read form); ... |";
  // wire-conventions.md §7: "Attachment upload answers `Id`; `GET /user/{u}/attachment/{id}` answers `AttachmentUser` with
  // `attachment.content_type` and `attachment.description` as uploaded."
  fault(
    "r6-attachment-ids-per-account",
    "ATT-005",
    "Attachment ids are numbered per monetary account (1, 2, ... on each account) while GET /user/{userID}/attachment/{itemId} " +
      "looks them up per user, so the first upload to the user's second account gets the id of an attachment on the first " +
      "account and replaces it: that id now reads back the newer upload, and the older attachment is gone.",
    ["attachments"],
    // Only a user whose first account holds just the check's own upload shows it: a fresh one.
    FRESH_USERS,
  ),
  // wire-conventions.md §7: "`GET /user/{u}/attachment/{id}` answers `AttachmentUser` with `attachment.content_type` and
  // `attachment.description` as uploaded." and "pdf LENIENT".
  fault(
    "r6-attachment-pdf-read-octet-stream",
    "ATT-006",
    "A PDF upload is accepted, but its read form shows attachment.content_type application/octet-stream (the read maps the " +
      "stored type through a table of image types only); PNG, JPEG and GIF read back right.",
    ["attachments"],
  ),
  // wire-conventions.md §6: "A 5XX is never a pass."; banking-api.md, Endpoints > Attachments: "| POST |
  // /user/{userID}/monetary-account/{monetary-accountID}/attachment | ... | {id: integer} |".
  fault(
    "r6-attachment-unknown-account-500",
    "ERR-003",
    "An upload to a monetary-accountID that names no monetary account at all crashes with a 500 (the owner of the looked-up " +
      "account is read unchecked); an account of another user is still refused with a 4XX.",
    ["attachments"],
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND6_COMPANIES_VARIANTS = [
  // banking-api.md, Endpoints > Companies: "| POST | /user/{userID}/company | Company body | {Id: {id: integer}} |";
  // wire-conventions.md §1: "Creates (POST) answer `{"Response": [{"Id": {"id": N}}]}`".
  {
    name: "r6-company-create-answers-previous-id",
    description:
      "POST company stores the new company but answers the id of the user's newest company before it (read as 'the latest id' " +
      "before the insert), so reading the answered id shows another company.",
    allowedBy: "blind round 6: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Endpoints > Companies: "| PUT | /user/{userID}/company/{itemId} | Company body | see gap list |";
  // Resources > Company: "| ubo | array of UBO |" and "| address_main, address_postal, address_shipping | Address (response) |".
  {
    name: "r6-company-put-deep-merged",
    description:
      "PUT company deep-merges the body into the stored company: an address keeps the members the new address leaves out " +
      "(po_box, extra, ...) and a ubo array shorter than the stored one keeps the stored trailing UBOs.",
    allowedBy: "blind round 6: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Shared objects: "| UBO | name, date_of_birth, nationality (string) |"; Endpoints > Companies: the POST
  // row "| POST | /user/{userID}/company | Company body | {Id: {id: integer}} |" and the read row "| GET |
  // /user/{userID}/company/{itemId} | none | {UserCompany: Company} |".
  {
    name: "r6-company-ubo-birth-date-as-timestamp",
    description:
      "The company read form and list show each UBO's date_of_birth as a timestamp string ('1980-01-01 00:00:00.000000') " +
      "instead of the date that was sent ('1980-01-01').",
    allowedBy: "blind round 6: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Endpoints > Companies: "| avatar_uuid | string (public uuid of the avatar) | no |"; Resources > Company:
  // "| avatar | Avatar |" with Avatar "uuid, anchor_uuid, style (string); image: ...".
  {
    name: "r6-company-avatar-uuid-ignored",
    description:
      "POST and PUT company accept avatar_uuid but the company's avatar.uuid stays the uuid the server generated, so the " +
      "avatar chosen is never the company's avatar.",
    allowedBy: "blind round 6: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // wire-conventions.md §1: "Updates (PUT) answer `Id`, or the updated object under its type key (LENIENT)".
  {
    name: "r6-company-put-answers-user-id",
    description: "PUT company/{itemId} applies the update but answers Id with the userID of the path instead of the company's id.",
    requirements: ["COMP-020"],
    allowedBy:
      "blind round 6: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md); asked again as the " +
      "requirement's case, both OPEN",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Endpoints > Companies: "| GET | /user/{userID}/company/{itemId} | none | {UserCompany: Company} |"
  // beside "| PUT | /user/{userID}/company/{itemId} | Company body | see gap list |".
  {
    name: "r6-company-read-cached-before-put",
    description:
      "GET company/{itemId} serves the company as it was first read (a per-id read cache the PUT never clears), so after a " +
      "PUT the item read still shows the old values while the list shows the update.",
    requirements: ["COMP-021"],
    allowedBy:
      "blind round 6: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md); asked again as the " +
      "requirement's case, both OPEN",
    suites: VARIANT_SCOPE.companies,
  },
] as const satisfies readonly VariantSpec[];

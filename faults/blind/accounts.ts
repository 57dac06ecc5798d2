// Blind round 1 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites were mapped after the first kill-matrix run.
import { fault, STRICT_ONLY } from "../fault.js";

export const BLIND_ACCOUNTS_FAULTS = [
  // banking-api.md, Shared objects:
  // "| Address (response) | the request fields plus province (string), is_user_address_updated (boolean) |"
  fault(
    "company-address-flag-string",
    "COMP-005",
    'The company read form stringifies every member of address_main and address_postal, so is_user_address_updated is "true".',
    ["companies"],
  ),
  // banking-api.md, Company table: "| alias | array of Alias |"
  fault(
    "company-single-alias-unwrapped",
    "COMP-005",
    "The company serialiser unwraps an array of one element: a company with one alias answers alias as an object.",
    ["companies"],
  ),
  // banking-api.md, Pagination rules:
  // "- future_url uses newer_id and is used to refresh the list and find items created after the listing."
  fault(
    "company-refresh-empty-page-500",
    "PAGE-021",
    "The company list with a newer_id that has nothing newer (a refresh through future_url) crashes with a 500.",
    ["companies", "pagination"],
  ),
  // banking-api.md, Endpoints > User-defined transaction categories:
  // "| POST | /user/{userID}/additional-transaction-information-category-user-defined | {category, description, color, icon:
  // optional strings; status: required string, whether the category is active} | {Id: {id: integer}} |"
  // Legal by default: the blind ruling of CAT-004 (whose statement names "a boolean for status") left the refusal to strict.
  fault(
    "category-status-boolean-accepted",
    "CAT-004",
    'POST category takes a boolean status (status true, read as "whether the category is active") instead of refusing it.',
    ["categories"],
    STRICT_ONLY,
  ),
  // wire-conventions.md §7: "Attachment upload answers `Id`; `GET /user/{u}/attachment/{id}` answers `AttachmentUser` with
  // `attachment.content_type` and `attachment.description` as uploaded."
  fault(
    "attachment-description-cut-at-comma",
    "ATT-006",
    "The description header is read as a comma-separated list: a description with a comma is stored up to its first comma.",
    ["attachments"],
  ),
  // wire-conventions.md §7: "png, jpeg and gif MUST be accepted; pdf LENIENT; other types → 4XX (CONVENTION); a missing
  // description header → 4XX (MUST)."
  fault(
    "attachment-jpeg-jfif-only",
    "ATT-001",
    "The JPEG magic-number check wants the JFIF marker FF D8 FF E0, so Exif JPEGs and JPEGs without an APP0 segment are refused.",
    ["attachments"],
  ),
  // wire-conventions.md §7: "Attachment upload answers `Id`; `GET /user/{u}/attachment/{id}` answers `AttachmentUser` with
  // `attachment.content_type` and `attachment.description` as uploaded."
  fault(
    "attachment-upload-answers-account-id",
    "ATT-005",
    "The upload answers Id with the monetary account's id instead of the new attachment's (a copy-paste slip).",
    ["attachments"],
  ),
  // banking-api.md, Endpoints > Share invites:
  // "| GET | /user/{userID}/share-invite-monetary-account-response | none | all shares the user was invited to |"
  fault(
    "share-invite-list-active-only",
    "SHARE-001",
    "The share-invite list shows only ACTIVE shares: REJECTED and REVOKED ones are left out (it reuses the shares-in-force query).",
    ["share-invites"],
  ),
  // banking-api.md, Share invite table:
  // "| monetary_account_id | integer | read-only | the account an accepted share applies to; null otherwise |"
  fault(
    "share-invite-card-only-put-unlinks",
    "SHARE-005",
    "A PUT with card_id and no status unlinks an accepted share: it stays ACTIVE but monetary_account_id becomes null.",
    ["share-invites"],
  ),
  // wire-conventions.md §7: "Write-only fields (`pin_code`, `activation_code`, `cancellation_reason`, `card_id`) never appear in
  // any response (MUST: write-only)."
  fault(
    "share-invite-put-answer-echoes-card-id",
    "SHARE-010",
    "PUT share-invite answers the updated share merged with the request body, so the write-only card_id is in the answer.",
    ["share-invites"],
  ),
  // banking-api.md, Share invite table: "| start_date, end_date | string | read-only | start and expiry of the share |"
  // SHARE-013 (MUST, blind ruling 2026-11-28): each listed share shows the values of its read by id.
  fault(
    "share-invite-list-dates-swapped",
    "SHARE-013",
    "The share-invite list (not the read) answers start_date and end_date the wrong way round.",
    ["share-invites"],
  ),
  // wire-conventions.md §6: "A path id that is not an integer, or a userID other than the session's user, → 4XX."
  fault(
    "share-invite-list-path-user-ignored",
    "AUTH-015",
    "The share-invite list takes the user from the session and ignores the userID of the path (read and PUT still check it).",
    ["share-invites", "authorisation", "error-bodies"],
  ),
  // wire-conventions.md §7: "iDEAL merchant transactions (deprecated), the provider's paths: `POST|GET
  // /user/{u}/monetary-account/{m}/ideal-merchant-transaction`, `GET .../ideal-merchant-transaction/{id}`; object fields
  // `issuer` (BIC), `monetary_account_id`, `expiration`, `issuer_name`, `issuer_authentication_url`, `purchase_identifier`,
  // `transaction_identifier`, `status`, `status_timestamp`; create body `{"amount_requested": Amount, "issuer": BIC}`."
  fault(
    "ideal-bic11-refused",
    "IDEAL-001",
    "POST ideal-merchant-transaction refuses an 11-character BIC (with branch code): the issuer check wants exactly 8.",
    ["ideal"],
  ),
  // banking-api.md, Other resources: "- iDEAL merchant transaction (deprecated). It carries these facts: issuer BIC, monetary
  // account id, expiry time, issuer name, URL to visit, purchase id, transaction id, status, time of last status update."
  // IDEAL-005 (LENIENT, blind ruling 2026-11-28: certifier OPEN, vendor OPEN): the transaction shown on another account than
  // the path's is noted, so only the strict profile requires it on the path's account.
  fault(
    "ideal-created-on-first-account",
    "IDEAL-005",
    "A transaction created on the user's second monetary account is recorded on the first (the create copied the seed's line).",
    ["ideal"],
    STRICT_ONLY,
  ),
] as const;

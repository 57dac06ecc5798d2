// The faults and legal variants of what hangs off a monetary account (reference/resources/accounts/): attachments,
// share invites and iDEAL merchant transactions.
import { fault, STRICT_ONLY } from "./fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "./variant-spec.js";

const ATTACHMENTS = ["attachments"];

export const ATTACHMENT_FAULTS = [
  fault("attachment-png-refused", "ATT-001", "PNG uploads are refused (only JPEG, GIF and PDF are taken).", ATTACHMENTS),
  fault("attachment-pdf-refused", "ATT-002", "PDF uploads are refused although the target declares PDF attachments.", ATTACHMENTS),
  fault("attachment-accepts-any-type", "ATT-003", "Uploads of any Content-Type are accepted.", ATTACHMENTS),
  fault(
    "attachment-accepts-any-image-type",
    "ATT-003",
    "Any image/* type is accepted (SVG among them), not just PNG, JPEG and GIF.",
    ATTACHMENTS,
  ),
  fault("attachment-description-optional", "ATT-004", "Uploads without the Attachment-Description header are accepted.", ATTACHMENTS),
  fault(
    "attachment-description-skipped-for-gif",
    "ATT-004",
    "The description header is checked for PNG and JPEG uploads but not for GIF (the GIF path was added later).",
    ATTACHMENTS,
  ),
  // Legal by default (ATT-010 is LENIENT, blind ruling 2026-11-28): only the strict profile requires that a refused upload stores nothing.
  fault(
    "attachment-refused-upload-stored",
    "ATT-010",
    "The upload is stored before its type and description are checked, so a refused upload still becomes an attachment.",
    ATTACHMENTS,
    STRICT_ONLY,
  ),
  fault(
    "attachment-urls-as-string",
    "ATT-005",
    "The read form's attachment.urls is a single URL string instead of an array of {type, url}.",
    ATTACHMENTS,
  ),
  fault(
    "attachment-content-type-not-stored",
    "ATT-006",
    "The read form's attachment.content_type is always application/octet-stream.",
    ATTACHMENTS,
  ),
  fault("attachment-description-truncated", "ATT-006", "The read form's attachment.description is cut to 30 characters.", ATTACHMENTS),
  fault(
    "attachment-read-octet-stream",
    "ATT-007",
    "GET attachment answers its JSON with Content-Type application/octet-stream.",
    ATTACHMENTS,
  ),
  fault(
    "attachment-type-key-wrong",
    "ERR-015",
    "GET attachment answers under the type key Attachment instead of AttachmentUser.",
    ATTACHMENTS,
  ),
  fault(
    "attachment-other-user-readable",
    "AUTH-019",
    "GET attachment serves any user's attachment under the caller's own userID.",
    ATTACHMENTS,
  ),
  fault("attachment-other-users-account-accepted", "AUTH-019", "Uploads to another user's monetary account are accepted.", ATTACHMENTS),
  fault(
    "attachment-read-ignores-path-user",
    "AUTH-015",
    "GET attachment ignores the userID of the path and serves the session user's attachment.",
    ATTACHMENTS,
  ),
  fault(
    "attachment-upload-ignores-path-user",
    "AUTH-015",
    "The upload ignores the userID of the path and stores the attachment for the session user.",
    ATTACHMENTS,
  ),
] as const;

export const ATTACHMENT_VARIANTS = [
  {
    name: "attachment-empty-upload-stored",
    suites: VARIANT_SCOPE.attachments,
    description: "An upload with an empty body (and a known type and a description) is stored and answered with its Id.",
    allowedBy: "neither file says an empty upload is refused (ATT-009, LENIENT)",
    requirements: ["ATT-009"],
  },
  {
    name: "attachment-stored-before-checks",
    suites: VARIANT_SCOPE.attachments,
    description:
      "The upload is stored before its type and description are checked, so a refused upload still becomes an attachment " +
      "(readable by its id).",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["ATT-010"],
  },
  {
    name: "resource-refusal-codes",
    suites: VARIANT_SCOPE.resources,
    description:
      "Refusals on the attachment, certificate, callback-url, share and challenge endpoints use other 4XX " +
      "codes: 415 for an attachment type, 422 for an invalid body, 403 for an item that is not the caller's.",
    allowedBy: "conventions §6 (any 4XX with an error body passes where the specification fixes none)",
    requirements: [
      "ATT-003",
      "ATT-004",
      "ATT-010",
      "CERT-005",
      "CERT-007",
      "CERT-008",
      "OCB-006",
      "OCB-007",
      "OCB-008",
      "OCB-009",
      "SHARE-009",
      "CHAL-006",
      "CHAL-007",
      "FEAT-003",
    ],
  },
] as const satisfies readonly VariantSpec[];

const SHARES = ["share-invites"];

export const SHARE_INVITE_FAULTS = [
  fault(
    "share-invite-list-includes-other-users",
    "SHARE-001",
    "The share-invite list shows the shares of every user, not only the caller's.",
    SHARES,
  ),
  fault(
    "share-invite-read-draft-id-string",
    "SHARE-002",
    "GET share-invite/{itemId} answers draft_share_invite_bank_id as a string.",
    SHARES,
  ),
  fault("share-invite-status-lowercase", "SHARE-006", "Share statuses are shown in lower case (active, rejected, revoked).", SHARES),
  fault("share-invite-access-type-lowercase", "SHARE-004", "access_type is shown in lower case (view_balance, ...).", SHARES),
  fault(
    "share-invite-accepted-without-account",
    "SHARE-005",
    "PUT status ACTIVE does not link the account: monetary_account_id stays null.",
    SHARES,
  ),
  fault("share-invite-rejected-keeps-account", "SHARE-005", "Rejecting an accepted share keeps showing its monetary_account_id.", SHARES),
  // A move between answered statuses answered 200 and not made is noted (GAP-13; blind round 4, the readers split): strict only.
  fault("share-invite-accept-ignored", "SHARE-006", "PUT status ACTIVE answers 200 but leaves the status as it was.", SHARES, STRICT_ONLY),
  fault(
    "share-invite-reject-ignored",
    "SHARE-007",
    "PUT status REJECTED answers 200 but leaves the status as it was.",
    SHARES,
    STRICT_ONLY,
  ),
  fault(
    "share-invite-revoke-refused",
    "SHARE-008",
    "PUT status REVOKED is refused with 400 (as if only the inviter could revoke).",
    SHARES,
  ),
  fault("share-invite-any-status-accepted", "SHARE-009", "PUT stores any status string.", SHARES),
  fault(
    "share-invite-refused-put-applies",
    "SHARE-009",
    "PUT with an unknown status is refused with 400, but the status was already stored.",
    SHARES,
  ),
  fault("share-invite-echoes-card-id", "SHARE-010", "After a PUT with card_id, list and read answers show card_id.", SHARES),
  fault(
    "share-invite-error-echoes-card-id",
    "SHARE-010",
    "A PUT refused for its status quotes the request body, card_id included, in the error text.",
    SHARES,
  ),
  // Legal by default (SHARE-012 is LENIENT, blind ruling 2026-11-28): only the strict profile requires that a refused PUT moves nothing.
  fault(
    "share-invite-card-id-checked-late",
    "SHARE-012",
    "card_id is checked after the status was stored: a PUT refused for its card_id has already moved the share.",
    SHARES,
    STRICT_ONLY,
  ),
  fault("share-invite-status-required", "SHARE-011", "PUT without status is refused with 400, although status is optional.", SHARES),
  fault(
    "share-invite-other-user-readable",
    "AUTH-019",
    "GET share-invite/{itemId} serves another user's share under the caller's userID.",
    SHARES,
  ),
  fault(
    "share-invite-other-user-writable",
    "AUTH-019",
    "PUT share-invite/{itemId} accepts another user's share under the caller's userID.",
    SHARES,
  ),
] as const;

export const SHARE_INVITE_VARIANTS = [
  {
    name: "share-pending-invites",
    suites: VARIANT_SCOPE.shares,
    description:
      "Every third seeded share is an invitation nobody has answered yet, in status PENDING (the " +
      "provider's), with monetary_account_id null.",
    allowedBy: "the status table lists the values a PUT sets; moves beyond them are not shown (SHARE-003, LENIENT)",
    requirements: ["SHARE-003"],
  },
  {
    name: "share-card-id-checked-after-status",
    suites: VARIANT_SCOPE.shares,
    description: "card_id is checked after the status was stored: a PUT refused for its card_id has already moved the share.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["SHARE-012"],
  },
] as const satisfies readonly VariantSpec[];

const IDEAL = ["ideal"];

/** The issuer a faulty iDEAL server falls back to. */
export const IDEAL_FALLBACK_ISSUER = "ABNANL2A";

export const IDEAL_FAULTS = [
  fault(
    "ideal-create-answers-transaction",
    "IDEAL-001",
    "POST ideal-merchant-transaction answers the IdealMerchantTransaction instead of Id.",
    IDEAL,
  ),
  // Legal by default (IDEAL-002 and IDEAL-004 are LENIENT, blind ruling 2026-11-28): only the strict profile requires the BIC
  // shown as sent, and a create without issuer refused.
  fault(
    "ideal-issuer-ignored",
    "IDEAL-002",
    `Every transaction shows issuer ${IDEAL_FALLBACK_ISSUER}, whatever BIC was sent.`,
    IDEAL,
    STRICT_ONLY,
  ),
  fault("ideal-list-without-pagination", "IDEAL-003", "The ideal-merchant-transaction list has no Pagination object.", IDEAL),
  fault(
    "ideal-missing-issuer-accepted",
    "IDEAL-004",
    `POST ideal-merchant-transaction without issuer is accepted (issuer ${IDEAL_FALLBACK_ISSUER} is assumed).`,
    IDEAL,
    STRICT_ONLY,
  ),
  fault(
    "ideal-wrong-type-key",
    "ERR-015",
    "iDEAL transactions are answered under IdealMerchantTransactionRead instead of IdealMerchantTransaction.",
    IDEAL,
  ),
  fault(
    "ideal-other-users-account-accepted",
    "AUTH-019",
    "iDEAL calls work on any user's monetary account id, not only the caller's.",
    IDEAL,
  ),
  fault(
    "ideal-list-unversioned-route",
    "VER-001",
    "The iDEAL list is routed without the /v1 prefix (/user/{userID}/monetary-account/{id}/ideal-merchant-transaction).",
    ["versioning", "ideal"],
  ),
] as const;

/** The iDEAL suite and the suites that read every resource (VARIANT_SCOPE has no iDEAL entry). */
const IDEAL_SCOPE = ["ideal", ...VARIANT_SCOPE.attachments.filter((suite) => suite !== "attachments")];

export const IDEAL_VARIANTS = [
  {
    name: "ideal-issuer-fixed",
    suites: IDEAL_SCOPE,
    description: `Every transaction shows issuer ${IDEAL_FALLBACK_ISSUER} (and its issuer_name), whatever BIC was sent.`,
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["IDEAL-002"],
  },
  {
    name: "ideal-issuer-defaulted",
    suites: IDEAL_SCOPE,
    description: `POST ideal-merchant-transaction without issuer is accepted, with issuer ${IDEAL_FALLBACK_ISSUER} assumed.`,
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["IDEAL-004"],
  },
  {
    name: "ideal-recorded-on-first-account",
    suites: IDEAL_SCOPE,
    description:
      "A transaction requested on another of the user's monetary accounts is recorded on the user's first account (read and " +
      "listed there only).",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["IDEAL-005"],
  },
] as const satisfies readonly VariantSpec[];

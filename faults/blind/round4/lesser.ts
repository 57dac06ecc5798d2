// Blind round 4 (bug shape: lesser): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS, STRICT_ONLY } from "../../fault.js";

import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

/** The iDEAL suite and the suites that read every resource (as faults/accounts.ts scopes the iDEAL variants). */
const IDEAL_SCOPE = ["ideal", ...VARIANT_SCOPE.attachments.filter((suite) => suite !== "attachments")];

export const BLIND4_LESSER_FAULTS = [
  // banking-api.md, What the service does: "Attachments (files uploaded to a monetary account and read back per user)."
  fault(
    "r4-attachment-read-first-account-only",
    "ATT-005",
    "GET attachment/{itemId} finds only attachments uploaded to the user's first monetary account: one uploaded to another of " +
      "the user's accounts is accepted with an Id but then answers 404.",
    ["attachments"],
    FRESH_USERS,
  ),
  // wire-conventions.md §7: "png, jpeg and gif MUST be accepted; pdf LENIENT; other types → 4XX (CONVENTION)"
  fault(
    "r4-attachment-gif87a-refused",
    "ATT-001",
    "The GIF magic-number check wants GIF89a, so an upload of a GIF87a file (image/gif) is refused with 400.",
    ["attachments"],
  ),
  // wire-conventions.md §7: "`GET /user/{u}/attachment/{id}` answers `AttachmentUser` with `attachment.content_type` and
  // `attachment.description` as uploaded."
  fault(
    "r4-attachment-description-html-escaped",
    "ATT-006",
    "GET attachment shows attachment.description HTML-escaped (& < > \" ' become entities), so a description with such a " +
      "character reads back other than it was uploaded.",
    ["attachments"],
  ),
  // banking-api.md, Resources and their fields: "Conventions: id fields are integers; all other scalar fields are strings
  // unless stated"
  fault(
    "r4-ideal-created-account-id-string",
    "IDEAL-002",
    "A transaction created by POST ideal-merchant-transaction shows monetary_account_id as a string (the path parameter's " +
      "text), in its read and in the list; seeded transactions show an integer.",
    ["ideal"],
  ),
  // banking-api.md, Endpoints > Feature announcement: "| GET | /user/{userID}/feature-announcement/{itemId} | none | Feature
  // announcement |"
  fault(
    "r4-feature-announcement-promotion-not-found",
    "FEAT-004",
    "GET feature-announcement/{itemId} serves only announcements of type FEATURE: the user's announcement of type PROMOTION " +
      "answers 404.",
    ["feature-announcements"],
    STRICT_ONLY,
  ),
  // banking-api.md, Authentication > Rules: "The user id in every path is the authenticated user's id."
  fault(
    "r4-challenge-put-path-user-unchecked",
    "AUTH-015",
    "PUT challenge-request/{itemId} accepts another existing user's userID in the path and answers that user's challenge " +
      "request (the GET refuses it).",
    ["authorisation"],
  ),
  // wire-conventions.md §5: "Links are relative, start with `/v1/`, name the same list path, and keep `count` when the
  // request sent it."
  fault(
    "r4-share-invite-links-renamed-path",
    "PAGE-014",
    "The deprecated share-invite list builds its pagination links from its successor's path " +
      "(/v1/user/{u}/share-invite-bank-response), so following newer_url or older_url answers 404.",
    ["pagination"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND4_LESSER_VARIANTS = [
  // banking-api.md, Resources and their fields > Other resources: "It carries these facts: issuer BIC, monetary account id,
  // expiry time, issuer name, URL to visit, purchase id, transaction id, status, time of last status update."
  {
    name: "r4-ideal-list-summary-without-urls",
    description:
      "GET ideal-merchant-transaction (the list) answers a summary of each transaction without issuer_authentication_url and " +
      "purchase_identifier; the read by id still carries them.",
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: IDEAL_SCOPE,
  },
  // banking-api.md, Endpoints > User-defined transaction categories: "| POST |
  // /user/{userID}/additional-transaction-information-category-user-defined | {category, description, color, icon: optional
  // strings; status: required string, whether the category is active} | {Id: {id: integer}} |"
  {
    name: "r4-category-create-answers-first-id",
    description:
      "POST category answers, as the new category's Id, the id of the user's first category, so every create after the first " +
      "answers the same id.",
    allowedBy: "blind round 4: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.categories,
  },
] as const satisfies readonly VariantSpec[];

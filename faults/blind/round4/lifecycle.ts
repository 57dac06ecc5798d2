// Blind round 4 (bug shape: lifecycle): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS, STRICT_ONLY } from "../../fault.js";

import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND4_LIFECYCLE_FAULTS = [
  // banking-api.md, Endpoints > OAuth client callback URLs: "| PUT | /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId}
  // | {url: required string} | see gap list |" with "| GET | /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId} |
  // none | see gap list |"
  fault(
    "r4-callback-url-put-reissues-id",
    "OCB-004",
    "PUT callback-url/{itemId} stores the changed URL as a new callback URL under a new id (answered in Id) and removes the " +
      "old one, so a GET of the itemId that was updated answers 404.",
    ["oauth-callback-urls"],
    STRICT_ONLY,
  ),
  // banking-api.md, Resources and their fields > Company: "| created, updated | string |" (and Conventions: "timestamps (created,
  // updated) are strings")
  fault(
    "r4-company-put-updated-epoch",
    "COMP-005",
    "PUT company stamps updated with epoch milliseconds, so a company that was updated shows updated (and " +
      "billing_contract[].updated) as a JSON number; companies never updated still show strings.",
    ["companies"],
  ),
  // wire-conventions.md §5: "Items are ordered by id; within a page either ascending (the specification's reading: `newer_id` is
  // the page's last item) or descending (the provider's)"
  fault(
    "r4-share-invite-page-ordered-by-updated",
    "PAGE-019",
    "The share-invite list orders each page by the time a share was last updated, so a share answered by a PUT moves to " +
      "the end of its page, out of id order (before any PUT the order is right).",
    ["share-invites"],
    FRESH_USERS,
  ),
  // wire-conventions.md §7: "`GET /user/{u}/attachment/{id}` answers `AttachmentUser` with `attachment.content_type` and
  // `attachment.description` as uploaded."
  fault(
    "r4-attachment-same-file-answers-old-id",
    "ATT-006",
    "An upload whose bytes equal those of an attachment the user already has stores nothing and answers that older " +
      "attachment's id, so reading it back shows the first upload's description (and content type), not the one just sent.",
    ["attachments"],
    FRESH_USERS,
  ),
  // banking-api.md, Endpoints > Card replacement: "The replacement keeps the old card's expiry date and pricing and gets a new
  // card number."
  fault(
    "r4-replace-restores-previous-number",
    "REPL-004",
    "A card's second replacement (single or batch) brings back the card number the first replacement retired instead of " +
      "issuing a new one, so the card shows its original number again; the first replacement is right.",
    ["card-replacement"],
    FRESH_USERS,
  ),
  // wire-conventions.md §4: "Test users (CONVENTION, optional per target): `POST /sandbox-user-person`, no auth header, empty
  // body → `[{"ApiKey": {"api_key": string}}]`, a fresh user with fresh data."
  fault(
    "r4-sandbox-user-inherits-card-states",
    "AUTH-017",
    "POST /sandbox-user-person seeds the new user's cards from the previous sandbox user's cards, so card states that user " +
      "reached (LOST, STOLEN, CANCELLED, activated) show on the fresh user's cards from the start.",
    ["authentication"],
    FRESH_USERS,
  ),
  // banking-api.md, Resources and their fields > Other resources: "iDEAL merchant transaction (deprecated). It carries these
  // facts: issuer BIC, monetary account id, expiry time, issuer name, URL to visit, purchase id, transaction id, status, time of
  // last status update."
  fault(
    "r4-ideal-poll-restamps-status-time",
    "IDEAL-006",
    "GET ideal-merchant-transaction/{itemId} (the poll) stamps status_timestamp and updated with the time of the read, " +
      "although the status did not change, so the time of the last status update moves on every poll.",
    ["ideal"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND4_LIFECYCLE_VARIANTS = [
  // banking-api.md, Limits > Pagination rules: "future_url uses newer_id and is used to refresh the list and find items
  // created after the listing."
  {
    name: "r4-cert-id-reused-after-delete",
    description:
      "POST certificate-pinned numbers the new chain as the user's greatest chain id plus one, so after the newest chain is " +
      "deleted the next pinned chain gets the deleted chain's id again (and a refresh from before the delete never finds it).",
    allowedBy:
      "blind round 4: both readers OPEN on whether a sentence forbids it, asked again as the requirement's case (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // wire-conventions.md §5: "A request without cursor returns the newest `count` items." with banking-api.md, Limits >
  // Pagination rules: "future_url uses newer_id and is used to refresh the list and find items created after the listing."
  {
    name: "r4-company-create-id-from-count",
    description:
      'POST company gives the new company the id "number of the user\'s companies plus one", far below the ids of the companies ' +
      "it already has, so a created company is listed as the oldest: missing from the first page and from a future_url refresh.",
    allowedBy: "blind round 4: the certifier STATED, the vendor OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
] as const satisfies readonly VariantSpec[];

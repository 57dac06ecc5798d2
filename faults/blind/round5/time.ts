// Blind round 5 (bug shape: time): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND5_TIME_FAULTS = [
  // wire-conventions.md §5: "A request without cursor returns the newest `count` items."
  fault(
    "r5-company-list-newest-by-updated",
    "PAGE-012",
    "GET company without a cursor answers the count most recently updated companies (ORDER BY updated), so after a PUT of an " +
      "old company that company is on the first page in place of the oldest of the newest ones, and the page's older_url is " +
      "null although older companies exist (before any PUT the list is right).",
    ["companies"],
    FRESH_USERS,
  ),
  // wire-conventions.md §5: "Following `older_url` from the first page, or `newer_url` from the oldest page, visits every item
  // exactly once."
  fault(
    "r5-cert-list-older-page-by-pinned-time",
    "PAGE-003",
    "GET certificate-pinned with older_id answers the chains pinned strictly before the cursor chain's pinning time, so chains " +
      "pinned in the same millisecond as the cursor chain (the seeded ones) are never shown on an older page.",
    ["pagination", "list-sizes"],
    FRESH_USERS,
  ),
  // banking-api.md, Resources and their fields > Share invite: "| start_date, end_date | string | read-only | start and expiry
  // of the share |"
  fault(
    "r5-share-invite-put-takes-dates",
    "SHARE-002",
    "PUT share-invite-monetary-account-response/{itemId} stores a start_date or end_date sent in the body, so the invited user " +
      "can move the start and the expiry of the share; the answer is still the Id.",
    ["share-invites"],
  ),
  // banking-api.md, Endpoints > Card replacement: "The replacement keeps the old card's expiry date and pricing and gets a new
  // card number."
  fault(
    "r5-batch-replace-expiry-day-early",
    "REPL-005",
    "POST card-batch-replace writes each replaced card's expiry date back one day early (2029-12-31 becomes 2029-12-30): the " +
      "date goes through local midnight in Amsterdam and back as a UTC date; a single replace keeps it.",
    ["card-replacement"],
  ),
  // banking-api.md, Resources and their fields > Other resources: "It carries these facts: issuer BIC, monetary account id,
  // expiry time, issuer name, URL to visit, purchase id, transaction id, status, time of last status update."
  fault(
    "r5-ideal-created-status-time-is-expiry",
    "IDEAL-006",
    "A transaction created by POST ideal-merchant-transaction shows as status_timestamp (the time of its last status update) " +
      "its expiration, 15 minutes after it was created, a time still to come; seeded transactions are right.",
    ["ideal"],
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND5_TIME_VARIANTS = [
  // wire-conventions.md §2: "Timestamps are strings; the provider's form is `YYYY-MM-DD HH:MM:SS.ffffff` in UTC"
  {
    name: "r5-callback-url-put-updated-iso",
    description:
      "PUT callback-url/{itemId} stamps updated in ISO 8601 form (2026-11-28T10:15:30.123Z) instead of YYYY-MM-DD HH:MM:SS.ffffff; " +
      "created and never-updated URLs keep the right form.",
    allowedBy: "blind round 5: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // wire-conventions.md §2: "Timestamps are strings; the provider's form is `YYYY-MM-DD HH:MM:SS.ffffff` in UTC"
  {
    name: "r5-attachment-stamped-local-time",
    description:
      "An uploaded attachment's created and updated are the Amsterdam wall-clock time of the upload (one or two hours ahead of " +
      "UTC) in the right form, so they lie in the future of the upload when read as UTC.",
    allowedBy: "blind round 5: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.attachments,
  },
  // banking-api.md, States and transitions > Challenge request: "PUT sets status to ACCEPTED_PENDING_RESPONSE or
  // REJECTED_PENDING_RESPONSE."
  {
    name: "r5-challenge-answer-window-from-created",
    description:
      "PUT challenge-request/{itemId} refuses (400, expired) an answer given more than 60 seconds after the challenge request " +
      "was created, although its expiry_time is a day later; an answer within the first minute is set.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.challenges,
  },
] as const satisfies readonly VariantSpec[];

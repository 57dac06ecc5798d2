// Blind round 2 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites are mapped after the first run.
import { fault } from "../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../variant-spec.js";

export const BLIND2_ACCOUNTS_FAULTS = [
  // banking-api.md, Resources and their fields > Attachment (read form): "| id | integer |"
  fault(
    "attachment-read-id-from-path",
    "ATT-005",
    "GET attachment answers the read form's id as a string, copied from the path parameter instead of the stored record.",
    ["attachments"],
  ),
  // banking-api.md, Share invite table:
  // "| monetary_account_id | integer | read-only | the account an accepted share applies to; null otherwise |"
  fault(
    "share-invite-read-account-unconditional",
    "SHARE-001",
    "GET share-invite/{itemId} (not the list) shows monetary_account_id on every share, REJECTED and REVOKED ones included.",
    ["share-invites"],
  ),
  // banking-api.md, Limits: "| default count | 10 | every list request without a count parameter |"
  fault(
    "share-invite-list-unpaged-without-count",
    "PAGE-003",
    "The share-invite list without any query parameter answers every share at once instead of the newest 10.",
    ["pagination"],
  ),
  // banking-api.md, Resources and their fields: "all other scalar fields are strings unless stated"
  // (wire-conventions.md §7 names expiration among the iDEAL object fields)
  fault(
    "ideal-created-expiration-epoch",
    "IDEAL-002",
    "A transaction created by POST ideal-merchant-transaction shows expiration as an epoch-milliseconds number (seeded ones stay strings).",
    ["ideal"],
  ),
  // banking-api.md, Shared objects: "| Amount | value (string), currency (string) |"
  fault(
    "ideal-created-amount-value-number",
    "IDEAL-002",
    "A transaction created by POST ideal-merchant-transaction shows amount_requested.value as a number (10.5), not the string sent.",
    ["ideal"],
  ),
  // wire-conventions.md §6: "Otherwise any 4XX with an error body passes; [...] A 5XX is never a pass."
  fault(
    "ideal-read-unknown-id-500",
    "ERR-014",
    "GET ideal-merchant-transaction/{id} with an id that is not one of the user's crashes with a 500 instead of answering 404.",
    ["errors"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND2_ACCOUNTS_VARIANTS = [
  // wire-conventions.md §7: "png, jpeg and gif MUST be accepted"
  {
    name: "attachment-content-type-parameters-refused",
    description:
      "The upload looks its Content-Type up in the allow-list with its parameters, so image/png; name=scan.png " +
      "is refused as an unknown type.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.attachments,
  },
  // banking-api.md, States and transitions > Share invite: "PUT sets status to one of ACTIVE, REVOKED, REJECTED."
  {
    name: "share-invite-read-cached",
    description:
      "GET share-invite/{itemId} serves the read form cached at the share's first read, so after a PUT the read" +
      " still shows the old status (the list is fresh).",
    allowedBy: "blind round 2: the certifier STATED, the vendor OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.shares,
  },
  // banking-api.md, Share invite table:
  // "| card_id | integer | write-only | card linked to the shared account; used only when the share detail is a card-payment share |"
  {
    name: "share-invite-card-id-digit-string-accepted",
    description: 'PUT share-invite takes a card_id sent as a string of digits ("42") instead of refusing it as not an integer.',
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.shares,
  },
] as const satisfies readonly VariantSpec[];

// Blind round 6 (part: accounts): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND6_ACCOUNTS_FAULTS = [
  // banking-api.md, Resources > Share invite monetary account response: "| status | string | read/write | ACTIVE, REVOKED,
  // REJECTED |"
  fault(
    "r6-share-status-check-ignores-case",
    "SHARE-009",
    "A share-invite PUT whose status is one of ACTIVE, REVOKED, REJECTED in another case (revoked, Active) is accepted with " +
      "the share's Id and stored as sent, so the later read and the list show a status outside the three values.",
    ["share-invites"],
  ),
  // banking-api.md, Resources > Share invite monetary account response: "| access_type | string | read-only | VIEW_BALANCE,
  // VIEW_TRANSACTION, DRAFT_PAYMENT, FULL_TRANSIENT |"
  fault(
    "r6-share-list-full-transient-access-null",
    "SHARE-004",
    "GET share-invite-monetary-account-response (the list, not the read by id) shows access_type null on every share whose " +
      "access type is FULL_TRANSIENT; the other three access types, and the read by id, are right.",
    ["share-invites"],
  ),
  // banking-api.md, Endpoints > User-defined transaction categories: "| POST |
  // /user/{userID}/additional-transaction-information-category-user-defined | {category, description, color, icon: optional
  // strings; status: required string, whether the category is active} | {Id: {id: integer}} |"
  fault(
    "r6-category-color-requires-icon",
    "CAT-002",
    "POST additional-transaction-information-category-user-defined refuses with 400 a body that carries a color but no icon, " +
      "although both are optional; a body with both, or with neither, is accepted.",
    ["categories"],
  ),
  // wire-conventions.md §6: "A 5XX is never a pass."; banking-api.md, Endpoints > User-defined transaction categories:
  // "{category, description, color, icon: optional strings; ...}"
  fault(
    "r6-category-long-description-500",
    "ERR-003",
    "POST additional-transaction-information-category-user-defined with a description longer than 255 characters crashes " +
      "with 500 (the text does not fit its column and nothing catches the error) instead of creating the category.",
    ["categories", "error-bodies"],
  ),
  // banking-api.md, Endpoints > Common request rules: "Path parameters userID, itemId, cardID, monetary-accountID,
  // oauth-clientID are integers and required."; wire-conventions.md §6: "A path id that is not an integer, or a userID other
  // than the session's user, → 4XX."
  fault(
    "r6-ideal-list-account-id-parseint",
    "ERR-006",
    "GET monetary-account/{monetary-accountID}/ideal-merchant-transaction (the list, not the create or the read) reads the " +
      "monetary-accountID with parseInt, so a path such as monetary-account/123abc/... lists the transactions of account 123 " +
      "instead of being refused.",
    ["errors"],
  ),
  // banking-api.md, Authentication, rules: "The user id in every path is the authenticated user's id."
  fault(
    "r6-ideal-read-path-user-ignored",
    "AUTH-022",
    "GET monetary-account/{monetary-accountID}/ideal-merchant-transaction/{itemId} (the poll, not the create or the list) " +
      "takes the user from the session and ignores the userID of the path, so the caller's transaction is served under any " +
      "userID, one naming nobody or another user included.",
    ["authorisation", "error-bodies"],
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND6_ACCOUNTS_VARIANTS = [
  // banking-api.md, Resources > Share invite monetary account response: "| share_type | string | read-only | STANDARD,
  // MUTUAL |"
  {
    name: "r6-share-read-without-share-type",
    description:
      "GET share-invite-monetary-account-response/{itemId} (the read by id, not the list) answers the share without its " +
      "share_type field.",
    allowedBy: "blind round 6: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.shares,
  },
  // banking-api.md, What the service does: "Feature announcements (read only)."; Endpoints > Feature announcement: "| GET |
  // /user/{userID}/feature-announcement/{itemId} | none | Feature announcement |"
  {
    name: "r6-feature-announcement-gone-after-first-read",
    description:
      "GET feature-announcement/{itemId} serves each announcement once: the read marks it as seen, and every later read of the " +
      "same announcement by that user answers 404.",
    requirements: ["FEAT-006"],
    allowedBy:
      "blind round 6: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md); asked again as the " +
      "requirement's case, both OPEN",
    suites: VARIANT_SCOPE.announcements,
  },
] as const satisfies readonly VariantSpec[];

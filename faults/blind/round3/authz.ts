// Blind round 3 (bug shape: authz): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS, STRICT_ONLY } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND3_AUTHZ_FAULTS = [
  // banking-api.md, What the service does: "The service exposes banking functions to an authenticated client, always scoped to a
  // user: /user/{userID}/..."
  fault(
    "r3-card-block-any-users-card",
    "AUTH-019",
    "PUT card/{itemId} with status LOST, STOLEN or CANCELLED (the block path) finds the card by id alone, so it " +
      "blocks another user's card; other updates still check the owner.",
    ["authorisation"],
    FRESH_USERS,
  ),
  // banking-api.md, Endpoints > Card replacement: "name_on_card is chosen among the names available for the user."
  fault(
    "r3-replace-name-on-card-any-users-name",
    "REPL-011",
    "POST card/{cardID}/replace takes a name_on_card that is on any user's card, not only one of the names available for the caller.",
    ["card-replacement"],
    FRESH_USERS,
  ),
  // banking-api.md, What the service does: "The service exposes banking functions to an authenticated client, always scoped to a
  // user: /user/{userID}/..."
  fault(
    "r3-callback-url-put-any-users-url",
    "AUTH-019",
    "PUT callback-url/{itemId} under the caller's own OAuth client finds the callback URL by its id alone, so it " +
      "rewrites another user's callback URL (GET and DELETE still check).",
    ["authorisation"],
    FRESH_USERS,
  ),
  // wire-conventions.md §5: "Following `older_url` from the first page, or `newer_url` from the oldest page, visits every item
  // exactly once." with banking-api.md, What the service does: "... always scoped to a user: /user/{userID}/..."
  fault(
    "r3-callback-url-older-pages-leak",
    "PAGE-016",
    "The callback-url list pages fetched with older_id (following older_url) hold every user's callback URLs below " +
      "the cursor, not only those of the caller's client; the first page is right.",
    ["pagination"],
    FRESH_USERS,
  ),
  // banking-api.md, Authentication: "The user id in every path is the authenticated user's id."
  fault(
    "r3-cert-list-path-user-unchecked",
    "AUTH-015",
    "GET certificate-pinned (the list) serves the pinned chains of any existing user named in the path, not only the session's user.",
    ["authorisation", "certificate-pinned", "error-bodies"],
  ),
  // banking-api.md, Endpoints > Pinned certificates: "| DELETE | /user/{userID}/certificate-pinned/{itemId} | none | empty object |"
  // with What the service does: "... always scoped to a user: /user/{userID}/..."
  fault(
    "r3-cert-delete-foreign-answers-ok",
    "AUTH-025",
    "DELETE certificate-pinned/{itemId} of another user's chain answers 200 as if deleted (the chain stays): the " +
      "existence check looks at every user's chains.",
    ["certificate-pinned"],
    STRICT_ONLY,
  ),
  // wire-conventions.md §7: "`POST|GET /user/{u}/monetary-account/{m}/ideal-merchant-transaction`,
  // `GET .../ideal-merchant-transaction/{id}`"
  // with banking-api.md, What the service does: "... always scoped to a user: /user/{userID}/..."
  fault(
    "r3-ideal-read-any-users-transaction",
    "AUTH-019",
    "GET ideal-merchant-transaction/{itemId} under the caller's own monetary account finds the transaction by id " +
      "alone, so it serves another user's transaction.",
    ["authorisation"],
    FRESH_USERS,
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND3_AUTHZ_VARIANTS = [
  // banking-api.md, What the service does: "The service exposes banking functions to an authenticated client, always scoped to a
  // user: /user/{userID}/..." (Card update body: "monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient")
  {
    name: "r3-card-fallback-any-users-account",
    description:
      "PUT card/{itemId} accepts as monetary_account_id_fallback a monetary account of another user (the check asks " +
      "whether the account exists, not whose it is).",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // banking-api.md, Authentication: "Calls 1 and 2 are done once to activate an API key; a session is opened with call 3."
  {
    name: "r3-session-for-secret-on-other-keys-device",
    description:
      "POST /session-server on an installation with a device registered for one API key opens a session for another " +
      "user's API key sent as secret, although that key was never registered on the installation.",
    allowedBy: "blind round 3: the certifier OPEN, the vendor STATED on whether a sentence forbids it (faults/blind-rounds.md)",
  },
] as const satisfies readonly VariantSpec[];

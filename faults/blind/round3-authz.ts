// Blind round 3 (bug shape: authz): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../fault.js";

export const BLIND3_AUTHZ_FAULTS = [
  // banking-api.md, What the service does: "The service exposes banking functions to an authenticated client, always scoped to a
  // user: /user/{userID}/..." (Card update body: "monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient")
  fault(
    "r3-card-fallback-any-users-account",
    "TBD-0",
    "PUT card/{itemId} accepts as monetary_account_id_fallback a monetary account of another user (the check asks whether the account exists, not whose it is).",
    [],
  ),
  // banking-api.md, What the service does: "The service exposes banking functions to an authenticated client, always scoped to a
  // user: /user/{userID}/..."
  fault(
    "r3-card-block-any-users-card",
    "TBD-0",
    "PUT card/{itemId} with status LOST, STOLEN or CANCELLED (the block path) finds the card by id alone, so it blocks another user's card; other updates still check the owner.",
    [],
  ),
  // banking-api.md, Endpoints > Card replacement: "name_on_card is chosen among the names available for the user."
  fault(
    "r3-replace-name-on-card-any-users-name",
    "TBD-0",
    "POST card/{cardID}/replace takes a name_on_card that is on any user's card, not only one of the names available for the caller.",
    [],
  ),
  // banking-api.md, What the service does: "The service exposes banking functions to an authenticated client, always scoped to a
  // user: /user/{userID}/..."
  fault(
    "r3-callback-url-put-any-users-url",
    "TBD-0",
    "PUT callback-url/{itemId} under the caller's own OAuth client finds the callback URL by its id alone, so it rewrites another user's callback URL (GET and DELETE still check).",
    [],
  ),
  // wire-conventions.md §5: "Following `older_url` from the first page, or `newer_url` from the oldest page, visits every item
  // exactly once." with banking-api.md, What the service does: "... always scoped to a user: /user/{userID}/..."
  fault(
    "r3-callback-url-older-pages-leak",
    "TBD-0",
    "The callback-url list pages fetched with older_id (following older_url) hold every user's callback URLs below the cursor, not only those of the caller's client; the first page is right.",
    [],
  ),
  // banking-api.md, Authentication: "The user id in every path is the authenticated user's id."
  fault(
    "r3-cert-list-path-user-unchecked",
    "TBD-0",
    "GET certificate-pinned (the list) serves the pinned chains of any existing user named in the path, not only the session's user.",
    [],
  ),
  // banking-api.md, Endpoints > Pinned certificates: "| DELETE | /user/{userID}/certificate-pinned/{itemId} | none | empty object |"
  // with What the service does: "... always scoped to a user: /user/{userID}/..."
  fault(
    "r3-cert-delete-foreign-answers-ok",
    "TBD-0",
    "DELETE certificate-pinned/{itemId} of another user's chain answers 200 as if deleted (the chain stays): the existence check looks at every user's chains.",
    [],
  ),
  // wire-conventions.md §7: "`POST|GET /user/{u}/monetary-account/{m}/ideal-merchant-transaction`, `GET .../ideal-merchant-transaction/{id}`"
  // with banking-api.md, What the service does: "... always scoped to a user: /user/{userID}/..."
  fault(
    "r3-ideal-read-any-users-transaction",
    "TBD-0",
    "GET ideal-merchant-transaction/{itemId} under the caller's own monetary account finds the transaction by id alone, so it serves another user's transaction.",
    [],
  ),
  // banking-api.md, Authentication: "Calls 1 and 2 are done once to activate an API key; a session is opened with call 3."
  fault(
    "r3-session-for-secret-on-other-keys-device",
    "TBD-0",
    "POST /session-server on an installation with a device registered for one API key opens a session for another user's API key sent as secret, although that key was never registered on the installation.",
    [],
  ),
] as const;

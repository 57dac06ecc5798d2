// Blind round 5 (bug shape: repeat): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND5_REPEAT_FAULTS = [
  // banking-api.md, Endpoints > Common request rules: "| X-Service-Client-Request-Id | optional | id unique for the logged-in
  // user, free format; reusing an id on the same registered device yields an error |"
  fault(
    "r5-request-id-post-retry-replayed",
    "HDR-015",
    "A POST that reuses an X-Service-Client-Request-Id already used on the device is answered, as an idempotent retry, with " +
      "the stored 200 answer of the first call (same Id, nothing created again) instead of an error; other methods still refuse the reuse.",
    ["headers"],
  ),
  // banking-api.md, Authentication: "3. POST /session-server, with the installation token in the header. The response carries
  // a session authentication token." / "4. All other calls send the session token in X-Service-Client-Authentication."
  fault(
    "r5-session-reopen-token-not-stored",
    "AUTH-020",
    "A second POST /session-server for a device that already has a session answers a fresh token, but the session row is " +
      "upserted by device and keeps the first token, so the newly answered token is refused as unknown (the first one still works).",
    ["authentication", "headers"],
  ),
  // banking-api.md, Endpoints > Common request rules: "Successful responses are HTTP 200 with application/json."
  fault(
    "r5-company-put-unchanged-304",
    "COMP-011",
    "A PUT company whose body changes nothing on the stored company (a repeated PUT with the same body) answers 304 Not " +
      "Modified with an empty body instead of 200.",
    ["companies"],
  ),
  // banking-api.md, States and transitions > Card, row 3: "| order_status in DELIVERED_TO_CUSTOMER, CARD_UPDATE_REQUESTED,
  // CARD_UPDATE_SENT, CARD_UPDATE_ACCEPTED (after initial activation) | PUT with status DEACTIVATED | only after initial
  // activation | DEACTIVATED | reversible to ACTIVE |"
  fault(
    "r5-card-put-same-body-replayed",
    "CARD-010",
    "A card PUT whose body equals a body the same card already received is taken for a client retry and answered with the " +
      "answer stored for that earlier PUT, without being applied, so DEACTIVATED, ACTIVE, then DEACTIVATED again answers a " +
      "DEACTIVATED card while the card stays ACTIVE.",
    ["card-state-machine", "cards"],
  ),
  // banking-api.md, Resources > Share invite: "| monetary_account_id | integer | read-only | the account an accepted share
  // applies to; null otherwise |"
  fault(
    "r5-share-accept-twice-unlinks-account",
    "SHARE-005",
    "A share-invite PUT of status ACTIVE on a share that is already ACTIVE (an accept sent twice) keeps the status ACTIVE " +
      "but unlinks the account, so the accepted share shows monetary_account_id null afterwards.",
    ["share-invites"],
  ),
  // wire-conventions.md §6: "Otherwise any 4XX with an error body passes; [...] A 5XX is never a pass."
  fault(
    "r5-category-same-name-500",
    "ERR-003",
    "POST additional-transaction-information-category-user-defined with a category name the user already created (a retried " +
      "POST) crashes with 500: the store's unique index on (user, category) raises and nothing catches it.",
    ["categories"],
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND5_REPEAT_VARIANTS = [
  // banking-api.md, States and transitions > Card, row 1: "| order_status ACCEPTED_FOR_PRODUCTION | PUT with status ACTIVE |
  // card has been received | status ACTIVE | this is the activation route; activation_code is deprecated |"
  {
    name: "r5-card-activation-retry-refused",
    description:
      "A retried activation (PUT status ACTIVE on an ACCEPTED_FOR_PRODUCTION card that the first PUT already activated) is " +
      "refused with 400 as 'already activated' instead of answering the ACTIVE card.",
    allowedBy: "blind round 5: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // banking-api.md, Endpoints > OAuth client callback URLs: "| PUT | /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId}
  // | {url: required string} | see gap list |"
  {
    name: "r5-callback-url-put-same-url-refused",
    description:
      "PUT callback-url/{itemId} refuses with 400 ('url already registered') a url that one of the client's callback URLs " +
      "already has, the URL being updated included, so repeating a PUT (or sending the url it already has) is refused.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // banking-api.md, Endpoints > Pinned certificates: "| POST | /user/{userID}/certificate-pinned | {certificate_chain: array of
  // {certificate: string}} | {id: integer} |"
  {
    name: "r5-cert-repin-answers-deleted-id",
    description:
      "POST certificate-pinned answers, for a chain the user pinned before, the id of that earlier chain and pins nothing new, " +
      "even when the earlier chain was deleted since: the re-pinned chain's answered id reads 4XX and the chain is not listed.",
    allowedBy:
      "blind round 5: both readers OPEN; asked again as CERT-002's case, the readers split (certifier STATED, vendor OPEN); " +
      "asked again in round 6 as CERT-012's case, both OPEN (faults/blind-rounds.md)",
    requirements: ["CERT-012"],
    suites: VARIANT_SCOPE.certificates,
  },
  // banking-api.md, Authentication > Rules: "Calls 1 and 2 are done once to activate an API key; a session is opened with call 3."
  {
    name: "r5-installation-same-key-replaces-first",
    description:
      "POST /installation keeps one installation per client public key: a second installation with the same key replaces the " +
      "first, whose token is then unknown (POST /session-server with it is refused), although its device was registered.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
  },
] as const satisfies readonly VariantSpec[];

// Blind round 3 (bug shape: refused): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

/** The iDEAL suite and the suites that read every resource (as faults/accounts.ts scopes the iDEAL variants). */
const IDEAL_SCOPE = ["ideal", ...VARIANT_SCOPE.attachments.filter((suite) => suite !== "attachments")];

export const BLIND3_REFUSED_FAULTS = [
  // banking-api.md, Share invite table:
  // "| monetary_account_id | integer | read-only | the account an accepted share applies to; null otherwise |"
  fault(
    "r3-share-refused-put-unlinks-account",
    "SHARE-005",
    "A share-invite PUT refused for a status outside ACTIVE, REVOKED and REJECTED unlinks an accepted share: it stays ACTIVE " +
      "but its monetary_account_id becomes null.",
    ["share-invites"],
    FRESH_USERS,
  ),
  // banking-api.md, Authentication: "The caller's current IP must be in the array, otherwise the caller is locked out."
  fault(
    "r3-device-lockout-refusal-keeps-device",
    "AUTH-012",
    "A POST /device-server from a locked-out caller is refused with 400, but the device is registered anyway, bound to the " +
      "caller's address, so POST /session-server then opens a working session for the locked-out caller.",
    ["authentication"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND3_REFUSED_VARIANTS = [
  // banking-api.md, Endpoints > Cards: "| PUT | /user/{userID}/card/{itemId} | Card update body | card; 400 on error |"
  {
    name: "r3-card-refused-put-moves-order-status",
    description:
      "A card PUT that carries order_status CARD_REQUEST_PENDING together with a status the state table refuses (ACTIVE on a " +
      "LOST card, say) answers 400, but the card's order_status has already been set to CARD_REQUEST_PENDING.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // banking-api.md, Endpoints > Cards: "| monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient; the fallback is removed when not supplied |"
  {
    name: "r3-card-refused-put-drops-fallback",
    description:
      "A card PUT without monetary_account_id_fallback that is then refused with 400 (a refused status move, a plaintext pin) " +
      "has already removed the card's fallback account.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // banking-api.md, Endpoints > Card replacement: "The replacement keeps the old card's expiry date and pricing and gets a new
  // card number. Its description, and optionally its PIN, can be changed."
  {
    name: "r3-replace-refused-name-applies-texts",
    description:
      "POST card/{cardID}/replace refused for a name_on_card that is not among the user's names has already written the " +
      "preferred_name_on_card and second_line it carried onto the card, which keeps its old card number.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.replacement,
  },
  // banking-api.md, Endpoints > OAuth client callback URLs: "| DELETE | /user/{userID}/oauth-client/{oauth-clientID}/callback-url/
  // {itemId} | none | object of type OauthCallbackUrlDelete |" (What the service does: "Callback URLs of an OAuth client.")
  {
    name: "r3-callback-url-delete-other-client-removes",
    description:
      "DELETE callback-url/{itemId} under an OAuth client id that is not the caller's answers 404, but the caller's callback URL " +
      "of that item id (under their own client) has been deleted.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // wire-conventions.md §7: "create body `{"amount_requested": Amount, "issuer": BIC}`"
  {
    name: "r3-ideal-refused-create-recorded",
    description:
      "POST ideal-merchant-transaction refused for an issuer that is not a BIC still records a PENDING transaction, which the " +
      "account's transaction list then shows.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: IDEAL_SCOPE,
  },
  // banking-api.md, Endpoints > Common request rules: "| X-Service-Client-Request-Id | optional | id unique for the logged-in
  // user, free format; reusing an id on the same registered device yields an error |"
  {
    name: "r3-request-id-reuse-refused-after-handler",
    description:
      "A call that reuses an X-Service-Client-Request-Id answers 400 with an error body, but the call has been carried out " +
      "all the same (a reused id on a POST creates the item, on a PUT applies the update).",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
  },
  // banking-api.md, Authentication: "4. All other calls send the session token in X-Service-Client-Authentication."
  // ("Calls 1 and 2 are done once to activate an API key; a session is opened with call 3.")
  {
    name: "r3-session-refused-ends-open-sessions",
    description:
      "A POST /session-server refused with 400 (a secret that names no device of the installation) ends the sessions already " +
      "open on that installation, so their session tokens stop working.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
  },
] as const satisfies readonly VariantSpec[];

// Blind round 5 (bug shape: links): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

/** The iDEAL suite and the suites that read every resource (as faults/accounts.ts scopes the iDEAL variants). */
const IDEAL_SCOPE = ["ideal", ...VARIANT_SCOPE.attachments.filter((suite) => suite !== "attachments")];

export const BLIND5_LINKS_FAULTS = [
  // banking-api.md, Endpoints > Cards: "| monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient; the fallback is removed when not supplied |"
  fault(
    "r5-card-list-keeps-removed-fallback",
    "CARD-022",
    "After a card PUT removes the fallback account (by not supplying it), GET /card (the list) still shows the card's last " +
      "fallback account; the PUT answer and GET /card/{id} show it removed.",
    ["cards"],
  ),
  // banking-api.md, Resources and their fields > Share invite: "| monetary_account_id | integer | read-only | the account an
  // accepted share applies to; null otherwise |" with "| card_id | integer | write-only | card linked to the shared account; used
  // only when the share detail is a card-payment share |"
  fault(
    "r5-share-card-id-relinks-account",
    "SHARE-005",
    "A share-invite PUT carrying card_id makes the share's monetary_account_id the account of that card (the caller's own " +
      "account; their primary one when the card is not found) instead of the shared account, so an accepted share shows another account.",
    ["share-invites"],
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND5_LINKS_VARIANTS = [
  // banking-api.md, Endpoints > Cards: "| monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient; the fallback is removed when not supplied |" (a field of the body of PUT /user/{userID}/card/{itemId}, one card)
  {
    name: "r5-card-fallback-set-on-every-card",
    description:
      "A card PUT that sets monetary_account_id_fallback sets that fallback account on every card of the user, not only on " +
      "the card of the path.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // banking-api.md, Endpoints > Card replacement: "The replacement keeps the old card's expiry date and pricing and gets a new
  // card number. Its description, and optionally its PIN, can be changed."
  {
    name: "r5-batch-replace-drops-fallback",
    description:
      "POST /card-batch-replace removes the monetary_account_id_fallback of every card it replaces (the single replace keeps it).",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.replacement,
  },
  // banking-api.md, Endpoints > Attachments: "An attachment is uploaded to a monetary account first, then linked to a payment as
  // an attachment note."
  {
    name: "r5-attachment-unknown-account-accepted",
    description:
      "POST monetary-account/{monetary-accountID}/attachment accepts a monetary-accountID that names no monetary account at all " +
      "(only an account of another user is refused) and stores the attachment, which then reads back.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.attachments,
  },
  // banking-api.md, Endpoints > Pinned certificates: "| DELETE | /user/{userID}/certificate-pinned/{itemId} | none | empty object
  // |" with "| GET | /user/{userID}/certificate-pinned/{itemId} | none | {certificate_chain: string, id: integer} |"; wire-
  // conventions.md §7: "Pinned certificate read form joins the chain's PEM certificates with newlines."
  {
    name: "r5-cert-delete-cascades-shared-certificate",
    description:
      "DELETE certificate-pinned/{itemId} also removes that chain's certificates from the user's other pinned chains that hold " +
      "the same certificate, so those chains read (and list) with the certificate missing, an empty certificate_chain " +
      "when it was their only one.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.certificates,
  },
  // banking-api.md, What the service does: "Callback URLs of an OAuth client." with Endpoints > OAuth client callback URLs: "| POST
  // | /user/{userID}/oauth-client/{oauth-clientID}/callback-url | {url: required string} | see gap list |"
  {
    name: "r5-callback-url-create-unknown-client",
    description:
      "POST oauth-client/{oauth-clientID}/callback-url with an oauth-clientID that names no OAuth client at all answers 200 with " +
      "an Id (only another user's client is refused); the URL is stored but no list or read shows it.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // banking-api.md, Endpoints > OAuth client callback URLs: "| DELETE | /user/{userID}/oauth-client/{oauth-clientID}/callback-url/
  // {itemId} | none | object of type OauthCallbackUrlDelete |" with "| GET | /user/{userID}/oauth-client/{oauth-clientID}/
  // callback-url/{itemId} | none | see gap list |"
  {
    name: "r5-callback-url-deleted-still-readable",
    description:
      "After DELETE callback-url/{itemId}, the list no longer shows the URL but GET callback-url/{itemId} still answers it with 200.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // wire-conventions.md §7: "iDEAL merchant transactions (deprecated), the provider's paths: `POST|GET
  // /user/{u}/monetary-account/{m}/ideal-merchant-transaction`, `GET .../ideal-merchant-transaction/{id}`; object fields `issuer`
  // (BIC), `monetary_account_id`, ..."
  {
    name: "r5-ideal-read-ignores-account",
    description:
      "GET monetary-account/{monetary-accountID}/ideal-merchant-transaction/{itemId} serves the user's transaction whichever of " +
      "the user's monetary accounts the path names, so a transaction made on one account reads under the other (the list is right).",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: IDEAL_SCOPE,
  },
] as const satisfies readonly VariantSpec[];

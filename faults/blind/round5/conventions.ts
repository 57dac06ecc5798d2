// Blind round 5 (bug shape: conventions): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";

export const BLIND5_CONVENTIONS_FAULTS = [
  // wire-conventions.md §1: "Every element of `Response` is an object with exactly one key, the object type: `{"Id": {"id": 7}}`,
  // `{"UserCompany": {...}}`." (banking-api.md, Pinned certificates: "| GET | /user/{userID}/certificate-pinned | none | array of
  // {certificate_chain: string, id: integer} |")
  fault(
    "r5-cert-list-elements-unwrapped",
    "CERT-004",
    "GET certificate-pinned (the list) answers each chain as a bare {id, certificate_chain} element without the CertificatePinned " +
      "type key, as the specification's table writes it; the read by id keeps the type key.",
    ["certificate-pinned"],
  ),
  // wire-conventions.md §1: "Success (CONVENTION): HTTP 200, `Content-Type: application/json`, body `{"Response": [ ... ]}`."
  fault(
    "r5-company-read-response-object",
    "COMP-001",
    'GET company/{itemId} answers {"Response": {"UserCompany": {...}}}, Response an object rather than an array, as the ' +
      "specification's table writes the read ({UserCompany: Company}); the list keeps its array.",
    ["companies"],
  ),
  // wire-conventions.md §7: "Batch `POST /user/{u}/card-batch-replace` body `{"cards": [...]}` →
  // `[{"CardBatchReplace": {"updated_card_ids": [{"id": N}]}}]`."
  fault(
    "r5-batch-replace-answers-ids",
    "REPL-008",
    'POST card-batch-replace answers one {"Id": {"id": N}} element per replaced card, as the single replace answers, instead ' +
      "of one CardBatchReplace element with updated_card_ids.",
    ["card-replacement"],
  ),
  // wire-conventions.md §2: "Type keys: `UserCompany`, `Card` [...], `ShareInviteMonetaryAccountResponse`, [...]"
  fault(
    "r5-share-invite-read-successor-type-key",
    "SHARE-002",
    "GET share-invite-monetary-account-response/{itemId} answers the share under the type key ShareInviteBankResponse (the " +
      "successor endpoint's name); the list keeps ShareInviteMonetaryAccountResponse.",
    ["share-invites"],
  ),
  // wire-conventions.md §1: "Lists add `"Pagination": {"future_url": ..., "newer_url": ..., "older_url": ...}` beside
  // `Response`." (banking-api.md, Limits: "A list response includes a Pagination object with future_url, newer_url and older_url.")
  fault(
    "r5-card-list-without-pagination",
    "PAGE-001",
    "GET /card answers its page of cards (count and the cursors still honoured) without a Pagination object beside Response.",
    ["pagination"],
  ),
  // wire-conventions.md §4: "`POST /session-server` (installation token) body `{"secret": API key}` → `[{"Id"}, {"Token": {...,
  // "token"}}, {"UserPerson" | "UserCompany" | "UserApiKey": {"id": N, ...}}]`."
  fault(
    "r5-session-server-no-id-element",
    "AUTH-026",
    "POST /session-server answers only the Token and the user elements: the Id element of the new session is left out.",
    ["authentication"],
  ),
  // wire-conventions.md §3: "Names: the specification's `X-Service-` prefix. A profile may set another prefix (the provider uses
  // `X-Bunq-`); every header name is built from it."
  fault(
    "r5-attachment-description-header-fixed-prefix",
    "ATT-001",
    "The attachment upload reads its description from a header named X-Service-Attachment-Description whatever header prefix " +
      "the server is set up with, so under another prefix (X-Bunq-) every upload that sends the description under that prefix " +
      "is refused for a missing description.",
    ["attachments"],
    { target: "reference-signed" },
  ),
  // wire-conventions.md §1: "Errors (CONVENTION): every 4XX and 5XX has body `{"Error": [{"error_description": string,
  // "error_description_translated": string}, ...]}` with at least one element."
  fault(
    "r5-card-refused-move-answers-card",
    "CARD-010",
    'A card PUT whose status move the state table refuses answers 400 with the unchanged card ({"Response": [{"Card": ' +
      "{...}}]}) instead of an Error body.",
    ["card-state-machine", "cards"],
  ),
  // wire-conventions.md §1: "Deletes answer HTTP 200 with `{"Response": []}` (LENIENT: an empty object `{}` or a single
  // `{"<Type>Delete": {}}` element is accepted)." (banking-api.md, OAuth client callback URLs: "| DELETE | ... | none | object of
  // type OauthCallbackUrlDelete |")
  fault(
    "r5-callback-url-delete-answers-id",
    "OCB-005",
    'DELETE callback-url/{itemId} answers {"Response": [{"Id": {"id": N}}]} with the deleted URL\'s id, as the PUT does, ' +
      "instead of an empty Response.",
    ["oauth-callback-urls"],
  ),
  // wire-conventions.md §7: "object fields `issuer` (BIC), `monetary_account_id`, `expiration`, `issuer_name`,
  // `issuer_authentication_url`, `purchase_identifier`, `transaction_identifier`, `status`, `status_timestamp`"
  fault(
    "r5-ideal-list-expiry-time-field",
    "IDEAL-003",
    "GET ideal-merchant-transaction (the list) names the expiry field expiry_time (the specification's wording, 'expiry time') " +
      "instead of expiration; the read by id keeps expiration.",
    ["ideal"],
  ),
] as const;

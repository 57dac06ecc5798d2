// Blind round 3 (bug shape: secrets): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND3_SECRETS_FAULTS = [
  // wire-conventions.md §4: "`POST /installation` body `{"client_public_key": "<PEM, RSA 2048>"}` → `Response: [{"Id":{id}},
  // {"Token":{"id","created","updated","token"}}, {"ServerPublicKey":{"server_public_key": PEM}}]`."
  fault(
    "r3-installation-answers-private-key",
    "AUTH-001",
    "POST /installation answers, as server_public_key, the server's private key (PKCS#8 PEM) instead of its public key.",
    ["authentication"],
  ),
  // banking-api.md, Authentication: "3. POST /session-server, with the installation token in the header."
  fault(
    "r3-session-server-takes-api-key",
    "AUTH-005",
    "POST /session-server accepts the API key itself in the authentication header in place of the installation token.",
    ["authentication"],
  ),
  // banking-api.md, Authentication: "4. All other calls send the session token in X-Service-Client-Authentication."
  fault(
    "r3-api-key-accepted-as-session-token",
    "AUTH-005",
    "Resource calls accept the API key of a registered device in the authentication header as if it were a session token.",
    ["authentication"],
  ),
  // wire-conventions.md §7: "Write-only fields (`pin_code`, `activation_code`, `cancellation_reason`, `card_id`) never appear
  // in any response (MUST: write-only)."
  fault(
    "r3-card-read-shows-cancellation-reason",
    "CARD-024",
    "GET /card/{id} shows the cancellation_reason a PUT stored (the list and the PUT answer do not).",
    ["cards"],
  ),
  // banking-api.md, Embedded card: "| primary_account_numbers | array of {id (integer), description, status, uuid, four_digit,
  // type (string), monetary_account_id (integer)} |"
  fault(
    "r3-replace-shows-full-card-number",
    "CARD-004",
    "A card replaced through POST /card/{id}/replace shows its whole new 16-digit card number in four_digit (read, list and PUT answer).",
    ["card-replacement"],
    FRESH_USERS,
  ),
  // banking-api.md, Endpoints > Companies: "Company body (write-only fields):"
  fault(
    "r3-company-list-shows-write-only-fields",
    "COMP-018",
    "GET company (the list, not the read) shows the body's write-only fields subscription_type, signup_track_type, avatar_uuid, " +
      "vat_number and vat_numbers on each company.",
    ["companies"],
  ),
  // wire-conventions.md §7: "Pinned certificate read form joins the chain's PEM certificates with newlines. A chain entry that
  // is not a PEM certificate → 4XX (CONVENTION)."
  fault(
    "r3-cert-bundle-private-key-shown",
    "CERT-010",
    "A chain entry holding a certificate followed by its private key is pinned whole, so the read form and the list show the private key.",
    ["certificate-pinned"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND3_SECRETS_VARIANTS = [
  // wire-conventions.md §7: "Batch `POST /user/{u}/card-batch-replace` body `{"cards": [{"id": N, "name_on_card"?,
  // "second_line"?}]}` → `[{"CardBatchReplace": {"updated_card_ids": [{"id": N}]}}]`."
  {
    name: "r3-batch-replace-answers-card-numbers",
    description: "POST /card-batch-replace answers each updated card with its whole new 16-digit card number beside its id.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.replacement,
  },
  // banking-api.md, What the service does: "Monetary accounts, payments and OAuth clients are referenced only by numeric id in
  // the endpoints below."
  {
    name: "r3-callback-url-read-embeds-oauth-client",
    description: "GET callback-url/{itemId} embeds its OAuth client, client_id and client_secret included, beside the url.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // banking-api.md, Authentication: "4. All other calls send the session token in X-Service-Client-Authentication."
  {
    name: "r3-attachment-url-carries-session-token",
    description: "GET attachment/{itemId} answers a download url that carries the caller's session token as a query parameter.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.attachments,
  },
] as const satisfies readonly VariantSpec[];

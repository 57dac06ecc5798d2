// Blind round 3 (bug shape: secrets): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../fault.js";

export const BLIND3_SECRETS_FAULTS = [
  // wire-conventions.md §4: "`POST /installation` body `{"client_public_key": "<PEM, RSA 2048>"}` → `Response: [{"Id":{id}},
  // {"Token":{"id","created","updated","token"}}, {"ServerPublicKey":{"server_public_key": PEM}}]`."
  fault(
    "r3-installation-answers-private-key",
    "TBD-0",
    "POST /installation answers, as server_public_key, the server's private key (PKCS#8 PEM) instead of its public key.",
    [],
  ),
  // banking-api.md, Authentication: "3. POST /session-server, with the installation token in the header."
  fault(
    "r3-session-server-takes-api-key",
    "TBD-0",
    "POST /session-server accepts the API key itself in the authentication header in place of the installation token.",
    [],
  ),
  // banking-api.md, Authentication: "4. All other calls send the session token in X-Service-Client-Authentication."
  fault(
    "r3-api-key-accepted-as-session-token",
    "TBD-0",
    "Resource calls accept the API key of a registered device in the authentication header as if it were a session token.",
    [],
  ),
  // wire-conventions.md §7: "Write-only fields (`pin_code`, `activation_code`, `cancellation_reason`, `card_id`) never appear
  // in any response (MUST: write-only)."
  fault(
    "r3-card-read-shows-cancellation-reason",
    "TBD-0",
    "GET /card/{id} shows the cancellation_reason a PUT stored (the list and the PUT answer do not).",
    [],
  ),
  // banking-api.md, Embedded card: "| primary_account_numbers | array of {id (integer), description, status, uuid, four_digit,
  // type (string), monetary_account_id (integer)} |"
  fault(
    "r3-replace-shows-full-card-number",
    "TBD-0",
    "A card replaced through POST /card/{id}/replace shows its whole new 16-digit card number in four_digit (read, list and PUT answer).",
    [],
  ),
  // wire-conventions.md §7: "Batch `POST /user/{u}/card-batch-replace` body `{"cards": [{"id": N, "name_on_card"?,
  // "second_line"?}]}` → `[{"CardBatchReplace": {"updated_card_ids": [{"id": N}]}}]`."
  fault(
    "r3-batch-replace-answers-card-numbers",
    "TBD-0",
    "POST /card-batch-replace answers each updated card with its whole new 16-digit card number beside its id.",
    [],
  ),
  // banking-api.md, Endpoints > Companies: "Company body (write-only fields):"
  fault(
    "r3-company-list-shows-write-only-fields",
    "TBD-0",
    "GET company (the list, not the read) shows the body's write-only fields subscription_type, signup_track_type, avatar_uuid, " +
      "vat_number and vat_numbers on each company.",
    [],
  ),
  // wire-conventions.md §7: "Pinned certificate read form joins the chain's PEM certificates with newlines. A chain entry that
  // is not a PEM certificate → 4XX (CONVENTION)."
  fault(
    "r3-cert-bundle-private-key-shown",
    "TBD-0",
    "A chain entry holding a certificate followed by its private key is pinned whole, so the read form and the list show the private key.",
    [],
  ),
  // banking-api.md, What the service does: "Monetary accounts, payments and OAuth clients are referenced only by numeric id in
  // the endpoints below."
  fault(
    "r3-callback-url-read-embeds-oauth-client",
    "TBD-0",
    "GET callback-url/{itemId} embeds its OAuth client, client_id and client_secret included, beside the url.",
    [],
  ),
  // banking-api.md, Authentication: "4. All other calls send the session token in X-Service-Client-Authentication."
  fault(
    "r3-attachment-url-carries-session-token",
    "TBD-0",
    "GET attachment/{itemId} answers a download url that carries the caller's session token as a query parameter.",
    [],
  ),
] as const;

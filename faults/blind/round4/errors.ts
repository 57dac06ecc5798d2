// Blind round 4 (bug shape: errors): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS, STRICT_ONLY } from "../../fault.js";

export const BLIND4_ERRORS_FAULTS = [
  // banking-api.md, Errors: "| Card list, read and update failures | HTTP 400 |"
  fault(
    "r4-card-list-bad-count-422",
    "CARD-011",
    "GET /card refuses a count that is below 1, above 200 or not an integer with 422 instead of 400 (the read and the PUT " +
      "still answer 400).",
    ["cards"],
  ),
  // wire-conventions.md §6: "Otherwise any 4XX with an error body passes; [...] A 5XX is never a pass."
  fault(
    "r4-company-put-unknown-id-500",
    "ERR-003",
    "PUT company/{itemId} with a valid body for an id that names no company of the user crashes with 500 instead of a 4XX " +
      "(GET company/{itemId} of the same id still answers 404).",
    ["error-bodies"],
    FRESH_USERS,
  ),
  // wire-conventions.md §6: "A path id that is not an integer, or a userID other than the session's user, → 4XX."
  fault(
    "r4-callback-url-list-client-id-nan-empty",
    "ERR-006",
    "GET oauth-client/{oauth-clientID}/callback-url with an oauth-clientID that is not an integer (abc) answers 200 with an " +
      "empty list instead of a 4XX.",
    ["errors"],
  ),
  // banking-api.md, Endpoints > Common request rules: "Bodies are JSON unless stated." (wire-conventions.md §6: "Otherwise any
  // 4XX with an error body passes")
  fault(
    "r4-share-invite-put-malformed-json-ok",
    "ERR-005",
    "PUT share-invite-monetary-account-response/{itemId} with a body that is not valid JSON answers 200 with the share's Id " +
      "and changes nothing, as if the body were empty.",
    ["errors", "error-bodies"],
    STRICT_ONLY,
  ),
  // wire-conventions.md §4: "A call from an IP the key is not bound to → 4XX with error body"; §1: "every 4XX and 5XX has body
  // `{"Error": [{"error_description": string, "error_description_translated": string}, ...]}` with at least one element."
  fault(
    "r4-session-server-refusals-bare-401",
    "ERR-001",
    "POST /session-server refuses a secret that names no device of the installation, or a caller whose address the device is " +
      "not bound to, with 401 and an empty body (no Error object).",
    ["error-bodies"],
  ),
  // wire-conventions.md §6: "A 5XX is never a pass." (§4: POST /device-server body `{"description": string, "secret": API key,
  // ...}`)
  fault(
    "r4-device-server-unknown-key-500",
    "ERR-003",
    "POST /device-server with a secret that is not an API key the server knows crashes with 500 instead of a 4XX.",
    ["error-bodies"],
  ),
  // wire-conventions.md §1: "Errors (CONVENTION): every 4XX and 5XX has body `{"Error": [{"error_description": string,
  // "error_description_translated": string}, ...]}` with at least one element."
  fault(
    "r4-unsupported-method-405-no-body",
    "ERR-007",
    "A method a known path does not have (DELETE company/{itemId}, POST card/{itemId}) answers 405 with an Allow header and an " +
      "empty body; unknown paths still answer 404 with an Error body.",
    ["errors"],
  ),
  // wire-conventions.md §1: "Success (CONVENTION): HTTP 200, `Content-Type: application/json`, body `{"Response": [ ... ]}`."
  // (banking-api.md, Common request rules: "Successful responses are HTTP 200 with application/json.")
  fault(
    "r4-attachment-unknown-id-200-empty",
    "ERR-014",
    "GET attachment/{itemId} of an id that names no attachment of the user answers 200 with an empty body (no JSON, no " +
      "Content-Type) instead of a 4XX.",
    ["errors"],
  ),
  // banking-api.md, Errors: "| Any 4XX response | an error response body |"
  fault(
    "r4-cert-delete-unknown-id-404-no-body",
    "ERR-001",
    "DELETE certificate-pinned/{itemId} of an id that names no chain of the user (never pinned, or already deleted) answers " +
      "404 with an empty body.",
    ["error-bodies"],
    FRESH_USERS,
  ),
  // wire-conventions.md §1: "Errors (CONVENTION): every 4XX and 5XX has body `{"Error": [{"error_description": string,
  // "error_description_translated": string}, ...]}` with at least one element."
  fault(
    "r4-category-error-description-object",
    "ERR-002",
    "POST additional-transaction-information-category-user-defined refuses a body (no status, a non-string field) with 400 " +
      'whose error_description is an object {"field", "message"} instead of a string.',
    ["categories", "error-bodies", "errors"],
  ),
] as const;

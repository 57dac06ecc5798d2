// Blind round 6 (part: auth): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";
import type { VariantSpec } from "../../variant-spec.js";

export const BLIND6_AUTH_FAULTS = [
  // banking-api.md, Common request rules: "| X-Service-Client-Authentication | required | authentication token; required on
  // every call except POST /installation |" (wire-conventions.md §3: "Missing or unknown `X-Service-Client-Authentication` on
  // any call but `POST /installation` → 4XX with error body")
  fault(
    "r6-bearer-token-accepted",
    "AUTH-004",
    "A resource call without X-Service-Client-Authentication is served when it carries the session token as " +
      "'Authorization: Bearer <token>' (added for OAuth access tokens).",
    ["authentication"],
  ),
  // banking-api.md, Common request rules: "| X-Service-Client-Request-Id | optional | id unique for the logged-in user, free
  // format; reusing an id on the same registered device yields an error |"
  fault(
    "r6-request-id-reuse-allowed-on-reads",
    "HDR-002",
    "A GET that reuses an X-Service-Client-Request-Id already used on the device is served (reads are taken as harmless " +
      "retries); reuse on POST, PUT and DELETE is still refused.",
    ["headers"],
  ),
  // wire-conventions.md §3: "`X-Service-Client-Request-Id` reused on the same device → 4XX with error body; the server echoes
  // the request id in the response header of the same name (CONVENTION)."
  fault(
    "r6-request-id-not-echoed-on-lists",
    "HDR-003",
    "Paginated list answers (GET company, card, certificate-pinned, callback-url, share invites, iDEAL) do not echo " +
      "X-Service-Client-Request-Id; item reads and writes do.",
    ["headers"],
  ),
  // banking-api.md, Common request rules: "| User-Agent | required | describes the client; no restriction on value |"
  // (wire-conventions.md §3: "Missing `User-Agent` (MUST: required) → 4XX with error body.")
  fault(
    "r6-user-agent-unchecked-on-attachment-upload",
    "HDR-001",
    "POST monetary-account/{id}/attachment (the raw binary upload) without a User-Agent header is served and stores the " +
      "attachment; every other call without it is refused.",
    ["authentication"],
  ),
  // banking-api.md, Errors: "| Any 4XX response | an error response body |" (wire-conventions.md §4: "A call from an IP the
  // key is not bound to → 4XX with error body")
  fault(
    "r6-ip-refusal-plain-text",
    "AUTH-011",
    "A session call from an address the session's device is not bound to is refused with 400 and a text/plain body " +
      "'Incorrect API key or IP address.' instead of the JSON Error body.",
    ["authentication"],
  ),
  // banking-api.md, Common request rules: "Successful responses are HTTP 200 with application/json."
  fault(
    "r6-device-server-answers-201",
    "AUTH-003",
    "POST /device-server registers the device and answers its Id with HTTP 201 Created instead of 200.",
    ["authentication"],
  ),
  // banking-api.md, Authentication rules: "The user id in every path is the authenticated user's id."
  fault(
    "r6-cert-pin-path-user-unchecked",
    "AUTH-015",
    "POST certificate-pinned pins the chain for any existing user named in the path, not only the session's user (the " +
      "list, read and delete still refuse another user's userID).",
    ["authorisation"],
  ),
  // banking-api.md, Authentication rules: "The device-server call binds the API key to the caller's current IP address. The
  // key cannot be used from other IPs." (Limits: "| IP binding | an API key works only from the IPs given at device
  // registration | all calls made with that key |")
  fault(
    "r6-key-rebinds-with-permitted-ips",
    "AUTH-014",
    "A POST /device-server from an address the API key is not bound to registers a new device when its permitted_ips list " +
      "names that address (the list is taken as the key's new binding); without a list it is still refused.",
    ["authentication"],
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND6_AUTH_VARIANTS = [
  // banking-api.md, Common request rules: "| X-Service-Region | optional | region of the client device; same format as the
  // language header |"
  {
    name: "r6-region-limited-to-supported-languages",
    description:
      "A well-formed X-Service-Region other than en_US or nl_NL (de_DE, fr_BE) is refused with 400, as if the region had to " +
      "be one of the supported languages.",
    allowedBy: "blind round 6: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
  },
  // banking-api.md, Common request rules: "| X-Service-Client-Request-Id | optional | id unique for the logged-in user, free
  // format; reusing an id on the same registered device yields an error |" (spec/gaps.md GAP-79: header names are
  // case-insensitive, every header works in lower case)
  {
    name: "r6-request-id-header-exact-case-only",
    description:
      "X-Service-Client-Request-Id is read only under its exact canonical spelling, so an id sent as " +
      "x-service-client-request-id (as HTTP/2 sends every name) is never remembered, its reuse is served, and it is not echoed.",
    requirements: ["HDR-016"],
    allowedBy: "blind round 6: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
  },
] as const satisfies readonly VariantSpec[];

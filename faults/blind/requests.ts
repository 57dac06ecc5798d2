// Blind round 1 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites were mapped after the first run of the whole suite
// against each (faults/blind-rounds.md).
import { fault } from "../fault.js";

const AUTH = ["authentication"];
const PAGES = ["pagination", "list-sizes"];

export const BLIND_REQUESTS_FAULTS = [
  // wire-conventions §3: "Missing `User-Agent` (MUST: required) → 4XX with error body."
  fault(
    "user-agent-unchecked-on-tokenless-calls",
    "HDR-001",
    "The User-Agent check sits after the early return for calls that need no token, so POST /installation and " +
      "POST /sandbox-user-person without User-Agent are served.",
    ["headers", "error-bodies"],
  ),
  // banking-api.md headers table: "only en_US and nl_NL are supported; anything else defaults to en_US"
  fault(
    "language-without-country-500",
    "HDR-004",
    "X-Service-Language is split at the underscore and its country part upper-cased, so a value without an " +
      "underscore (de, en) crashes every call with 500.",
    ["headers"],
  ),
  // banking-api.md headers table (X-Service-Geolocation): "format: longitude latitude altitude radius country
  // (country is ISO 3166-1 alpha-2); when unknown the header is still sent but may be zero-valued"
  fault(
    "geolocation-negative-refused",
    "HDR-005",
    "The geolocation parser takes unsigned numbers only, so a well-formed header west of Greenwich or south of the " +
      "equator (a minus sign) is refused with 400.",
    ["headers"],
    // The blind readers split on it (certifier OPEN, vendor STATED): legal by default (variant geolocation-unsigned-only).
    { target: "reference-strict" },
  ),
  // wire-conventions §3: "Missing or unknown `X-Service-Client-Authentication` on any call but `POST /installation`
  // → 4XX with error body"
  fault(
    "session-token-prefix-match",
    "AUTH-005",
    "Session tokens are looked up by their first 32 characters, so a tampered token that keeps that prefix is served " +
      "as the session's user.",
    AUTH,
  ),
  // banking-api.md Authentication: "2. POST /device-server with a description and the secret (the API key). The header
  // X-Service-Client-Authentication carries the installation token."
  fault(
    "device-server-accepts-session-token",
    "AUTH-006",
    "POST /device-server also accepts a session token in place of the installation token (the token lookup searches " +
      "the sessions too and uses the session's installation).",
    AUTH,
    // The quote says what the header carries, not that another kind of token is refused: the blind ruling of 2026-11-28
    // found the same sentence of session-server OPEN (AUTH-024). AUTH-006's statement covers it, so it stays caught there.
    { target: "reference-strict" },
  ),
  // banking-api.md Authentication rules: "The device-server call binds the API key to the caller's current IP
  // address. The key cannot be used from other IPs."
  fault(
    "caller-ip-from-forwarded-header",
    "AUTH-011",
    "The caller's address is read from an X-Forwarded-For header when one is sent, so a call from an unbound " +
      "address that names a bound one in that header is served.",
    AUTH,
  ),
  // banking-api.md Authentication rules: "The device-server call binds the API key to the caller's current IP
  // address. The key cannot be used from other IPs."
  fault(
    "session-bound-to-opening-ip",
    "AUTH-011",
    "POST /session-server skips the device's IP check and binds the new session to the address that opened it, " +
      "so the key works from any address through a fresh session.",
    AUTH,
  ),
  // banking-api.md Authentication rules: "The device-server request can carry an array of IP addresses. The caller's
  // current IP must be in the array, otherwise the caller is locked out."
  fault(
    "permitted-ips-empty-binds-caller",
    "AUTH-012",
    "An empty permitted_ips array is read as no array at all (a length check), so the device is registered and the " +
      "key bound to the caller instead of the caller being locked out.",
    AUTH,
  ),
  // wire-conventions §4: "With it, the caller's IP must be in the list, else the call fails and the key is locked
  // out for the caller."
  fault(
    "lockout-skipped-with-permitted-ips",
    "AUTH-012",
    "The lock-out is checked only on registrations without permitted_ips, so a locked-out caller registers the key " +
      "again by naming its own address in permitted_ips.",
    AUTH,
  ),
  // banking-api.md headers table: "id unique for the logged-in user, free format; reusing an id on the same
  // registered device yields an error"
  fault(
    "request-id-recorded-on-success-only",
    "HDR-002",
    "A request id is remembered only when its call answered 200, so an id first used on a refused call can be used again.",
    ["headers"],
  ),
  // banking-api.md headers table: "id unique for the logged-in user, free format; reusing an id on the same
  // registered device yields an error"
  fault(
    "request-id-scoped-per-path",
    "HDR-002",
    "Used request ids are remembered per device and path (idempotency keys), so an id reused on another endpoint is served.",
    ["headers"],
  ),
  // banking-api.md Authentication rules: "The user id in every path is the authenticated user's id."
  fault(
    "path-user-zero-means-self",
    "AUTH-022",
    "The path's userID is read as `userID || session user`, so /user/0/... is served as the session's user.",
    ["authorisation"],
  ),
  // wire-conventions §1: "Errors (CONVENTION): every 4XX and 5XX has body `{"Error": [{"error_description": string,
  // "error_description_translated": string}, ...]}` with at least one element."
  fault(
    "error-401-without-translated",
    "ERR-002",
    "401 answers come from a separate authentication filter that writes error_description only, no error_description_translated.",
    ["authentication", "error-bodies"],
  ),
  // wire-conventions §5: "Following `older_url` from the first page, or `newer_url` from the oldest page, visits
  // every item exactly once."
  fault(
    "page-newer-page-skips-ahead",
    "PAGE-016",
    "A page reached with newer_id holds the newest count items above the cursor (the no-cursor slice copied), not " +
      "the next ones, so a walk towards newer items skips some.",
    PAGES,
  ),
  // wire-conventions §5: "`older_url` is null when no item with a smaller id exists."
  fault(
    "page-older-url-when-page-full",
    "PAGE-011",
    "Whether older items exist is guessed from a full page, so a list of exactly count items, or an oldest page " +
      "that is full, carries an older_url that leads to an empty page.",
    PAGES,
  ),
  // wire-conventions §5: "`count` below 1 or not an integer → 4XX (CONVENTION)."
  fault(
    "page-count-parseint",
    "PAGE-007",
    "count is read with parseInt, so a count that is not an integer (2.5, 10abc) is served as its leading digits.",
    PAGES,
  ),
  // banking-api.md Pagination rules: "Each is a relative URL under /v1 (keeping count) or null."
  fault(
    "page-links-without-version",
    "PAGE-013",
    "Pagination links are built from the path as the versioned router sees it, so they start /user/ instead of /v1/user/.",
    PAGES,
  ),
  // banking-api.md Pagination rules: "A list response includes a Pagination object with future_url, newer_url and
  // older_url."
  fault("page-empty-list-no-pagination", "PAGE-020", 'A list with no items answers {"Response": []} without a Pagination object.', PAGES),
  // wire-conventions §4: "A body that is not a PEM RSA public key → 4XX."
  fault(
    "installation-accepts-ec-key",
    "AUTH-002",
    "POST /installation checks only that client_public_key parses as a PEM public key, so an EC key is installed.",
    AUTH,
  ),
  // wire-conventions §4: "Test users (CONVENTION, optional per target): `POST /sandbox-user-person`, no auth header,
  // empty body → `[{"ApiKey": {"api_key": string}}]`, a fresh user with fresh data."
  fault(
    "sandbox-user-body-required",
    "AUTH-017",
    "POST /sandbox-user-person reads its body with the shared JSON-object helper, so the empty body is refused with 400.",
    AUTH,
  ),
] as const;

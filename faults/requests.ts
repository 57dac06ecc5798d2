// The faults of the request layers every call passes through: the common request rules (reference/auth-hook.ts),
// the error answers (reference/errors.ts), pagination (reference/pagination.ts), signing (reference/signing.ts) and
// encryption (reference/encryption.ts). The reference switches each at a named seam of that file.
import { fault } from "./fault.js";

const AUTH_AND_HEADERS = ["authentication", "headers"];

/** Faults whose behaviour a blind ruling made a legal reading (LENIENT): they fail only the strict profile. */
const STRICT = "reference-strict";

/** Faults of the common request rules (headers, tokens, IP binding, request ids, the path's user). */
export const AUTH_HOOK_FAULTS = [
  fault("user-agent-not-required", "HDR-001", "Requests without User-Agent are served.", ["headers"]),
  fault("cache-control-required", "HDR-008", "Requests without Cache-Control are refused.", ["headers"]),
  fault("user-agent-format-checked", "HDR-010", "A User-Agent that is not of the form product/version is refused.", ["headers"]),
  fault("geolocation-required", "HDR-011", "Requests without X-Service-Geolocation are refused.", ["headers"], { target: STRICT }),
  fault("zero-geolocation-rejected", "HDR-005", "A zero-valued geolocation header is refused.", ["headers"]),
  fault("nl-language-rejected", "HDR-006", "X-Service-Language nl_NL is refused.", ["headers"]),
  fault("region-rejected", "HDR-007", "Any X-Service-Region header is refused.", ["headers"]),
  fault("unsupported-language-rejected", "HDR-004", "A language other than en_US/nl_NL is refused instead of falling back to en_US.", [
    "headers",
  ]),
  fault("request-id-reuse-allowed", "HDR-002", "A reused X-Service-Client-Request-Id is served again.", ["headers"]),
  fault(
    "request-id-reuse-checked-on-installation-token-only",
    "HDR-002",
    "Request-id reuse is refused on device-server/session-server calls but forgotten on resource calls.",
    ["headers"],
  ),
  fault(
    "request-id-scoped-per-session",
    "HDR-002",
    "Used request ids are remembered per session token, so a new session on the same device may reuse them.",
    ["headers"],
  ),
  fault("request-id-not-echoed", "HDR-003", "The request id is not echoed in the response headers.", ["headers"]),
  fault(
    "auth-header-not-required",
    "AUTH-004",
    "Resource calls without X-Service-Client-Authentication are served as the path's user.",
    AUTH_AND_HEADERS,
  ),
  fault("unknown-token-accepted", "AUTH-005", "An unknown token is served as the path's user.", AUTH_AND_HEADERS),
  fault("installation-token-accepted-for-resources", "AUTH-009", "The installation token works on resource calls.", AUTH_AND_HEADERS, {
    target: STRICT,
  }),
  fault(
    "device-server-without-installation",
    "AUTH-006",
    "POST /device-server without a valid installation token registers the device on a new, implicit installation.",
    ["authentication"],
  ),
  fault("ip-binding-ignored", "AUTH-011", "A session token works from any address.", AUTH_AND_HEADERS),
  fault(
    "ip-binding-checked-on-get-only",
    "AUTH-011",
    "The IP binding is checked on GET calls only: writes from an unbound address are served.",
    ["authentication"],
  ),
  fault(
    "auth-header-exact-case-only",
    "HDR-016",
    "The token is read from the raw headers under its exact canonical spelling, so a lower-case or " +
      "mixed-case header name counts as missing.",
    ["headers"],
    { target: STRICT },
  ),
  fault("language-ignored", "HDR-017", "X-Service-Language is ignored: error_description_translated is always the en_US text.", [
    "headers",
  ]),
  fault("request-id-echoed-on-success-only", "HDR-003", "The request id is echoed on 200 answers only, not on refusals.", ["headers"]),
  fault("request-ids-global", "HDR-018", "Used request ids are remembered server-wide, so an id another user already used is refused.", [
    "headers",
  ]),
  fault(
    "session-server-accepts-session-token",
    "AUTH-024",
    "POST /session-server also accepts a session token in place of the installation token (the token lookup searches both tables).",
    ["authentication"],
    { target: STRICT },
  ),
  fault(
    "request-ids-session-calls-only",
    "HDR-015",
    "Request ids are remembered on calls made with a session token only: a reused id on POST /session-server is served.",
    ["headers"],
  ),
  fault(
    "unknown-user-empty-list",
    "AUTH-022",
    "A list GET whose userID names no user answers 200 with an empty list (the user check compares only existing users).",
    ["authorisation"],
  ),
  fault(
    "path-user-unchecked-on-writes",
    "AUTH-015",
    "POST, PUT and DELETE trust the userID of the path (the user check is made on GET routes only).",
    ["authorisation"],
  ),
  fault(
    "foreign-write-applied-then-refused",
    "AUTH-023",
    "A write on another user's userID is carried out, and only the answer is turned into a 403 " +
      "afterwards (the check runs in a response filter).",
    ["authorisation"],
  ),
] as const;

/** Faults of the error envelope and the error handlers. */
export const ERROR_FAULTS = [
  fault("error-body-missing", "ERR-001", "4XX answers carry an empty body.", ["authentication", "headers", "errors", "error-bodies"]),
  fault("error-body-wrong-shape", "ERR-002", 'Error bodies are {"error": "..."} instead of {"Error": [...]}.', [
    "authentication",
    "headers",
    "errors",
    "error-bodies",
  ]),
  fault("empty-json-body-500", "ERR-003", "A JSON request with an empty body crashes the handler (500) instead of being refused.", [
    "errors",
    "error-bodies",
  ]),
  fault("created-as-epoch", "ERR-012", "Every created timestamp is sent as an epoch number instead of a string.", ["envelope"]),
  fault("malformed-json-500", "ERR-005", "A malformed JSON body crashes the handler (500).", ["errors", "error-bodies"]),
  fault("non-integer-id-500", "ERR-006", "A non-integer path id crashes the handler (500).", ["errors", "error-bodies"]),
  fault(
    "unsupported-language-dutch",
    "HDR-004",
    "Error texts asked for in a language other than en_US or nl_NL are translated into Dutch instead of falling back to en_US.",
    ["headers"],
  ),
  fault("unknown-route-plain-text", "ERR-007", "Unknown paths answer 404 with a plain-text body.", ["errors", "error-bodies"]),
  fault(
    "error-echoes-request-body",
    "ERR-016",
    "A refused POST or PUT quotes the JSON body it received in the error text (a debugging aid left on), write-only values included.",
    ["errors"],
  ),
  fault(
    "list-delete-answers-ok",
    "ERR-007",
    "DELETE on the company list path (a method it does not have) answers 200 with an empty Response: a " +
      "catch-all route left from scaffolding.",
    ["errors"],
  ),
] as const;

const PAGINATION = ["pagination", "list-sizes"];

/** Careless list implementations, one rule each (spec: Limits > Pagination rules; wire conventions §5). */
export const PAGINATION_FAULTS = [
  fault("pagination-inside-response", "PAGE-002", "Lists put Pagination inside the Response array instead of beside it.", PAGINATION),
  fault(
    "page-null-links-omitted",
    "PAGE-001",
    "Pagination leaves out the links that are null instead of sending them as null.",
    PAGINATION,
  ),
  fault("page-default-count-20", "PAGE-003", "A list request without count answers 20 items instead of 10.", PAGINATION),
  fault("page-count-off-by-one", "PAGE-004", "A list request with count N answers N+1 items when more exist.", PAGINATION),
  fault("page-count-200-refused", "PAGE-005", "count 200 is refused: the cap check is count >= 200 instead of count > 200.", PAGINATION),
  fault(
    "page-count-cap-ignored",
    "PAGE-006",
    "count above 200 is accepted and honoured, so a page can hold more than 200 items.",
    PAGINATION,
  ),
  fault("page-count-zero-accepted", "PAGE-007", "count 0 is accepted and read as the default page size.", PAGINATION),
  fault(
    "page-newer-id-off-by-one",
    "PAGE-008",
    "newer_id in newer_url and future_url is the greatest id on the page plus one.",
    PAGINATION,
  ),
  fault(
    "page-descending-cursors-swapped",
    "PAGE-008",
    "Pages descend by id and newer_id is taken from the page's last item (its smallest id), older_id from its first.",
    PAGINATION,
  ),
  fault("page-older-id-off-by-one", "PAGE-009", "older_id in older_url is the smallest id on the page minus one.", PAGINATION),
  fault("page-newer-url-at-end", "PAGE-010", "newer_url is set on the newest page too, although no item has a greater id.", PAGINATION),
  fault("page-older-url-at-end", "PAGE-011", "older_url is set on the oldest page too, although no item has a smaller id.", PAGINATION),
  fault(
    "page-oldest-first",
    "PAGE-012",
    "A list request without a cursor answers the oldest count items instead of the newest.",
    PAGINATION,
  ),
  fault("page-links-absolute", "PAGE-013", "Pagination links are absolute URLs (scheme and host) instead of relative ones.", PAGINATION),
  fault(
    "page-links-route-pattern",
    "PAGE-014",
    "Pagination links name the route pattern (/v1/user/:userID/...) instead of the requested path.",
    PAGINATION,
  ),
  fault("page-links-drop-count", "PAGE-015", "Pagination links leave out the count the request sent.", PAGINATION),
  fault(
    "page-older-id-inclusive",
    "PAGE-016",
    "older_id is read as inclusive, so the next older page repeats the boundary item.",
    PAGINATION,
  ),
  fault(
    "page-older-url-first-page-only",
    "PAGE-016",
    "older_url is only given on the first page (no cursor), so a walk to older pages stops after the second page.",
    PAGINATION,
  ),
  fault("page-future-url-smallest-id", "PAGE-017", "future_url carries the smallest id on the page as newer_id.", PAGINATION),
  fault(
    "page-unsorted-two-sources",
    "PAGE-019",
    "A page is stitched from two halves, the newer half first, so its items are in no id order.",
    PAGINATION,
  ),
  fault("page-empty-list-links", "PAGE-020", "An empty list answers newer_url and older_url pointing at id 0 instead of null.", PAGINATION),
  fault(
    "page-cursor-count-ignored",
    "PAGE-004",
    "With newer_id or older_id present, count is ignored and the page holds the default 10 items.",
    PAGINATION,
  ),
  fault(
    "page-newer-id-refused",
    "PAGE-021",
    "Only older_id is implemented: a request with newer_id (newer_url, future_url) is refused.",
    PAGINATION,
  ),
  fault(
    "page-count-ignored-share-invites",
    "PAGE-004",
    "The share-invite list (an older code path) ignores count and always answers the default 10 items.",
    PAGINATION,
  ),
  fault("page-default-count-callback-urls", "PAGE-003", "The callback-URL list defaults to 25 items per page instead of 10.", PAGINATION),
  fault(
    "page-cap-missing-certificates",
    "PAGE-005",
    "The pinned-certificate list has no cap: a count above 200 is honoured, so a page holds more than 200 items.",
    PAGINATION,
  ),
  fault(
    "page-links-drop-count-on-cursor-pages",
    "PAGE-015",
    "Links keep count on the first page only: a page reached with newer_id or older_id links on without count.",
    PAGINATION,
  ),
  fault(
    "page-future-url-from-snapshot",
    "PAGE-018",
    "future_url carries refresh=1, and a refresh is served from the listing's snapshot, so items created after the listing never show.",
    PAGINATION,
  ),
] as const;

const SIGNATURES = ["signatures"];

const SIGNED_TARGET = "reference-signed";

/**
 * Request signatures on session-server are LENIENT (blind ruling 2026-11-28): their faults fail only a profile that
 * both signs and is strict (targets.yaml: reference-signed-strict).
 */
const SIGNED_STRICT = "reference-signed-strict";

/** Faults of request and response signing (they show only where the profile signs: target reference-signed). */
export const SIGNING_FAULTS = [
  fault(
    "server-signs-other-body",
    "HDR-012",
    "The server signature is made over the body re-serialised with indentation, not over the compact bytes sent.",
    SIGNATURES,
    { target: SIGNED_TARGET },
  ),
  fault("error-answers-unsigned", "HDR-012", "Only success answers are signed: 4XX answers carry no Server-Signature.", SIGNATURES, {
    target: SIGNED_TARGET,
  }),
  fault("request-signature-not-required", "HDR-013", "POST /session-server without a Client-Signature is served.", SIGNATURES, {
    target: SIGNED_STRICT,
  }),
  fault(
    "tampered-request-signature-accepted",
    "HDR-014",
    "A Client-Signature is only checked for presence: a tampered one (or one over another body) is accepted.",
    SIGNATURES,
    { target: SIGNED_STRICT },
  ),
  fault(
    "request-signature-any-installed-key",
    "HDR-014",
    "A Client-Signature is accepted when it verifies under the key of any installation, not only the caller's.",
    SIGNATURES,
    { target: SIGNED_STRICT },
  ),
] as const;

const PIN = ["pin-code"];

/**
 * Faults of request encryption and the card PUT's pin rule. CARD-029 to CARD-031 are LENIENT since the blind ruling of
 * 2026-11-28 (a plaintext pin may be accepted, an encrypted request refused, a wrong HMAC accepted): their faults fail
 * the strict profile only.
 */
export const ENCRYPTION_FAULTS = [
  fault(
    "encryption-hmac-not-checked",
    "CARD-031",
    "An encrypted request is decrypted without comparing its HMAC, so a wrong HMAC is accepted.",
    PIN,
    { target: STRICT },
  ),
  fault(
    "encryption-hmac-optional",
    "CARD-031",
    "The HMAC is compared only when the Hmac header is sent: an encrypted request without it is accepted.",
    PIN,
    { target: STRICT },
  ),
  fault(
    "encryption-hmac-without-iv",
    "CARD-031",
    "The server computes the HMAC over the encrypted body alone, without the IV in front: a correct " +
      "request is refused, one whose HMAC leaves the IV out is accepted.",
    PIN,
    { target: STRICT },
  ),
  fault(
    "encryption-not-supported",
    "CARD-030",
    "The encryption headers are ignored: an encrypted body is parsed as plain JSON and refused as malformed.",
    PIN,
    { target: STRICT },
  ),
  fault("pin-code-plaintext-accepted", "CARD-029", "PUT /card/{id} stores a pin_code sent in plaintext.", PIN, { target: STRICT }),
  fault(
    "pin-code-checked-when-alone",
    "CARD-029",
    "The encryption check sits in the set-the-PIN branch taken only when pin_code is the only field: a " +
      "plaintext pin_code next to second_line is stored.",
    PIN,
    { target: STRICT },
  ),
  fault(
    "pin-refusal-after-update",
    "CARD-029",
    "The plaintext pin is refused with 400 only after the other fields of the body (second_line) were applied.",
    PIN,
    { target: STRICT },
  ),
  fault("pin-code-in-error-body", "CARD-032", "The refusal of a plaintext pin quotes the pin in its error text.", PIN),
  fault("card-read-shows-pin-code", "CARD-032", "GET /card/{id} shows the pin_code an encrypted PUT stored.", PIN),
] as const;

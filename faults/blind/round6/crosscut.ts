// Blind round 6 (part: crosscut): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS } from "../../fault.js";

export const BLIND6_CROSSCUT_FAULTS = [
  // wire-conventions.md, §5 Pagination: "Links are relative, start with `/v1/`, name the same list path, and keep `count` when
  // the request sent it."
  fault(
    "r6-cert-list-links-double-version",
    "PAGE-014",
    "GET certificate-pinned (the list) writes its pagination links with the version prefix twice (/v1/v1/user/{u}/certificate-pinned?…), " +
      "so following newer_url, older_url or future_url answers 404; the other lists link correctly.",
    ["pagination", "list-sizes"],
  ),
  // banking-api.md, Limits > Pagination rules: "A list response includes a Pagination object with future_url, newer_url and
  // older_url. Each is a relative URL under /v1 (keeping count) or null."
  fault(
    "r6-callback-url-future-url-drops-count",
    "PAGE-015",
    "GET oauth-client/{id}/callback-url (the list) writes future_url without the count the request sent (newer_url and older_url " +
      "keep it), so a refresh through future_url answers pages of the default 10.",
    ["pagination"],
  ),
  // wire-conventions.md, §5 Pagination: "Links are relative, start with `/v1/`, name the same list path, and keep `count` when
  // the request sent it."
  fault(
    "r6-company-list-links-count-from-page",
    "PAGE-015",
    "GET company (the list) writes into its links, as count, the number of companies on the page just answered rather than the " +
      "count the request sent, so after a short page (the oldest) the next page it links to is short too.",
    ["pagination"],
  ),
  // wire-conventions.md, §5 Pagination: "`future_url` (LENIENT): null, or a link with `newer_id` = greatest id on the page"; and
  // banking-api.md, Limits > Pagination rules: "future_url uses newer_id and is used to refresh the list and find items created
  // after the listing."
  fault(
    "r6-card-list-future-url-without-cursor",
    "PAGE-017",
    "GET /card writes future_url as the list's own path (keeping count) without any newer_id, so a refresh reloads the newest page " +
      "instead of asking for the cards newer than the page.",
    ["pagination"],
  ),
  // wire-conventions.md, §5 Pagination: "`count` below 1 or not an integer → 4XX (CONVENTION)."
  fault(
    "r6-share-invite-negative-count-all",
    "PAGE-007",
    "GET share-invite-monetary-account-response takes a negative count (count=-1) as 'no limit' and answers every share of the " +
      "user on one page (links without count) instead of refusing it; the other lists refuse it with 400.",
    ["pagination"],
  ),
  // wire-conventions.md, §5 Pagination: "Links are relative, start with `/v1/`, name the same list path, and keep `count` when
  // the request sent it."
  fault(
    "r6-ideal-list-links-first-account",
    "PAGE-014",
    "GET monetary-account/{m}/ideal-merchant-transaction (the list) builds its pagination links on the user's first monetary " +
      "account, so on the list of any other account of the user newer_url, older_url and future_url page through the first " +
      "account's transactions.",
    ["pagination"],
    FRESH_USERS,
  ),
  // wire-conventions.md, §1 Envelope: "Errors (CONVENTION): every 4XX and 5XX has body `{"Error": [{"error_description": string,
  // "error_description_translated": string}, ...]}` with at least one element."
  fault(
    "r6-attachment-unsupported-type-framework-415",
    "ATT-003",
    "An attachment upload whose Content-Type is not an accepted file type is refused with 415 and the web framework's own body " +
      '{"statusCode": 415, "code": …, "error": "Unsupported Media Type", "message": …} instead of an Error object.',
    ["attachments", "errors"],
  ),
  // wire-conventions.md, §1 Envelope: "Errors (CONVENTION): every 4XX and 5XX has body `{"Error": [{"error_description": string,
  // "error_description_translated": string}, ...]}` with at least one element."
  fault(
    "r6-challenge-errors-object",
    "ERR-002",
    "The challenge-request routes (GET and PUT) answer their refusals (unknown id, status outside the two answers, malformed body) " +
      'as {"Error": {"error_description": …, "error_description_translated": …}}: Error one object instead of an array of them.',
    ["challenge-requests", "error-bodies"],
  ),
  // banking-api.md, Endpoints > Common request rules: "| X-Service-Client-Request-Id | optional | id unique for the logged-in
  // user, free format; reusing an id on the same registered device yields an error |"
  fault(
    "r6-request-id-unchecked-on-reads",
    "HDR-002",
    "X-Service-Client-Request-Id is remembered and checked on POST, PUT and DELETE only (an idempotency key for writes): a GET that " +
      "reuses an id already used on the device is served, and an id first sent on a GET can be sent again on any call.",
    ["headers"],
  ),
  // banking-api.md, Errors: "| Success | HTTP 200 |"; Endpoints > Common request rules: "Successful responses are HTTP 200 with
  // application/json."
  fault(
    "r6-batch-replace-answers-202",
    "REPL-008",
    "POST card-batch-replace replaces the cards and answers its CardBatchReplace body with HTTP 202 Accepted instead of 200 " +
      "(the batch is taken for a queued job); the single replace answers 200.",
    ["card-replacement"],
  ),
] as const;

// The cross-cutting legal variants: envelope, ids, pagination links, transport, auth, and a few of resources that
// were declared here first (the order of `conformance variants` keeps them here). The reference switches them in
// reference/variants.ts (answer rewrites, transport), reference/state.ts (numbering) and the modules concerned.
import { VARIANT_SCOPE, type VariantSpec } from "./variant-spec.js";

/** Cross-cutting legal variants (what a variant is: variant-spec.ts), switched with ctx.variants.on(name). */
export const VARIANTS = [
  {
    name: "ids-large",
    description: "Ids start just below 2^31 and pass it during a run.",
    allowedBy: "Resources: ids are integers, no range is given",
  },
  {
    name: "ids-per-user",
    description: "Each user's items are numbered from 1, so two users hold items with the same id.",
    allowedBy: "GAP-70",
  },
  {
    name: "challenge-fields-minimal",
    suites: VARIANT_SCOPE.challenges,
    description: "A challenge request is answered as {id, status} only.",
    allowedBy: "GAP-06, conventions §2",
  },
  {
    name: "announcements-same-for-everyone",
    suites: VARIANT_SCOPE.announcements,
    description: "Every user gets the same announcements, identical to the byte (one shared avatar per announcement).",
    allowedBy: "GAP-70 (every user may get the same announcements)",
  },
  {
    name: "tokens-base64url",
    description: "Tokens are 43 base64url characters instead of 64 hex digits.",
    allowedBy: "conventions §4 (a token is a string)",
  },
  {
    name: "session-user-api-key",
    description: "POST /session-server answers the user as UserApiKey instead of UserPerson.",
    allowedBy: "conventions §4",
  },
  {
    name: "other-4xx-statuses",
    description: "Refusals whose status the specification does not fix use other 4XX codes (422, 403, 404, 410).",
    allowedBy: "conventions §6",
    requirements: ["ERR-005", "ERR-006", "ERR-007", "ERR-014"],
  },
  {
    name: "4xx-per-endpoint",
    description:
      "Refusal statuses differ per endpoint and reason: an unknown id is 404 on companies, 410 on " +
      "certificates and callback URLs, 403 on share invites and announcements; a bad body 422 (409 on share " +
      "invites); an unknown method on a known path 405 with Allow; a non-integer path id and another user's userID 404.",
    allowedBy: "conventions §6 (any 4XX where the specification fixes none)",
    requirements: ["ERR-005", "ERR-006", "ERR-007", "ERR-014"],
  },
  {
    name: "4xx-per-endpoint-mirror",
    description:
      "Other statuses per endpoint: an unknown id is 400 on companies, callback URLs and challenge " +
      "requests, 410 on attachments; a bad callback-URL or iDEAL body 422; a non-integer path id 422; another " +
      "user's userID 401; an unknown path 400 and an unknown method 404.",
    allowedBy: "conventions §6 (any 4XX where the specification fixes none)",
    requirements: ["ERR-005", "ERR-006", "ERR-007", "ERR-014"],
  },
  {
    name: "errors-two-elements",
    description: "Error bodies carry two elements, the second with more detail.",
    allowedBy: "conventions §1 (at least one element)",
  },
  {
    name: "extra-fields",
    description: "Every object in an answer carries an extra field, and answers carry an extra header.",
    allowedBy: "schemas: servers may add fields",
  },
  {
    name: "card-type-key-debit",
    suites: VARIANT_SCOPE.cards,
    description: "Cards are answered under the type key CardDebit.",
    allowedBy: "conventions §2",
    requirements: ["CARD-003"],
  },
  {
    name: "timestamps-iso-8601",
    description: "Timestamps are ISO 8601 (2026-11-22T07:38:35.106000Z) instead of the provider's form.",
    allowedBy: "conventions §2 (form checked only with strict)",
    requirements: ["ERR-013"],
  },
  {
    name: "pages-descending",
    description: "Items within a page descend by id (the provider's order).",
    allowedBy: "conventions §5 (LENIENT)",
    requirements: ["PAGE-019"],
  },
  {
    name: "count-over-200-clamped",
    description: "A count above 200 answers at most 200 items instead of a 4XX.",
    allowedBy: "conventions §5 (LENIENT)",
    requirements: ["PAGE-006"],
  },
  {
    name: "future-url-null",
    description: "future_url is always null.",
    allowedBy: "conventions §5 (LENIENT)",
    requirements: ["PAGE-017"],
  },
  {
    name: "future-url-every-page",
    description: "Every non-empty page carries future_url with newer_id = the page's greatest id.",
    allowedBy: "conventions §5 (LENIENT)",
    requirements: ["PAGE-017"],
  },
  {
    name: "share-answered-moves-refused",
    suites: VARIANT_SCOPE.shares,
    description: "A share already answered (REJECTED, REVOKED) cannot be moved again, nor an ACTIVE one rejected: 400.",
    allowedBy: "GAP-71",
  },
  {
    name: "sparse-optional-fields",
    suites: VARIANT_SCOPE.announcementsAndAttachments,
    description: "Announcements carry only their title; attachments leave out created, updated and urls.",
    allowedBy: "GAP-72",
  },
  {
    name: "put-answers-object",
    description: "PUT on a company, share invite or callback URL answers the updated object instead of its Id.",
    allowedBy: "conventions §1 (LENIENT)",
    requirements: ["ERR-011"],
  },
  {
    name: "delete-answers-empty-object",
    description: 'DELETE answers {} instead of {"Response": []}.',
    allowedBy: "conventions §1 (LENIENT)",
    requirements: ["ERR-010"],
  },
  {
    name: "delete-answers-typed-element",
    description: 'DELETE answers {"Response": [{"<Type>Delete": {}}]}.',
    allowedBy: "conventions §1 (LENIENT); spec: OauthCallbackUrlDelete",
    requirements: ["ERR-010"],
  },
  {
    name: "attachment-read-typed",
    suites: VARIANT_SCOPE.attachments,
    description: "GET of an attachment labels its JSON answer with the attachment's own content type.",
    allowedBy: "conventions §7 (LENIENT)",
    requirements: ["ATT-007"],
  },
  {
    name: "auth-elements-reordered",
    description: "POST /installation and /session-server list their Response elements in another order (Token first).",
    allowedBy: "conventions §4 (elements are found by type key)",
  },
  {
    name: "page-links-always-count",
    description: "Pagination links carry count=10 even when the request sent no count.",
    allowedBy: "conventions §5 (links keep count when sent; more is not forbidden)",
  },
  {
    name: "page-links-params-swapped",
    description: "Pagination links put the cursor before count (?older_id=5&count=3).",
    allowedBy: "RFC 3986 (query parameter order carries no meaning here)",
  },
  {
    name: "json-pretty",
    description: "JSON answers are pretty-printed (indented, one field per line).",
    allowedBy: "RFC 8259 (insignificant whitespace)",
  },
  {
    name: "json-charset",
    description: "JSON answers are labelled application/json; charset=utf-8.",
    allowedBy: "RFC 8259 (a media type parameter)",
  },
  { name: "chunked-answers", description: "Answers are streamed (Transfer-Encoding: chunked, no Content-Length).", allowedBy: "HTTP/1.1" },
  {
    name: "primary-without-cards",
    description: "The primary user holds no card (the target's fixtures give none).",
    allowedBy: "GAP-01 (fixture missing: not run, never failed)",
  },
  {
    name: "error-text-names-request",
    description: "Error texts end with the request's Client-Request-Id (a trace reference), in every language.",
    allowedBy: "conventions §1 (error_description is a string), §3 (translated equals the en_US text)",
  },
  {
    name: "card-read-arrays-sorted",
    suites: VARIANT_SCOPE.cards,
    description: "GET /card/{id} answers country_permission sorted by country; the list keeps insertion order (cards carry NL and BE).",
    allowedBy: "spec: country_permission is an array; no order is given",
  },
  {
    name: "replace-issues-new-card",
    suites: VARIANT_SCOPE.replacement,
    description:
      "A replacement is a new card (new id, new number, same expiry); replace answers the new card's Id, batch lists the ids sent.",
    allowedBy: "GAP-29 (old or new card's id is open); conventions §7",
  },
  {
    name: "card-country-permission-merged",
    suites: VARIANT_SCOPE.cards,
    description: "PUT country_permission grants the countries sent in addition to those the card has.",
    allowedBy: "GAP-26 (field semantics not listed)",
    requirements: ["CARD-026"],
  },
  {
    name: "card-fallback-null",
    suites: VARIANT_SCOPE.cards,
    description: "A card without a fallback shows monetary_account_id_fallback: null instead of leaving it out.",
    allowedBy: "GAP-27 (removed reads as absent or null); CARD-022",
  },
  {
    name: "company-provider-body-rules",
    suites: VARIANT_SCOPE.companies,
    description:
      "POST company without address_main and address_postal (the provider's rule), or with a " +
      "subscription_type other than COMPANY_V2 (a closed list), is refused with 400.",
    allowedBy: "GAP-65 (allowed values not shown); COMP-008 (LENIENT)",
    requirements: ["COMP-008"],
  },
  {
    name: "ids-per-user-per-resource",
    description:
      "Each user's items are numbered from 1 in each resource (company 1, certificate 1, ...), and every " +
      "user's monetary accounts are 1 and 2.",
    allowedBy: "GAP-70",
  },
  {
    name: "sandbox-data-varies",
    description: "The second user created holds 18 companies instead of 12 (users' data differ).",
    allowedBy: "conventions §4 (fresh data; contents not fixed)",
  },
  { name: "connection-close", description: "Every answer closes its connection (no keep-alive).", allowedBy: "HTTP/1.1" },
] as const satisfies readonly VariantSpec[];

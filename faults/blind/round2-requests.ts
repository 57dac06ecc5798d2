// Blind round 2 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites are mapped after the first run.
import { fault, STRICT_ONLY } from "../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../variant-spec.js";

/** Faults that show only where the profile turns response signing on. */
const SIGNED = { target: "reference-signed" };

export const BLIND2_REQUESTS_FAULTS = [
  // banking-api.md, Limits > Pagination rules: "older_url uses older_id, the id of the first item of the current page,
  // and fetches the previous page."
  fault(
    "page-links-count-undefined",
    "PAGE-021",
    "The link template always writes count, so a list requested without count links count=undefined, and following " +
      "newer_url or older_url is refused with 400.",
    ["companies", "ideal", "share-invites"],
  ),
  // wire-conventions §5: "Following `older_url` from the first page, or `newer_url` from the oldest page, visits every
  // item exactly once."
  fault(
    "page-older-page-skips-back",
    "PAGE-003",
    "A page reached with older_id holds the oldest count items below the cursor instead of the ones just below it, so " +
      "a walk towards older items skips some.",
    ["list-sizes", "pagination"],
  ),
  // banking-api.md, Limits: "| maximum count | 200 | the count query parameter of list requests |"
  fault(
    "page-count-clamped-100",
    "PAGE-003",
    "count between 101 and 200 is accepted but the page is silently cut at 100 items (an older cap left in place).",
    ["pagination"],
  ),
  // banking-api.md, Common request rules: "Successful responses are HTTP 200 with application/json."
  fault(
    "list-answers-text-plain",
    "PAGE-001",
    "List answers (those with a Pagination object) carry Content-Type text/plain; charset=utf-8 instead of application/json.",
    ["pagination"],
  ),
  // wire-conventions §6: "Otherwise any 4XX with an error body passes; the provider uses ... 405 method not allowed"
  fault(
    "patch-served-as-put",
    "ERR-007",
    "PATCH, a method no endpoint has, is served on every path that has PUT, as that PUT (a partial-update alias).",
    ["error-bodies"],
    STRICT_ONLY,
  ),
  // wire-conventions §3: "Request signing: ... (RSA PKCS#1 v1.5, SHA-256 over the exact body bytes, base64, header
  // `X-Service-Client-Signature`)."
  fault(
    "server-signature-sha1",
    "HDR-012",
    "The Server-Signature of responses is made with SHA-1 instead of SHA-256, so it does not verify as RSA-SHA256.",
    ["signatures"],
    SIGNED,
  ),
  // banking-api.md, Errors: "| Card list, read and update failures | HTTP 400 |"
  fault(
    "encryption-key-unseal-500",
    "CARD-031",
    "An encrypted request whose sealed key is longer than the server's RSA key crashes the body hook: the card PUT " +
      "answers 500 instead of 400.",
    ["pin-code"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND2_REQUESTS_VARIANTS = [
  // banking-api.md, Limits > Pagination rules: "older_url uses older_id, the id of the first item of the current page,
  // and fetches the previous page."
  {
    name: "page-cursor-by-position",
    description:
      "older_id is looked up by position in the list, so when the cursor item was deleted meanwhile the older page " +
      "repeats the newest items instead of the ones below the cursor.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
  },
  // banking-api.md, Common request rules: "Bodies are JSON unless stated."
  {
    name: "json-charset-body-unparsed",
    description:
      'A JSON body labelled "application/json; charset=utf-8" is not parsed as JSON, so the write is refused as not a JSON object.',
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
  },
  // banking-api.md, Versioning: "Every endpoint path carries the version prefix /v1."
  {
    name: "auth-calls-unversioned",
    description: "POST /installation, /device-server and /session-server are also served without the /v1 prefix.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.versioning,
  },
] as const satisfies readonly VariantSpec[];

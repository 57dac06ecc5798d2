// Blind round 3 (bug shape: lists): faults written by an author who read only spec/, reference/ and faults/.
import { fault, FRESH_USERS } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND3_LISTS_FAULTS = [
  // banking-api.md, Limits > Pagination rules: "newer_url uses newer_id, the id of the last item of the current page, and
  // fetches the next page. It is null when no next page exists."
  fault(
    "r3-card-list-no-newer-url-after-older",
    "PAGE-016",
    "GET /card leaves newer_url null on a page reached with older_id, although newer cards exist, so a walk back towards " +
      "the newest cards has no link to follow.",
    ["pagination"],
  ),
  // wire-conventions.md §5: "Following `older_url` from the first page, or `newer_url` from the oldest page, visits every
  // item exactly once."
  fault(
    "r3-company-list-newer-id-inclusive",
    "PAGE-004",
    "The company list reads newer_id as inclusive, so each page reached with newer_id (newer_url, future_url) starts with " +
      "the last company of the page before it again.",
    ["pagination"],
    FRESH_USERS,
  ),
  // wire-conventions.md §5: "A request without cursor returns the newest `count` items."
  fault(
    "r3-cert-list-deleted-counted-in-page",
    "PAGE-005",
    "GET certificate-pinned cuts the page before it leaves out deleted chains, so a page that a deleted chain fell in holds " +
      "fewer than count chains although more exist.",
    ["list-sizes", "pagination"],
  ),
  // banking-api.md, Limits: "| maximum count | 200 | the count query parameter of list requests |"
  fault(
    "r3-callback-url-count-compared-as-text",
    "PAGE-004",
    "The callback-URL list compares count with the cap 200 as text, so count=5 or count=50 is refused with 400 while " +
      "count=1000 is taken and a page can hold more than 200 items.",
    ["pagination"],
  ),
  // wire-conventions.md §5: "An empty list: `Response: []`, `newer_url` and `older_url` null."
  fault(
    "r3-callback-url-empty-list-404",
    "PAGE-020",
    "GET callback-url of an OAuth client that has no callback URL left answers 404 instead of an empty list.",
    ["pagination"],
    FRESH_USERS,
  ),
  // banking-api.md, Limits > Pagination rules: "older_url uses older_id, the id of the first item of the current page,
  // and fetches the previous page."
  fault(
    "r3-share-invite-oldest-page-empty",
    "PAGE-003",
    "The share-invite list finds the older page by position without clamping at the start, so the oldest page, when fewer " +
      "than count shares remain, comes back empty and those shares are never listed.",
    ["pagination"],
  ),
  // banking-api.md, Limits > Pagination rules: "future_url uses newer_id and is used to refresh the list and find items
  // created after the listing."
  fault(
    "r3-ideal-future-url-older-id",
    "PAGE-017",
    "The iDEAL transaction list's future_url carries older_id instead of newer_id, so a refresh answers older " +
      "transactions and never the ones created after the listing.",
    ["pagination"],
    FRESH_USERS,
  ),
  // banking-api.md, Endpoints > User-defined transaction categories: "{category, description, color, icon: optional
  // strings; status: required string, whether the category is active}"
  fault(
    "r3-category-emoji-500",
    "ERR-003",
    "POST category crashes with 500 when a text field holds a character outside the Basic Multilingual Plane (an emoji " +
      "icon such as 🛒), as a 3-byte UTF-8 column would.",
    ["error-bodies"],
    FRESH_USERS,
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND3_LISTS_VARIANTS = [
  // banking-api.md, Resources and their fields > Shared objects: "| Address (response) | the request fields plus province
  // (string), is_user_address_updated (boolean) |"
  {
    name: "r3-company-address-empty-members-dropped",
    description:
      'POST and PUT company drop every address member sent as an empty string (extra: "", po_box: ""), so the company ' +
      "reads back without those members.",
    allowedBy: "blind round 3: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
] as const satisfies readonly VariantSpec[];

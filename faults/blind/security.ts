// Blind round 1 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites were mapped after the first kill-matrix run.
import { fault } from "../fault.js";

export const BLIND_SECURITY_FAULTS = [
  // banking-api.md, Pinned certificates:
  // "| GET | /user/{userID}/certificate-pinned/{itemId} | none | {certificate_chain: string, id: integer} |"
  fault(
    "cert-read-id-string",
    "CERT-002",
    "GET certificate-pinned/{itemId} answers the chain's id as a string (taken from the path); the list answers it as an integer.",
    ["certificate-pinned"],
  ),
  // wire-conventions.md §5: "Following `older_url` from the first page, or `newer_url` from the oldest page, visits every item
  // exactly once." Mapped to CERT-004 ("the created chain among them"): the newest chain is the one a user just pinned.
  fault(
    "cert-list-misses-newest",
    "CERT-004",
    "GET certificate-pinned leaves out the user's most recently pinned chain (an off-by-one in the list loop).",
    ["certificate-pinned"],
  ),
  // wire-conventions.md §7: "Pinned certificate read form joins the chain's PEM certificates with newlines."
  fault(
    "cert-duplicate-certificates-collapsed",
    "CERT-003",
    "A chain that holds the same certificate twice is pinned with the duplicate dropped, so its read form has one certificate fewer.",
    ["certificate-pinned"],
  ),
  // banking-api.md, OAuth client callback URLs:
  // "| PUT | /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId} | {url: required string} | see gap list |"
  // A later read not showing the PUT is the reading the blind ruling made legal (OCB-004, LENIENT): strict only.
  fault(
    "callback-url-read-cache-stale",
    "OCB-004",
    "GET callback-url/{itemId} serves the view cached at its first read, so a later PUT shows in the list but never in the item read.",
    ["oauth-callback-urls"],
    { target: "reference-strict" },
  ),
  // banking-api.md, Other resources: "OAuth callback URL: fields: not shown beyond url (string)." OCB-011 (MUST, blind ruling
  // 2026-11-28): a refused POST stores nothing that breaks the url's type.
  fault(
    "callback-url-refused-post-listed",
    "OCB-011",
    "POST callback-url stores the record before checking url, so a POST refused for a missing or non-string url still lists a " +
      "callback URL whose url is that raw value.",
    ["oauth-callback-urls"],
  ),
  // wire-conventions.md §6: "A 5XX is never a pass."
  fault(
    "callback-url-percent-decoding-500",
    "ERR-003",
    "POST callback-url percent-decodes the url for its log line, so a valid url with a percent-encoded non-UTF-8 byte (%E4) crashes (500).",
    ["oauth-callback-urls"],
  ),
  // wire-conventions.md §7: "Other status values → 4XX."
  fault(
    "challenge-put-status-case-insensitive",
    "CHAL-006",
    "PUT challenge-request compares status case-insensitively: accepted_pending_response is accepted and stored upper-cased.",
    ["challenge-requests"],
  ),
  // banking-api.md, Challenge requests:
  // "| PUT | /user/{userID}/challenge-request/{itemId} | {status: required string, ACCEPTED_PENDING_RESPONSE or
  // REJECTED_PENDING_RESPONSE} | see gap list |"
  fault(
    "challenge-put-status-coerced",
    "CHAL-006",
    'PUT challenge-request reads status with String(), so a non-string status such as ["ACCEPTED_PENDING_RESPONSE"] is accepted.',
    ["challenge-requests"],
  ),
  // wire-conventions.md §7: "Challenge request PUT answers `Id`; a later GET shows the status that was set." CHAL-008
  // (LENIENT, blind ruling 2026-11-28: certifier OPEN, vendor OPEN): a PUT that also changes the user's other challenge
  // requests is noted, so only the strict profile requires that the PUT changes the one named.
  fault(
    "challenge-put-applies-to-all",
    "CHAL-008",
    "PUT challenge-request/{itemId} sets the status on every challenge request of the user (the update's id filter is missing).",
    ["challenge-requests"],
    { target: "reference-strict" },
  ),
  // banking-api.md, Shared objects:
  // "| Avatar | uuid, anchor_uuid, style (string); image: array of {attachment_public_uuid (string), content_type (string), height
  // (integer), width (integer)} |"
  // The row gives the members' types; that each is present is nowhere promised (GAP-72: presence LENIENT): strict only.
  fault(
    "feature-announcement-anchor-uuid-dropped",
    "FEAT-002",
    "The announcement's avatar is answered without anchor_uuid (the read mapper forgot it).",
    ["feature-announcements"],
    { target: "reference-strict" },
  ),
  // banking-api.md, Authentication: "The user id in every path is the authenticated user's id."
  fault(
    "feature-announcement-path-user-unchecked",
    "AUTH-015",
    "GET feature-announcement/{itemId} serves the announcements of any existing user named in the path, not only the session's user.",
    ["feature-announcements", "authorisation"],
  ),
] as const;

// Blind round 6 (part: security): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND6_SECURITY_FAULTS = [
  // banking-api.md, Authentication > Rules: "The user id in every path is the authenticated user's id."
  fault(
    "r6-cert-create-path-user-unchecked",
    "AUTH-015",
    "POST certificate-pinned with another existing user's userID in the path pins the chain for that user and answers its Id.",
    ["authorisation"],
  ),
  // wire-conventions.md §7 Resources: "A chain entry that is not a PEM certificate → 4XX (CONVENTION)."
  fault(
    "r6-cert-invalid-entries-dropped",
    "CERT-007",
    "POST certificate-pinned with a chain mixing PEM certificates and entries that are not certificates drops the bad " +
      "entries and pins the rest (200 with an Id) instead of refusing the chain.",
    ["certificate-pinned"],
  ),
  // wire-conventions.md §5 Pagination: "Links are relative, start with `/v1/`, name the same list path, and keep `count` when
  // the request sent it."
  fault(
    "r6-callback-url-list-links-without-client",
    "PAGE-014",
    "The callback-url list's newer_url, older_url and future_url leave out the oauth-client/{id} segment " +
      "(/v1/user/{u}/callback-url?…), so they name a path that is not the list's.",
    ["pagination"],
  ),
  // banking-api.md, Endpoints > Challenge requests: "| PUT | /user/{userID}/challenge-request/{itemId} | {status: required
  // string, ACCEPTED_PENDING_RESPONSE or REJECTED_PENDING_RESPONSE} | see gap list |"; wire-conventions.md §7: "Other status
  // values → 4XX."
  fault(
    "r6-challenge-put-status-prefix-accepted",
    "CHAL-006",
    "PUT challenge-request accepts any status that is the beginning of one of the two answers (ACCEPTED, REJECTED_PENDING, " +
      "even the empty string) and stores it as sent.",
    ["challenge-requests"],
  ),
  // wire-conventions.md §7 Resources: "Challenge request PUT answers `Id`; a later GET shows the status that was set."
  fault(
    "r6-challenge-rejected-read-not-found",
    "CHAL-005",
    "After a PUT of REJECTED_PENDING_RESPONSE, GET challenge-request/{itemId} answers 404 (the read serves open and accepted " +
      "requests only); an accepted request still reads.",
    ["challenge-requests"],
  ),
  // banking-api.md, Authentication > Rules: "The user id in every path is the authenticated user's id."
  fault(
    "r6-challenge-put-foreign-applied-then-refused",
    "AUTH-019",
    "PUT challenge-request/{itemId} of another user's challenge request under the caller's own userID answers 404, but the " +
      "other user's request has taken the status sent.",
    ["challenge-requests"],
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND6_SECURITY_VARIANTS = [
  // banking-api.md, Resources > Other resources: "OAuth callback URL: fields: not shown beyond url (string)."; Endpoints >
  // OAuth client callback URLs: "| POST | /user/{userID}/oauth-client/{oauth-clientID}/callback-url | {url: required string} |
  // see gap list |"
  {
    name: "r6-callback-url-long-url-truncated",
    description:
      "POST and PUT callback-url store only the first 255 characters of url, so a longer url reads back (item and list) cut short.",
    allowedBy: "blind round 6: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // banking-api.md, Endpoints > OAuth client callback URLs: "| GET |
  // /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId} | none | see gap list |" and Resources > Other
  // resources: "OAuth callback URL: fields: not shown beyond url (string)."
  {
    name: "r6-callback-url-read-html-escaped",
    description:
      "GET callback-url/{itemId} shows url HTML-escaped (& as &amp;, < as &lt;, quotes as entities), so a url with a query of " +
      "two parameters reads back changed; the list shows it as stored.",
    allowedBy: "blind round 6: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
  // banking-api.md, Endpoints > OAuth client callback URLs: "| DELETE |
  // /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId} | none | object of type OauthCallbackUrlDelete |"
  {
    name: "r6-callback-url-delete-removes-oldest",
    description:
      "DELETE callback-url/{itemId} answers 200 but removes the OAuth client's oldest callback URL instead of the one named, " +
      "which stays readable and listed.",
    requirements: ["OCB-012"],
    allowedBy:
      "blind round 6: the readers split (vendor STATED, certifier OPEN) on whether a sentence forbids it (faults/blind-rounds.md); " +
      "asked again as the requirement's case, both OPEN",
    suites: VARIANT_SCOPE.resources,
  },
] as const satisfies readonly VariantSpec[];

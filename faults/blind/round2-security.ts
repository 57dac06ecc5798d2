// Blind round 2 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites are mapped after the first run.
import { fault, FRESH_USERS, STRICT_ONLY } from "../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../variant-spec.js";

export const BLIND2_SECURITY_FAULTS = [
  // banking-api.md, Endpoints > Pinned certificates:
  // "| POST | /user/{userID}/certificate-pinned | {certificate_chain: array of {certificate: string}} | {id: integer} |"
  fault(
    "cert-create-answers-chain-count",
    "CERT-012",
    "POST certificate-pinned answers, as the new chain's id, the number of chains the user now has instead of the chain's id.",
    ["certificate-pinned"],
    STRICT_ONLY,
  ),
  // wire-conventions.md §6: "A 5XX is never a pass."
  fault(
    "cert-delete-unknown-id-500",
    "ERR-003",
    "DELETE certificate-pinned/{itemId} of an id no chain has crashes (500) instead of answering a 4XX.",
    ["error-bodies"],
    FRESH_USERS,
  ),
  // wire-conventions.md §2: "`UserCompany`, `Card` (...), `CertificatePinned`, `OauthCallbackUrl`, ..." (the type keys)
  fault(
    "callback-url-list-type-key-wrong",
    "OCB-003",
    "GET callback-url (the list) answers its elements under the type key CallbackUrl; the item read keeps OauthCallbackUrl.",
    ["oauth-callback-urls"],
  ),
  // banking-api.md, Resources and their fields: "Conventions: id fields are integers; ..."
  fault(
    "callback-url-read-id-string",
    "OCB-001",
    "GET callback-url/{itemId} answers the callback URL's id as a string; the list still answers it as an integer.",
    ["oauth-callback-urls"],
  ),
  // wire-conventions.md §7: "Challenge request PUT answers `Id`; a later GET shows the status that was set."
  fault(
    "challenge-rejected-read-back-short",
    "CHAL-001",
    "After a PUT of REJECTED_PENDING_RESPONSE, GET challenge-request shows status REJECTED (the display map lacks the long name).",
    ["challenge-requests"],
  ),
  // banking-api.md, Authentication: "The user id in every path is the authenticated user's id."
  fault(
    "challenge-read-path-user-unchecked",
    "AUTH-015",
    "GET challenge-request/{itemId} accepts another existing user's userID in the path and serves that user's challenge request.",
    ["authorisation", "challenge-requests"],
  ),
  // banking-api.md, Shared objects: "| Avatar | uuid, anchor_uuid, style (string); image: array of {attachment_public_uuid
  // (string), content_type (string), height (integer), width (integer)} |"
  fault(
    "feature-announcement-image-object",
    "FEAT-001",
    "The announcement's avatar.image is answered as one object (the first image) instead of an array of images.",
    ["feature-announcements"],
  ),
  // wire-conventions.md §6: "A 5XX is never a pass."
  fault(
    "feature-announcement-large-id-500",
    "ERR-014",
    "GET feature-announcement/{itemId} with an itemId above 2147483647 crashes (500) instead of answering a 4XX.",
    ["errors"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND2_SECURITY_VARIANTS = [
  // banking-api.md, Endpoints > Pinned certificates:
  // "| POST | /user/{userID}/certificate-pinned | {certificate_chain: array of {certificate: string}} | {id: integer} |"
  {
    name: "cert-crlf-pem-refused",
    description:
      "POST certificate-pinned refuses (4XX) a valid PEM certificate whose lines end in CRLF: the entry check only knows LF line ends.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.certificates,
  },
  // banking-api.md, Resources and their fields > Other resources: "OAuth callback URL: fields: not shown beyond url (string)."
  {
    name: "callback-url-query-dropped",
    description: "POST and PUT callback-url store the url without its query string and fragment, so it reads back other than it was sent.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.resources,
  },
] as const satisfies readonly VariantSpec[];

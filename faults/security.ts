// The faults and legal variants of what a user trusts (reference/resources/security/): pinned certificate chains,
// OAuth callback URLs and card-payment challenge requests.
import { fault } from "./fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "./variant-spec.js";

const CERTIFICATES = ["certificate-pinned"];

export const CERTIFICATE_PINNED_FAULTS = [
  fault("cert-single-certificate-refused", "CERT-001", "A chain of one certificate is refused (at least two are demanded).", CERTIFICATES),
  fault(
    "cert-create-answers-bare-id",
    "ERR-009",
    'POST certificate-pinned answers {"Response":[{"id":N}]} without the Id type key.',
    CERTIFICATES,
  ),
  fault(
    "cert-chain-read-as-array",
    "CERT-002",
    "GET certificate-pinned answers certificate_chain in the create form (an array) instead of a string.",
    CERTIFICATES,
  ),
  fault("cert-type-key-wrong", "ERR-015", "Pinned chains are answered under the type key CertificatePinnedRead.", CERTIFICATES),
  fault("cert-chain-only-first-certificate", "CERT-003", "The read form shows only the first certificate of the chain.", CERTIFICATES),
  fault("cert-chain-reversed", "CERT-003", "The read form lists the chain's certificates in reverse order.", CERTIFICATES),
  fault("cert-chain-joined-without-separator", "CERT-003", "The read form glues the certificates together without newlines.", CERTIFICATES),
  fault("cert-list-leaks-other-users", "CERT-004", "GET certificate-pinned lists every user's chains.", CERTIFICATES),
  fault("cert-list-ids-only", "CERT-004", "List elements carry only the id, no certificate_chain.", CERTIFICATES),
  fault("cert-delete-noop", "CERT-005", "DELETE answers 200 but keeps the chain.", CERTIFICATES, { target: "reference-strict" }),
  fault("cert-delete-empty-body", "ERR-010", "DELETE answers 200 with an empty body.", CERTIFICATES),
  fault("cert-deleted-still-listed", "CERT-006", "A deleted chain can no longer be read but is still listed.", CERTIFICATES, {
    target: "reference-strict",
  }),
  fault("cert-non-pem-accepted", "CERT-007", "Chain entries are not checked: any string is pinned.", CERTIFICATES),
  fault(
    "cert-armour-only-checked",
    "CERT-007",
    "An entry is accepted when it holds the BEGIN and END CERTIFICATE lines, whatever stands between them (the body is never parsed).",
    CERTIFICATES,
  ),
  fault(
    "cert-only-first-entry-validated",
    "CERT-007",
    "Only the first entry of the chain is checked to be a PEM certificate.",
    CERTIFICATES,
  ),
  fault(
    "cert-refused-chain-stored",
    "CERT-007",
    "A chain with an entry that is not a certificate is refused, but pinned all the same.",
    CERTIFICATES,
  ),
  fault("cert-chain-string-accepted", "CERT-008", "certificate_chain given as a string is pinned as a chain of one.", CERTIFICATES, {
    target: "reference-strict",
  }),
  fault(
    "cert-other-user-readable",
    "AUTH-019",
    "GET certificate-pinned/{id} serves another user's chain under the caller's own userID.",
    CERTIFICATES,
  ),
  fault(
    "cert-other-user-deletable",
    "AUTH-019",
    "DELETE certificate-pinned/{id} removes another user's chain under the caller's own userID.",
    CERTIFICATES,
  ),
  fault(
    "cert-delete-path-user-not-checked",
    "AUTH-015",
    "DELETE certificate-pinned accepts another user's userID in the path (the check is made on the reads only).",
    CERTIFICATES,
  ),
] as const;

/** The legal variants of callback URLs and challenge requests (blind ruling 2026-11-28). */
export const CALLBACK_URL_VARIANTS = [
  {
    name: "callback-url-item-read-first-of-client",
    suites: VARIANT_SCOPE.resources,
    description: "GET callback-url/{itemId} answers the OAuth client's first callback URL whatever the item id.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["OCB-002"],
  },
  {
    name: "callback-url-list-seeded-only",
    suites: VARIANT_SCOPE.resources,
    description: "The callback-url list shows the URLs the client had when the user was made: posted URLs never show in it.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["OCB-003"],
  },
  {
    name: "callback-url-put-keeps-url",
    suites: VARIANT_SCOPE.resources,
    description: "PUT callback-url answers 200 but the callback URL keeps its old url.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["OCB-004"],
  },
  {
    name: "callback-url-delete-keeps-url",
    suites: VARIANT_SCOPE.resources,
    description: "DELETE callback-url answers 200 but the callback URL stays readable and listed.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["OCB-006"],
  },
  {
    name: "callback-url-put-url-any-type",
    suites: VARIANT_SCOPE.resources,
    description: "PUT callback-url takes a url of any JSON type and stores it as text (POST still checks it).",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["OCB-008"],
  },
  {
    name: "callback-url-refused-put-writes-url",
    suites: VARIANT_SCOPE.resources,
    description: "A PUT callback-url refused for a url that is not a string still stores that url, as text.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["OCB-010"],
  },
] as const satisfies readonly VariantSpec[];

export const CHALLENGE_VARIANTS = [
  {
    name: "challenge-put-answers-request",
    suites: VARIANT_SCOPE.challenges,
    description: "PUT challenge-request answers the updated challenge request under its type key instead of Id.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor STATED)",
    requirements: ["CHAL-003"],
  },
  {
    name: "challenge-put-sets-every-request",
    suites: VARIANT_SCOPE.challenges,
    description: "PUT challenge-request/{itemId} sets the status on every challenge request of the user, not only the one named.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["CHAL-008"],
  },
] as const satisfies readonly VariantSpec[];

export const CERTIFICATE_PINNED_VARIANTS = [
  {
    name: "cert-pem-with-text-accepted",
    suites: VARIANT_SCOPE.certificates,
    description:
      "A chain entry holding one PEM certificate with explanatory text around it is pinned as that certificate " + "(RFC 7468 §5.2).",
    allowedBy: "conventions §7 refuses only entries that are not a PEM certificate; RFC 7468 §5.2 (CERT-010, LENIENT)",
    requirements: ["CERT-010"],
  },
  {
    name: "cert-two-pems-per-entry-accepted",
    suites: VARIANT_SCOPE.certificates,
    description: "A chain entry holding two PEM certificates is pinned as those two certificates, in order.",
    allowedBy: "neither file says how many certificates one entry holds (CERT-010, LENIENT)",
    requirements: ["CERT-010"],
  },
  {
    name: "cert-empty-chain-pinned",
    suites: VARIANT_SCOPE.certificates,
    description: "An empty certificate_chain is pinned (its read form is an empty string).",
    allowedBy: "neither file says an empty chain is refused (CERT-011, LENIENT)",
    requirements: ["CERT-011"],
  },
  {
    name: "cert-delete-keeps-chain",
    suites: VARIANT_SCOPE.certificates,
    description: "DELETE certificate-pinned answers 200 but the chain stays pinned: still readable and still listed.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["CERT-005", "CERT-006"],
  },
  {
    name: "cert-deleted-chain-listed",
    suites: VARIANT_SCOPE.certificates,
    description: "A deleted chain can no longer be read (4XX) but is still listed.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["CERT-006"],
  },
  {
    name: "cert-chain-not-array-pinned",
    suites: VARIANT_SCOPE.certificates,
    description:
      "certificate_chain given as one PEM string, or as one {certificate} object, instead of an array is pinned as a chain of " +
      "that one certificate.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["CERT-008"],
  },
] as const satisfies readonly VariantSpec[];

const CALLBACK_URLS = ["oauth-callback-urls"];

export const CALLBACK_URL_FAULTS = [
  fault("callback-url-create-answers-201", "OCB-001", "POST callback-url answers 201 instead of 200.", CALLBACK_URLS),
  fault(
    "callback-url-read-ignores-item-id",
    "OCB-002",
    "GET callback-url/{itemId} answers the client's first callback URL whatever the item id.",
    CALLBACK_URLS,
    { target: "reference-strict" },
  ),
  fault(
    "callback-url-list-cached",
    "OCB-003",
    "The callback-url list is a snapshot taken when the user was created: posted URLs never show.",
    CALLBACK_URLS,
    { target: "reference-strict" },
  ),
  fault("callback-url-put-ignored", "OCB-004", "PUT callback-url answers 200 but keeps the old url.", CALLBACK_URLS, {
    target: "reference-strict",
  }),
  fault("callback-url-delete-answers-204", "OCB-005", "DELETE callback-url answers 204 with no body.", CALLBACK_URLS),
  fault("callback-url-delete-noop", "OCB-006", "DELETE callback-url answers 200 but the URL stays readable and listed.", CALLBACK_URLS, {
    target: "reference-strict",
  }),
  fault(
    "callback-url-missing-url-accepted",
    "OCB-007",
    "POST and PUT callback-url without url are accepted (an empty url is stored).",
    CALLBACK_URLS,
  ),
  fault(
    "callback-url-put-url-type-unchecked",
    "OCB-008",
    "PUT callback-url stores a url of any JSON type (POST still checks it).",
    CALLBACK_URLS,
    { target: "reference-strict" },
  ),
  fault(
    "callback-url-other-users-client-accepted",
    "OCB-009",
    "Callback-url calls work under any existing OAuth client, the caller's or not.",
    CALLBACK_URLS,
  ),
  fault(
    "callback-url-item-skips-client-check",
    "OCB-009",
    "The list checks that the OAuth client is the caller's; GET callback-url/{itemId} forgets to.",
    CALLBACK_URLS,
  ),
  fault(
    "callback-url-put-skips-client-check",
    "OCB-009",
    "PUT callback-url/{itemId} finds the URL by its client and id without checking the client is the caller's.",
    CALLBACK_URLS,
  ),
  fault(
    "callback-url-delete-skips-client-check",
    "OCB-009",
    "DELETE callback-url/{itemId} finds the URL by its client and id without checking the client is the caller's.",
    CALLBACK_URLS,
  ),
  fault(
    "callback-url-refused-put-applies",
    "OCB-010",
    "PUT callback-url copies the body's url onto the record before checking it, so a refused PUT still changes the url.",
    CALLBACK_URLS,
    { target: "reference-strict" },
  ),
] as const;

const CHALLENGES = ["challenge-requests"];

export const CHALLENGE_FAULTS = [
  fault(
    "challenge-accept-refused",
    "CHAL-001",
    "PUT status ACCEPTED_PENDING_RESPONSE is refused (the accepted value list has a typo).",
    CHALLENGES,
  ),
  fault("challenge-reject-refused", "CHAL-002", "PUT status REJECTED_PENDING_RESPONSE is refused.", CHALLENGES),
  fault("challenge-put-answers-object", "CHAL-003", "PUT answers the challenge request instead of Id.", CHALLENGES, {
    target: "reference-strict",
  }),
  fault("challenge-get-status-missing", "CHAL-004", "GET answers the challenge request without its status.", CHALLENGES),
  fault("challenge-get-stale-status", "CHAL-005", "GET keeps answering the seeded status after a PUT.", CHALLENGES),
  fault("challenge-put-any-status", "CHAL-006", "PUT accepts any status string.", CHALLENGES),
  fault(
    "challenge-refused-put-applies",
    "CHAL-006",
    "PUT with an unknown status is refused, but the status is changed anyway.",
    CHALLENGES,
  ),
  fault("challenge-put-missing-status-accepted", "CHAL-007", "PUT without status answers Id (and changes nothing).", CHALLENGES),
  fault("challenge-other-user-readable", "AUTH-019", "GET serves another user's challenge request.", CHALLENGES),
  fault(
    "challenge-other-user-writable",
    "AUTH-019",
    "PUT answers another user's challenge request (the read checks ownership, the update forgot).",
    CHALLENGES,
  ),
  fault("challenge-unknown-id-500", "ERR-014", "GET of an id that does not exist crashes (500).", CHALLENGES),
] as const;

// The faults and legal variants of authentication (reference/resources/auth/): installation, device registration,
// sessions, and the sandbox user.
import { fault } from "./fault.js";
import type { VariantSpec } from "./variant-spec.js";

const AUTH = ["authentication"];

/** Faults whose behaviour a blind ruling made a legal reading (LENIENT): they fail only the strict profile. */
const STRICT = "reference-strict";

/** Where a blind ruling made a reading legal (spec/rulings.md). */
const RULED = "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)";

export const AUTHENTICATION_FAULTS = [
  fault(
    "installation-accepts-non-pem",
    "AUTH-002",
    "POST /installation accepts a client_public_key that is not a PEM RSA public key.",
    AUTH,
  ),
  fault("installation-no-server-key", "AUTH-001", "POST /installation leaves out ServerPublicKey.", AUTH),
  fault("installation-answers-201", "ERR-008", "POST /installation answers 201 instead of 200.", AUTH),
  fault(
    "installation-envelope-merged",
    "ERR-004",
    "POST /installation puts Id, Token and ServerPublicKey under one Response element.",
    AUTH,
  ),
  fault("device-server-description-optional", "AUTH-021", "POST /device-server without a description registers the device.", AUTH, {
    target: STRICT,
  }),
  fault(
    "session-server-once-per-device",
    "AUTH-020",
    "A second POST /session-server on the same installation and device is refused.",
    AUTH,
  ),
  fault("device-server-no-id", "AUTH-003", "POST /device-server answers an empty Response.", AUTH),
  fault("device-server-unknown-key-accepted", "AUTH-010", "POST /device-server registers an unknown API key (as the first user).", AUTH, {
    target: STRICT,
  }),
  fault("permitted-ips-not-enforced", "AUTH-012", "POST /device-server accepts permitted_ips that lack the caller.", AUTH),
  fault("lockout-not-applied", "AUTH-012", "A refused device registration does not lock the key out for the caller.", AUTH),
  fault("permitted-ips-first-only", "AUTH-013", "Only the first address of permitted_ips is bound.", AUTH),
  fault(
    "lockout-per-installation",
    "AUTH-012",
    "The lock-out after a refused permitted_ips registration applies to that installation only; a new " +
      "installation from the same address registers the key.",
    AUTH,
  ),
  fault("key-rebinds-from-new-ip", "AUTH-014", "A bound key can register a device from any other address.", AUTH),
  fault("session-without-device", "AUTH-007", "POST /session-server works on an installation with no registered device.", AUTH, {
    target: STRICT,
  }),
  fault(
    "session-secret-not-checked",
    "AUTH-018",
    "POST /session-server ignores the secret and opens a session for the device's key.",
    AUTH,
    { target: STRICT },
  ),
  fault("session-user-id-off-by-one", "AUTH-008", "POST /session-server answers a user id one greater than the real one.", AUTH),
] as const;

export const AUTHENTICATION_VARIANTS = [
  {
    name: "auth-refusals-403",
    description:
      "Every authentication refusal (missing, unknown or wrong-kind token, unbound IP address, lock-out, " +
      "unknown API key, wrong secret, missing User-Agent) is answered 403.",
    allowedBy: "conventions §3, §4, §6 (any 4XX passes)",
    requirements: [
      "AUTH-004",
      "AUTH-005",
      "AUTH-006",
      "AUTH-007",
      "AUTH-009",
      "AUTH-010",
      "AUTH-011",
      "AUTH-012",
      "AUTH-014",
      "AUTH-018",
      "AUTH-024",
      "HDR-001",
    ],
  },
  {
    name: "auth-token-refusals-400",
    description: "A missing, unknown or wrong-kind token is answered 400 instead of 401.",
    allowedBy: "conventions §3 (any 4XX passes)",
    requirements: ["AUTH-004", "AUTH-005", "AUTH-006", "AUTH-009", "AUTH-024"],
  },
  {
    name: "path-user-refusals-404",
    description: "A userID other than the session's, or one that names nobody, is answered 404 on every route, card routes included.",
    allowedBy: "conventions §6 (a userID other than the session's user → 4XX); GAP-69",
    requirements: ["AUTH-015", "AUTH-022"],
  },
  {
    name: "request-id-reuse-409",
    description: "A reused X-Service-Client-Request-Id is answered 409 Conflict.",
    allowedBy: "banking-api.md Errors (the status of the duplicate-request-id error: not shown); conventions §3",
    requirements: ["HDR-002", "HDR-015"],
  },
  {
    name: "auth-body-refusals-422",
    description: "POST /installation without a PEM RSA key and POST /device-server without description or secret are answered 422.",
    allowedBy: "conventions §4, §6 (any 4XX passes)",
    requirements: ["AUTH-002", "AUTH-021"],
  },
  {
    name: "session-token-per-device",
    description: "A second POST /session-server on the same installation and device answers the token of the session already open.",
    allowedBy: "banking-api.md Authentication (a session is opened with call 3; whether each call makes a new token is not shown)",
    requirements: ["AUTH-020"],
  },
  {
    name: "new-session-ends-previous",
    description: "POST /session-server ends the sessions the device had open: one open session per device.",
    allowedBy: "banking-api.md Authentication (how long a session lasts is not shown)",
    requirements: ["AUTH-020"],
  },
  {
    name: "client-signature-checked-when-sent",
    description: "Unsigned requests are served, but a request that carries a Client-Signature which does not verify is refused.",
    allowedBy: "conventions §3 (request signing is not required; the scheme is the provider's)",
    requirements: ["HDR-009"],
  },
  // Readings a blind ruling made legal (LENIENT): each plays the behaviour of the fault that now fails only strict.
  {
    name: "session-opens-without-device",
    description:
      "POST /session-server on an installation with no registered device registers the device for the API key sent " +
      "(bound to the caller) and opens the session.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["AUTH-007"],
  },
  {
    name: "installation-token-on-resources",
    description:
      "The installation token of a registered device works on resource calls as that device's session would (its user, " +
      "its bound addresses).",
    allowedBy: RULED,
    requirements: ["AUTH-009"],
  },
  {
    name: "device-server-provisions-unknown-key",
    description: "POST /device-server with an API key the server never issued makes a new user for that key and registers the device.",
    allowedBy: RULED,
    requirements: ["AUTH-010"],
  },
  {
    name: "session-secret-ignored",
    description: "POST /session-server opens a session for the installation's device whatever secret it carries.",
    allowedBy: RULED,
    requirements: ["AUTH-018"],
  },
  {
    name: "device-description-optional",
    description: "POST /device-server without a description registers the device.",
    allowedBy: RULED,
    requirements: ["AUTH-021"],
  },
  {
    name: "session-server-takes-session-token",
    description: "POST /session-server also takes a session token of the device in place of its installation token.",
    allowedBy: RULED,
    requirements: ["AUTH-024"],
  },
  {
    name: "geolocation-unsigned-only",
    description: "An X-Service-Geolocation with a negative coordinate is refused with 400 (the parser takes unsigned numbers).",
    allowedBy: "blind ruling 2026-11-28 of the blind fault geolocation-negative-refused (certifier OPEN, vendor STATED)",
    suites: ["headers"],
  },
  {
    name: "device-server-takes-session-token",
    description: "POST /device-server also takes a session token of an installation in place of its installation token.",
    allowedBy: "blind ruling 2026-11-28 of the blind fault device-server-accepts-session-token (certifier OPEN, vendor OPEN)",
  },
  {
    name: "geolocation-header-required",
    description: "Requests without X-Service-Geolocation are refused with 400 (the header is sent, zero-valued, when unknown).",
    allowedBy: RULED,
    requirements: ["HDR-011"],
  },
  {
    name: "auth-header-canonical-case-only",
    description: "The token is read only from the header spelt X-Service-Client-Authentication: another case counts as missing.",
    allowedBy: RULED,
    requirements: ["HDR-016"],
  },
  {
    name: "client-signature-optional",
    description:
      "Where the server checks client signatures, an unsigned POST /session-server is still served (only a sent one is checked).",
    allowedBy: RULED,
    requirements: ["HDR-013"],
    suites: ["signatures"],
  },
  {
    name: "client-signature-presence-only",
    description: "Where the server requires client signatures, it checks only that one is there, not that it verifies.",
    allowedBy: RULED,
    requirements: ["HDR-014"],
    suites: ["signatures"],
  },
  {
    name: "unknown-item-read-empty",
    description:
      "GET of an item id the server never handed out (beyond every id issued, or below 1) answers 200 with an empty " +
      "Response, on every item endpoint but the card's.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN); conventions §6",
    requirements: ["ERR-014"],
  },
] as const satisfies readonly VariantSpec[];

export const SANDBOX_USER_FAULTS = [
  fault("sandbox-user-same-key", "AUTH-017", "POST /sandbox-user-person hands out the same API key every time.", ["authentication"]),
] as const;

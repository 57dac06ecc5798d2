// Blind round 3 (bug shape: session): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";
import type { VariantSpec } from "../../variant-spec.js";

export const BLIND3_SESSION_FAULTS = [
  // banking-api.md, Authentication > Rules: "The device-server call binds the API key to the caller's current IP address.
  // The key cannot be used from other IPs."
  fault(
    "r3-attachment-read-ip-unbound",
    "AUTH-011",
    "GET /user/{userID}/attachment/{itemId} is exempt from the IP binding, so a session token reads attachments from any address.",
    ["authentication"],
  ),
  // banking-api.md, Limits: "| IP binding | an API key works only from the IPs given at device registration | all calls made
  // with that key |"
  fault(
    "r3-ip-binding-skipped-for-ip-lists",
    "AUTH-011",
    "The per-request IP check only compares devices bound to a single address, so a session of a device registered with " +
      "two or more permitted_ips works from any address.",
    ["authentication"],
  ),
  // banking-api.md, Endpoints > Common request rules: "| User-Agent | required | describes the client; no restriction on value |"
  fault(
    "r3-session-bound-to-user-agent",
    "HDR-010",
    "A session token is tied to the User-Agent of its first call, and a later call of that session with another " +
      "User-Agent is refused with 401 as a hijacked session.",
    ["headers"],
  ),
  // wire-conventions.md §3: "`X-Service-Client-Request-Id` reused on the same device → 4XX with error body; the server echoes
  // the request id in the response header of the same name (CONVENTION)."
  fault(
    "r3-request-id-not-echoed-on-tokenless-calls",
    "HDR-003",
    "The request id is not echoed on calls that need no token (POST /installation, POST /sandbox-user-person); every " +
      "other call echoes it.",
    ["headers"],
  ),
  // wire-conventions.md §1: "`error_description_translated` follows `X-Service-Language`."
  fault(
    "r3-auth-refusals-untranslated",
    "HDR-017",
    "Refusals made before a route runs (missing or unknown token, unbound address, missing User-Agent, reused request " +
      "id) are always answered with the en_US text in error_description_translated, even under nl_NL.",
    ["headers"],
  ),
  // banking-api.md, Endpoints > Common request rules: "| X-Service-Language | optional | language code (ISO 639-1),
  // underscore, country code (ISO 3166-1 alpha-2); only en_US and nl_NL are supported; anything else defaults to en_US |"
  fault(
    "r3-region-as-language-fallback",
    "HDR-004",
    "When X-Service-Language is missing or unsupported, error texts are translated by X-Service-Region instead, so " +
      "region nl_NL gives Dutch error_description_translated instead of the en_US text.",
    ["headers"],
  ),
  // banking-api.md, Authentication > Rules: "The device-server request can carry an array of IP addresses. The caller's
  // current IP must be in the array, otherwise the caller is locked out."
  fault(
    "r3-lockout-locks-permitted-ips",
    "AUTH-012",
    "A POST /device-server refused because permitted_ips lacks the caller locks out the addresses named in " +
      "permitted_ips instead of the caller, so the caller can register the key right after without permitted_ips.",
    ["authentication"],
  ),
  // banking-api.md, Endpoints > Common request rules: "| X-Service-Geolocation | optional | format: longitude latitude
  // altitude radius country (country is ISO 3166-1 alpha-2); when unknown the header is still sent but may be
  // zero-valued |"; wire-conventions.md §3: "`X-Service-Geolocation` zero-valued (`0 0 0 0 000`) is accepted."
  fault(
    "r3-zero-geolocation-refused-on-card-writes",
    "CARD-008",
    "Card writes (PUT card, replace, batch replace) refuse a zero-valued X-Service-Geolocation with 400, as a fraud " +
      "check that takes 0,0 for a spoofed location; reads and other writes accept it.",
    ["cards", "card-replacement"],
  ),
  // banking-api.md, Endpoints > Common request rules: "| Cache-Control | optional | standard header; needed for signed
  // requests |"; wire-conventions.md §3: "Request signing: not required by the specification"
  fault(
    "r3-cache-control-required-on-writes",
    "HDR-008",
    "POST and PUT resource calls that carry a body are refused with 400 without a Cache-Control header (every write " +
      "taken as a signed request); GET, DELETE and the authentication calls are served without it.",
    ["headers"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND3_SESSION_VARIANTS = [
  // wire-conventions.md §3: "the server echoes the request id in the response header of the same name (CONVENTION)";
  // banking-api.md, Endpoints > Common request rules: "| X-Service-Client-Request-Id | optional | id unique for the
  // logged-in user, free format; reusing an id on the same registered device yields an error |"
  {
    name: "r3-request-id-lowercased",
    description:
      "The request id is lower-cased when read, so the echoed header carries the id in lower case and a fresh id that " +
      "differs from a used one only in letter case is refused as reused.",
    allowedBy: "blind round 3: the certifier STATED, the vendor OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
  },
] as const satisfies readonly VariantSpec[];

// Blind round 2 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites are mapped after the first run.
import { fault, FRESH_USERS } from "../fault.js";
import type { VariantSpec } from "../variant-spec.js";

export const BLIND2_AUTH_FAULTS = [
  // banking-api.md, Authentication rules: "The device-server request can carry an array of IP addresses. The caller's
  // current IP must be in the array, otherwise the caller is locked out."
  fault(
    "permitted-ips-substring-match",
    "AUTH-012",
    "POST /device-server looks the caller up in permitted_ips joined into one string, so a list naming only 127.0.0.12 " +
      "lets 127.0.0.1 register (no refusal, no lock-out).",
    ["authentication"],
  ),
  // wire-conventions.md §6: "Otherwise any 4XX with an error body passes; the provider uses 400 invalid input [...] A 5XX is
  // never a pass."
  fault(
    "device-server-secret-number-500",
    "ERR-003",
    "POST /device-server trims the secret before any type check, so a secret that is a number (or other non-string) " +
      "crashes the handler with 500.",
    ["error-bodies"],
  ),
  // banking-api.md, Resources and their fields: "Conventions: id fields are integers"; wire-conventions.md §4: "That `id`
  // is the userID of every path."
  fault("session-user-id-string", "AUTH-008", 'POST /session-server answers the user\'s id as a string ("1001") instead of an integer.', [
    "authentication",
  ]),
  // wire-conventions.md §4: "POST /session-server [...] {"UserPerson" | "UserCompany" | "UserApiKey": {"id": N, ...}}]`.
  // That `id` is the userID of every path."
  fault(
    "session-user-cached-per-installation",
    "AUTH-008",
    "POST /session-server caches the user object it answers per installation, so a session opened for a second API " +
      "key's device on the same installation answers the first key's user.",
    ["authentication"],
    FRESH_USERS,
  ),
  // banking-api.md, Resources and their fields: "Conventions: id fields are integers"
  fault("installation-token-id-string", "AUTH-001", "POST /installation answers the Token object's id as a string instead of an integer.", [
    "authentication",
  ]),
  // banking-api.md, Authentication rules: "The device-server call binds the API key to the caller's current IP address.
  // The key cannot be used from other IPs."
  fault(
    "ip-binding-same-subnet",
    "AUTH-011",
    "The per-request IP check compares only the first three octets, so a session token works from any address of a " +
      "bound address's /24 network.",
    ["authentication"],
  ),
  // banking-api.md, Limits: "| IP binding | an API key works only from the IPs given at device registration | all calls
  // made with that key |"
  fault(
    "ip-binding-first-address-only",
    "AUTH-013",
    "The per-request IP check compares the caller with the session's first bound address only, so resource calls " +
      "from the second address of permitted_ips are refused (session-server from it still works).",
    ["authentication"],
  ),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND2_AUTH_VARIANTS = [
  // wire-conventions.md §4: "Test users (CONVENTION, optional per target): `POST /sandbox-user-person`, no auth header,
  // empty body → `[{"ApiKey": {"api_key": string}}]`, a fresh user with fresh data."
  {
    name: "sandbox-user-lockout-shared",
    description:
      "Sandbox users' keys share one lock-out set, so once any sandbox key is locked out for a caller, every sandbox " +
      "key (made before or after) is locked out for that caller too.",
    allowedBy:
      'blind round 2: both readers OPEN on whether a sentence forbids it; banking-api.md says "the caller is locked out" ' +
      "(faults/blind-rounds.md). The suite provokes lock-outs only from a third source address.",
  },
  // wire-conventions.md §4: "With it, the caller's IP must be in the list, else the call fails and the key is locked out
  // for the caller."
  {
    name: "refused-registration-keeps-device",
    description:
      "A POST /device-server refused because permitted_ips lacks the caller has already stored the device on the " +
      "installation, so POST /session-server from an address of that list opens a session on it.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
  },
  // wire-conventions.md §3: "Missing or unknown `X-Service-Client-Authentication` on any call but `POST /installation` →
  // 4XX with error body"
  {
    name: "session-token-case-insensitive",
    description:
      "Session tokens are looked up case-insensitively (a case-folding index), so a tampered token that differs only " +
      "in letter case is served as the session's user.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
  },
] as const satisfies readonly VariantSpec[];

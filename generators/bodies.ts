// Request bodies: for each request schema a realistic valid arbitrary, and invalid arbitraries that
// break it in one way a conformant server must refuse (a required member missing, a member of the wrong
// JSON type, a value outside its enum, a body that is not a JSON object, text that is not JSON). Each
// invalid body names the requirement that makes the refusal certain; only those the catalogue states are
// generated, never ones a conformant server may accept. Oversized strings are valid per the schemas (they
// set no maximum) and come separately, for "accepted or refused, never a crash", as do unusual members (an
// empty array, an odd short string, 0, a negative, 2^31, or another JSON type where no requirement refuses it).
import fc from "fast-check";
import {
  address,
  amount,
  apiKeyLike,
  certificateChain,
  chamberOfCommerceNumber,
  companyName,
  countryCode,
  dateOfBirth,
  httpsUrl,
  issuerBic,
  nameOnCard,
  oversizedText,
  personName,
  RSA_PUBLIC_KEY_PEM,
  shortText,
} from "./realistic.js";
import { schemaFields, valuesNotOfType, type JsonType } from "./schema-fields.js";
import { BODY_VALUE_DEFAULTS, type BodyValues } from "../harness/profile/profile.js";

export type Json = unknown;

/** An invalid body: JSON to send, or raw text that is not JSON; `req` is the requirement that refuses it. */
export interface InvalidBody {
  what: string;
  req: string;
  /** The one member that is missing or wrong, where there is one. */
  field?: string;
  json?: Json;
  raw?: string;
}

export interface BodySpec {
  /** schemas/<schema>.schema.json */
  schema: string;
  valid: fc.Arbitrary<Record<string, Json>>;
  /** Required members whose absence a requirement refuses. */
  missing?: { req: string; fields: string[] };
  /** Members whose wrong JSON type a requirement refuses. */
  wrongType?: { req: string; fields: string[] };
  /** A member whose value outside its enum a requirement refuses. */
  outsideEnum?: { req: string; field: string };
  /** Free-text members: any string is valid (oversized ones included). */
  freeText: string[];
  /** Members the schema leaves out that a gap names (`gap`), with the unusual values sent for each. */
  unlisted?: { gap: string; members: Record<string, fc.Arbitrary<Json>[]> };
  /** Members no unusual value is sent for, because one there does more than the request itself. */
  kept?: string[];
}

const CARD_STATUSES = ["ACTIVE", "DEACTIVATED", "LOST", "STOLEN", "CANCELLED"];
const ORDER_STATUSES = [
  "CARD_REQUEST_PENDING",
  "ACCEPTED_FOR_PRODUCTION",
  "DELIVERED_TO_CUSTOMER",
  "CARD_UPDATE_REQUESTED",
  "CARD_UPDATE_SENT",
  "CARD_UPDATE_ACCEPTED",
];

const ubo = fc.record({ name: personName, date_of_birth: dateOfBirth, nationality: countryCode });
const vatNumber = fc
  .tuple(countryCode, fc.integer({ min: 100_000_000, max: 999_999_999 }))
  .map(([country, n]) => ({ type: "VAT", country, value: `${country}${n}B01` }));
/** Values the target chooses (GAP-02, GAP-35, GAP-65): the profile's bodyValues; the defaults are the provider's. */
const chosen = BODY_VALUE_DEFAULTS;
const company = fc.record(
  {
    name: companyName,
    // GAP-02/GAP-65: allowed values are not shown, so only those the profile names (validBody puts them in).
    country: fc.constant(chosen.companyCountries[0]),
    legal_form: fc.constant(chosen.companyLegalForm),
    subscription_type: fc.constant(chosen.companySubscriptionType),
    chamber_of_commerce_number: chamberOfCommerceNumber,
    address_main: address,
    address_postal: address,
    ubo: fc.array(ubo, { minLength: 1, maxLength: 3 }),
    vat_number: vatNumber,
    vat_numbers: fc.array(vatNumber, { maxLength: 2 }),
  },
  // GAP-65: the provider also requires both addresses; a body without them may be refused (COMP-008 LENIENT).
  { requiredKeys: ["name", "country", "legal_form", "subscription_type", "address_main", "address_postal"] },
);
const companyInvalid = {
  wrongType: { req: "COMP-010", fields: ["name", "country", "legal_form", "subscription_type", "ubo", "address_main"] },
  freeText: ["name"],
};

export const BODIES = {
  "installation-request": {
    schema: "installation-request",
    valid: fc.constant({ client_public_key: RSA_PUBLIC_KEY_PEM }),
    missing: { req: "AUTH-002", fields: ["client_public_key"] },
    wrongType: { req: "AUTH-002", fields: ["client_public_key"] },
    freeText: [],
  },
  "device-server-request": {
    schema: "device-server-request",
    // No permitted_ips: a list without the caller's address may lock the caller's address out for every key (a legal
    // reading, blind round 2), and the error checks send these bodies from the address the other checks need.
    valid: fc.record({ description: shortText(30), secret: apiKeyLike }),
    missing: { req: "AUTH-021", fields: ["description", "secret"] },
    freeText: ["description"],
    // A permitted_ips list without the caller's address locks the key out for that address (AUTH-012).
    kept: ["permitted_ips"],
  },
  "session-server-request": {
    schema: "session-server-request",
    valid: fc.record({ secret: apiKeyLike }),
    missing: { req: "AUTH-018", fields: ["secret"] },
    freeText: [],
  },
  "company-create": {
    schema: "company-create",
    valid: company,
    missing: { req: "COMP-006", fields: ["name", "country", "legal_form", "subscription_type"] },
    ...companyInvalid,
  },
  "company-update": { schema: "company-update", valid: company, ...companyInvalid },
  "card-update": {
    schema: "card-update",
    valid: fc.record(
      {
        status: fc.constantFrom(...CARD_STATUSES),
        order_status: fc.constantFrom(...ORDER_STATUSES),
        pin_code: fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, "0")),
        activation_code: fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, "0")),
        monetary_account_id_fallback: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        preferred_name_on_card: nameOnCard,
        second_line: shortText(21),
        cancellation_reason: fc.constantFrom("LOST", "STOLEN", "NO_LONGER_NEEDED", "DAMAGED"),
      },
      { requiredKeys: [] },
    ),
    wrongType: { req: "CARD-012", fields: ["status", "second_line", "monetary_account_id_fallback"] },
    outsideEnum: { req: "CARD-010", field: "status" },
    freeText: ["preferred_name_on_card", "second_line"],
    // GAP-26: limits and country permissions can be changed; the embedded card names their members.
    unlisted: {
      gap: "GAP-26",
      members: {
        country_permission: [fc.constant([]), countryCode.map((country) => [{ country }])],
        card_limit: [fc.constantFrom("0.00", "0.01").map((value) => ({ value, currency: "EUR" }))],
        card_limit_atm: [fc.constantFrom("0.00", "0.01").map((value) => ({ value, currency: "EUR" }))],
      },
    },
  },
  "card-replace-request": {
    schema: "card-replace-request",
    valid: fc.record({ name_on_card: nameOnCard, preferred_name_on_card: nameOnCard, second_line: shortText(21) }, { requiredKeys: [] }),
    wrongType: { req: "REPL-007", fields: ["second_line"] },
    freeText: ["second_line", "preferred_name_on_card"],
  },
  "card-batch-replace-request": {
    schema: "card-batch-replace-request",
    valid: fc.record({
      cards: fc.array(
        fc.record(
          { id: fc.integer({ min: 1, max: 2 ** 31 - 1 }), name_on_card: nameOnCard, second_line: shortText(21) },
          { requiredKeys: ["id"] },
        ),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    missing: { req: "REPL-009", fields: ["cards"] },
    wrongType: { req: "REPL-009", fields: ["cards"] },
    freeText: [],
  },
  "category-user-defined-create": {
    schema: "category-user-defined-create",
    valid: fc.record(
      {
        // GAP-35: status values are not shown; the profile's categoryStatus (validBody puts it in).
        status: fc.constant(chosen.categoryStatus),
        category: fc.constantFrom("Groceries", "Travel", "Rent", "Subscriptions", "Eating out"),
        description: shortText(40),
        color: fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, "0").toUpperCase()}`),
        icon: fc.constantFrom("cart", "plane", "house", "music", "fork"),
      },
      { requiredKeys: ["status"] },
    ),
    missing: { req: "CAT-003", fields: ["status"] },
    wrongType: { req: "CAT-004", fields: ["status", "color", "category", "icon"] },
    freeText: ["description", "category"],
  },
  "certificate-pinned-create": {
    schema: "certificate-pinned-create",
    valid: fc.record({ certificate_chain: certificateChain }),
    missing: { req: "CERT-008", fields: ["certificate_chain"] },
    wrongType: { req: "CERT-008", fields: ["certificate_chain"] },
    freeText: [],
  },
  "challenge-request-update": {
    schema: "challenge-request-update",
    valid: fc.record({ status: fc.constantFrom("ACCEPTED_PENDING_RESPONSE", "REJECTED_PENDING_RESPONSE") }),
    missing: { req: "CHAL-007", fields: ["status"] },
    wrongType: { req: "CHAL-006", fields: ["status"] },
    outsideEnum: { req: "CHAL-006", field: "status" },
    freeText: [],
  },
  "oauth-callback-url-request": {
    schema: "oauth-callback-url-request",
    valid: fc.record({ url: httpsUrl }),
    missing: { req: "OCB-007", fields: ["url"] },
    wrongType: { req: "OCB-008", fields: ["url"] },
    freeText: [],
  },
  "share-invite-monetary-account-response-update": {
    schema: "share-invite-monetary-account-response-update",
    valid: fc.record(
      { status: fc.constantFrom("ACTIVE", "REVOKED", "REJECTED"), card_id: fc.integer({ min: 1, max: 2 ** 31 - 1 }) },
      { requiredKeys: [] },
    ),
    wrongType: { req: "SHARE-009", fields: ["status"] },
    outsideEnum: { req: "SHARE-009", field: "status" },
    freeText: [],
  },
  "ideal-merchant-transaction-create": {
    schema: "ideal-merchant-transaction-create",
    valid: fc.record({ amount_requested: amount, issuer: issuerBic }),
    missing: { req: "IDEAL-004", fields: ["amount_requested", "issuer"] },
    freeText: [],
  },
} satisfies Record<string, BodySpec>;

export type BodyName = keyof typeof BODIES;
export const BODY_NAMES = Object.keys(BODIES) as BodyName[];

/** The valid body arbitrary of a schema, carrying the target's own values where the specification shows none. */
export function validBody(name: BodyName, values: BodyValues = BODY_VALUE_DEFAULTS): fc.Arbitrary<Record<string, Json>> {
  return BODIES[name].valid.map((body) => withBodyValues(name, body, values));
}

/** A body with the profile's values in the fields whose allowed values are not shown (company and category bodies). */
function withBodyValues(name: BodyName, body: Record<string, Json>, values: BodyValues): Record<string, Json> {
  if (name === "company-create" || name === "company-update") {
    return {
      ...body,
      country: values.companyCountries[0],
      legal_form: values.companyLegalForm,
      subscription_type: values.companySubscriptionType,
    };
  }
  if (name === "category-user-defined-create") return { ...body, status: values.categoryStatus };
  return body;
}

function spec(name: BodyName): BodySpec {
  return BODIES[name];
}

/** A valid body without one of the required members a requirement names. */
export function missingRequired(name: BodyName): fc.Arbitrary<InvalidBody> | undefined {
  const { missing, valid } = spec(name);
  if (!missing) return undefined;
  return fc.tuple(valid, fc.constantFrom(...missing.fields)).map(([body, field]) => {
    const { [field]: _dropped, ...rest } = body;
    return { what: `without ${field}`, req: missing.req, field, json: rest };
  });
}

/** A valid body with one member set to a value of another JSON type (the type comes from the schema). */
export function wrongType(name: BodyName): fc.Arbitrary<InvalidBody> | undefined {
  const { wrongType: wrong, valid, schema } = spec(name);
  if (!wrong) return undefined;
  const { fields } = schemaFields(schema);
  const choices = wrong.fields.flatMap((field) => valuesNotOfType(fields[field]?.type ?? "string").map((v) => ({ field, ...v })));
  return fc.tuple(valid, fc.constantFrom(...choices)).map(([body, { field, type, value }]) => ({
    what:
      `with ${field} as ` +
      `${type === "integer" || type === "number" ? "a number" : `a${type === "array" || type === "object" ? "n" : ""} ${type}`} ` +
      `(${JSON.stringify(value)})`,
    req: wrong.req,
    field,
    json: { ...body, [field]: value },
  }));
}

/** Upper-case words that are none of the enum's values. */
function notIn(values: string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom("PENDING", "BLOCKED", "EXPIRED", "SUSPENDED", "ACCEPTED", "UNKNOWN", "ACTIVATED"),
      fc.stringMatching(/^[A-Z][A-Z_]{2,19}$/),
    )
    .filter((value) => !values.includes(value));
}

/** A valid body whose enum member holds a value outside the enum the schema lists. */
export function outsideEnum(name: BodyName): fc.Arbitrary<InvalidBody> | undefined {
  const { outsideEnum: outside, valid, schema } = spec(name);
  if (!outside) return undefined;
  const values = schemaFields(schema).fields[outside.field]?.enum ?? [];
  return fc.tuple(valid, notIn(values)).map(([body, value]) => ({
    what: `with ${outside.field} ${JSON.stringify(value)}, outside ${values.join(", ")}`,
    req: outside.req,
    field: outside.field,
    json: { ...body, [outside.field]: value },
  }));
}

/**
 * JSON that is not an object where the body must be one: an array (of valid bodies, as a confused
 * client might batch them), a string, a number or a boolean. Refused by the requirement for the
 * missing members (bodies with required members) or the wrong type (bodies without).
 */
export function notAnObject(name: BodyName): fc.Arbitrary<InvalidBody> | undefined {
  const { missing, wrongType: wrong, valid } = spec(name);
  const req = missing?.req ?? wrong?.req;
  if (!req) return undefined;
  return fc.oneof(
    fc.array(valid, { minLength: 0, maxLength: 2 }).map((json) => ({ what: "with a JSON array as body", req, json })),
    shortText(20).map((json) => ({ what: "with a JSON string as body", req, json })),
    fc.integer().map((json) => ({ what: "with a JSON number as body", req, json })),
    fc.boolean().map((json) => ({ what: "with a JSON boolean as body", req, json })),
  );
}

/**
 * Text that is not JSON, sent as application/json: a valid body cut short (a proper prefix of an
 * object's text is never JSON), or one of the usual hand-written mistakes.
 */
export function malformedJson(name: BodyName): fc.Arbitrary<InvalidBody> {
  const truncated = spec(name)
    .valid.map((body) => JSON.stringify(body))
    .chain((text) => fc.integer({ min: 1, max: text.length - 1 }).map((n) => text.slice(0, n)));
  const mistakes = fc.constantFrom(
    "{'status': 'ACTIVE'}",
    '{"status": "ACTIVE",}',
    '{"amount": NaN}',
    "{status: ACTIVE}",
    '{"a": 1} // note',
    "<xml/>",
    "undefined",
  );
  return fc.oneof(truncated, mistakes).map((raw) => ({
    what: `with the malformed JSON ${JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw)}`,
    req: "ERR-005",
    raw,
  }));
}

/** No body at all, sent as application/json: every required member is missing (only where there are any). */
export function emptyBody(name: BodyName): fc.Arbitrary<InvalidBody> | undefined {
  const { missing } = spec(name);
  return missing && fc.constant({ what: "with an empty body", req: missing.req, raw: "" });
}

/** Structured invalid bodies only (no malformed text): each must fail its schema. */
export function invalidJsonBody(name: BodyName): fc.Arbitrary<InvalidBody> | undefined {
  const kinds = [missingRequired(name), wrongType(name), outsideEnum(name), notAnObject(name)].filter(
    (a): a is fc.Arbitrary<InvalidBody> => a !== undefined,
  );
  return kinds.length === 0 ? undefined : fc.oneof(...kinds);
}

/**
 * A valid body cut down to its required members plus one free-text member holding an oversized string
 * (so nothing else in it can be refused), or undefined when the schema has no free-text member.
 */
export function oversizedBody(name: BodyName): fc.Arbitrary<{ what: string; json: Record<string, Json> }> | undefined {
  const { freeText, valid, schema } = spec(name);
  if (freeText.length === 0) return undefined;
  const { required } = schemaFields(schema);
  return fc.tuple(valid, fc.constantFrom(...freeText), oversizedText).map(([body, field, text]) => ({
    what: `with ${field} of ${text.length} characters`,
    json: { ...Object.fromEntries(required.map((key) => [key, body[key]])), [field]: text },
  }));
}

/** A valid body's one member set to `value`, a plausible value out of the ordinary; `what` says which and how. */
export interface UnusualMember {
  what: string;
  field: string;
  value: Json;
}

/**
 * Unusual values of each JSON type that are still plausible: an odd short string, 0, a negative, 2^31, an empty array.
 * The strings stay under 8 characters: sent as a secret (device-server's secret), a value must never show in a report,
 * and the same string sent as a name elsewhere in the run would.
 */
const UNUSUAL: Record<JsonType, fc.Arbitrary<Json>> = {
  string: fc.constantFrom("", "blue", "Zoë 東京", "a,b"),
  integer: fc.constantFrom(0, -1, 2 ** 31),
  number: fc.constantFrom(0, -1, 2 ** 31),
  boolean: fc.boolean(),
  array: fc.constant([]),
  object: fc.constant({}),
  null: fc.constant(null),
};

/** A plausible text with a character outside the Basic Multilingual Plane: what a user types on a phone. */
const ASTRAL = "Groceries 🛒";

const aJsonType = (type: JsonType) => (type === "integer" || type === "number" ? "a number" : `a${/^[ao]/.test(type) ? "n" : ""} ${type}`);

/**
 * Every member of a request schema (but the kept ones), each with an unusual value of its own JSON type and, where no
 * requirement makes another type a certain refusal (the spec's wrongType), one of another type; then the unlisted
 * members a gap names, with theirs. The whole list comes as one value, so a sweep sends every member (the seed picks
 * the values, never whether a member is tried).
 */
export function unusualMembers(name: BodyName): fc.Arbitrary<UnusualMember[]> {
  const { schema, wrongType: wrong, unlisted, kept = [] } = spec(name);
  const cases: fc.Arbitrary<UnusualMember>[] = [];
  for (const [field, { type }] of Object.entries(schemaFields(schema).fields)) {
    if (kept.includes(field)) continue;
    cases.push(UNUSUAL[type].map((value) => ({ what: `with ${field} ${JSON.stringify(value)}`, field, value })));
    // Every text also meets a character beyond the Basic Multilingual Plane (a UTF-16 surrogate pair), in every run.
    // The field's name in the text: a value sent as a secret (device-server's) is found nowhere else in the reports.
    const astral = `${ASTRAL} ${field}`;
    if (type === "string") cases.push(fc.constant({ what: `with ${field} ${JSON.stringify(astral)} (an emoji)`, field, value: astral }));
    if (wrong?.fields.includes(field)) continue;
    const other = fc.constantFrom(...valuesNotOfType(type));
    cases.push(
      other.map((v) => ({
        what: `with ${field} ${JSON.stringify(v.value)} (${aJsonType(v.type)} for the schema's ${type}; no requirement refuses it)`,
        field,
        value: v.value,
      })),
    );
  }
  for (const [field, values] of Object.entries(unlisted?.members ?? {}))
    for (const value of values)
      cases.push(
        value.map((v) => ({
          what: `with ${field} ${JSON.stringify(v)} (a member the schema leaves out; ${unlisted!.gap})`,
          field,
          value: v,
        })),
      );
  return fc.tuple(...cases);
}

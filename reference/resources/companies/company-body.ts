import { badRequest } from "../../http-error.js";

/** Shapes of the Company body (spec: Endpoints > Companies; shared objects Address, UBO, VatNumber). */
export type Strings = Record<string, string>;

export interface CompanyBody {
  name: string;
  country: string;
  legal_form: string;
  subscription_type: string;
  chamber_of_commerce_number?: string;
  avatar_uuid?: string;
  signup_track_type?: string;
  address_main?: Strings;
  address_postal?: Strings;
  ubo?: Strings[];
  vat_number?: Strings;
  vat_numbers?: Strings[];
}

const REQUIRED = ["name", "country", "legal_form", "subscription_type"] as const;
const OPTIONAL = ["chamber_of_commerce_number", "avatar_uuid", "signup_track_type"] as const;
const ADDRESS = ["street", "house_number", "po_box", "postal_code", "city", "country", "extra", "mailbox_name"];
const UBO = ["name", "date_of_birth", "nationality"];
const VAT = ["type", "country", "value"];

export interface CompanyBodyOptions {
  /** Required fields whose absence is let through (faults only). */
  notRequired?: readonly string[];
  /** Fields whose JSON type is not checked (faults only). */
  typeUnchecked?: readonly string[];
  /** Sample-only fields a faulty server refuses. */
  refused?: readonly string[];
  /** A required field sent as null counts as given and is stored as null (faults only). */
  nullAccepted?: boolean;
  /** A number or boolean sent for a string field is stored as its string (variant company-scalars-coerced). */
  coerceScalars?: boolean;
  /** An address without street is refused (variant company-address-street-required). */
  streetRequired?: boolean;
  /** Address members sent as "" are dropped (variant r3-company-address-empty-members-dropped, blind round 3, ruled open). */
  emptyMembersDropped?: boolean;
  /** A house_number sent as a JSON number is stored as sent (fault r4-company-house-number-number-accepted). */
  numericHouseNumber?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** An object whose listed members are optional strings (Address, UBO, VatNumber); other members are ignored. */
function stringObject(value: unknown, field: string, members: string[], emptyDropped = false, numericHouseNumber = false): Strings {
  if (!isObject(value)) throw badRequest(`Field ${field} must be an object.`);
  const out: Strings = {};
  for (const member of members) {
    const v = value[member];
    if (v === undefined || v === null) continue;
    // Variant r3-company-address-empty-members-dropped (blind round 3, ruled open): the "skip what was not sent" test is
    // `if (!v)`, so "" is skipped too.
    if (emptyDropped && v === "") continue;
    // Fault r4-company-house-number-number-accepted: the validator lets "a string or a number" through for house numbers.
    if (numericHouseNumber && member === "house_number" && typeof v === "number") {
      out[member] = v as unknown as string;
      continue;
    }
    if (typeof v !== "string") throw badRequest(`Field ${field}.${member} must be a string.`);
    out[member] = v;
  }
  return out;
}

function stringObjects(value: unknown, field: string, members: string[]): Strings[] {
  if (!Array.isArray(value)) throw badRequest(`Field ${field} must be an array.`);
  return value.map((entry, i) => stringObject(entry, `${field}[${i}]`, members));
}

const scalar = (v: unknown): v is number | boolean => typeof v === "number" || typeof v === "boolean";

/** Validates a create or update body; refusals are 400 with the field named. */
export function parseCompanyBody(body: Record<string, unknown>, options: CompanyBodyOptions = {}): CompanyBody {
  const unchecked = new Set(options.typeUnchecked ?? []);
  const out: Record<string, unknown> = {};
  const given = (field: string) => (options.coerceScalars && scalar(body[field]) ? String(body[field]) : body[field]);
  for (const field of REQUIRED) {
    const v = given(field);
    if (v === null && options.nullAccepted) {
      out[field] = v;
      continue;
    }
    if (v === undefined || v === null || v === "") {
      if (options.notRequired?.includes(field)) continue;
      throw badRequest(`Field ${field} is required.`);
    }
    if (typeof v !== "string" && !unchecked.has(field)) throw badRequest(`Field ${field} must be a string.`);
    out[field] = v;
  }
  for (const field of OPTIONAL) {
    const v = given(field);
    if (v === undefined || v === null) continue;
    if (typeof v !== "string" && !unchecked.has(field)) throw badRequest(`Field ${field} must be a string.`);
    out[field] = v;
  }
  for (const field of options.refused ?? []) {
    if (body[field] !== undefined) throw badRequest(`Field ${field} is not supported.`);
  }
  const address = (v: unknown, field: string) =>
    streetChecked(stringObject(v, field, ADDRESS, options.emptyMembersDropped, options.numericHouseNumber), field, options);
  const objects: [string, (v: unknown) => unknown][] = [
    ["address_main", (v) => address(v, "address_main")],
    ["address_postal", (v) => address(v, "address_postal")],
    ["ubo", (v) => stringObjects(v, "ubo", UBO)],
    ["vat_number", (v) => stringObject(v, "vat_number", VAT)],
    ["vat_numbers", (v) => stringObjects(v, "vat_numbers", VAT)],
  ];
  for (const [field, parse] of objects) {
    const v = body[field];
    if (v === undefined || v === null) continue;
    out[field] = unchecked.has(field) ? v : parse(v);
  }
  return out as unknown as CompanyBody;
}

/** Every Address member is optional; the fault's validator takes an address without street (a PO box) for an incomplete one. */
function streetChecked(address: Strings, field: string, options: CompanyBodyOptions): Strings {
  // Variant company-address-street-required (blind round 2, ruled open): a 400 for an address that has no street.
  if (options.streetRequired && !address.street) throw badRequest(`Field ${field}.street is required.`);
  return address;
}

// Self-test of the JSON Schemas in schemas/ and of the loader in harness/schemas.ts.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createAjv } from "../harness/ajv.js";
import { loadSchema, schemaNames, schemaPath, unknownProperties, validateSchema, validatorsKept } from "../harness/schemas.js";

const SCHEMA_DIR = new URL("../schemas/", import.meta.url);
const FIXTURE_DIR = new URL("./fixtures/reference-data/", import.meta.url);
const ID_BASE = "https://banking-conformance.test/schemas/";

type Json = Record<string, unknown>;

function readJson(url: URL): unknown {
  return JSON.parse(readFileSync(fileURLToPath(url), "utf8"));
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Remove the member at a JSON pointer such as "/cards/0/id"; returns the changed copy. */
function without(data: unknown, pointer: string): unknown {
  const copy = clone(data);
  const tokens = pointer.split("/").slice(1);
  const last = tokens.pop() as string;
  let node: unknown = copy;
  for (const t of tokens) node = (node as Record<string, unknown>)[t];
  delete (node as Record<string, unknown>)[last];
  return copy;
}

// ------------------------------------------------------------------ the schemas this file is about

const ENVELOPE_PIECES = ["envelope", "list-envelope", "id", "pagination", "error"];
const SHARED = [
  "amount",
  "address-request",
  "address-response",
  "avatar",
  "label-user",
  "alias",
  "ubo",
  "vat-number",
  "embedded-card",
  "company-employee-card",
  "relation",
];

/** Request bodies: a valid sample with every optional member the schema declares, and the pointers that are required. */
interface RequestCase {
  schema: string;
  sample: Json;
  required: string[];
}
const REQUESTS: RequestCase[] = [
  {
    schema: "installation-request",
    sample: { client_public_key: "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n" },
    required: ["/client_public_key"],
  },
  {
    schema: "device-server-request",
    sample: { description: "conformance runner", secret: "sandbox_key", permitted_ips: ["127.0.0.1", "*"] },
    required: ["/description", "/secret"],
  },
  { schema: "session-server-request", sample: { secret: "sandbox_key" }, required: ["/secret"] },
  { schema: "sandbox-user-request", sample: {}, required: [] },
  {
    schema: "company-create",
    sample: {
      name: "Acme B.V.",
      country: "NL",
      legal_form: "BV",
      subscription_type: "COMPANY_V1",
      chamber_of_commerce_number: "12345678",
      avatar_uuid: "0c245e21-e3bc-4bab-8880-7ca6d09691b5",
      signup_track_type: "DEFAULT",
      address_main: { street: "Main street", house_number: "1", postal_code: "1000 AA", city: "Amsterdam", country: "NL" },
      address_postal: { po_box: "12", postal_code: "1000 AB", city: "Amsterdam", country: "NL", mailbox_name: "Acme" },
      ubo: [{ name: "A. Owner", date_of_birth: "1980-01-01", nationality: "NL" }],
      vat_number: { type: "VAT", country: "NL", value: "NL000099998B57" },
      vat_numbers: [{ type: "VAT", country: "NL", value: "NL000099998B57" }],
    },
    required: ["/name", "/country", "/legal_form", "/subscription_type"],
  },
  {
    schema: "company-update",
    sample: {
      name: "Acme Holding B.V.",
      country: "NL",
      legal_form: "BV",
      subscription_type: "COMPANY_V2",
      chamber_of_commerce_number: "12345678",
    },
    required: ["/name", "/country", "/legal_form", "/subscription_type"],
  },
  {
    schema: "card-update",
    sample: {
      pin_code: "1234",
      activation_code: "000000",
      status: "ACTIVE",
      order_status: "CARD_REQUEST_PENDING",
      monetary_account_id_fallback: 12,
      preferred_name_on_card: "J. Doe",
      second_line: "Groceries",
      cancellation_reason: "lost in transit",
    },
    required: [],
  },
  {
    schema: "card-replace-request",
    sample: { name_on_card: "JOHN DOE", preferred_name_on_card: "J. Doe", second_line: "New" },
    required: [],
  },
  {
    schema: "card-batch-replace-request",
    sample: { cards: [{ id: 7, name_on_card: "JOHN DOE", second_line: "Travel" }] },
    required: ["/cards", "/cards/0/id"],
  },
  {
    schema: "certificate-pinned-create",
    sample: { certificate_chain: [{ certificate: "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n" }] },
    required: ["/certificate_chain", "/certificate_chain/0/certificate"],
  },
  { schema: "oauth-callback-url-request", sample: { url: "https://client.example/callback" }, required: ["/url"] },
  { schema: "share-invite-monetary-account-response-update", sample: { status: "ACTIVE", card_id: 7 }, required: [] },
  {
    schema: "category-user-defined-create",
    sample: { status: "ACTIVE", category: "Lunch", description: "Team lunches", color: "#FE2851", icon: "fork" },
    required: ["/status"],
  },
  { schema: "challenge-request-update", sample: { status: "ACCEPTED_PENDING_RESPONSE" }, required: ["/status"] },
  {
    schema: "ideal-merchant-transaction-create",
    sample: { amount_requested: { value: "10.00", currency: "EUR" }, issuer: "BUNQNL2A" },
    required: ["/amount_requested", "/issuer", "/amount_requested/value", "/amount_requested/currency"],
  },
];

/** Response objects ("read forms"): a minimal valid sample of each. */
const READ_FORMS: { schema: string; sample: Json }[] = [
  { schema: "id", sample: { id: 1 } },
  { schema: "token", sample: { id: 1, created: "2024-01-01 00:00:00.000000", updated: "2024-01-01 00:00:00.000000", token: "abc" } },
  { schema: "server-public-key", sample: { server_public_key: "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n" } },
  { schema: "session-user", sample: { id: 42 } },
  { schema: "api-key", sample: { api_key: "sandbox_key" } },
  { schema: "company", sample: { id: 3 } },
  { schema: "embedded-card", sample: {} },
  { schema: "card", sample: { id: 7, status: "ACTIVE", order_status: "ACCEPTED_FOR_PRODUCTION" } },
  { schema: "card-batch-replace", sample: { updated_card_ids: [{ id: 7 }] } },
  { schema: "attachment-user", sample: { id: 5 } },
  { schema: "certificate-pinned", sample: { id: 2, certificate_chain: "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----" } },
  { schema: "oauth-callback-url", sample: { url: "https://client.example/callback" } },
  { schema: "share-invite-monetary-account-response", sample: { id: 9, status: "ACTIVE" } },
  { schema: "challenge-request", sample: { status: "ACCEPTED_PENDING_RESPONSE" } },
  { schema: "feature-announcement", sample: {} },
  { schema: "ideal-merchant-transaction", sample: { status: "SUCCESS" } },
];

const WRITE_ONLY: { field: string; value: unknown }[] = [
  { field: "pin_code", value: "1234" },
  { field: "activation_code", value: "000000" },
  { field: "cancellation_reason", value: "stolen" },
  { field: "card_id", value: 7 },
];
const FORBIDDEN = "must not be present (the schema forbids this property)";

/** Tool configuration schemas written alongside ours; they are only compiled here. */
const TOOL_CONFIG = new Set(["targets", "requirements", "expectations"]);

/**
 * Every payload schema: envelope pieces and shared objects, plus requests and read forms (some read forms are also envelope pieces or
 * shared).
 */
const OWNED = [...new Set([...ENVELOPE_PIECES, ...SHARED, ...REQUESTS.map((r) => r.schema), ...READ_FORMS.map((r) => r.schema)])];

// ------------------------------------------------------------------ (a) compilation and ids

describe("schema files", () => {
  const files = readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith(".schema.json"))
    .sort();

  function compileCase(file: string): void {
    it(`${file} compiles with ajv in strict mode and its $id names the file`, () => {
      const ajv = createAjv();
      for (const other of files) if (other !== file) ajv.addSchema(readJson(new URL(other, SCHEMA_DIR)) as Json);
      const schema = readJson(new URL(file, SCHEMA_DIR)) as Json;
      expect(schema.$schema, "$schema").toBe("https://json-schema.org/draft/2020-12/schema");
      expect(schema.$id, "$id").toBe(`${ID_BASE}${file}`);
      expect(() => ajv.compile(schema), `compiling ${file}`).not.toThrow();
    });
  }
  for (const file of files) compileCase(file);

  it("every payload schema this suite relies on exists and has a title and a description, and no schema is left unclassified", () => {
    const names = schemaNames();
    for (const name of OWNED) {
      expect(names, `schemas/${name}.schema.json`).toContain(name);
      const schema = loadSchema(name);
      expect(typeof schema.title, `${name} title`).toBe("string");
      expect(typeof schema.description, `${name} description`).toBe("string");
    }
    const unclassified = names.filter((n) => !OWNED.includes(n) && !TOOL_CONFIG.has(n));
    expect(unclassified, "a new schema must be added to a table in this test").toEqual([]);
    const requests = new Set(REQUESTS.map((r) => r.schema));
    expect(
      READ_FORMS.filter((r) => requests.has(r.schema)),
      "a schema is either a request or a read form",
    ).toEqual([]);
  });

  it("the validators kept on disk (ajv's standalone code) judge exactly as ajv compiling the schemas: same verdicts, same places", () => {
    const ajv = createAjv();
    for (const file of files) ajv.addSchema(readJson(new URL(file, SCHEMA_DIR)) as Json);
    // Every object and array in the provider's payloads, and a few that fit nothing.
    const samples: unknown[] = [{}, [], null, "x", 1, { id: "1" }, { value: "1.00", currency: 1 }];
    const walk = (value: unknown): void => {
      if (typeof value !== "object" || value === null) return;
      samples.push(value);
      for (const child of Object.values(value)) walk(child);
    };
    for (const file of readdirSync(FIXTURE_DIR).filter((f) => f.endsWith(".json"))) walk(readJson(new URL(file, FIXTURE_DIR)));
    let refused = 0;
    for (const file of files) {
      const name = file.slice(0, -".schema.json".length);
      const compiled = ajv.getSchema(`${ID_BASE}${file}`)!;
      for (const sample of samples) {
        const kept = validateSchema(name, sample);
        const valid = compiled(sample);
        const places = [...new Set((compiled.errors ?? []).map((e) => (e.instancePath === "" ? "(root)" : e.instancePath)))];
        expect(
          { valid: kept.valid, places: [...new Set(kept.errors.map((e) => e.split(" ")[0]))] },
          `${name}: ${JSON.stringify(sample)}`,
        ).toEqual({
          valid,
          places,
        });
        if (!valid) refused++;
      }
    }
    expect(refused, "some samples must be refused").toBeGreaterThan(100);
    expect(validatorsKept(), "the validators judged above come from the kept code").toBe(true);
  });

  it("schemaPath gives the absolute path of the schema file", () => {
    expect(schemaPath("card")).toBe(fileURLToPath(new URL("card.schema.json", SCHEMA_DIR)));
  });

  it("validateSchema refuses an unknown schema name with a message naming it", () => {
    expect(() => validateSchema("no-such-schema", {})).toThrow(/no-such-schema/);
  });
});

// ------------------------------------------------------------------ (b) real payloads from the provider

const FIXTURES: { fixture: string; schema: string }[] = [
  { fixture: "envelope-id.json", schema: "envelope" },
  { fixture: "envelope-data-object.json", schema: "envelope" },
  { fixture: "id.json", schema: "id" },
  { fixture: "error.json", schema: "error" },
  { fixture: "pagination.json", schema: "pagination" },
  { fixture: "share-invite-monetary-account-response.json", schema: "share-invite-monetary-account-response" },
  { fixture: "alias.json", schema: "alias" },
  { fixture: "avatar.json", schema: "avatar" },
  { fixture: "avatar-unanchored.json", schema: "avatar" },
  { fixture: "amount.json", schema: "amount" },
  { fixture: "label-user.json", schema: "label-user" },
  { fixture: "label-user-merchant.json", schema: "label-user" },
];

/**
 * Where the provider's real payloads legitimately differ from our schemas. Each row is one error
 * line that validateSchema must report for that fixture; a fixture must show exactly its rows.
 */
const DEVIATIONS: { fixture: string; schema: string; error: string; why: string }[] = [
  {
    fixture: "avatar-unanchored.json",
    schema: "avatar",
    error: "/anchor_uuid must be string",
    why:
      "The provider sends anchor_uuid null for an avatar that is not anchored to an object. The spec types it as a string and does " +
      "not make it nullable.",
  },
  {
    fixture: "label-user-merchant.json",
    schema: "label-user",
    error: "/uuid must be string",
    why: "For a merchant counterparty that is not a user, the provider sends a label with uuid null. The spec types uuid as a string.",
  },
  {
    fixture: "label-user-merchant.json",
    schema: "label-user",
    error: "/avatar must be object",
    why: "The same merchant label has avatar null. The spec types avatar as an Avatar object.",
  },
  {
    fixture: "share-invite-monetary-account-response.json",
    schema: "share-invite-monetary-account-response",
    error: "/draft_share_invite_bank_id must be integer",
    why:
      "The provider sends draft_share_invite_bank_id null for an invitation without a draft. The spec types it as an integer, and " +
      "only monetary_account_id is nullable (spec table and wire-conventions).",
  },
];

describe("provider payloads", () => {
  it("every fixture file is listed in the fixture table", () => {
    const files = readdirSync(FIXTURE_DIR)
      .filter((f) => f.endsWith(".json"))
      .sort();
    expect(files).toEqual(FIXTURES.map((f) => f.fixture).sort());
  });

  function fixtureCase(row: { fixture: string; schema: string }): void {
    const expected = DEVIATIONS.filter((d) => d.fixture === row.fixture && d.schema === row.schema).map((d) => d.error);
    const title =
      expected.length === 0
        ? `${row.fixture} validates against ${row.schema}`
        : `${row.fixture} differs from ${row.schema} exactly by the ${expected.length} recorded deviation(s)`;
    it(title, () => {
      const data = readJson(new URL(row.fixture, FIXTURE_DIR));
      const result = validateSchema(row.schema, data);
      expect([...result.errors].sort(), `errors of ${row.fixture} against ${row.schema}`).toEqual([...expected].sort());
      expect(result.valid, "valid flag agrees with the error list").toBe(expected.length === 0);
    });
  }
  for (const row of FIXTURES) fixtureCase(row);

  it("every recorded deviation belongs to a listed fixture and schema", () => {
    for (const d of DEVIATIONS) {
      expect(FIXTURES, `${d.fixture} / ${d.schema}`).toContainEqual({ fixture: d.fixture, schema: d.schema });
    }
  });

  it("unknownProperties lists the share invite members the provider sends beyond the spec's table", () => {
    const data = readJson(new URL("share-invite-monetary-account-response.json", FIXTURE_DIR));
    expect(unknownProperties("share-invite-monetary-account-response", data).sort()).toEqual([
      "/counter_alias",
      "/share_detail",
      "/user_alias_cancelled",
    ]);
  });

  it("unknownProperties follows $ref into nested objects and arrays and leaves opaque objects alone", () => {
    const card = {
      id: 7,
      status: "ACTIVE",
      order_status: "DELIVERED_TO_CUSTOMER",
      type: "MAESTRO",
      card_limit: { value: "100.00", currency: "EUR", extra: true },
      pin_code_assignment: [{ type: "PRIMARY", monetary_account_id: 1, routing_type: "MANUAL", colour: "red" }],
    };
    expect(unknownProperties("card", card).sort()).toEqual(["/card_limit/extra", "/pin_code_assignment/0/colour", "/type"]);
    const list = {
      Response: [{ CertificatePinned: { id: 1, certificate_chain: "x", note: "opaque here" } }],
      Pagination: { future_url: null, newer_url: null, older_url: null, first_url: null },
    };
    expect(unknownProperties("list-envelope", list)).toEqual(["/Pagination/first_url"]);
    expect(unknownProperties("address-response", { street: "a", province: "b", floor: "3" })).toEqual(["/floor"]);
  });
});

// ------------------------------------------------------------------ (c) write-only fields

describe("write-only fields", () => {
  function readFormCase(row: { schema: string; sample: Json }): void {
    it(`${row.schema}: the sample is valid and each write-only field added to it is rejected`, () => {
      expect(validateSchema(row.schema, row.sample).errors, "sample").toEqual([]);
      for (const { field, value } of WRITE_ONLY) {
        // The spec makes card_id write-only on share invites only; the provider's challenge request shows it (spec/gaps.md).
        if (row.schema === "challenge-request" && field === "card_id") continue;
        const result = validateSchema(row.schema, { ...clone(row.sample), [field]: value });
        expect(result.valid, `${row.schema} with ${field}`).toBe(false);
        expect(result.errors, `${row.schema} with ${field}`).toEqual([`/${field} ${FORBIDDEN}`]);
      }
    });
  }
  for (const row of READ_FORMS) readFormCase(row);

  it("a pin_code inside a card's pin_code_assignment entry is rejected", () => {
    const card = {
      id: 7,
      status: "ACTIVE",
      order_status: "DELIVERED_TO_CUSTOMER",
      pin_code_assignment: [{ type: "PRIMARY", pin_code: "1234" }],
    };
    expect(validateSchema("card", card).errors).toEqual([`/pin_code_assignment/0/pin_code ${FORBIDDEN}`]);
  });

  it("a write-only field on a card embedded in a company relation is rejected", () => {
    const company = {
      id: 3,
      relations: [{ all_company_employee_card: [{ status: "ACTIVE", card: { status: "ACTIVE", cancellation_reason: "x" } }] }],
    };
    expect(validateSchema("company", company).errors).toEqual([
      `/relations/0/all_company_employee_card/0/card/cancellation_reason ${FORBIDDEN}`,
    ]);
  });
});

// ------------------------------------------------------------------ (d) request bodies

describe("request bodies", () => {
  function requestCase(row: RequestCase): void {
    it(`${row.schema}: the full sample is valid, removing a required member fails and removing an optional one does not`, () => {
      expect(validateSchema(row.schema, row.sample).errors, "full sample").toEqual([]);
      for (const pointer of row.required) {
        const result = validateSchema(row.schema, without(row.sample, pointer));
        expect(result.valid, `without ${pointer}`).toBe(false);
        const member = pointer.split("/").pop() as string;
        expect(
          result.errors.some((e) => e.endsWith(`must have required property '${member}'`)),
          `without ${pointer}: ${result.errors.join("; ")}`,
        ).toBe(true);
      }
      for (const key of Object.keys(row.sample)) {
        if (row.required.includes(`/${key}`)) continue;
        expect(validateSchema(row.schema, without(row.sample, `/${key}`)).errors, `without optional /${key}`).toEqual([]);
      }
    });
  }
  for (const row of REQUESTS) requestCase(row);
});

// ------------------------------------------------------------------ selected rules, data-driven

const RULES: { description: string; schema: string; data: unknown; valid: boolean }[] = [
  {
    description: "a card update with a status outside the spec's five values is rejected",
    schema: "card-update",
    data: { status: "EXPIRED" },
    valid: false,
  },
  {
    description: "a card read form with a status outside the spec's five values is rejected",
    schema: "card",
    data: { id: 1, status: "PIN_TRIES_EXCEEDED", order_status: "DELIVERED_TO_CUSTOMER" },
    valid: false,
  },
  {
    description: "a card read form with an order status the spec does not list is accepted",
    schema: "card",
    data: { id: 1, status: "ACTIVE", order_status: "VIRTUAL_DELIVERY" },
    valid: true,
  },
  { description: "a card read form without order_status is rejected", schema: "card", data: { id: 1, status: "ACTIVE" }, valid: false },
  {
    description: "a card whose id is a string is rejected",
    schema: "card",
    data: { id: "1", status: "ACTIVE", order_status: "DELIVERED_TO_CUSTOMER" },
    valid: false,
  },
  {
    description: "a challenge answer other than the two PUT values is rejected",
    schema: "challenge-request-update",
    data: { status: "ACCEPTED" },
    valid: false,
  },
  {
    description: "a share invite PUT with status PENDING is rejected",
    schema: "share-invite-monetary-account-response-update",
    data: { status: "PENDING" },
    valid: false,
  },
  {
    description: "a share invite PUT with a string card_id is rejected",
    schema: "share-invite-monetary-account-response-update",
    data: { card_id: "7" },
    valid: false,
  },
  {
    description: "a share invite read form with monetary_account_id null is accepted",
    schema: "share-invite-monetary-account-response",
    data: { id: 1, status: "ACTIVE", monetary_account_id: null },
    valid: true,
  },
  {
    description: "a share invite read form with an access type the spec does not list is rejected",
    schema: "share-invite-monetary-account-response",
    data: { id: 1, status: "ACTIVE", access_type: "ALL" },
    valid: false,
  },
  {
    description: "a pinned chain create with an empty chain is rejected",
    schema: "certificate-pinned-create",
    data: { certificate_chain: [] },
    valid: false,
  },
  {
    description: "a pinned chain read form whose chain is an array is rejected",
    schema: "certificate-pinned",
    data: { id: 1, certificate_chain: [{ certificate: "x" }] },
    valid: false,
  },
  {
    description: "a pagination object missing future_url is rejected",
    schema: "pagination",
    data: { newer_url: null, older_url: null },
    valid: false,
  },
  {
    description: "a pagination link that is a number is rejected",
    schema: "pagination",
    data: { future_url: null, newer_url: 5, older_url: null },
    valid: false,
  },
  { description: "an error body with an empty Error array is rejected", schema: "error", data: { Error: [] }, valid: false },
  {
    description: "an error entry without error_description_translated is rejected",
    schema: "error",
    data: { Error: [{ error_description: "x" }] },
    valid: false,
  },
  {
    description: "an envelope element with two type keys is rejected",
    schema: "envelope",
    data: { Response: [{ Id: { id: 1 }, Token: { token: "t" } }] },
    valid: false,
  },
  { description: "an empty Response array (a delete) is a valid envelope", schema: "envelope", data: { Response: [] }, valid: true },
  { description: "a list envelope without Pagination is rejected", schema: "list-envelope", data: { Response: [] }, valid: false },
  {
    description: "a list envelope with all links null is accepted",
    schema: "list-envelope",
    data: { Response: [], Pagination: { future_url: null, newer_url: null, older_url: null } },
    valid: true,
  },
  { description: "a token without its token string is rejected", schema: "token", data: { id: 1 }, valid: false },
  {
    description: "a server public key that is not PEM is rejected",
    schema: "server-public-key",
    data: { server_public_key: "abc" },
    valid: false,
  },
  { description: "a session user with a string id is rejected", schema: "session-user", data: { id: "42" }, valid: false },
  { description: "an amount without currency is rejected", schema: "amount", data: { value: "1.00" }, valid: false },
  {
    description: "a company whose address has a non-boolean is_user_address_updated is rejected",
    schema: "company",
    data: { id: 1, address_main: { is_user_address_updated: "yes" } },
    valid: false,
  },
  {
    description: "a card batch replace result whose ids are plain integers is rejected",
    schema: "card-batch-replace",
    data: { updated_card_ids: [7] },
    valid: false,
  },
];

describe("selected rules", () => {
  function ruleCase(row: (typeof RULES)[number]): void {
    it(row.description, () => {
      const result = validateSchema(row.schema, row.data);
      expect(result.valid, result.errors.join("; ")).toBe(row.valid);
      expect(result.errors.length === 0, "errors are empty exactly when valid").toBe(row.valid);
    });
  }
  for (const row of RULES) ruleCase(row);

  it("an enum failure names the allowed values on one readable line", () => {
    expect(validateSchema("card-update", { status: "EXPIRED" }).errors).toEqual([
      "/status must be equal to one of the allowed values (ACTIVE, DEACTIVATED, LOST, STOLEN, CANCELLED)",
    ]);
  });

  it("a missing required member at the root is reported against (root)", () => {
    expect(validateSchema("oauth-callback-url-request", {}).errors).toEqual(["(root) must have required property 'url'"]);
  });

  it("a company relation's user_id and counter_user_id pass as strings and as integers, nothing else", () => {
    for (const id of ["17", 17])
      expect(validateSchema("company", { id: 1, relations: [{ user_id: id, counter_user_id: id }] }).errors, JSON.stringify(id)).toEqual(
        [],
      );
    expect(validateSchema("company", { id: 1, relations: [{ user_id: true }] }).valid).toBe(false);
  });
});

// ------------------------------------------------------------------ null for unset (answers)

describe("nullAsUnset: a member sent as null reads as one left out", () => {
  it("is off by default: a null where the schema wants a string fails", () => {
    const result = validateSchema("company", { id: 1, chamber_of_commerce_number: null });
    expect(result.errors).toEqual(["/chamber_of_commerce_number must be string"]);
    expect(result.nulls).toEqual([]);
  });

  it("accepts null for optional members at any depth and lists where", () => {
    const company = {
      id: 1,
      deny_reason: null,
      address_shipping: null,
      billing_contract: [{ id: 2, contract_date_end: null }],
      avatar: { uuid: "u", anchor_uuid: null },
    };
    const result = validateSchema("company", company, { nullAsUnset: true });
    expect(result.errors).toEqual([]);
    expect([...result.nulls].sort()).toEqual([
      "/address_shipping",
      "/avatar/anchor_uuid",
      "/billing_contract/0/contract_date_end",
      "/deny_reason",
    ]);
  });

  it("keeps required members required: a required member sent as null fails its type", () => {
    expect(validateSchema("company", { id: null, name: null }, { nullAsUnset: true }).errors).toEqual(["/id must be integer"]);
    expect(validateSchema("token", { id: 1, token: null }, { nullAsUnset: true }).valid).toBe(false);
  });

  it("keeps write-only members forbidden, even as null", () => {
    expect(validateSchema("company", { id: 1, pin_code: null }, { nullAsUnset: true }).errors).toEqual([`/pin_code ${FORBIDDEN}`]);
  });

  it("does not list nulls the schema takes as they are", () => {
    const result = validateSchema(
      "share-invite-monetary-account-response",
      { id: 1, status: "ACTIVE", monetary_account_id: null },
      { nullAsUnset: true },
    );
    expect(result).toEqual({ valid: true, errors: [], nulls: [] });
  });

  it("reads the provider's recorded null deviations as unset", () => {
    for (const fixture of ["avatar-unanchored.json", "label-user-merchant.json", "share-invite-monetary-account-response.json"]) {
      const row = FIXTURES.find((f) => f.fixture === fixture)!;
      expect(validateSchema(row.schema, readJson(new URL(fixture, FIXTURE_DIR)), { nullAsUnset: true }).errors, fixture).toEqual([]);
    }
  });
});

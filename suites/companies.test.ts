// Companies (banking-api.md "Endpoints > Companies", "Resources and their fields > Company"; wire
// conventions §1, §2, §6; gaps GAP-02, GAP-03, GAP-16, GAP-17). There is no DELETE: creating tests write
// to one fresh user per file where the target provisions users, else add to the primary's companies.
import { randomUUID } from "node:crypto";
import { describe, test } from "vitest";
import { expectNot5xx, expectObjects, expectOk, expectRefused, expectSchema, expectThat, failPlain, type About } from "../harness/checks.js";
import { createdId, responseItems } from "../harness/envelope.js";
import type { Exchange } from "../harness/exchange.js";
import { expectNoTrace, foreignIds, readWholeList, SHARED_IDS, writerSession } from "../harness/resource-helpers.js";
import type { Session } from "../harness/session.js";
import { SKIP, useTarget } from "../harness/target.js";

const t = useTarget();
const readOnly = t.profile.mode === "read-only";
const writer = writerSession(t);
const TYPE = "UserCompany";

// Realistic values (GAP-02: allowed values not shown; the provider's subscription types include COMPANY_V2).
const ADDRESS = { street: "Naritaweg", house_number: "131", postal_code: "1043 BS", city: "Amsterdam", country: "NL" };
const REQUIRED = { name: "Conformance Trading BV", country: "NL", legal_form: "BV", subscription_type: "COMPANY_V2" };
/** The required fields plus the addresses the provider's sample always carries; none of the three optional fields. */
const BASE = { ...REQUIRED, address_main: ADDRESS, address_postal: { ...ADDRESS, mailbox_name: "Conformance Trading BV" } };
const SAMPLE_ONLY = {
  ubo: [{ name: "Alex Example", date_of_birth: "1980-01-01", nationality: "NL" }],
  vat_number: { type: "VAT", country: "NL", value: "NL123456789B01" },
  vat_numbers: [{ type: "VAT", country: "NL", value: "NL123456789B01" }],
};

const itemPath = (session: Session, id: number | string) => t.userPath(session, `/company/${id}`);
const send = (session: Session, method: string, path: string, json?: unknown) =>
  t.client.request({ method, path, token: session.sessionToken, from: session.from, ...(json === undefined ? {} : { json }) });

/** POST a company and return its id (checked as Id with an integer id). */
async function create(session: Session, body: unknown, about: About): Promise<number> {
  const exchange = await send(session, "POST", t.userPath(session, "/company"), body);
  expectOk(exchange, about);
  expectSchema(expectObjects(exchange, ["Id"], about)[0], "id", about, exchange);
  return createdId(exchange.json)!;
}

/** GET one company: exactly one UserCompany element, valid against the Company table. */
async function read(session: Session, id: number, about: About): Promise<{ exchange: Exchange; company: Record<string, unknown> }> {
  const exchange = await send(session, "GET", itemPath(session, id));
  expectOk(exchange, about);
  const companies = expectObjects(exchange, [TYPE], about);
  expectThat(responseItems(exchange.json)!.length === 1 && companies.length === 1, exchange, `exactly one ${TYPE} element`, about);
  const company = companies[0]!;
  expectSchema(company, "company", { ...about, req: "COMP-005" }, exchange);
  return { exchange, company };
}

/** A user's companies, every page (GET only), for checks that also run on read-only targets. */
async function companiesOf(session: Session, about: About): Promise<Record<string, unknown>[]> {
  const { objects } = await readWholeList(t, { path: t.userPath(session, "/company"), session, typeKey: TYPE, about });
  return objects;
}
const primaryCompanies = (about: About) => companiesOf(t.primary(), about);

describe("POST /user/{userID}/company", () => {
  test("COMP-001 COMP-002 COMP-003 COMP-005 ERR-009 a created company answers Id and reads back as one UserCompany with that id, its name and its country", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    const body = { ...BASE, name: "Conformance Created Company BV", chamber_of_commerce_number: "87654321" };
    const id = await create(session, body, { req: "COMP-001", what: "with the required fields, addresses and chamber_of_commerce_number" });
    const { exchange, company } = await read(session, id, { req: "COMP-002", what: "of the company just created" });
    expectThat(company.id === id, exchange, `the company with id ${id}`, { req: "COMP-002" }, `id ${JSON.stringify(company.id)}`);
    for (const field of ["name", "country"] as const) {
      expectThat(company[field] === body[field], exchange, `${field} ${JSON.stringify(body[field])} as created`, { req: "COMP-003" }, `${field} ${JSON.stringify(company[field])}`);
    }
    // GAP-02/GAP-03: beyond name and country only strict profiles compare what the read form shows.
    for (const field of t.profile.strict ? (["legal_form", "chamber_of_commerce_number"] as const) : []) {
      if (company[field] === undefined) continue;
      expectThat(company[field] === body[field], exchange, `${field} ${JSON.stringify(body[field])} as created (strict)`, { req: "COMP-003" }, `${field} ${JSON.stringify(company[field])}`);
    }
  });

  test("COMP-007 a company without chamber_of_commerce_number, avatar_uuid and signup_track_type is accepted", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    await create(session, { ...BASE, name: "Conformance No Optionals BV" }, { req: "COMP-007", what: "without chamber_of_commerce_number, avatar_uuid and signup_track_type" });
  });

  test("COMP-008 ERR-003 a company with only the four required fields is accepted, or refused with an error body (strict: accepted)", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    const exchange = await send(session, "POST", t.userPath(session, "/company"), { ...REQUIRED, name: "Conformance Minimal BV" });
    const about = { req: "COMP-008", what: "with only name, country, legal_form and subscription_type" };
    expectNot5xx(exchange, about);
    if (exchange.status !== 200 && !t.profile.strict) return expectRefused(exchange, about);
    expectOk(exchange, about);
    expectSchema(expectObjects(exchange, ["Id"], about)[0], "id", about, exchange);
  });

  test("COMP-009 a company carrying address_main, address_postal, ubo, vat_number and vat_numbers as in the sample body is accepted", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    await create(session, { ...BASE, ...SAMPLE_ONLY, name: "Conformance Sample Body BV" }, { req: "COMP-009", what: "with every sample-only field" });
  });

  test.for(Object.keys(REQUIRED))("COMP-006 ERR-001 a company without %s is refused with an error body", async (field, { skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    const body: Record<string, unknown> = { ...BASE, ...SAMPLE_ONLY, name: "Conformance Incomplete BV" };
    delete body[field];
    const exchange = await send(session, "POST", t.userPath(session, "/company"), body);
    expectRefused(exchange, { req: "COMP-006", what: `without ${field}` });
  });

  const wrongTypes: [string, Record<string, unknown>][] = [
    ["a number for name", { name: 42 }],
    ["a boolean for legal_form", { legal_form: true }],
    ["a number for country", { country: 528 }],
    ["an array for subscription_type", { subscription_type: ["COMPANY_V2"] }],
    ["an object for ubo", { ubo: { name: "Alex Example" } }],
    ["a string for address_main", { address_main: "Naritaweg 131, Amsterdam" }],
  ];
  test.for(wrongTypes)("COMP-010 ERR-001 a company with %s is refused with an error body", async ([what, change], { skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    const exchange = await send(session, "POST", t.userPath(session, "/company"), { ...BASE, ...SAMPLE_ONLY, name: "Conformance Mistyped BV", ...change });
    expectRefused(exchange, { req: "COMP-010", what: `with ${what}` });
  });
});

describe("GET /user/{userID}/company", () => {
  test("COMP-004 COMP-005 the company list answers UserCompany elements, the company just created among them", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    const id = await create(session, { ...BASE, name: "Conformance Listed BV" }, { req: "COMP-001", what: "(setup for the list)" });
    const about = { req: "COMP-004", what: "(every page)" };
    const { first, objects } = await readWholeList(t, { path: t.userPath(session, "/company"), session, typeKey: TYPE, about });
    expectThat(objects.some((c) => c.id === id), first, `the created company ${id} on some page of the list`, about, `ids ${objects.map((c) => String(c.id)).join(", ")}`);
    for (const company of objects) expectSchema(company, "company", { req: "COMP-005", what: "(list element)" }, first);
  });

  test("COMP-004 COMP-005 the primary user's company list answers UserCompany elements valid against the Company table", async () => {
    const companies = await primaryCompanies({ req: "COMP-004", what: "of the primary user" });
    for (const company of companies) expectSchema(company, "company", { req: "COMP-005", what: "(primary user's list element)" });
  });

  test("COMP-004 no company of another user appears in the second user's list", async ({ skip }) => {
    const other = t.secondary();
    skip(!other, t.secondaryMissing());
    const listPath = t.userPath(other!, "/company");
    if (!readOnly) {
      // A company with a name no one else has, created by another user: the second user's list must not show it.
      const owner = await writer();
      const name = `Conformance Private ${randomUUID().slice(0, 8)} BV`;
      const id = await create(owner, { ...BASE, name }, { req: "COMP-001", what: "(set-up: another user's company)" });
      const theirs = await companiesOf(other!, { req: "COMP-004", what: "of the second user" });
      const leaked = theirs.filter((c) => c.name === name);
      if (leaked.length > 0) failPlain({ req: "COMP-004", what: `GET ${listPath} (every page)` }, `expected only the second user's companies, got another user's company ${id} ("${name}") as ${leaked.map((c) => String(c.id)).join(", ")}`);
      return;
    }
    // Read-only: ids may be per user, so only a company with the same id and the same name counts as the primary's.
    const mine = await primaryCompanies({ req: "COMP-004", what: "of the primary user" });
    const theirs = await companiesOf(other!, { req: "COMP-004", what: "of the second user" });
    const leaked = theirs.filter((c) => mine.some((m) => m.id === c.id && m.name === c.name)).map((c) => String(c.id));
    if (leaked.length > 0) failPlain({ req: "COMP-004", what: `GET ${listPath} (every page)` }, `expected only the second user's companies, got the primary user's companies ${leaked.join(", ")} (same id and name)`);
  });
});

describe("PUT /user/{userID}/company/{itemId}", () => {
  test("COMP-011 ERR-011 a PUT with a new name answers Id or the updated UserCompany, and the next read shows the new name", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    const id = await create(session, { ...BASE, name: "Conformance Before Rename BV" }, { req: "COMP-001", what: "(setup for the update)" });
    const renamed = { ...BASE, name: "Conformance After Rename BV" };
    const exchange = await send(session, "PUT", itemPath(session, id), renamed);
    const about = { req: "COMP-011", what: "with a new name" };
    expectOk(exchange, about);
    const answered = expectObjects(exchange, ["Id", TYPE], { req: "ERR-011", what: "with a new name (Id or UserCompany)" });
    expectThat(answered[0]!.id === id, exchange, `the id ${id} of the updated company`, { req: "ERR-011" }, `id ${JSON.stringify(answered[0]!.id)}`);
    if (t.profile.strict) expectObjects(exchange, ["Id"], { req: "ERR-011", what: "(strict: Id)" });
    const { exchange: after, company } = await read(session, id, { req: "COMP-011", what: "after the PUT" });
    expectThat(company.name === renamed.name, after, `name ${JSON.stringify(renamed.name)} after the PUT`, { req: "COMP-011" }, `name ${JSON.stringify(company.name)}`);
  });

  test("COMP-010 ERR-001 a PUT with a number for name is refused, and the company keeps its name", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    const name = "Conformance Kept Name BV";
    const id = await create(session, { ...BASE, name }, { req: "COMP-001", what: "(setup for the update)" });
    const exchange = await send(session, "PUT", itemPath(session, id), { ...BASE, name: 42 });
    expectRefused(exchange, { req: "COMP-010", what: "with a number for name" });
    const { exchange: after, company } = await read(session, id, { req: "COMP-010", what: "after the refused PUT" });
    expectThat(company.name === name, after, `name ${JSON.stringify(name)} unchanged by the refused PUT`, { req: "COMP-010" }, `name ${JSON.stringify(company.name)}`);
  });
});

describe("who may see and change a company", () => {
  test("AUTH-019 ERR-001 the second user asking for the primary user's company under its own userID is refused and gets none of its data", async ({ skip }) => {
    const other = t.secondary();
    skip(!other, t.secondaryMissing());
    const primarys = await primaryCompanies({ req: "AUTH-019", what: "of the primary user (setup)" });
    const own = (await companiesOf(other!, { req: "AUTH-019", what: "of the second user (setup)" })).map((c) => c.id);
    const foreign = foreignIds(primarys.map((c) => c.id), own)[0];
    const theirs = primarys.find((c) => c.id === foreign);
    skip(!theirs, primarys.length === 0 ? "the primary user has no company to try" : SHARED_IDS);
    const exchange = await send(other!, "GET", itemPath(other!, theirs!.id as number));
    const about = { req: "AUTH-019", what: `by the second user with the primary user's company id ${String(theirs!.id)}` };
    expectRefused(exchange, about);
    expectNoTrace(exchange, [theirs!.id as number, ...(typeof theirs!.name === "string" ? [theirs!.name] : [])], about);
  });

  test("AUTH-019 ERR-001 the second user's PUT on another user's company is refused, and the company keeps its name", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const other = t.secondary();
    skip(!other, t.secondaryMissing());
    const owner = await writer();
    const name = "Conformance Not Yours BV";
    const id = await create(owner, { ...BASE, name }, { req: "COMP-001", what: "(setup)" });
    const own = (await companiesOf(other!, { req: "AUTH-019", what: "of the second user (setup)" })).map((c) => c.id);
    skip(foreignIds([id], own).length === 0, `company ${id}: ${SHARED_IDS}`);
    const exchange = await send(other!, "PUT", itemPath(other!, id), { ...BASE, name: "Conformance Taken Over BV" });
    const about = { req: "AUTH-019", what: `by the second user with another user's company id ${id}` };
    expectRefused(exchange, about);
    expectNoTrace(exchange, [id, name], about);
    const { exchange: after, company } = await read(owner, id, { req: "AUTH-019", what: "by the owner after the refused PUT" });
    expectThat(company.name === name, after, `name ${JSON.stringify(name)} unchanged`, { req: "AUTH-019" }, `name ${JSON.stringify(company.name)}`);
  });

  test("AUTH-015 ERR-001 the primary session on the second user's userID is refused for the company list and read", async ({ skip }) => {
    const other = t.secondary();
    skip(!other, t.secondaryMissing());
    const { objects } = await readWholeList(t, { path: t.userPath(other!, "/company"), session: other!, typeKey: TYPE, about: { req: "AUTH-015", what: "by the second user (setup)" } });
    const theirs = objects[0];
    const traces = objects.map((c) => c.id as number);
    const primary = t.primary();
    const list = await t.client.request({ path: t.userPath(other!, "/company"), token: primary.sessionToken, from: primary.from });
    const about = { req: "AUTH-015", what: `with the primary session on the second user's id ${other!.userId}` };
    expectRefused(list, about);
    expectNoTrace(list, traces, about);
    if (theirs) {
      const item = await t.client.request({ path: itemPath(other!, theirs.id as number), token: primary.sessionToken, from: primary.from });
      expectRefused(item, about);
      expectNoTrace(item, traces, about);
    }
  });

  test("ERR-014 ERR-001 a company id that does not exist is refused with an error body", async () => {
    const primary = t.primary();
    const exchange = await send(primary, "GET", itemPath(primary, 2_000_000_000));
    expectRefused(exchange, { req: "ERR-014", what: "(an id no company has)" });
  });

  test("ERR-006 ERR-003 company ids that are not integers are refused with an error body", async () => {
    const primary = t.primary();
    const known = (await primaryCompanies({ req: "ERR-006", what: "(setup)" }))[0]?.id;
    // "12.0" reads as the integer 12 to some parsers: refused only where the profile is strict.
    for (const id of ["abc", "1.5", ...(typeof known === "number" ? [`${known}abc`, ...(t.profile.strict ? [`${known}.0`] : [])] : [])]) {
      const exchange = await send(primary, "GET", itemPath(primary, id));
      expectNot5xx(exchange, { req: "ERR-003", what: `with company id "${id}"` });
      expectRefused(exchange, { req: "ERR-006", what: `with company id "${id}"` });
    }
  });
});


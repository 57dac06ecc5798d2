import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError, notFound } from "../http-error.js";
import { intParam, objectBody, pathUser, sendId, sendItems, type ReferenceContext, type ResourceModule } from "../module.js";
import { paginate } from "../pagination.js";
import type { User } from "../state.js";
import { timestamp } from "../time.js";
import { parseCompanyBody, type CompanyBody, type Strings } from "./company-body.js";
import { VARIANT_SCOPE } from "../variant-spec.js";

export const COMPANY_TYPE_KEY = "UserCompany";

/** Variant: company and category refusals use other 4XX codes (conventions §6 fixes none of them). */
export const REFUSAL_CODES_VARIANT = "company-category-refusal-codes";
const RECODED: Record<number, number> = { 400: 422, 403: 404, 404: 403 };

/** A route handler whose refusals are recoded when the variant is on. */
type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
export function recoded(ctx: ReferenceContext, handler: Handler): Handler {
  return async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      const to = error instanceof HttpError && ctx.faults.on(REFUSAL_CODES_VARIANT) ? RECODED[error.status] : undefined;
      throw to === undefined ? error : new HttpError(to, (error as HttpError).message, (error as HttpError).kind);
    }
  };
}
const SUITES = ["companies"];
/** Seeded companies per user: more than the default page size of 10, so paging matters. */
const SEEDED = 12;

interface CompanyRecord extends CompanyBody {
  id: number;
  created: string;
  updated: string;
  public_uuid: string;
  /** Avatar and image uuids, fixed at creation so every read shows the same avatar. */
  avatar: { uuid: string; image_uuid: string };
  /** Seeded with the user (the stale-list fault serves only these). */
  seeded: boolean;
}

const fresh = () => ({ public_uuid: randomUUID(), avatar: { uuid: randomUUID(), image_uuid: randomUUID() } });
const address = (a: Strings | undefined) => (a ? { ...a, is_user_address_updated: true } : undefined);
const amount = (value: string) => ({ value, currency: "EUR" });

/** Company table members the reference has no value for; variant company-null-for-unset sends them as null. */
const UNSET_MEMBERS = ["chamber_of_commerce_number", "type_of_business_entity", "sector_of_industry", "counter_bank_iban", "version_terms_of_service", "deny_reason", "address_main", "address_postal", "address_shipping", "customer"];
/** Body fields the read table also lists; variant company-read-form-sparse leaves them out (the body is headed "write-only fields"). */
const BODY_FIELDS_READ = ["name", "country", "legal_form", "chamber_of_commerce_number", "address_main", "address_postal", "ubo"];

/** The read form (spec: Company table). Write-only body fields (subscription_type, avatar_uuid, signup_track_type, vat numbers) stay inside. */
function companyView(c: CompanyRecord, ctx: ReferenceContext, owner: number): Record<string, unknown> {
  const name = ctx.faults.on("company-read-name-uppercased") && typeof c.name === "string" ? c.name.toUpperCase() : c.name;
  const view: Record<string, unknown> = {
    id: c.id,
    created: c.created,
    updated: c.updated,
    public_uuid: c.public_uuid,
    name,
    display_name: name,
    public_nick_name: name,
    country: c.country,
    legal_form: c.legal_form,
    language: "en_US",
    region: "nl_NL",
    status: "ACTIVE",
    sub_status: "NONE",
    session_timeout: ctx.faults.on("company-session-timeout-string") ? "604800" : 604800,
    daily_limit_without_confirmation_login: amount("250.00"),
    address_main: address(c.address_main),
    address_postal: address(c.address_postal),
    ubo: c.ubo ?? [],
    alias: [{ type: "IBAN", value: `NL00SAND${String(c.id).padStart(10, "0")}`, name: c.name }],
    avatar: {
      uuid: c.avatar_uuid ?? c.avatar.uuid,
      anchor_uuid: c.public_uuid,
      style: "NONE",
      image: [{ attachment_public_uuid: c.avatar.image_uuid, content_type: "image/png", height: 480, width: 480 }],
    },
    billing_contract: [
      { id: c.id * 10, contract_version: 1, subscription_type: c.subscription_type, status: "ACTIVE", sub_status: "NONE", contract_date_start: c.created.slice(0, 10), created: c.created, updated: c.updated },
    ],
    customer_limit: {
      limit_monetary_account: 25,
      limit_monetary_account_remaining: 23,
      limit_card_debit_maestro: 1,
      limit_card_debit_mastercard: 2,
      limit_card_debit_wildcard: 1,
      limit_card_wildcard: 1,
      limit_card_replacement: 1,
      limit_amount_monthly: amount("10000.00"),
      spent_amount_monthly: amount("0.00"),
    },
    ...(c.chamber_of_commerce_number === undefined ? {} : { chamber_of_commerce_number: c.chamber_of_commerce_number }),
  };
  // Variant company-relation-ids-integer: a relation whose user ids are integers ("id fields are integers").
  if (ctx.faults.on("company-relation-ids-integer")) {
    view.relations = [{ user_id: owner, counter_user_id: c.id, relationship: "OWNER", status: "ACTIVE", user_status: "ACTIVE", counter_user_status: "ACTIVE", all_company_employee_card: [] }];
  }
  for (const key of Object.keys(view)) if (view[key] === undefined) delete view[key];
  if (ctx.faults.on("company-null-for-unset")) {
    for (const key of UNSET_MEMBERS) view[key] ??= null;
    (view.billing_contract as Record<string, unknown>[])[0]!.contract_date_end = null;
  }
  if (ctx.faults.on("company-read-form-sparse")) for (const key of BODY_FIELDS_READ) delete view[key];
  return view;
}

function seedBody(user: User, i: number): CompanyBody {
  return {
    name: `${user.displayName} Holding ${i + 1}`,
    country: "NL",
    legal_form: "BV",
    subscription_type: "COMPANY_V2",
    chamber_of_commerce_number: String(60000000 + ((user.id * 31 + i) % 9999999)),
    address_main: { street: "Naritaweg", house_number: String(100 + i), postal_code: "1043 BS", city: "Amsterdam", country: "NL" },
    address_postal: { street: "Naritaweg", house_number: String(100 + i), postal_code: "1043 BS", city: "Amsterdam", country: "NL" },
    ubo: [{ name: user.displayName, date_of_birth: "1980-01-01", nationality: "NL" }],
  };
}

/** POST, GET list, GET item, PUT of /user/{userID}/company (spec: Endpoints > Companies; gaps GAP-02, GAP-16, GAP-17). */
export const companiesModule: ResourceModule = {
  name: "companies",
  faults: [
    { name: "company-create-answers-company", requirement: "COMP-001", description: "POST company answers the created UserCompany instead of Id.", suites: SUITES },
    { name: "company-read-first-company", requirement: "COMP-002", description: "GET company/{itemId} answers the user's oldest company, whatever the id.", suites: SUITES },
    { name: "company-read-name-uppercased", requirement: "COMP-003", description: "Companies read back with their name upper-cased.", suites: SUITES },
    { name: "company-list-stale", requirement: "COMP-004", description: "The company list serves only the companies seeded with the user, not those created later.", suites: SUITES },
    { name: "company-list-leaks-other-users", requirement: "COMP-004", description: "The company list holds the companies of every user.", suites: SUITES },
    { name: "company-session-timeout-string", requirement: "COMP-005", description: "session_timeout is answered as a string.", suites: SUITES },
    { name: "company-missing-legal-form-accepted", requirement: "COMP-006", description: "POST company without legal_form is accepted.", suites: SUITES },
    { name: "company-coc-number-required", requirement: "COMP-007", description: "POST company without chamber_of_commerce_number is refused.", suites: SUITES },
    { name: "company-minimal-body-500", requirement: "COMP-008", description: "POST company without address_main crashes (500).", suites: SUITES },
    { name: "company-vat-numbers-refused", requirement: "COMP-009", description: "POST company with vat_numbers is refused as an unsupported field.", suites: SUITES },
    { name: "company-name-type-unchecked", requirement: "COMP-010", description: "POST company accepts a name that is not a string.", suites: SUITES },
    { name: "company-enum-fields-type-unchecked", requirement: "COMP-010", description: "POST company checks the types of name and ubo but takes country and subscription_type of any JSON type.", suites: SUITES },
    { name: "company-put-types-unchecked", requirement: "COMP-010", description: "PUT company skips the type checks that POST makes.", suites: SUITES },
    { name: "company-put-ignored", requirement: "COMP-011", description: "PUT company answers Id but changes nothing.", suites: SUITES },
    { name: "company-put-answers-empty", requirement: "ERR-011", description: "PUT company answers an empty Response.", suites: SUITES },
    { name: "company-other-user-readable", requirement: "AUTH-019", description: "GET company/{itemId} serves another user's company.", suites: SUITES },
    { name: "company-put-other-user", requirement: "AUTH-019", description: "PUT company/{itemId} updates another user's company (the read checks ownership, the update forgot).", suites: SUITES },
    { name: "company-path-user-unchecked", requirement: "AUTH-015", description: "The company list and read serve any existing user named in the path.", suites: SUITES },
    { name: "company-unknown-id-empty", requirement: "ERR-014", description: "GET company/{itemId} of an id that does not exist answers 200 with an empty Response.", suites: SUITES },
    { name: "company-id-parsed-leniently", requirement: "ERR-006", description: "The company item id is read with parseInt, so 1234abc reads company 1234.", suites: SUITES },
    { name: "company-required-null-accepted", requirement: "COMP-006", description: "POST company checks that the required fields are there, not that they are strings: name null is stored.", suites: SUITES },
    { name: "company-create-coc-dropped", requirement: "COMP-003", description: "POST company drops chamber_of_commerce_number (the create mapper forgot it); PUT stores it.", suites: SUITES },
    { name: "company-put-country-ignored", requirement: "COMP-012", description: "PUT company applies every field but country.", suites: SUITES },
    { name: "company-put-address-ignored", requirement: "COMP-012", description: "PUT company applies the scalar fields but keeps the old address_main.", suites: SUITES },
    { name: "company-put-refused-after-name", requirement: "COMP-013", description: "PUT company writes the name before it checks the rest of the body, so a refused PUT has renamed the company.", suites: SUITES },
    { name: "company-put-required-unchecked", requirement: "COMP-014", description: "PUT company merges whatever fields it gets: a body without name, country, legal_form or subscription_type is accepted.", suites: SUITES },
    { name: "company-create-stored-before-check", requirement: "COMP-015", description: "POST company stores the company once the four required fields check out, then refuses a wrong-typed address or ubo: the refused company is in the list.", suites: SUITES },
    { name: "company-put-path-user-unchecked", requirement: "AUTH-015", description: "PUT company/{itemId} updates the company of any existing user named in the path.", suites: SUITES },
    { name: "company-path-user-ignored", requirement: "AUTH-015", description: "The company endpoints take the user from the session and ignore the userID of the path (a userID naming nobody is served).", suites: SUITES },
  ],
  variants: [
    {
      name: "company-null-for-unset", suites: VARIANT_SCOPE.companies,
      description: "The company read form carries null for every member it has no value for (chamber_of_commerce_number, addresses, customer, contract_date_end, ...) instead of leaving it out.",
      allowedBy: "banking-api.md gives the Company fields' types, not their presence (COMP-016, LENIENT)",
      requirements: ["COMP-016"],
    },
    {
      name: "company-relation-ids-integer", suites: VARIANT_SCOPE.companies,
      description: "Every company carries a relation whose user_id and counter_user_id are integers.",
      allowedBy: "Resources: \"id fields are integers\" against the Relation line's \"(string)\" (both readings pass)",
    },
    {
      name: "company-read-form-sparse", suites: VARIANT_SCOPE.companies,
      description: "The company read form leaves out the body fields (name, country, legal_form, chamber_of_commerce_number, addresses, ubo): the body is headed \"write-only fields\".",
      allowedBy: "GAP-03 (write-only body heading); COMP-017 (LENIENT)",
      requirements: ["COMP-017"],
    },
    {
      name: REFUSAL_CODES_VARIANT,
      suites: VARIANT_SCOPE.companiesAndCategories,
      description: "Company and category refusals use other 4XX codes: 422 for an invalid body, 403 for a company that is not found, 404 for a userID that is not the caller's.",
      allowedBy: "conventions §6 (any 4XX with an error body passes where the specification fixes none)",
      requirements: ["COMP-006", "COMP-010", "COMP-014", "CAT-003", "CAT-004", "AUTH-015", "AUTH-019", "ERR-014"],
    },
  ],
  seed(ctx, user) {
    const companies = ctx.state.collection<CompanyRecord>("companies");
    // Variant sandbox-data-varies: users hold different numbers of companies (data); the second user created (the run's secondary) has more.
    const sandboxUsers = [...ctx.state.users.values()].filter((u) => u.apiKey.startsWith("sandbox_")).length;
    const count = ctx.faults.on("sandbox-data-varies") && sandboxUsers === 2 ? SEEDED + 6 : SEEDED;
    for (let i = 0; i < count; i++) {
      const now = timestamp();
      companies.add(user.id, (id) => ({ id, created: now, updated: now, ...fresh(), seeded: true, ...seedBody(user, i) }));
    }
  },
  register(app, ctx) {
    const { faults, state } = ctx;
    const companies = state.collection<CompanyRecord>("companies");
    const itemId = (request: FastifyRequest) => {
      if (!faults.on("company-id-parsed-leniently")) return intParam(request, "itemId");
      const id = Number.parseInt((request.params as Record<string, string>).itemId ?? "", 10);
      if (Number.isNaN(id)) throw new HttpError(400, "Path parameter itemId must be an integer.", "bad-path-id");
      return id;
    };
    const view = (c: CompanyRecord) => ({ [COMPANY_TYPE_KEY]: companyView(c, ctx, companies.ownerOf(c.id) ?? 0) });
    // Fault company-path-user-ignored: the user comes from the session, whatever the path says.
    const user = (request: FastifyRequest, fault?: string) => (faults.on("company-path-user-ignored") && request.session ? request.session.userId : pathUser(request, ctx, fault));

    const store = (userId: number, body: CompanyBody) => {
      const now = timestamp();
      return companies.add(userId, (id) => ({ ...body, id, created: now, updated: now, ...fresh(), seeded: false }));
    };
    const storeIfRequiredPass = (raw: Record<string, unknown>, userId: number) => {
      const required = ["name", "country", "legal_form", "subscription_type"] as const;
      if (required.every((f) => typeof raw[f] === "string" && raw[f] !== "")) store(userId, Object.fromEntries(required.map((f) => [f, raw[f]])) as unknown as CompanyBody);
    };

    app.post("/v1/user/:userID/company", recoded(ctx, async (request, reply) => {
      const userId = user(request);
      const raw = objectBody(request);
      const options = {
        notRequired: faults.on("company-missing-legal-form-accepted") ? ["legal_form"] : [],
        typeUnchecked: [...(faults.on("company-name-type-unchecked") ? ["name"] : []), ...(faults.on("company-enum-fields-type-unchecked") ? ["country", "subscription_type"] : [])],
        refused: faults.on("company-vat-numbers-refused") ? ["vat_numbers"] : [],
        nullAccepted: faults.on("company-required-null-accepted"),
      };
      // The careless order: store once the required fields check out, then check the rest.
      if (faults.on("company-create-stored-before-check")) storeIfRequiredPass(raw, userId);
      const body = parseCompanyBody(raw, options);
      if (faults.on("company-create-coc-dropped")) delete body.chamber_of_commerce_number;
      if (faults.on("company-coc-number-required") && body.chamber_of_commerce_number === undefined) throw new HttpError(400, "Field chamber_of_commerce_number is required.");
      // The crash a handler has when it reads address_main.country without looking first.
      if (faults.on("company-minimal-body-500") && body.address_main === undefined) throw new Error("Cannot read properties of undefined (reading 'country')");
      // Variant company-provider-body-rules (GAP-65, COMP-008 LENIENT): like the provider, address_main and address_postal are
      // required; and subscription_type is checked against a closed list (its values are not shown), here the one GAP-65 sends.
      if (faults.on("company-provider-body-rules") && (body.address_main === undefined || body.address_postal === undefined)) throw new HttpError(400, "Fields address_main and address_postal are required.");
      if (faults.on("company-provider-body-rules") && body.subscription_type !== "COMPANY_V2") throw new HttpError(400, "Field subscription_type must be COMPANY_V2.");
      const company = store(userId, body);
      if (faults.on("company-create-answers-company")) return sendItems(reply, [view(company)]);
      return sendId(reply, company.id);
    }));

    app.get("/v1/user/:userID/company", recoded(ctx, async (request, reply) => {
      const userId = user(request, "company-path-user-unchecked");
      let all = companies.list(userId);
      if (faults.on("company-list-leaks-other-users")) all = [...state.users.keys()].flatMap((u) => companies.list(u));
      if (faults.on("company-list-stale")) all = all.filter((c) => c.seeded);
      const page = paginate(request, all, faults);
      return sendItems(reply, page.items.map(view), { Pagination: page.pagination });
    }));

    app.get("/v1/user/:userID/company/:itemId", recoded(ctx, async (request, reply) => {
      const userId = user(request, "company-path-user-unchecked");
      const id = itemId(request);
      let company = faults.on("company-other-user-readable") ? companies.getAny(id) : companies.get(userId, id);
      if (!company && faults.on("company-unknown-id-empty") && companies.ownerOf(id) === undefined) return sendItems(reply, []);
      if (!company) throw notFound();
      if (faults.on("company-read-first-company")) company = companies.list(userId)[0] ?? company;
      return sendItems(reply, [view(company)]);
    }));

    app.put("/v1/user/:userID/company/:itemId", recoded(ctx, async (request, reply) => {
      const userId = user(request, "company-put-path-user-unchecked");
      const id = itemId(request);
      const company = faults.on("company-put-other-user") ? companies.getAny(id) : companies.get(userId, id);
      if (!company) throw notFound();
      const raw = objectBody(request);
      if (faults.on("company-put-refused-after-name") && typeof raw.name === "string") company.name = raw.name;
      const body = parseCompanyBody(raw, {
        ...(faults.on("company-put-types-unchecked") ? { typeUnchecked: Object.keys(raw) } : {}),
        ...(faults.on("company-put-required-unchecked") ? { notRequired: ["name", "country", "legal_form", "subscription_type"] } : {}),
      });
      if (faults.on("company-put-country-ignored")) delete (body as Partial<CompanyBody>).country;
      if (faults.on("company-put-address-ignored")) delete body.address_main;
      if (!faults.on("company-put-ignored")) Object.assign(company, body, { updated: timestamp() });
      if (faults.on("company-put-answers-empty")) return sendItems(reply, []);
      return sendId(reply, company.id);
    }));
  },
};

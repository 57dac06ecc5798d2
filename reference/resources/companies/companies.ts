import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError, notFound } from "../../http-error.js";
import { intParam, objectBody, pathUser, sendId, sendItems, type ReferenceContext, type ResourceModule } from "../../module.js";
import { paginate } from "../../pagination.js";
import type { Collection, User } from "../../state.js";
import { timestamp } from "../../time.js";
import { parseCompanyBody, type CompanyBody, type CompanyBodyOptions, type Strings } from "./company-body.js";
import type { FaultName } from "../../../faults/catalogue.js";

const COMPANY_TYPE_KEY = "UserCompany";

/** Variant: company and category refusals use other 4XX codes (conventions §6 fixes none of them). */
const REFUSAL_CODES_VARIANT = "company-category-refusal-codes";
const RECODED: Record<number, number> = { 400: 422, 403: 404, 404: 403 };

/** A route handler whose refusals are recoded when the variant is on. */
type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
export function recoded(ctx: ReferenceContext, handler: Handler): Handler {
  return async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      const to = error instanceof HttpError && ctx.variants.on(REFUSAL_CODES_VARIANT) ? RECODED[error.status] : undefined;
      throw to === undefined ? error : new HttpError(to, (error as HttpError).message, (error as HttpError).kind);
    }
  };
}
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
const UNSET_MEMBERS = [
  "chamber_of_commerce_number",
  "type_of_business_entity",
  "sector_of_industry",
  "counter_bank_iban",
  "version_terms_of_service",
  "deny_reason",
  "address_main",
  "address_postal",
  "address_shipping",
  "customer",
];
/** Body fields the read table also lists; variant company-read-form-sparse leaves them out (the body is headed "write-only fields"). */
const BODY_FIELDS_READ = ["name", "country", "legal_form", "chamber_of_commerce_number", "address_main", "address_postal", "ubo"];

/**
 * The read form (spec: Company table). Write-only body fields (subscription_type, avatar_uuid, signup_track_type,
 * vat numbers) stay inside.
 */
function companyView(c: CompanyRecord, ctx: ReferenceContext, owner: number): Record<string, unknown> {
  const name = shownName(ctx, c.name);
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
    // Fault company-daily-limit-value-number: the Amount's value serialised as a number.
    daily_limit_without_confirmation_login: ctx.faults.on("company-daily-limit-value-number")
      ? { value: 250, currency: "EUR" }
      : amount("250.00"),
    address_main: shownAddress(ctx, c.address_main),
    // Variant company-read-postal-shows-main (blind round 2, ruled open): the read form repeats address_main as postal.
    address_postal: shownAddress(ctx, ctx.variants.on("company-read-postal-shows-main") ? c.address_main : c.address_postal),
    // Variant company-ubo-first-only (blind round 2, ruled open): only the first UBO is shown.
    ubo: shownUbo(ctx, ctx.variants.on("company-ubo-first-only") ? (c.ubo ?? []).slice(0, 1) : (c.ubo ?? [])),
    alias: [{ type: "IBAN", value: `NL00SAND${String(c.id).padStart(10, "0")}`, name: c.name }],
    avatar: {
      uuid: avatarUuid(ctx, c),
      anchor_uuid: c.public_uuid,
      style: "NONE",
      image: [{ attachment_public_uuid: c.avatar.image_uuid, content_type: "image/png", height: 480, width: 480 }],
    },
    billing_contract: [
      {
        id: c.id * 10,
        contract_version: 1,
        subscription_type: c.subscription_type,
        status: "ACTIVE",
        sub_status: "NONE",
        contract_date_start: c.created.slice(0, 10),
        created: c.created,
        updated: c.updated,
      },
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
  if (ctx.variants.on("company-relation-ids-integer")) {
    view.relations = [
      {
        user_id: owner,
        counter_user_id: c.id,
        relationship: "OWNER",
        status: "ACTIVE",
        user_status: "ACTIVE",
        counter_user_status: "ACTIVE",
        all_company_employee_card: [],
      },
    ];
  }
  for (const key of Object.keys(view)) if (view[key] === undefined) delete view[key];
  unwrapSingleAlias(ctx, view);
  if (ctx.variants.on("company-null-for-unset")) {
    for (const key of UNSET_MEMBERS) view[key] ??= null;
    (view.billing_contract as Record<string, unknown>[])[0]!.contract_date_end = null;
  }
  if (ctx.variants.on("company-read-form-sparse")) for (const key of BODY_FIELDS_READ) delete view[key];
  // Variant r5-company-null-write-only-fields: the null-for-unset list of the mapper also names the body's write-only optional fields.
  if (ctx.variants.on("r5-company-null-write-only-fields"))
    for (const key of ["avatar_uuid", "signup_track_type"] as const) if (c[key] === undefined) view[key] = null;
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
  seed(ctx, user) {
    const companies = ctx.state.collection<CompanyRecord>("companies");
    // Variant sandbox-data-varies: users hold different numbers of companies (data); the second user created (the
    // run's secondary) has more.
    const sandboxUsers = [...ctx.state.users.values()].filter((u) => u.apiKey.startsWith("sandbox_")).length;
    const count = Math.max(ctx.variants.on("sandbox-data-varies") && sandboxUsers === 2 ? SEEDED + 6 : SEEDED, ctx.listItems);
    for (let i = 0; i < count; i++) {
      const now = timestamp();
      companies.add(user.id, (id) => ({ id, created: now, updated: now, ...fresh(), seeded: true, ...seedBody(user, i) }));
    }
  },
  register(app, ctx) {
    const { state } = ctx;
    const companies = state.collection<CompanyRecord>("companies");
    const view = (c: CompanyRecord) => ({ [COMPANY_TYPE_KEY]: companyView(c, ctx, companies.ownerOf(c.id) ?? 0) });
    // Variant company-list-cached-view (blind round 2, ruled open): the list shows each company as first listed.
    const listCache = new Map<number, Record<string, unknown>>();
    const listView = (c: CompanyRecord) => {
      if (ctx.faults.on("r3-company-list-shows-write-only-fields")) return listedWithBodyFields(c, view(c));
      if (ctx.faults.on("r5-company-list-customer-limit-strings")) return listedLimitsAsText(view(c));
      if (!ctx.variants.on("company-list-cached-view")) return view(c);
      const cached = listCache.get(c.id) ?? view(c);
      listCache.set(c.id, cached);
      return cached;
    };
    // Variant r6-company-read-cached-before-put: the item read keeps each company as first read; the PUT never clears the cache.
    const readCache = new Map<number, Record<string, unknown>>();
    const itemView = (c: CompanyRecord) => {
      if (!ctx.variants.on("r6-company-read-cached-before-put")) return view(c);
      const cached = readCache.get(c.id) ?? view(c);
      readCache.set(c.id, cached);
      return cached;
    };
    const store = (userId: number, body: CompanyBody) => {
      const now = timestamp();
      const id = createdCompanyId(ctx, companies, userId);
      return companies.add(userId, (next) => ({ ...body, id: id ?? next, created: now, updated: now, ...fresh(), seeded: false }));
    };

    app.post(
      "/v1/user/:userID/company",
      recoded(ctx, async (request, reply) => {
        const userId = companyUser(ctx, request);
        const raw = objectBody(request);
        const early = storedBeforeTheChecks(ctx, raw, (body) => store(userId, body));
        const body = createdBody(ctx, parseCompanyBody(raw, createBodyOptions(ctx)));
        carelessCreateRefusals(ctx, body);
        providerBodyRules(ctx, body);
        const company = early ? Object.assign(early, body) : store(userId, body);
        return sendCreated(ctx, reply, company, view, answeredCreateId(ctx, companies, userId, company));
      }),
    );

    app.get(
      "/v1/user/:userID/company",
      recoded(ctx, async (request, reply) => {
        const userId = companyUser(ctx, request, "company-path-user-unchecked");
        const page = paginate(request, listedCompanies(ctx, companies, userId), ctx);
        refreshedPageRead(ctx, request, page.items);
        return sendItems(reply, pageSortedByName(ctx, page.items).map(listView), { Pagination: page.pagination });
      }),
    );

    app.get(
      "/v1/user/:userID/company/:itemId",
      recoded(ctx, async (request, reply) => {
        const userId = companyUser(ctx, request, "company-path-user-unchecked");
        const id = companyItemId(ctx, request);
        const company = findCompany(ctx, companies, userId, id, "company-other-user-readable");
        if (!company) return refuseUnknownCompany(ctx, reply, companies, id);
        return sendCompanyRead(ctx, reply, [itemView(companyShown(ctx, companies, userId, company))]);
      }),
    );

    app.put(
      "/v1/user/:userID/company/:itemId",
      recoded(ctx, async (request, reply) => {
        const userId = companyUser(ctx, request, "company-put-path-user-unchecked");
        const company = findCompany(ctx, companies, userId, companyItemId(ctx, request), "company-put-other-user");
        if (!company && !unknownCompanyUpdated(ctx)) throw notFound();
        const raw = objectBody(request);
        if (company) renamedBeforeTheChecks(ctx, company, raw);
        uboNamesAuditedBeforeTheChecks(ctx, raw);
        const body = parseCompanyBody(raw, updateBodyOptions(ctx, raw));
        cutAtFirstEmoji(ctx, body);
        // Fault r4-company-put-unknown-id-500: without the existence check, the update reads a company that is not there.
        if (!company) throw new TypeError("Cannot read properties of undefined (reading 'name')");
        if (unchangedAnswered304(ctx, company, body)) return reply.code(304).send();
        applyCompanyUpdate(ctx, company, body);
        return sendUpdated(ctx, reply, company, userId);
      }),
    );
  },
};

// ---- Seams of the company routes: each decides one rule and names the faults and variants that bend it. ----

/** The userID of the path, which must be the caller's (AUTH-015); `fault` names a route's forgotten check. */
function companyUser(ctx: ReferenceContext, request: FastifyRequest, fault?: FaultName): number {
  // Fault company-path-user-ignored: the user comes from the session, whatever the path says.
  if (ctx.faults.on("company-path-user-ignored") && request.session) return request.session.userId;
  return pathUser(request, ctx, fault);
}

/** The item id of the path: an integer, anything else is a 400 (ERR-006); the fault reads it with parseInt. */
function companyItemId(ctx: ReferenceContext, request: FastifyRequest): number {
  if (!ctx.faults.on("company-id-parsed-leniently")) return intParam(request, "itemId");
  const id = Number.parseInt((request.params as Record<string, string>).itemId ?? "", 10);
  if (Number.isNaN(id)) throw new HttpError(400, "Path parameter itemId must be an integer.", "bad-path-id");
  return id;
}

/**
 * PUT company/{itemId} refuses an id that names no company of the user (ERR-014), as GET does. Fault
 * r4-company-put-unknown-id-500: the update skips that check and reads the stored company's fields, undefined, after the
 * body checks: an unhandled TypeError (500).
 */
function unknownCompanyUpdated(ctx: ReferenceContext): boolean {
  return ctx.faults.on("r4-company-put-unknown-id-500");
}

/** The caller's company of that id (AUTH-019); `anyOwner` names the fault that forgets the owner check. */
function findCompany(
  ctx: ReferenceContext,
  companies: Collection<CompanyRecord>,
  userId: number,
  id: number,
  anyOwner: FaultName,
): CompanyRecord | undefined {
  return ctx.faults.on(anyOwner) ? companies.getAny(id) : companies.get(userId, id);
}

/** The create body's rules (COMP-006, COMP-009, COMP-010): the faults let some through or refuse more. */
function createBodyOptions(ctx: ReferenceContext): CompanyBodyOptions {
  const { faults } = ctx;
  return {
    coerceScalars: scalarsCoerced(ctx),
    notRequired: faults.on("company-missing-legal-form-accepted") ? ["legal_form"] : [],
    typeUnchecked: [
      ...(faults.on("company-name-type-unchecked") ? ["name"] : []),
      ...(faults.on("company-enum-fields-type-unchecked") ? ["country", "subscription_type"] : []),
    ],
    refused: faults.on("company-vat-numbers-refused") ? ["vat_numbers"] : [],
    nullAccepted: faults.on("company-required-null-accepted"),
    // Variant company-address-street-required (blind round 2, ruled open): an address without street is refused.
    streetRequired: ctx.variants.on("company-address-street-required"),
    // Variant r3-company-address-empty-members-dropped (blind round 3, ruled open): address members sent as "" are not stored.
    emptyMembersDropped: ctx.variants.on("r3-company-address-empty-members-dropped"),
    // Fault r4-company-house-number-number-accepted: a house_number sent as a JSON number is stored as sent.
    numericHouseNumber: ctx.faults.on("r4-company-house-number-number-accepted"),
  };
}

/**
 * A refused create stores nothing (COMP-015); the careless order (the fault, and variant company-stored-before-body-checks:
 * COMP-015 is LENIENT) stores once the required fields check out, then checks the rest and completes the stored company.
 */
function storedBeforeTheChecks(
  ctx: ReferenceContext,
  raw: Record<string, unknown>,
  store: (body: CompanyBody) => CompanyRecord,
): CompanyRecord | undefined {
  if (!ctx.faults.on("company-create-stored-before-check") && !ctx.variants.on("company-stored-before-body-checks")) return undefined;
  const required = ["name", "country", "legal_form", "subscription_type"] as const;
  if (!required.every((f) => typeof raw[f] === "string" && raw[f] !== "")) return undefined;
  return store(Object.fromEntries(required.map((f) => [f, raw[f]])) as unknown as CompanyBody);
}

/** Variant company-scalars-coerced (COMP-010 is LENIENT): a number or boolean sent for a string field is stored as its string. */
function scalarsCoerced(ctx: ReferenceContext): boolean {
  return ctx.variants.on("company-scalars-coerced");
}

/** The name as stored (COMP-003); the fault and variant company-names-upper-cased (COMP-003 is LENIENT) show it upper-cased. */
function shownName(ctx: ReferenceContext, name: unknown): unknown {
  const upper = ctx.faults.on("company-read-name-uppercased") || ctx.variants.on("company-names-upper-cased");
  return upper && typeof name === "string" ? name.toUpperCase() : name;
}

/** The company is stored as sent (COMP-003); the fault's create mapper forgot chamber_of_commerce_number. */
function createdBody(ctx: ReferenceContext, body: CompanyBody): CompanyBody {
  if (ctx.faults.on("company-create-coc-dropped")) delete body.chamber_of_commerce_number;
  return body;
}

/** chamber_of_commerce_number and the addresses are optional (COMP-007, COMP-008); the faults refuse, or crash, without them. */
function carelessCreateRefusals(ctx: ReferenceContext, body: CompanyBody): void {
  const { faults } = ctx;
  if (faults.on("company-coc-number-required") && body.chamber_of_commerce_number === undefined)
    throw new HttpError(400, "Field chamber_of_commerce_number is required.");
  // The crash a handler has when it reads address_main.country without looking first.
  if (faults.on("company-minimal-body-500") && body.address_main === undefined)
    throw new Error("Cannot read properties of undefined (reading 'country')");
  // Fault company-empty-ubo-500: the handler reads the first UBO's nationality unchecked; an empty ubo array crashes it.
  if (faults.on("company-empty-ubo-500") && body.ubo && body.ubo[0] === undefined)
    throw new TypeError("Cannot read properties of undefined (reading 'nationality')");
  // Variant company-name-non-ascii-refused (blind round 2, ruled open): a name outside printable ASCII is refused.
  if (ctx.variants.on("company-name-non-ascii-refused") && typeof body.name === "string" && /[^\x20-\x7e]/.test(body.name))
    throw new HttpError(400, "Field name may only contain printable ASCII characters.");
}

/**
 * Variant company-provider-body-rules (GAP-65, COMP-008 LENIENT): like the provider, address_main and address_postal are
 * required; and subscription_type is checked against a closed list (its values are not shown), here the one GAP-65 sends.
 */
function providerBodyRules(ctx: ReferenceContext, body: CompanyBody): void {
  if (!ctx.variants.on("company-provider-body-rules")) return;
  if (body.address_main === undefined || body.address_postal === undefined)
    throw new HttpError(400, "Fields address_main and address_postal are required.");
  if (body.subscription_type !== "COMPANY_V2") throw new HttpError(400, "Field subscription_type must be COMPANY_V2.");
}

/** POST company answers the new company's Id (COMP-001). */
function sendCreated(
  ctx: ReferenceContext,
  reply: FastifyReply,
  company: CompanyRecord,
  view: (c: CompanyRecord) => Record<string, unknown>,
  id: number,
): FastifyReply {
  if (ctx.faults.on("company-create-answers-company")) return sendItems(reply, [view(company)]);
  return sendId(reply, id);
}

/** The Id a create answers is the new company's. */
function answeredCreateId(ctx: ReferenceContext, companies: Collection<CompanyRecord>, userId: number, company: CompanyRecord): number {
  if (!ctx.variants.on("r6-company-create-answers-previous-id")) return company.id;
  // Variant r6-company-create-answers-previous-id: "the latest id" of the user's companies is read before the insert is seen.
  const before = companies.list(userId).filter((c) => c.id < company.id);
  return before[before.length - 1]?.id ?? company.id;
}

/** Body fields that stay inside (the company body is headed "write-only fields" and the read table does not list them). */
const WRITE_ONLY_BODY_FIELDS = ["subscription_type", "signup_track_type", "avatar_uuid", "vat_number", "vat_numbers"] as const;

/**
 * Fault r3-company-list-shows-write-only-fields: the list's mapper starts from the stored body (a spread of the row) before it
 * lays the read form over it, so the write-only fields stored with the company ride along; the item read is built cleanly.
 */
function listedWithBodyFields(c: CompanyRecord, shown: Record<string, unknown>): Record<string, unknown> {
  const inner = shown[COMPANY_TYPE_KEY] as Record<string, unknown>;
  const stored: Record<string, unknown> = {};
  for (const field of WRITE_ONLY_BODY_FIELDS) if (c[field] !== undefined) stored[field] = c[field];
  return { [COMPANY_TYPE_KEY]: { ...stored, ...inner } };
}

/**
 * customer_limit's counts are integers (spec: Company table). Fault r5-company-list-customer-limit-strings: the list's summary
 * projection reads customer_limit from a view whose count columns are text, so each count goes out as a string.
 */
function listedLimitsAsText(shown: Record<string, unknown>): Record<string, unknown> {
  const inner = shown[COMPANY_TYPE_KEY] as Record<string, unknown>;
  const limits = inner.customer_limit as Record<string, unknown> | undefined;
  if (!limits) return shown;
  const text = Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, typeof v === "number" ? String(v) : v]));
  return { [COMPANY_TYPE_KEY]: { ...inner, customer_limit: text } };
}

/** The caller's companies, those created since included (COMP-004). */
function listedCompanies(ctx: ReferenceContext, companies: Collection<CompanyRecord>, userId: number): CompanyRecord[] {
  const { faults, state } = ctx;
  let all = companies.list(userId);
  if (faults.on("company-list-leaks-other-users")) all = [...state.users.keys()].flatMap((u) => companies.list(u));
  if (faults.on("company-list-stale")) all = all.filter((c) => c.seeded);
  return all;
}

/** An unknown company is refused (ERR-014); the fault answers an empty Response for an id nobody has. */
function refuseUnknownCompany(ctx: ReferenceContext, reply: FastifyReply, companies: Collection<CompanyRecord>, id: number): FastifyReply {
  if (ctx.faults.on("company-unknown-id-empty") && companies.ownerOf(id) === undefined) return sendItems(reply, []);
  throw notFound();
}

/** GET company/{itemId} answers that company (COMP-002). */
function companyShown(ctx: ReferenceContext, companies: Collection<CompanyRecord>, userId: number, company: CompanyRecord): CompanyRecord {
  return ctx.faults.on("company-read-first-company") ? (companies.list(userId)[0] ?? company) : company;
}

/**
 * A refused PUT changes nothing (COMP-013); the fault and variant company-put-name-written-first (COMP-013 is LENIENT) write
 * the name before they check the rest of the body.
 */
function renamedBeforeTheChecks(ctx: ReferenceContext, company: CompanyRecord, raw: Record<string, unknown>): void {
  const first = ctx.faults.on("company-put-refused-after-name") || ctx.variants.on("company-put-name-written-first");
  if (first && typeof raw.name === "string") company.name = raw.name;
}

/** PUT checks the body as POST does, required fields included (COMP-010, COMP-014). */
function updateBodyOptions(ctx: ReferenceContext, raw: Record<string, unknown>): CompanyBodyOptions {
  const { faults } = ctx;
  return {
    coerceScalars: scalarsCoerced(ctx),
    // Variant r3-company-address-empty-members-dropped (blind round 3, ruled open): the update shares the body parser, so it
    // drops "" members too.
    emptyMembersDropped: ctx.variants.on("r3-company-address-empty-members-dropped"),
    // Fault r4-company-house-number-number-accepted: the update shares the body parser, so it takes a numeric house_number too.
    numericHouseNumber: faults.on("r4-company-house-number-number-accepted"),
    ...(faults.on("company-put-types-unchecked") ? { typeUnchecked: Object.keys(raw) } : {}),
    ...(faults.on("company-put-required-unchecked") ? { notRequired: ["name", "country", "legal_form", "subscription_type"] } : {}),
  };
}

/** PUT applies every field of the body (COMP-011, COMP-012); variant company-country-kept-on-put (COMP-012, LENIENT) keeps country. */
function applyCompanyUpdate(ctx: ReferenceContext, company: CompanyRecord, body: CompanyBody): void {
  const { faults } = ctx;
  if (faults.on("company-put-country-ignored") || ctx.variants.on("company-country-kept-on-put"))
    delete (body as Partial<CompanyBody>).country;
  if (faults.on("company-put-address-ignored")) delete body.address_main;
  // Fault r5-company-put-coc-number-numeric: the update's mapper writes a chamber of commerce number of digits into a numeric
  // column, so it is stored (and shown) as a number, its leading zeros gone.
  const coc = body.chamber_of_commerce_number;
  if (faults.on("r5-company-put-coc-number-numeric") && typeof coc === "string" && /^\d{1,15}$/.test(coc))
    body.chamber_of_commerce_number = Number(coc) as unknown as string;
  if (ctx.variants.on("r6-company-put-deep-merged")) deepMergedOver(company, body);
  if (!faults.on("company-put-ignored")) Object.assign(company, body, { updated: updatedStamp(ctx) });
}

/** An update stamps updated as a timestamp string (spec: "timestamps (created, updated) are strings"). */
function updatedStamp(ctx: ReferenceContext): string {
  // Fault r4-company-put-updated-epoch: the update path stamps Date.now(), epoch milliseconds, where the create path uses timestamp().
  return ctx.faults.on("r4-company-put-updated-epoch") ? (Date.now() as unknown as string) : timestamp();
}

/**
 * A created company gets the next server-wide id, greater than every id already handed out (conventions §5: the newest
 * items have the greatest ids); undefined takes it. Variant r4-company-create-id-from-count (blind round 4, ruled open): the
 * id is "the user's number of companies + 1", far below the ids the user's companies have, so the new company sorts as the oldest.
 */
function createdCompanyId(ctx: ReferenceContext, companies: Collection<CompanyRecord>, userId: number): number | undefined {
  if (!ctx.variants.on("r4-company-create-id-from-count")) return undefined;
  const owned = companies.list(userId);
  let id = owned.length + 1;
  while (owned.some((c) => c.id === id)) id += 1;
  return id;
}

/**
 * Every valid PUT answers 200, one that changes nothing too (spec: "Successful responses are HTTP 200"). Fault
 * r5-company-put-unchanged-304: the update compares the body with the stored company first and answers a repeated PUT (nothing
 * to change) with 304 Not Modified and no body.
 */
function unchangedAnswered304(ctx: ReferenceContext, company: CompanyRecord, body: CompanyBody): boolean {
  if (!ctx.faults.on("r5-company-put-unchanged-304")) return false;
  const stored = company as unknown as Record<string, unknown>;
  return Object.entries(body).every(([key, value]) => JSON.stringify(stored[key]) === JSON.stringify(value));
}

/** PUT answers the company's Id (ERR-011). */
function sendUpdated(ctx: ReferenceContext, reply: FastifyReply, company: CompanyRecord, userId: number): FastifyReply {
  if (ctx.faults.on("company-put-answers-empty")) return sendItems(reply, []);
  // Variant r6-company-put-answers-user-id: the answer's id is taken from the wrong path parameter, userID.
  return sendId(reply, ctx.variants.on("r6-company-put-answers-user-id") ? userId : company.id);
}

/** The Address response form (spec: Shared objects): is_user_address_updated is a boolean; the fault stringifies every member. */
function shownAddress(ctx: ReferenceContext, a: Strings | undefined): Record<string, unknown> | undefined {
  // Variant r3-company-address-members-dropped (blind round 3, ruled open): the address mapper copies only the five members
  // of a street address.
  if (a && ctx.variants.on("r3-company-address-members-dropped"))
    a = Object.fromEntries(Object.entries(a).filter(([k]) => ["street", "house_number", "postal_code", "city", "country"].includes(k)));
  const shown = address(a);
  if (!shown || !ctx.faults.on("company-address-flag-string")) return shown;
  // The careless mapper: every member of the address row is a text column, so every member goes out as a string.
  return Object.fromEntries(Object.entries(shown).map(([k, v]) => [k, String(v)]));
}

/** alias is an array of Alias (spec: Company table); the fault's serialiser unwraps an array of one element. */
function unwrapSingleAlias(ctx: ReferenceContext, view: Record<string, unknown>): void {
  if (ctx.faults.on("company-single-alias-unwrapped") && Array.isArray(view.alias) && view.alias.length === 1) view.alias = view.alias[0];
}

/**
 * A refresh (newer_id, as future_url sends it) with nothing newer answers an empty page (PAGE-018); the fault reads the
 * newest item of the page for a Last-Modified value without looking, and crashes on an empty page.
 */
function refreshedPageRead(ctx: ReferenceContext, request: FastifyRequest, items: CompanyRecord[]): void {
  if (!ctx.faults.on("company-refresh-empty-page-500")) return;
  if ((request.query as Record<string, unknown>).newer_id === undefined) return;
  const newest = items[items.length - 1] as CompanyRecord;
  // Throws "Cannot read properties of undefined (reading 'updated')" on an empty page: a 500.
  void newest.updated.length;
}

/** A page of the company list ascends by id (conventions §5), like every list. */
function pageSortedByName(ctx: ReferenceContext, items: CompanyRecord[]): CompanyRecord[] {
  // Fault r3-company-list-page-sorted-by-name: the list's display order is the name, as text, not the id.
  if (!ctx.faults.on("r3-company-list-page-sorted-by-name")) return items;
  return [...items].sort((a, b) => String(a.name).localeCompare(String(b.name)));
}

/** GET company/{itemId} answers application/json, its text UTF-8 (banking-api.md: Common request rules), like the list. */
function sendCompanyRead(ctx: ReferenceContext, reply: FastifyReply, items: Record<string, unknown>[]): FastifyReply {
  // Fault r5-company-read-response-object: the read answers the spec table's {UserCompany: Company} as Response itself, no array.
  if (ctx.faults.on("r5-company-read-response-object")) return reply.code(200).type("application/json").send({ Response: items[0] });
  if (!ctx.variants.on("r4-company-read-latin1-body")) return sendItems(reply, items);
  // Variant r4-company-read-latin1-body (blind round 4, ruled open): the item read goes through the legacy renderer, which
  // encodes its text as ISO-8859-1.
  return reply
    .code(200)
    .type("application/json; charset=iso-8859-1")
    .send(Buffer.from(JSON.stringify({ Response: items }), "latin1"));
}

/** Text cut before its first character outside the Basic Multilingual Plane (what a utf8mb3 column keeps in non-strict mode). */
const cutBeforeAstral = (text: string) => text.replace(/[\u{10000}-\u{10FFFF}][\s\S]*$/u, "");

/**
 * PUT stores the texts as sent, any Unicode included (COMP-012); the variant's update path writes through a 3-byte UTF-8 column
 * in non-strict mode, which silently cuts each text at its first 4-byte character (an emoji). POST writes the whole text.
 */
function cutAtFirstEmoji(ctx: ReferenceContext, body: CompanyBody): void {
  // Variant r4-company-put-text-cut-at-emoji (blind round 4, ruled open): "Incorrect string value" is only a warning there;
  // the text is truncated.
  if (!ctx.variants.on("r4-company-put-text-cut-at-emoji")) return;
  const cut = (value: unknown): unknown => {
    if (typeof value === "string") return cutBeforeAstral(value);
    if (Array.isArray(value)) return value.map(cut);
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, cut(v)]));
    return value;
  };
  const fields = body as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) fields[key] = cut(fields[key]);
}

/**
 * PUT replaces each object and array field with the one sent (COMP-012). Variant r6-company-put-deep-merged: the update is a
 * recursive merge (lodash-style), so an address keeps the stored members the new one leaves out, and arrays merge by index.
 */
function deepMergedOver(company: CompanyRecord, body: CompanyBody): void {
  for (const field of ["address_main", "address_postal", "vat_number"] as const) {
    const stored = company[field];
    const sent = body[field];
    if (stored && sent) body[field] = { ...stored, ...sent };
  }
  for (const field of ["ubo", "vat_numbers"] as const) {
    const stored = company[field];
    const sent = body[field];
    if (stored && sent) body[field] = stored.map((entry, i) => ({ ...entry, ...sent[i] })).concat(sent.slice(stored.length));
  }
}

/** The update checks the body before it touches it (a refusal is a 4XX, never a 5XX: conventions §6). */
function uboNamesAuditedBeforeTheChecks(ctx: ReferenceContext, raw: Record<string, unknown>): void {
  if (!ctx.faults.on("r6-company-put-ubo-object-500") || raw.ubo === undefined || raw.ubo === null) return;
  // Fault r6-company-put-ubo-object-500: the update writes an audit line of the UBO names before the body is validated; a ubo
  // sent as an object has no .map: "raw.ubo.map is not a function", a TypeError (500).
  const names = (raw.ubo as { name?: unknown }[]).map((u) => u.name).join(", ");
  void names;
}

/** UBOs read back as sent (UBO: name, date_of_birth, nationality, all strings). */
function shownUbo(ctx: ReferenceContext, ubo: Strings[]): Strings[] {
  if (!ctx.variants.on("r6-company-ubo-birth-date-as-timestamp")) return ubo;
  // Variant r6-company-ubo-birth-date-as-timestamp: date_of_birth sits in a DATETIME column and goes out through timestamp().
  return ubo.map((u) =>
    u.date_of_birth !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(u.date_of_birth)
      ? { ...u, date_of_birth: `${u.date_of_birth} 00:00:00.000000` }
      : u,
  );
}

/** The avatar shown is the one avatar_uuid names ("public uuid of the avatar"), else the one the server made. */
function avatarUuid(ctx: ReferenceContext, c: CompanyRecord): string {
  // Variant r6-company-avatar-uuid-ignored: avatar_uuid is stored but the read form's avatar is always the generated one.
  if (ctx.variants.on("r6-company-avatar-uuid-ignored")) return c.avatar.uuid;
  return c.avatar_uuid ?? c.avatar.uuid;
}

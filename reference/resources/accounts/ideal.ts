// The routes read as the specification; every fault of this file hooks in through a named seam below them.
import type { FastifyReply, FastifyRequest } from "fastify";
import { badRequest, HttpError, notFound } from "../../http-error.js";
import { intParam, objectBody, pathUser, sendId, sendItems, type ReferenceContext, type ResourceModule } from "../../module.js";
import { paginate, type Page } from "../../pagination.js";
import type { Collection } from "../../state.js";
import { timestamp } from "../../time.js";
import { IDEAL_FALLBACK_ISSUER } from "../../../faults/accounts.js";

const IDEAL_TYPE_KEY = "IdealMerchantTransaction";

interface Amount {
  value: string;
  currency: string;
}

interface IdealRecord {
  id: number;
  created: string;
  updated: string;
  monetaryAccountId: number;
  amountRequested: Amount;
  issuer: string;
  status: string;
  statusTimestamp: string;
  /** A number only under fault ideal-created-expiration-epoch. */
  expiration: string | number;
  /** Set only under fault ideal-created-amount-value-number: the value as the create parsed it. */
  parsedValue?: number;
  /** Set only under fault r4-ideal-created-account-id-string: the account id as the path's text. */
  accountIdText?: string;
}

const BIC = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const ISSUER_NAMES: Record<string, string> = {
  ABNANL2A: "ABN AMRO",
  ASNBNL21: "ASN Bank",
  BUNQNL2A: "bunq",
  INGBNL2A: "ING",
  KNABNL2H: "Knab",
  RABONL2U: "Rabobank",
  SNSBNL2A: "SNS",
  TRIONL2U: "Triodos Bank",
};
const SEEDED_STATUSES = [
  "SUCCESS",
  "EXPIRED",
  "SUCCESS",
  "CANCELLED",
  "SUCCESS",
  "PENDING",
  "SUCCESS",
  "EXPIRED",
  "SUCCESS",
  "SUCCESS",
  "PENDING",
];
const EXPIRY_MS = 15 * 60 * 1000;

function view(record: IdealRecord): Record<string, unknown> {
  const identifier = String(record.id).padStart(16, "0");
  return {
    id: record.id,
    created: record.created,
    updated: record.updated,
    // Fault r4-ideal-created-account-id-string: a created transaction shows the account id as the path gave it, a string.
    monetary_account_id: record.accountIdText ?? record.monetaryAccountId,
    // Fault ideal-created-amount-value-number: a created transaction shows the value the create parsed, a number.
    amount_requested: record.parsedValue === undefined ? record.amountRequested : { ...record.amountRequested, value: record.parsedValue },
    issuer: record.issuer,
    issuer_name: ISSUER_NAMES[record.issuer] ?? record.issuer,
    issuer_authentication_url: `https://ideal.example/${record.issuer.toLowerCase()}/authenticate?trxid=${identifier}`,
    expiration: record.expiration,
    purchase_identifier: `P${identifier}`,
    transaction_identifier: identifier,
    status: record.status,
    status_timestamp: record.statusTimestamp,
  };
}

function amountField(ctx: ReferenceContext, value: unknown): Amount {
  let amount = value as Partial<Record<keyof Amount, unknown>> | null;
  if (amount === null || typeof amount !== "object" || Array.isArray(amount))
    throw badRequest("Field amount_requested must be an Amount {value, currency}.");
  // Variant r4-ideal-amount-value-number-accepted (blind round 4, ruled open): a value sent as a JSON number is turned into
  // its string before the check.
  if (ctx.variants.on("r4-ideal-amount-value-number-accepted") && typeof amount.value === "number")
    amount = { ...amount, value: String(amount.value) };
  if (typeof amount.value !== "string" || !/^\d{1,12}(\.\d{1,2})?$/.test(amount.value) || Number(amount.value) <= 0) {
    throw badRequest("amount_requested.value must be a positive decimal string.");
  }
  if (amount.currency !== "EUR") throw badRequest("iDEAL transactions are in EUR.");
  return { value: amount.value, currency: amount.currency };
}

/**
 * iDEAL merchant transactions (deprecated; conventions §7, the provider's paths and fields):
 * request one on a monetary account of the user, list them, and poll one.
 */
export const idealModule: ResourceModule = {
  name: "ideal",
  seed(ctx, user) {
    const transactions = ctx.state.collection<IdealRecord>("ideal-merchant-transactions");
    SEEDED_STATUSES.forEach((status, i) => {
      const when = new Date(Date.UTC(2026, 5, 1 + i, 12));
      transactions.add(user.id, (id) => ({
        id,
        created: timestamp(when),
        updated: timestamp(when),
        monetaryAccountId: user.monetaryAccountIds[0]!,
        amountRequested: { value: `${10 + i}.00`, currency: "EUR" },
        issuer: Object.keys(ISSUER_NAMES)[i % Object.keys(ISSUER_NAMES).length]!,
        status,
        statusTimestamp: timestamp(when),
        expiration: timestamp(new Date(when.getTime() + EXPIRY_MS)),
      }));
    });
  },
  register(app, ctx) {
    const transactions = ctx.state.collection<IdealRecord>("ideal-merchant-transactions");
    const BASE = "/user/:userID/monetary-account/:monetaryAccountID/ideal-merchant-transaction";
    const typeKey = idealTypeKey(ctx);

    app.post(`/v1${BASE}`, async (request, reply) => {
      const { owner, accountId } = accountOfPath(ctx, request);
      const body = objectBody(request);
      const amountRequested = amountField(ctx, body.amount_requested);
      const now = new Date();
      const record = (issuer: string) =>
        transactions.add(owner, (id) => ({
          id,
          created: timestamp(now),
          updated: timestamp(now),
          monetaryAccountId: createdOnAccount(ctx, owner, accountId),
          amountRequested,
          issuer,
          status: "PENDING",
          statusTimestamp: createdStatusTime(ctx, now),
          expiration: createdExpiration(ctx, now),
          ...parsedAmount(ctx, amountRequested),
          ...accountIdAsText(ctx, request),
        }));
      const early = recordedBeforeTheIssuerCheck(ctx, body.issuer, record);
      const issuer = issuerField(ctx, body.issuer);
      const created = early ? Object.assign(early, { issuer }) : record(issuer);
      return sendCreated(ctx, reply, { [typeKey]: view(created) }, created.id);
    });

    app.get(listRoute(ctx, BASE), async (request, reply) => {
      const { owner, accountId } = accountOfPath(ctx, request, { accountId: leadingDigitsAccountId(ctx, request) });
      const page = paginate(request, listedTransactions(ctx, transactions.list(owner), accountId), ctx);
      const items = page.items.map((t) => ({ [typeKey]: listView(ctx, t) }));
      return sendItems(reply, items, listExtra(ctx, linkedOnFirstAccount(ctx, page, owner, accountId)));
    });

    app.get(`/v1${BASE}/:itemId`, async (request, reply) => {
      const { owner, accountId } = accountOfPath(ctx, request, { sessionUser: ctx.faults.on("r6-ideal-read-path-user-ignored") });
      const id = intParam(request, "itemId");
      const anyUsers = transactionByIdAlone(ctx, transactions, id);
      if (anyUsers) return sendItems(reply, [{ [typeKey]: view(anyUsers) }]);
      const found = transactions.get(owner, id);
      crashOnMissing(ctx, found);
      if (!found || (found.monetaryAccountId !== accountId && !accountOfReadIgnored(ctx))) throw notFound();
      polledStatusRestamped(ctx, found);
      return sendItems(reply, [{ [typeKey]: view(found) }]);
    });
  },
};

// ---- Seams of the iDEAL routes: each decides one rule and names the faults that bend it. ----

/**
 * The read serves the caller's transaction on the path's account (AUTH-019). Fault r3-ideal-read-any-users-transaction: the
 * account of the path is checked to be the caller's, then the transaction is looked up by its id alone (any user's, any
 * account); undefined otherwise.
 */
function transactionByIdAlone(ctx: ReferenceContext, transactions: Collection<IdealRecord>, id: number): IdealRecord | undefined {
  return ctx.faults.on("r3-ideal-read-any-users-transaction") ? transactions.getAny(id) : undefined;
}

/**
 * The read serves a transaction of the path's monetary account only, as the list does. Variant r5-ideal-read-ignores-account:
 * the read's query filters by user and id (the account of the path is checked to be the user's, then not compared).
 */
function accountOfReadIgnored(ctx: ReferenceContext): boolean {
  return ctx.variants.on("r5-ideal-read-ignores-account");
}

/** Transactions are answered under IdealMerchantTransaction (ERR-015). */
function idealTypeKey(ctx: ReferenceContext): string {
  return ctx.faults.on("ideal-wrong-type-key") ? "IdealMerchantTransactionRead" : IDEAL_TYPE_KEY;
}

/**
 * The path's monetary account, which must be the caller's (AUTH-019); the user who owns it. The fault takes anyone's.
 * `accountId` is an id a careless route parsed itself; `sessionUser` (a route that forgot the path's user) takes the session's.
 */
function accountOfPath(
  ctx: ReferenceContext,
  request: FastifyRequest,
  careless: { accountId?: number | undefined; sessionUser?: boolean } = {},
): { owner: number; accountId: number } {
  const { state } = ctx;
  const userId = careless.sessionUser ? sessionUserOf(ctx, request) : pathUser(request, ctx);
  const accountId = careless.accountId ?? intParam(request, "monetaryAccountID");
  if (state.users.get(userId)?.monetaryAccountIds.includes(accountId)) return { owner: userId, accountId };
  const owner = [...state.users.values()].find((u) => u.monetaryAccountIds.includes(accountId));
  if (owner && ctx.faults.on("ideal-other-users-account-accepted")) return { owner: owner.id, accountId };
  throw notFound("No such monetary account for this user.");
}

/**
 * issuer, the BIC of the payer's bank, is required (IDEAL-004) and shown as sent (IDEAL-002); the faults assume one, or show
 * their own, and so do variants ideal-issuer-defaulted and ideal-issuer-fixed (both requirements are LENIENT).
 */
function issuerField(ctx: ReferenceContext, value: unknown): string {
  const { faults, variants } = ctx;
  let issuer = value;
  if (issuer === undefined && (faults.on("ideal-missing-issuer-accepted") || variants.on("ideal-issuer-defaulted")))
    issuer = IDEAL_FALLBACK_ISSUER;
  if (typeof issuer !== "string" || !BIC.test(issuer)) throw badRequest("Field issuer must be the BIC of the payer's bank.");
  // Fault ideal-bic11-refused: the check counts a BIC as 8 characters, so a BIC with its 3-character branch code is refused.
  if (issuer.length !== 8 && ctx.faults.on("ideal-bic11-refused")) throw badRequest("Field issuer must be the BIC of the payer's bank.");
  return faults.on("ideal-issuer-ignored") || variants.on("ideal-issuer-fixed") ? IDEAL_FALLBACK_ISSUER : issuer;
}

/**
 * A refused create records nothing; variant r3-ideal-refused-create-recorded (blind round 3, ruled open) records the
 * transaction once the amount checks out, before the issuer is checked.
 */
function recordedBeforeTheIssuerCheck(
  ctx: ReferenceContext,
  issuer: unknown,
  record: (issuer: string) => IdealRecord,
): IdealRecord | undefined {
  return ctx.variants.on("r3-ideal-refused-create-recorded") ? record(typeof issuer === "string" ? issuer : "") : undefined;
}

/** POST answers the new transaction's Id (IDEAL-001). */
function sendCreated(ctx: ReferenceContext, reply: FastifyReply, item: Record<string, unknown>, id: number): FastifyReply {
  if (ctx.faults.on("ideal-create-answers-transaction")) return sendItems(reply, [item]);
  return sendId(reply, id);
}

/** The list is served under /v1 like every endpoint (VER-001). */
function listRoute(ctx: ReferenceContext, base: string): string {
  return ctx.faults.on("ideal-list-unversioned-route") ? base : `/v1${base}`;
}

/**
 * The list's links name the list asked for, the path's monetary account included (conventions §5). Fault
 * r6-ideal-list-links-first-account: the link builder takes the account from the user's record (the first account).
 */
function linkedOnFirstAccount(ctx: ReferenceContext, page: Page<IdealRecord>, owner: number, accountId: number): Page<IdealRecord> {
  const first = ctx.state.users.get(owner)?.monetaryAccountIds[0];
  if (!ctx.faults.on("r6-ideal-list-links-first-account") || !page.pagination || first === undefined || first === accountId) return page;
  const moved = (url: string | null) => url && url.replace(`/monetary-account/${accountId}/`, `/monetary-account/${first}/`);
  const { future_url, newer_url, older_url } = page.pagination;
  return { ...page, pagination: { future_url: moved(future_url), newer_url: moved(newer_url), older_url: moved(older_url) } };
}

/** The list carries its Pagination object (IDEAL-003). */
function listExtra(ctx: ReferenceContext, page: Page<IdealRecord>): Record<string, unknown> {
  return ctx.faults.on("ideal-list-without-pagination") ? {} : { Pagination: page.pagination };
}

/**
 * A new transaction is on the monetary account of the path (conventions §7; IDEAL-005, LENIENT since the blind ruling); the
 * fault's create copied the seed's line and records it on the user's first account, and so does variant
 * ideal-recorded-on-first-account.
 */
function createdOnAccount(ctx: ReferenceContext, owner: number, accountId: number): number {
  if (!(ctx.faults.on("ideal-created-on-first-account") || ctx.variants.on("ideal-recorded-on-first-account"))) return accountId;
  return ctx.state.users.get(owner)?.monetaryAccountIds[0] ?? accountId;
}

/** A transaction's expiration is a timestamp string (spec: scalar fields are strings); the fault's create stores epoch ms. */
function createdExpiration(ctx: ReferenceContext, now: Date): string | number {
  const expiry = now.getTime() + EXPIRY_MS;
  return ctx.faults.on("ideal-created-expiration-epoch") ? expiry : timestamp(new Date(expiry));
}

/** Amount.value is a string (spec: Shared objects); the fault's create keeps the value parsed for arithmetic, a number. */
function parsedAmount(ctx: ReferenceContext, amount: Amount): { parsedValue?: number } {
  return ctx.faults.on("ideal-created-amount-value-number") ? { parsedValue: Number(amount.value) } : {};
}

/**
 * An id that is not one of the user's is a 4XX (conventions §6); the fault reads the transaction's account before it asks
 * whether there is one, and crashes with a 500.
 */
function crashOnMissing(ctx: ReferenceContext, found: IdealRecord | undefined): void {
  if (!found && ctx.faults.on("ideal-read-unknown-id-500"))
    throw new HttpError(500, "Cannot read properties of undefined (reading 'monetaryAccountId').");
}

/** The list holds the transactions of the path's monetary account only, as the read by id checks (conventions §7). */
function listedTransactions(ctx: ReferenceContext, all: IdealRecord[], accountId: number): IdealRecord[] {
  // Variant r3-ideal-list-all-accounts (blind round 3, ruled open): the list's query filters by user only; the account filter
  // was left out.
  return ctx.variants.on("r3-ideal-list-all-accounts") ? all : all.filter((t) => t.monetaryAccountId === accountId);
}

/**
 * The list shows each transaction as the read does (spec: the facts a transaction carries); the variant's list answers a
 * summary without the URL to visit and the purchase id.
 */
function listView(ctx: ReferenceContext, record: IdealRecord): Record<string, unknown> {
  const shown = view(record);
  // Fault r5-ideal-list-expiry-time-field: the list's mapper names the field after the spec's prose ("expiry time").
  if (ctx.faults.on("r5-ideal-list-expiry-time-field")) {
    shown.expiry_time = shown.expiration;
    delete shown.expiration;
  }
  if (!ctx.variants.on("r4-ideal-list-summary-without-urls")) return shown;
  // Variant r4-ideal-list-summary-without-urls (blind round 4, ruled open): the list's summary mapper leaves out the two
  // "detail" fields.
  delete shown.issuer_authentication_url;
  delete shown.purchase_identifier;
  return shown;
}

/** monetary_account_id is an integer (spec: id fields are integers); the fault's create keeps the path parameter's text. */
function accountIdAsText(ctx: ReferenceContext, request: FastifyRequest): { accountIdText?: string } {
  if (!ctx.faults.on("r4-ideal-created-account-id-string")) return {};
  return { accountIdText: (request.params as Record<string, string>).monetaryAccountID };
}

/**
 * A poll reads the transaction; status_timestamp is the time of the last status update and moves only when the status does
 * (spec: "time of last status update"). Fault r4-ideal-poll-restamps-status-time: the poll "refreshes" the status from the
 * issuer and stamps the time of the refresh, changed or not.
 */
function polledStatusRestamped(ctx: ReferenceContext, found: IdealRecord): void {
  if (!ctx.faults.on("r4-ideal-poll-restamps-status-time")) return;
  const now = timestamp();
  found.statusTimestamp = now;
  found.updated = now;
}

/**
 * A new transaction's status (PENDING) was set when it was created: status_timestamp is that time (spec: "time of last status
 * update"). Fault r5-ideal-created-status-time-is-expiry: the create fills status_timestamp from the expiry computed beside it.
 */
function createdStatusTime(ctx: ReferenceContext, now: Date): string {
  if (!ctx.faults.on("r5-ideal-created-status-time-is-expiry")) return timestamp(now);
  return timestamp(new Date(now.getTime() + EXPIRY_MS));
}

/**
 * monetary-accountID is an integer (spec: Common request rules); anything else is a 4XX. Fault r6-ideal-list-account-id-parseint:
 * the list route reads it with parseInt, so "123abc" is account 123; undefined otherwise (the shared strict parser is used).
 */
function leadingDigitsAccountId(ctx: ReferenceContext, request: FastifyRequest): number | undefined {
  if (!ctx.faults.on("r6-ideal-list-account-id-parseint")) return undefined;
  const raw = (request.params as Record<string, string>).monetaryAccountID ?? "";
  return /^\d{1,15}/.test(raw) ? Number.parseInt(raw, 10) : undefined;
}

/**
 * The poll's user. Fault r6-ideal-read-path-user-ignored: the poll route takes the user from the session and only checks that the
 * path's userID is an integer, whatever user it names.
 */
function sessionUserOf(ctx: ReferenceContext, request: FastifyRequest): number {
  intParam(request, "userID");
  return request.session ? request.session.userId : pathUser(request, ctx);
}

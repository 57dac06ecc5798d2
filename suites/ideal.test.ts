// iDEAL merchant transactions, deprecated (banking-api.md "Resources > Other resources", "Endpoint gaps";
// wire conventions §7; GAP-07): the provider's paths, create body and field names. Run only where the
// profile enables the ideal capability, on the primary user's monetary account (fixtures.monetaryAccountId).
// There is no delete: transactions a check creates stay on the account.
import * as allure from "allure-js-commons";
import { beforeEach, describe, test } from "vitest";
import { expectObjects, expectOk, expectRefused, expectSchema, expectThat, failPlain, type About } from "../harness/checks.js";
import { expect4xxAndErrorBody, idsIn, listAll } from "./support/crud-checks.js";
import { createdId, objectsOfType, paginationOf } from "../harness/envelope.js";
import type { Exchange } from "../harness/http/exchange.js";
import { bodyHasId, SAME_ID_ELSEWHERE } from "./support/resource-helpers.js";
import type { Session } from "../harness/session/session.js";
import { SKIP, useTarget } from "../harness/run/target.js";

const t = useTarget();
const from = t.profile.sourceAddresses[0];
const readOnly = t.profile.mode === "read-only";
const accountId = t.profile.fixtures.monetaryAccountId;
const TYPE = "IdealMerchantTransaction";
const SCHEMA = "ideal-merchant-transaction";
const CAPABILITY_OFF = SKIP.capabilityOff("ideal");
const NO_ACCOUNT = "needs the primary user's monetary account: set fixtures.monetaryAccountId in the profile";
/** The string fields of conventions §7 that a transaction answers. */
const STRING_FIELDS = [
  "issuer",
  "expiration",
  "issuer_name",
  "issuer_authentication_url",
  "purchase_identifier",
  "transaction_identifier",
  "status",
  "status_timestamp",
];
/** Rabobank's BIC: a real iDEAL issuer. */
const ISSUER = "RABONL2U";
const AMOUNT = { value: "12.34", currency: "EUR" };

beforeEach(async () => {
  await allure.tag("deprecated");
});

function base(session: Session = t.primary()): string {
  return t.userPath(session, `/monetary-account/${accountId!}/ideal-merchant-transaction`);
}

function call(options: { method?: string; path: string; json?: unknown; session?: Session }): Promise<Exchange> {
  const session = options.session ?? t.primary();
  return t.client.request({
    method: options.method ?? "GET",
    path: options.path,
    token: session.sessionToken,
    from,
    ...(options.json === undefined ? {} : { json: options.json }),
  });
}

function gate(skip: (condition: boolean, reason: string) => void, writes: boolean): void {
  skip(!t.profile.capabilities.ideal, CAPABILITY_OFF);
  skip(accountId === undefined, NO_ACCOUNT);
  if (writes) skip(readOnly, SKIP.readOnly);
}

/** POST a transaction for a check of `forReq`; a failure here is one of IDEAL-001. */
async function create(forReq: string): Promise<number> {
  const exchange = await call({ method: "POST", path: base(), json: { amount_requested: AMOUNT, issuer: ISSUER } });
  const about = { req: "IDEAL-001", what: `with {amount_requested, issuer: "${ISSUER}"} (creating a transaction to check ${forReq})` };
  expectOk(exchange, about);
  const id = createdId(exchange.json);
  expectThat(id !== undefined, exchange, "an Id element with an integer id", about);
  return id;
}

/** A transaction read by id, with the fields of conventions §7. */
async function readTransaction(id: number, about: About): Promise<{ transaction: Record<string, unknown>; exchange: Exchange }> {
  const exchange = await call({ path: `${base()}/${id}` });
  expectOk(exchange, about);
  const transaction = expectObjects(exchange, [TYPE], { ...about, req: "ERR-015" })[0]!;
  expectSchema(transaction, SCHEMA, about, exchange);
  const missing = STRING_FIELDS.filter((name) => typeof transaction[name] !== "string");
  expectThat(
    missing.length === 0,
    exchange,
    `string ${STRING_FIELDS.join(", ")}`,
    about,
    `no string ${missing.join(", ")} in ${JSON.stringify(transaction)}`,
  );
  expectThat(
    transaction.monetary_account_id === accountId,
    exchange,
    `monetary_account_id ${accountId!}, the path's account`,
    about,
    `monetary_account_id ${JSON.stringify(transaction.monetary_account_id)}`,
  );
  return { transaction, exchange };
}

// Independent: each check reads the transaction it created, by id or among the list.
describe.concurrent("requesting and polling a transaction", () => {
  test(
    "IDEAL-001 a transaction requested with {amount_requested, issuer} is answered 200 with Id",
    { tags: ["ERR-009"] },
    async ({ skip }) => {
      gate(skip, true);
      const exchange = await call({ method: "POST", path: base(), json: { amount_requested: AMOUNT, issuer: ISSUER } });
      const about = { req: "IDEAL-001", what: `with {amount_requested: ${JSON.stringify(AMOUNT)}, issuer: "${ISSUER}"}` };
      expectOk(exchange, about);
      expectSchema(expectObjects(exchange, ["Id"], about)[0], "id", { ...about, req: "ERR-009" }, exchange);
    },
  );

  test(
    "IDEAL-002 a created transaction reads back under IdealMerchantTransaction with the fields of conventions §7, the path's " +
      "account and " +
      "the BIC sent",
    { tags: ["ERR-015"] },
    async ({ skip }) => {
      gate(skip, true);
      const id = await create("IDEAL-002");
      const about = { req: "IDEAL-002", what: `(the id the POST answered; issuer sent: ${ISSUER})` };
      const { transaction, exchange } = await readTransaction(id, about);
      expectThat(
        transaction.issuer === ISSUER,
        exchange,
        `issuer "${ISSUER}", the BIC sent`,
        about,
        `issuer ${JSON.stringify(transaction.issuer)}`,
      );
    },
  );

  test("IDEAL-002 a listed transaction reads back by id with the fields of conventions §7", { tags: ["ERR-015"] }, async ({ skip }) => {
    gate(skip, false);
    const list = await call({ path: base() });
    expectOk(list, { req: "IDEAL-002", what: "(the account's transactions, for an id to read)" });
    const ids = idsIn(list.json);
    skip(ids.length === 0, "the monetary account has no iDEAL transaction to read");
    await readTransaction(ids[0]!, { req: "IDEAL-002", what: "(an id from the account's list)" });
  });

  test("IDEAL-003 the transaction list carries a Pagination object and shows a created transaction", async ({ skip }) => {
    gate(skip, true);
    const id = await create("IDEAL-003");
    const { objects, pages } = await listAll(
      t.client,
      { path: base(), token: t.primary().sessionToken, from, typeKeys: [TYPE] },
      { req: "IDEAL-003" },
    );
    for (const page of pages) {
      const pagination = paginationOf(page.json);
      const shaped = pagination !== undefined && ["future_url", "newer_url", "older_url"].every((k) => k in pagination);
      expectThat(shaped, page, "a Pagination object {future_url, newer_url, older_url} beside Response", { req: "IDEAL-003" });
    }
    if (!objects.some((o) => o.id === id))
      failPlain({ req: "IDEAL-003" }, `GET ${base()} (all pages): the created transaction ${id} is not among the ${objects.length} listed`);
  });
});

// Independent: refused requests change nothing.
describe.concurrent("invalid requests", () => {
  const incomplete: [string, unknown][] = [
    ["without issuer", { amount_requested: AMOUNT }],
    ["without amount_requested", { issuer: ISSUER }],
    ["with an empty body object", {}],
  ];
  test.for(incomplete)(
    "IDEAL-004 a transaction requested %s is refused with an error body",
    { tags: ["ERR-001"] },
    async ([what, body], { skip }) => {
      gate(skip, true);
      expectRefused(await call({ method: "POST", path: base(), json: body }), {
        req: "IDEAL-004",
        what: `${what} (${JSON.stringify(body)})`,
      });
    },
  );
});

// Independent: looks for the transaction it created; the second user's calls are refused.
describe.concurrent("whose monetary account", () => {
  test(
    "AUTH-019 the second user cannot list, read or add to the primary user's monetary account, and the primary cannot use the second " +
      "user's id",
    { tags: ["AUTH-015", "ERR-001"] },
    async ({ skip }) => {
      gate(skip, false);
      const other = t.secondary();
      skip(!other, t.secondaryMissing());
      const intruder = other!;
      // A transaction of the primary's to look for (read-only: those already there).
      const created = readOnly ? undefined : await create("AUTH-019");
      const own = await call({ path: base() });
      expectOk(own, { req: "AUTH-019", what: "(the primary user's own list, control)" });
      const primaryIds = idsIn(own.json);
      const neverTheirs = (exchange: Exchange, what: string) => {
        const leaked = primaryIds.filter((id) => bodyHasId(exchange.bodyText, id));
        expectThat(
          leaked.length === 0,
          exchange,
          "no trace of the primary user's transactions",
          { req: "AUTH-019", what },
          `ids ${leaked.join(", ")} in the body`,
        );
      };
      const what = `by the second user under its own userID with the primary user's monetary account ${accountId!}`;
      const list = await call({ path: base(intruder), session: intruder });
      // Ids may be per user (GAP-70): only the transaction this test created (same id and created time) shows a leak.
      const mine = objectsOfType(own.json, TYPE).find((o) => o.id === created);
      const leaksMine = (o: Record<string, unknown>) => mine !== undefined && o.id === mine.id && o.created === mine.created;
      const ownAccount =
        list.status === 200 &&
        (mine
          ? !objectsOfType(list.json, TYPE).some(leaksMine)
          : primaryIds.length > 0 && !primaryIds.some((id) => bodyHasId(list.bodyText, id)));
      skip(
        ownAccount,
        `the second user's list under monetary account ${accountId!} answered 200 with none of the primary user's transactions: ` +
          `${SAME_ID_ELSEWHERE}`,
      );
      expect4xxAndErrorBody(list, { req: "AUTH-019", what });
      neverTheirs(list, what);
      if (primaryIds[0] !== undefined) {
        const read = await call({ path: `${base(intruder)}/${primaryIds[0]}`, session: intruder });
        expect4xxAndErrorBody(read, { req: "AUTH-019", what: `${what} and its transaction ${primaryIds[0]}` });
        neverTheirs(read, what);
      }
      if (!readOnly) {
        const post = await call({
          method: "POST",
          path: base(intruder),
          session: intruder,
          json: { amount_requested: AMOUNT, issuer: ISSUER },
        });
        expect4xxAndErrorBody(post, { req: "AUTH-019", what });
      }
      const swapped = await call({ path: base(intruder) });
      expect4xxAndErrorBody(swapped, {
        req: "AUTH-015",
        what: `with the primary user's session on the second user's id ${intruder.userId}`,
      });
    },
  );
});

// Error answers and status codes (banking-api.md "Errors"; wire conventions §1, §6). Deterministic
// checks on every endpoint of harness/endpoints.ts: every path id that is not an integer, every method a
// path lacks, unknown paths, and write-only values never echoed in an error body. The random properties
// over the same ground are in error-bodies.test.ts.
import { describe, test } from "vitest";
import { accountIdsOf, CardCalls } from "./support/cards.js";
import { mapConcurrently } from "./support/concurrent-property.js";
import { expectNot5xx, expectRefused, expectThat, type About } from "../harness/checks.js";
import { responseItems } from "../harness/envelope.js";
import { idsIn, notedMalformedTaken } from "./support/crud-checks.js";
import { endpointsFor, type Endpoint } from "../harness/endpoints.js";
import type { Exchange } from "../harness/http/exchange.js";
import { LenientLog } from "../harness/lenient.js";
import { UNKNOWN_ID_EMPTY, writerSession } from "./support/resource-helpers.js";
import type { Session } from "../harness/session/session.js";
import { SKIP, useTarget } from "../harness/run/target.js";
import { fill, listPathOf, placeholders } from "../generators/requests.js";
import { sharedOnce } from "./support/shared-once.js";

const t = useTarget();
const from = t.profile.sourceAddresses[0];
const readOnly = t.profile.mode === "read-only";
const writer = writerSession(t);
/** Independent requests of one check in flight at once (the profile's concurrency). */
const inFlight = t.profile.concurrency;

/**
 * A card the session's user has (the first of its list), so a refusal of the malformed PUT is about the
 * body and not about a card that is not there; id 1 where the list gives none.
 */
const cardToPut = sharedOnce(async (): Promise<{ session: Session; cardId: number }> => {
  const session = await writer();
  const list = await t.client.request({ path: t.userPath(session, "/card"), token: session.sessionToken, from: session.from });
  return { session, cardId: (list.status === 200 ? idsIn(list.json)[0] : undefined) ?? 1 };
});

// Side by side: every request is refused and changes nothing; none is read back.
describe.concurrent("malformed requests", () => {
  const malformed = ['{"client_public_key": ', "{'single': 'quotes'}", "[1, 2,", "\u0000\u0001"];
  test.for(malformed)(
    "ERR-005 a malformed JSON body %j is refused with an error body (strict; a 2XX is noted), never a 5XX",
    { tags: ["ERR-003", "ERR-001"] },
    async (body, { skip, annotate }) => {
      const log = new LenientLog(t.profile.strict);
      skip(readOnly, SKIP.readOnly);
      const { session, cardId } = await cardToPut();
      const calls = [
        { method: "POST", path: "/installation", token: null, from },
        { method: "POST", path: "/device-server", token: session.installationToken, from: session.from },
        { method: "PUT", path: t.userPath(session, `/card/${cardId}`), token: session.sessionToken, from: session.from },
      ];
      for (const call of calls) {
        const exchange = await t.client.request({ ...call, body, headers: { "Content-Type": "application/json" } });
        expectMalformedRefused(exchange, { req: "ERR-005", what: `${call.method} ${call.path} with a malformed JSON body` }, log);
      }
      await log.report(annotate);
    },
  );

  test("ERR-003 a JSON request with an empty body is refused with an error body, never a 5XX", { tags: ["ERR-001"] }, async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const calls = [
      { method: "POST", path: "/installation", token: null },
      { method: "POST", path: "/device-server", token: t.primary().installationToken },
    ];
    for (const call of calls) {
      const exchange = await t.client.request({ ...call, body: "", headers: { "Content-Type": "application/json" }, from });
      expectNot5xx(exchange, { req: "ERR-003", what: "with Content-Type application/json and an empty body" });
      expectRefused(exchange, { req: "ERR-003", what: "with an empty body (required fields missing)" });
    }
  });

  test.for(["abc", "1.5", "1e3", "0x10", "%20"])(
    "ERR-006 a userID that is not an integer (%s) is refused with an error body",
    { tags: ["ERR-003", "ERR-001"] },
    async (id) => {
      const exchange = await t.client.request({ path: `/user/${id}/card`, token: t.primary().sessionToken, from });
      expectNot5xx(exchange, { req: "ERR-003", what: "with a non-integer userID" });
      expectRefused(exchange, { req: "ERR-006", what: "with a non-integer userID" });
    },
  );

  test("ERR-006 a card id that is not an integer is refused with an error body", { tags: ["ERR-003"] }, async () => {
    const exchange = await t.client.request({ path: t.userPath(t.primary(), "/card/not-a-number"), token: t.primary().sessionToken, from });
    expectNot5xx(exchange, { req: "ERR-003", what: "with a non-integer card id" });
    expectRefused(exchange, { req: "ERR-006", what: "with a non-integer card id" });
  });
});

// Side by side: every request is refused and changes nothing; none is read back.
describe.concurrent("unknown paths and methods", () => {
  test("ERR-007 an unknown path is refused with an error body", { tags: ["ERR-001"] }, async () => {
    const session = t.primary();
    for (const path of [t.userPath(session, "/no-such-resource"), "/no-such-endpoint"]) {
      const exchange = await t.client.request({ path, token: session.sessionToken, from });
      expectRefused(exchange, { req: "ERR-007", what: "on a path the specification does not have" });
    }
  });

  test("ERR-007 a method the endpoint does not support is refused with an error body", { tags: ["ERR-001"] }, async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = t.primary();
    const exchange = await t.client.request({ method: "DELETE", path: t.userPath(session, "/card"), token: session.sessionToken, from });
    expectRefused(exchange, { req: "ERR-007", what: "(the card list has no DELETE)" });
  });
});

/** One endpoint filled in for a user: the session that calls it and the values of its path ids. */
interface Filled {
  endpoint: Endpoint;
  session: Session;
  values: Record<string, number>;
}

/**
 * Every endpoint of the profile, filled in: writes on this file's writer (a fresh user where the target
 * has them, so a wrongly accepted write changes nothing another file reads), reads and paths that need
 * the primary's fixtures on the primary. Item ids are real ones (the first of their list) where a list
 * gives one, so that only the value under test is wrong.
 */
const filledEndpoints = sharedOnce(async (): Promise<Filled[]> => {
  const primary = t.primary();
  const write = readOnly ? primary : await writer();
  const fixturesOf = async (session: Session): Promise<Record<string, number | undefined>> => {
    if (session === primary)
      return { monetaryAccountId: t.profile.fixtures.monetaryAccountId, oauthClientId: t.profile.fixtures.oauthClientId };
    const { cards } = await new CardCalls(t, session).all({
      req: "ERR-006",
      what: "(listing the writer's cards for its monetary account id)",
    });
    return { monetaryAccountId: accountIdsOf(cards)[0] };
  };
  const users = write === primary ? [primary] : [primary, write];
  const fixtures = new Map<Session, Record<string, number | undefined>>(
    await mapConcurrently(users, users.length, async (u) => [u, await fixturesOf(u)] as const),
  );
  const itemOf = async (endpoint: Endpoint, session: Session, values: Record<string, number | undefined>): Promise<number> => {
    if (endpoint.path.endsWith("/challenge-request/{itemId}")) return t.profile.fixtures.challengeRequestIds?.[0] ?? 1;
    if (endpoint.path.endsWith("/feature-announcement/{itemId}")) return t.profile.fixtures.featureAnnouncementIds?.[0] ?? 1;
    const list = listPathOf(endpoint.path);
    const path = list && fill(list, { ...values, userID: session.userId });
    if (!path) return 1;
    const answer = await t.client.request({ path, token: session.sessionToken, from: session.from });
    return (answer.status === 200 ? idsIn(answer.json)[0] : undefined) ?? 1;
  };
  // Each endpoint's item id is read from its own list: the lookups go out together.
  const endpoints = endpointsFor(t.profile.capabilities).filter((endpoint) => !readOnly || endpoint.method === "GET");
  const filled = await mapConcurrently(endpoints, inFlight, async (endpoint): Promise<Filled | undefined> => {
    const own = endpoint.method === "GET" || !endpoint.needs || fixtures.get(write)![endpoint.needs] === undefined ? primary : write;
    const session = endpoint.method === "GET" ? primary : own;
    const values: Record<string, number | undefined> = { ...fixtures.get(session)!, userID: session.userId };
    if (placeholders(endpoint.path).includes("itemId")) values.itemId = await itemOf(endpoint, session, values);
    if (placeholders(endpoint.path).some((p) => values[p] === undefined)) return undefined;
    return { endpoint, session, values: values as Record<string, number> };
  });
  return filled.filter((f): f is Filled => f !== undefined);
});

function call(f: Filled, options: { method?: string; path?: string; json?: unknown }): Promise<Exchange> {
  const method = options.method ?? f.endpoint.method;
  const json = options.json ?? (method === "POST" || method === "PUT" ? (f.endpoint.body ?? {}) : undefined);
  return t.client.request({
    method,
    path: options.path ?? fill(f.endpoint.path, f.values)!,
    token: f.session.sessionToken,
    from: f.session.from,
    ...(json === undefined || f.endpoint.raw ? {} : { json }),
  });
}

/** A refusal: never 5XX (ERR-003), a 4XX with the error envelope (ERR-001, ERR-002 through expectRefused's schema). */
function expectRefusal(exchange: Exchange, about: About): void {
  expectNot5xx(exchange, { ...about, req: "ERR-003" });
  expectRefused(exchange, about);
}

/**
 * A malformed JSON body: refused with 4XX and an error body, never a 5XX; a 2XX is a reading no sentence forbids (blind round
 * 4: both readers OPEN on a malformed body answered 200 that changed nothing): noted, strict requires the refusal.
 */
function expectMalformedRefused(exchange: Exchange, about: About, log: LenientLog): void {
  expectNot5xx(exchange, { ...about, req: "ERR-003" });
  if (!notedMalformedTaken(exchange, about, log)) expectRefused(exchange, about);
}

// Side by side: every request is refused and changes nothing; the filled-in endpoints are read once, before.
describe.concurrent("every endpoint", () => {
  test(
    "ERR-006 on every endpoint, each path id in turn set to a word, a decimal, or a real id with letters after it is refused with 4XX " +
      "and an error body, never 5XX",
    { tags: ["ERR-001", "ERR-002", "ERR-003"] },
    async () => {
      // Every request is a refusal on a path of its own: they go out side by side, judged in the loop's order.
      const cases = (await filledEndpoints()).flatMap((f) =>
        placeholders(f.endpoint.path).flatMap((at) => ["abc", "1.5", `${f.values[at]}abc`].map((bad) => ({ f, at, bad }))),
      );
      await mapConcurrently(cases, inFlight, async ({ f, at, bad }) => {
        const path = fill(f.endpoint.path, { ...f.values, [at]: bad })!;
        expectRefusal(await call(f, { path }), { req: "ERR-006", what: `(${at} "${bad}" is not an integer)` });
      });
    },
  );

  test(
    "ERR-007 on every endpoint's path, PATCH and every write method the specification does not list for that path are refused with 4XX " +
      "and an error body; a read it does not list is refused too (strict; a server may offer more reads)",
    { tags: ["ERR-001", "ERR-002", "ERR-003"] },
    async ({ skip, annotate }) => {
      skip(readOnly, SKIP.readOnly);
      const log = new LenientLog(t.profile.strict);
      const filled = await filledEndpoints();
      const paths = [...new Set(filled.map((f) => f.endpoint.path))];
      try {
        const cases = paths.flatMap((template) => {
          const listed = new Set(filled.filter((f) => f.endpoint.path === template).map((f) => f.endpoint.method as string));
          // The write endpoint's filling where there is one: a wrongly accepted write then lands on the writer.
          const f =
            filled.find((x) => x.endpoint.path === template && x.endpoint.method !== "GET") ??
            filled.find((x) => x.endpoint.path === template)!;
          return ["PATCH", "POST", "PUT", "DELETE", "GET"].filter((m) => !listed.has(m)).map((method) => ({ template, f, method }));
        });
        // Methods a path does not have: each request is refused on its own, so they go out side by side.
        await mapConcurrently(cases, inFlight, async ({ template, f, method }) => {
          const exchange = await call(f, { method, json: method === "POST" || method === "PUT" ? {} : undefined });
          const about = { req: "ERR-007", what: `(${template} has no ${method} in the specification)` };
          expectNot5xx(exchange, { ...about, req: "ERR-003" });
          if (method === "GET" && exchange.status === 200) {
            log.note(about, `a GET the specification does not list is served (${template})`, "a 4XX with an error body");
            return;
          }
          expectRefused(exchange, about);
        });
      } finally {
        await log.report(annotate);
      }
    },
  );

  test(
    "ERR-007 paths the specification does not have, under /v1 and under a user, are refused with 4XX and an error body",
    { tags: ["ERR-001", "ERR-002"] },
    async () => {
      const session = t.primary();
      const card = (await cardToPut()).cardId;
      // None the provider has either (it serves /user and /monetary-account lists the specification does not show).
      for (const rest of ["/no-such-resource", "/company/1/no-such-child", `/card/${card}/no-such-child`]) {
        const exchange = await t.client.request({ path: t.userPath(session, rest), token: session.sessionToken, from });
        expectRefusal(exchange, { req: "ERR-007", what: "(a path the specification does not have)" });
      }
      for (const path of ["/users/1/card", "/no-such-endpoint/1"]) {
        expectRefusal(await t.client.request({ path, token: session.sessionToken, from }), {
          req: "ERR-007",
          what: "(a path the specification does not have)",
        });
      }
    },
  );
});

// Side by side: every request is refused and changes nothing; none is read back.
describe.concurrent("every endpoint's bodies and item ids", () => {
  test(
    "ERR-005 on every endpoint that takes a JSON body, a malformed one is refused with 4XX and an error body (strict; a 2XX is " +
      "noted), never 5XX",
    { tags: ["ERR-001", "ERR-002", "ERR-003"] },
    async ({ skip, annotate }) => {
      const log = new LenientLog(t.profile.strict);
      skip(readOnly, SKIP.readOnly);
      const bodies = (await filledEndpoints()).filter(
        (f) => (f.endpoint.method === "POST" || f.endpoint.method === "PUT") && !f.endpoint.raw,
      );
      const cases = bodies.flatMap((f) => ['{"status": ', "[1, 2,"].map((raw) => ({ f, raw })));
      await mapConcurrently(cases, inFlight, async ({ f, raw }) => {
        const exchange = await t.client.request({
          method: f.endpoint.method,
          path: fill(f.endpoint.path, f.values)!,
          body: raw,
          headers: { "Content-Type": "application/json" },
          token: f.session.sessionToken,
          from: f.session.from,
        });
        expectMalformedRefused(exchange, { req: "ERR-005", what: `with the malformed JSON body ${JSON.stringify(raw)}` }, log);
      });
      await log.report(annotate);
    },
  );

  test(
    "ERR-014 on every endpoint that reads an item, an item id no server hands out is refused with 4XX and an error body (strict), or " +
      "answered 200 with an empty Response (noted), never 5XX",
    { tags: ["ERR-001", "ERR-002", "ERR-003"] },
    async ({ annotate }) => {
      // LENIENT (blind ruling 2026-11-28): neither file says how a read of an id that names nothing is answered.
      const log = new LenientLog(t.profile.strict);
      // Far beyond any id handed out and still below 2^53: it names no item of any user (GAP-70 cannot make it the caller's own).
      const absent = 900_000_000_000_017;
      await mapConcurrently(
        (await filledEndpoints()).filter((x) => x.endpoint.method === "GET" && x.endpoint.path.endsWith("{itemId}")),
        inFlight,
        async (f) => {
          const path = fill(f.endpoint.path, { ...f.values, itemId: absent })!;
          const exchange = await call(f, { path });
          const about = { req: "ERR-014", what: `(item id ${absent} names no item)` };
          if (exchange.status === 200 && responseItems(exchange.json)?.length === 0)
            log.note(about, UNKNOWN_ID_EMPTY, "a 4XX refusal with an error body");
          else expectRefusal(exchange, about);
        },
      );
      await log.report(annotate);
    },
  );
});

// Side by side: refused updates that change nothing and read nothing back.
describe.concurrent("write-only values in error bodies", () => {
  // Distinct values no server text holds by chance; a refusal must not quote them back.
  const SECRET = { pin_code: "7391", activation_code: "act-5fd0c2e91b", cancellation_reason: "reason-9c41e07a2d", card_id: 987654321 };

  test(
    "ERR-016 a refused card update or share-invite update never echoes the write-only pin_code, activation_code, cancellation_reason or " +
      "card_id it carried (a bare card id in the text only under strict)",
    { tags: ["ERR-001"] },
    async ({ skip, annotate }) => {
      skip(readOnly, SKIP.readOnly);
      const session = await writer();
      const { cardId } = await cardToPut();
      const shares = await t.client.request({
        path: t.userPath(session, "/share-invite-monetary-account-response"),
        token: session.sessionToken,
        from: session.from,
      });
      const shareId = (shares.status === 200 ? idsIn(shares.json)[0] : undefined) ?? 1;
      const calls = [
        // An unknown status makes each request a refusal, whatever the server thinks of the other fields.
        {
          path: `/card/${cardId}`,
          json: {
            status: "NO_SUCH_STATUS",
            pin_code: SECRET.pin_code,
            activation_code: SECRET.activation_code,
            cancellation_reason: SECRET.cancellation_reason,
          },
        },
        { path: `/card/${cardId}`, json: { status: 7, cancellation_reason: SECRET.cancellation_reason } },
        { path: `/share-invite-monetary-account-response/${shareId}`, json: { status: "NO_SUCH_STATUS", card_id: SECRET.card_id } },
      ];
      const log = new LenientLog(t.profile.strict);
      for (const c of calls) {
        const exchange = await t.client.request({
          method: "PUT",
          path: t.userPath(session, c.path),
          json: c.json,
          token: session.sessionToken,
          from: session.from,
        });
        const about = { req: "ERR-016", what: "(a refused update carrying write-only values)" };
        expectRefused(exchange, { ...about, req: "ERR-001" });
        // A card id may be named in an error text ("card 12 is not yours"); as a field, or any secret text, it is a leak.
        const echoed = Object.entries(SECRET).filter(
          ([name, value]) =>
            name in c.json &&
            (typeof value === "number"
              ? new RegExp(`"${name}"\\s*:\\s*${value}\\b`).test(exchange.bodyText)
              : exchange.bodyText.includes(value)),
        );
        expectThat(
          echoed.length === 0,
          exchange,
          "no write-only value of the request in the error body",
          about,
          `the body holds ${echoed.map(([name]) => name).join(", ")}: ${exchange.bodyText.slice(0, 300)}`,
        );
        if ("card_id" in c.json && exchange.bodyText.includes(String(SECRET.card_id)))
          log.note(about, "the error text names the card_id sent", "no trace of the write-only card_id");
      }
      await log.report(annotate);
    },
  );
});

// Error answers and status codes (banking-api.md "Errors"; wire conventions §1, §6).
import { describe, test } from "vitest";
import { expectNot5xx, expectRefused } from "../harness/checks.js";
import { idsIn } from "../harness/crud-checks.js";
import { writerSession } from "../harness/resource-helpers.js";
import type { Session } from "../harness/session.js";
import { SKIP, useTarget } from "../harness/target.js";

const t = useTarget();
const from = t.profile.sourceAddresses[0];
const readOnly = t.profile.mode === "read-only";
const writer = writerSession(t);

/**
 * A card the session's user has (the first of its list), so a refusal of the malformed PUT is about the
 * body and not about a card that is not there; id 1 where the list gives none.
 */
let cardOnce: Promise<{ session: Session; cardId: number }> | undefined;
function cardToPut(): Promise<{ session: Session; cardId: number }> {
  cardOnce ??= (async () => {
    const session = await writer();
    const list = await t.client.request({ path: t.userPath(session, "/card"), token: session.sessionToken, from: session.from });
    return { session, cardId: (list.status === 200 ? idsIn(list.json)[0] : undefined) ?? 1 };
  })();
  return cardOnce;
}

describe("malformed requests", () => {
  const malformed = ['{"client_public_key": ', "{'single': 'quotes'}", "[1, 2,", "\u0000\u0001"];
  test.for(malformed)("ERR-005 ERR-003 ERR-001 a malformed JSON body %j is refused with an error body, never a 5XX", async (body, { skip }) => {
    skip(readOnly, SKIP.readOnly);
    const { session, cardId } = await cardToPut();
    const calls = [
      { method: "POST", path: "/installation", token: null, from },
      { method: "POST", path: "/device-server", token: session.installationToken, from: session.from },
      { method: "PUT", path: t.userPath(session, `/card/${cardId}`), token: session.sessionToken, from: session.from },
    ];
    for (const call of calls) {
      const exchange = await t.client.request({ ...call, body, headers: { "Content-Type": "application/json" } });
      expectNot5xx(exchange, { req: "ERR-003", what: "with a malformed JSON body" });
      expectRefused(exchange, { req: "ERR-005", what: "with a malformed JSON body" });
    }
  });

  test("ERR-003 ERR-001 a JSON request with an empty body is refused with an error body, never a 5XX", async ({ skip }) => {
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

  test.for(["abc", "1.5", "1e3", "0x10", "%20"])("ERR-006 ERR-003 ERR-001 a userID that is not an integer (%s) is refused with an error body", async (id) => {
    const exchange = await t.client.request({ path: `/user/${id}/card`, token: t.primary().sessionToken, from });
    expectNot5xx(exchange, { req: "ERR-003", what: "with a non-integer userID" });
    expectRefused(exchange, { req: "ERR-006", what: "with a non-integer userID" });
  });

  test("ERR-006 ERR-003 a card id that is not an integer is refused with an error body", async () => {
    const exchange = await t.client.request({ path: t.userPath(t.primary(), "/card/not-a-number"), token: t.primary().sessionToken, from });
    expectNot5xx(exchange, { req: "ERR-003", what: "with a non-integer card id" });
    expectRefused(exchange, { req: "ERR-006", what: "with a non-integer card id" });
  });
});

describe("unknown paths and methods", () => {
  test("ERR-007 ERR-001 an unknown path is refused with an error body", async () => {
    const session = t.primary();
    for (const path of [t.userPath(session, "/no-such-resource"), "/no-such-endpoint"]) {
      const exchange = await t.client.request({ path, token: session.sessionToken, from });
      expectRefused(exchange, { req: "ERR-007", what: "on a path the specification does not have" });
    }
  });

  test("ERR-007 ERR-001 a method the endpoint does not support is refused with an error body", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = t.primary();
    const exchange = await t.client.request({ method: "DELETE", path: t.userPath(session, "/card"), token: session.sessionToken, from });
    expectRefused(exchange, { req: "ERR-007", what: "(the card list has no DELETE)" });
  });
});

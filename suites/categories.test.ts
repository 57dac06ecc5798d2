// User-defined transaction categories (banking-api.md "Endpoints > User-defined transaction categories";
// wire conventions §1; GAP-35). Create only: there is no read, list or DELETE, so a created category is
// never read back (CAT-005 is not testable) and creating tests write to one fresh user per file where the
// target provisions users, else add to the primary's categories.
import { describe, test } from "vitest";
import { expectObjects, expectOk, expectRefused, expectSchema, type About } from "../harness/checks.js";
import { writerSession } from "../harness/resource-helpers.js";
import type { Session } from "../harness/session.js";
import { SKIP, useTarget } from "../harness/target.js";

const t = useTarget();
const readOnly = t.profile.mode === "read-only";
const writer = writerSession(t);
const PATH = "/additional-transaction-information-category-user-defined";
// GAP-35: status values are not shown; the suite sends ACTIVE.
const FULL = { status: "ACTIVE", category: "Office supplies", description: "Paper, pens and printer ink", color: "#3A86FF", icon: "shopping_bag" };

const post = (session: Session, json: unknown, userId = session.userId) =>
  t.client.request({ method: "POST", path: `/user/${userId}${PATH}`, token: session.sessionToken, from: session.from, json });

function expectCreated(exchange: Awaited<ReturnType<typeof post>>, about: About): void {
  expectOk(exchange, about);
  expectSchema(expectObjects(exchange, ["Id"], about)[0], "id", about, exchange);
}

describe("POST /user/{userID}/additional-transaction-information-category-user-defined", () => {
  test("CAT-001 ERR-009 a category with status, category, description, color and icon is answered with an integer Id", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    expectCreated(await post(session, FULL), { req: "CAT-001", what: "with every field" });
  });

  test("CAT-002 a category with status only is accepted", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    expectCreated(await post(session, { status: "ACTIVE" }), { req: "CAT-002", what: "with status only" });
  });

  test("CAT-003 ERR-001 a category without status is refused with an error body", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    const { status: _status, ...withoutStatus } = FULL;
    expectRefused(await post(session, withoutStatus), { req: "CAT-003", what: "with every field but status" });
    expectRefused(await post(session, {}), { req: "CAT-003", what: "with an empty object" });
  });

  const wrongTypes: [string, Record<string, unknown>][] = [
    ["a number for category", { category: 42 }],
    ["a boolean for status", { status: true }],
    ["a number for status", { status: 1 }],
    ["a number for color", { color: 3835647 }],
    ["an array for icon", { icon: ["shopping_bag"] }],
    ["an object for description", { description: { text: "Paper" } }],
  ];
  test.for(wrongTypes)("CAT-004 ERR-001 a category with %s is refused with an error body", async ([what, change], { skip }) => {
    skip(readOnly, SKIP.readOnly);
    const session = await writer();
    expectRefused(await post(session, { ...FULL, ...change }), { req: "CAT-004", what: `with ${what}` });
  });

  test("AUTH-015 ERR-001 the primary session creating a category on the second user's userID is refused", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    const other = t.secondary();
    skip(!other, t.secondaryMissing());
    const exchange = await post(t.primary(), { ...FULL, category: "Not yours" }, other!.userId);
    expectRefused(exchange, { req: "AUTH-015", what: `with the primary session on the second user's id ${other!.userId}` });
  });
});

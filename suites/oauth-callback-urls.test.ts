// OAuth client callback URLs (banking-api.md "Endpoints > OAuth client callback URLs"; wire conventions
// §1, §2; GAP-08, GAP-19, GAP-32): create, read, list, update and delete under the user's OAuth client.
// The client comes from the profile (fixtures.oauthClientId, primary user only). Whether url must look
// like a URL (or be https) is not stated, so a non-URL string is neither sent nor judged.
import { randomUUID } from "node:crypto";
import { describe, test } from "vitest";
import { expectObjects, expectOk, expectRefused, expectSchema, expectStatus, expectThat, failPlain } from "../harness/checks.js";
import { expect4xxAndErrorBody, expectDeleteAnswer, expectUpdateAnswer, idsIn, listAll } from "./support/crud-checks.js";
import { createdId } from "../harness/envelope.js";
import { SAME_ID_ELSEWHERE, sameUrl } from "./support/resource-helpers.js";
import type { Session } from "../harness/session/session.js";
import { SKIP, useTarget } from "../harness/run/target.js";

const t = useTarget();
const from = t.profile.sourceAddresses[0];
const readOnly = t.profile.mode === "read-only";
const strict = t.profile.strict;
const clientId = t.profile.fixtures.oauthClientId;
const NO_CLIENT = "needs the primary user's OAuth client: set fixtures.oauthClientId in the profile";
const TYPE = "OauthCallbackUrl";

/** /user/{u}/oauth-client/{c}/callback-url[/{id}] for a session's user (default: the primary and its client). */
function callbackPath(options: { session?: Session; client?: number; id?: number } = {}): string {
  const session = options.session ?? t.primary();
  const id = options.id === undefined ? "" : `/${options.id}`;
  return t.userPath(session, `/oauth-client/${options.client ?? clientId!}/callback-url${id}`);
}

/** Whether an answer carries a text, looked for in the parsed JSON (a server may escape "/" as "\/"). */
function mentions(exchange: { json: unknown; bodyText: string }, text: string): boolean {
  return (exchange.json === undefined ? exchange.bodyText : JSON.stringify(exchange.json)).includes(text);
}

/** A URL no other test uses, so reads and lists find exactly this one. */
const uniqueUrl = (what: string) => `https://conformance.example/oauth/${what}/${randomUUID()}`;

function call(method: string, path: string, json?: unknown, session: Session = t.primary()) {
  return t.client.request({ method, path, token: session.sessionToken, from, ...(json === undefined ? {} : { json }) });
}

/** POST a callback URL for a test of `forReq` to work on; a failure here is one of OCB-001. */
async function create(url: string, forReq: string): Promise<number> {
  const exchange = await call("POST", callbackPath(), { url });
  const about = { req: "OCB-001", what: `with {url: "${url}"} (creating a callback URL to check ${forReq})` };
  expectOk(exchange, about);
  const id = createdId(exchange.json);
  expectThat(id !== undefined, exchange, "an Id element with an integer id", about);
  return id;
}

/** Created by a test, deleted afterwards; a failed clean-up is not the test's verdict. */
async function cleanUp(id: number | undefined): Promise<void> {
  if (id !== undefined) await call("DELETE", callbackPath({ id }));
}

async function readUrl(id: number, req: string, what: string): Promise<unknown> {
  const exchange = await call("GET", callbackPath({ id }));
  const about = { req, what };
  expectOk(exchange, about);
  const object = expectObjects(exchange, [TYPE], about)[0]!;
  expectSchema(object, "oauth-callback-url", about, exchange);
  return object.url;
}

function writingTest(skip: (condition: boolean, reason: string) => void): void {
  skip(clientId === undefined, NO_CLIENT);
  skip(readOnly, SKIP.readOnly);
}

// Independent: each check works on a callback URL of its own (a unique url, read by id or looked for in the list).
describe.concurrent("create, read, list", () => {
  test(
    "OCB-001 a posted callback URL is answered 200 with Id and reads back under OauthCallbackUrl with the url sent",
    { tags: ["OCB-002", "ERR-009", "ERR-015"] },
    async ({ skip }) => {
      writingTest(skip);
      const url = uniqueUrl("create");
      let id: number | undefined;
      try {
        const exchange = await call("POST", callbackPath(), { url });
        const about = { req: "OCB-001", what: `with {url: "${url}"}` };
        expectStatus(exchange, 200, about);
        expectOk(exchange, { ...about, req: "ERR-009" });
        expectSchema(expectObjects(exchange, ["Id"], { ...about, req: "ERR-009" })[0], "id", { ...about, req: "ERR-009" }, exchange);
        id = createdId(exchange.json);
        const read = await call("GET", callbackPath({ id: id! }));
        const readAbout = { req: "OCB-002", what: `(the id the POST answered; url sent: ${url})` };
        expectOk(read, readAbout);
        const object = expectObjects(read, [TYPE], { ...readAbout, req: "ERR-015" })[0]!;
        expectSchema(object, "oauth-callback-url", readAbout, read);
        expectThat(sameUrl(object.url, url), read, `url "${url}", as posted`, readAbout, `url ${JSON.stringify(object.url)}`);
      } finally {
        await cleanUp(id);
      }
    },
  );

  test("OCB-003 the callback-url list shows a posted URL under its id", { tags: ["ERR-015"] }, async ({ skip }) => {
    writingTest(skip);
    const url = uniqueUrl("list");
    let id: number | undefined;
    try {
      id = await create(url, "OCB-003");
      const { objects } = await listAll(
        t.client,
        { path: callbackPath(), token: t.primary().sessionToken, from, typeKeys: [TYPE] },
        { req: "OCB-003" },
      );
      for (const object of objects) expectSchema(object, "oauth-callback-url", { req: "OCB-003", what: `element of ${callbackPath()}` });
      const listed = objects.filter((o) => sameUrl(o.url, url));
      if (listed.length !== 1)
        failPlain(
          { req: "OCB-003" },
          `GET ${callbackPath()} (all pages): expected the posted url ${url} once, found it ${listed.length} times among ` +
            `${objects.length} callback URLs`,
        );
      const listedId = listed[0]!.id;
      if (listedId !== undefined && listedId !== id)
        failPlain(
          { req: "OCB-003" },
          `GET ${callbackPath()}: the posted url is listed with id ${String(listedId)}, the POST answered id ${id}`,
        );
    } finally {
      await cleanUp(id);
    }
  });

  test("ERR-015 every callback URL of the OAuth client is listed under OauthCallbackUrl with a string url", async ({ skip }) => {
    skip(clientId === undefined, NO_CLIENT);
    const { objects } = await listAll(
      t.client,
      { path: callbackPath(), token: t.primary().sessionToken, from, typeKeys: [TYPE] },
      { req: "ERR-015" },
    );
    for (const object of objects) expectSchema(object, "oauth-callback-url", { req: "ERR-015", what: `element of GET ${callbackPath()}` });
  });
});

// Independent: each check changes only the callback URL it created.
describe.concurrent("update and delete", () => {
  test(
    "OCB-004 a PUT with a new url answers 200 with Id or the callback URL, and a later GET shows the new url",
    { tags: ["ERR-011"] },
    async ({ skip }) => {
      writingTest(skip);
      const before = uniqueUrl("before-put");
      const after = uniqueUrl("after-put");
      let id: number | undefined;
      try {
        id = await create(before, "OCB-004");
        const exchange = await call("PUT", callbackPath({ id }), { url: after });
        const about = { req: "OCB-004", what: `with {url: "${after}"}` };
        expectStatus(exchange, 200, about);
        const answered = expectUpdateAnswer(exchange, TYPE, "oauth-callback-url", { ...about, req: "ERR-011" }, strict);
        if (answered) expectThat(sameUrl(answered.url, after), exchange, `the answered object to carry the new url "${after}"`, about);
        const url = await readUrl(id, "OCB-004", `after PUT {url: "${after}"}`);
        if (!sameUrl(url, after))
          failPlain(about, `GET ${callbackPath({ id })} after the PUT shows url ${JSON.stringify(url)}, expected the new url "${after}"`);
      } finally {
        await cleanUp(id);
      }
    },
  );

  test(
    "OCB-005 a DELETE answers 200, after which the callback URL reads 4XX and is no longer listed",
    { tags: ["OCB-006", "ERR-010", "ERR-001"] },
    async ({ skip }) => {
      writingTest(skip);
      const url = uniqueUrl("delete");
      const id = await create(url, "OCB-005");
      let deleted = false;
      try {
        const exchange = await call("DELETE", callbackPath({ id }));
        expectStatus(exchange, 200, { req: "OCB-005" });
        deleted = true;
        expectDeleteAnswer(exchange, TYPE, { req: "ERR-010" }, strict);
        const read = await call("GET", callbackPath({ id }));
        expect4xxAndErrorBody(read, { req: "OCB-006", what: "after the DELETE of that callback URL" });
        const { objects } = await listAll(
          t.client,
          { path: callbackPath(), token: t.primary().sessionToken, from, typeKeys: [TYPE] },
          { req: "OCB-006" },
        );
        const still = objects.filter((o) => o.id === id || sameUrl(o.url, url));
        if (still.length > 0)
          failPlain(
            { req: "OCB-006" },
            `GET ${callbackPath()} after DELETE of callback URL ${id}: it is still listed (${JSON.stringify(still[0])})`,
          );
      } finally {
        if (!deleted) await cleanUp(id);
      }
    },
  );
});

// Independent: each refused PUT targets a callback URL the check created itself.
describe.concurrent("invalid bodies", () => {
  test("OCB-007 a POST or PUT without url is refused with an error body", { tags: ["ERR-001"] }, async ({ skip }) => {
    writingTest(skip);
    const id = await create(uniqueUrl("missing-url"), "OCB-007");
    const strays: number[] = [];
    try {
      for (const body of [{}, { description: "no url here" }]) {
        const post = await call("POST", callbackPath(), body);
        const stray = post.status === 200 ? createdId(post.json) : undefined;
        if (stray !== undefined) strays.push(stray);
        expectRefused(post, { req: "OCB-007", what: `with ${JSON.stringify(body)}` });
        const put = await call("PUT", callbackPath({ id }), body);
        expectRefused(put, { req: "OCB-007", what: `with ${JSON.stringify(body)}` });
      }
    } finally {
      for (const stray of [id, ...strays]) await cleanUp(stray);
    }
  });

  const wrongTypes: [string, unknown][] = [
    ["a number", 42],
    ["a boolean", true],
    ["an array", ["https://conformance.example/oauth/array"]],
    ["an object", { href: "https://conformance.example/oauth/object" }],
  ];
  test.for(wrongTypes)(
    "OCB-008 a POST or PUT whose url is %s is refused with an error body",
    { tags: ["ERR-001"] },
    async ([what, value], { skip }) => {
      writingTest(skip);
      const id = await create(uniqueUrl("wrong-type"), "OCB-008");
      let stray: number | undefined;
      try {
        const post = await call("POST", callbackPath(), { url: value });
        if (post.status === 200) stray = createdId(post.json);
        expectRefused(post, { req: "OCB-008", what: `with url ${what} (${JSON.stringify(value)})` });
        const put = await call("PUT", callbackPath({ id }), { url: value });
        expectRefused(put, { req: "OCB-008", what: `with url ${what} (${JSON.stringify(value)})` });
      } finally {
        await cleanUp(id);
        await cleanUp(stray);
      }
    },
  );

  const refusedPuts: [string, unknown][] = [
    ["no url", {}],
    ["another field instead of url", { description: "no url here" }],
    ["a number as url", { url: 42 }],
    ["an array as url", { url: ["https://conformance.example/oauth/array"] }],
    ["an object as url", { url: { href: "https://conformance.example/oauth/object" } }],
  ];
  test.for(refusedPuts)(
    "OCB-010 a PUT with %s is refused and leaves the callback URL as it was",
    { tags: ["OCB-007", "OCB-008"] },
    async ([what, body], { skip }) => {
      writingTest(skip);
      const url = uniqueUrl("refused-put");
      const id = await create(url, "OCB-010");
      try {
        const put = await call("PUT", callbackPath({ id }), body);
        expectRefused(put, {
          req: typeof (body as { url?: unknown }).url === "undefined" ? "OCB-007" : "OCB-008",
          what: `with ${what} (${JSON.stringify(body)})`,
        });
        const kept = await readUrl(id, "OCB-010", `after the refused PUT with ${what}`);
        if (!sameUrl(kept, url))
          failPlain(
            { req: "OCB-010", what: `GET ${callbackPath({ id })} after the refused PUT ${JSON.stringify(body)}` },
            `expected url "${url}" unchanged, got ${JSON.stringify(kept)}`,
          );
      } finally {
        await cleanUp(id);
      }
    },
  );
});

// Independent: the second user's refused calls target a callback URL this check created.
describe.concurrent("whose OAuth client", () => {
  test(
    "OCB-009 the second user cannot list, read, create, change or delete callback URLs under the primary user's OAuth client",
    { tags: ["AUTH-015", "ERR-001"] },
    async ({ skip }) => {
      skip(clientId === undefined, NO_CLIENT);
      const other = t.secondary();
      skip(!other, t.secondaryMissing());
      const intruder = other!;
      let id: number | undefined;
      const strays: number[] = [];
      try {
        // The primary's callback URLs: one this test made, or (read-only) those already there.
        const created = uniqueUrl("foreign");
        if (!readOnly) id = await create(created, "OCB-009");
        const own = await listAll(
          t.client,
          { path: callbackPath(), token: t.primary().sessionToken, from, typeKeys: [TYPE] },
          { req: "OCB-009", what: "(the primary user's own list, control)" },
        );
        const primaryIds = own.objects.map((o) => o.id).filter((v): v is number => typeof v === "number");
        // The traces of the primary's client: the URL this test made (no other user can have it), else (read-only)
        // every URL of the list. Every user may get the same seeded URLs, so those alone tell nothing apart (GAP-70).
        const primaryUrls = id !== undefined ? [created] : own.objects.map((o) => o.url).filter((v): v is string => typeof v === "string");
        const target = id ?? primaryIds[0];
        const neverTheirs = (exchange: Awaited<ReturnType<typeof call>>, req: string, what: string) => {
          const leaked = primaryUrls.filter((u) => mentions(exchange, u));
          expectThat(
            leaked.length === 0,
            exchange,
            "no trace of the primary user's callback URLs",
            { req, what },
            `${leaked.join(", ")} in the body`,
          );
        };

        const list = await call("GET", callbackPath({ session: intruder }), undefined, intruder);
        const what = `by the second user under its own userID with the primary user's OAuth client ${clientId}`;
        // Ids may be per user: a 200 with none of the primary's URLs is a list of the second user's own client.
        const ownClient = list.status === 200 && primaryUrls.length > 0 && !primaryUrls.some((u) => mentions(list, u));
        skip(ownClient, `OAuth client ${clientId}: ${SAME_ID_ELSEWHERE}`);
        expect4xxAndErrorBody(list, { req: "OCB-009", what });
        neverTheirs(list, "OCB-009", what);
        if (target !== undefined) {
          const read = await call("GET", callbackPath({ session: intruder, id: target }), undefined, intruder);
          expect4xxAndErrorBody(read, { req: "OCB-009", what: `${what} and its callback URL ${target}` });
          neverTheirs(read, "OCB-009", what);
        }
        if (!readOnly && target !== undefined) {
          const post = await call("POST", callbackPath({ session: intruder }), { url: uniqueUrl("intruder") }, intruder);
          if (post.status === 200) strays.push(...idsIn(post.json));
          expect4xxAndErrorBody(post, { req: "OCB-009", what });
          const put = await call("PUT", callbackPath({ session: intruder, id: target }), { url: uniqueUrl("intruder") }, intruder);
          expect4xxAndErrorBody(put, { req: "OCB-009", what: `${what}, PUT on its callback URL ${target}` });
          const del = await call("DELETE", callbackPath({ session: intruder, id: target }), undefined, intruder);
          expect4xxAndErrorBody(del, { req: "OCB-009", what: `${what}, DELETE of its callback URL ${target}` });
          // Refused, and nothing happened: the owner still reads its callback URL with the url it posted.
          const kept = await readUrl(
            target,
            "OCB-009",
            `by the owner after the second user's refused PUT and DELETE of callback URL ${target}`,
          );
          if (!sameUrl(kept, created))
            failPlain(
              { req: "OCB-009", what: `GET ${callbackPath({ id: target })} after the second user's refused PUT` },
              `expected url "${created}" unchanged, got ${JSON.stringify(kept)}`,
            );
        }
        // The primary session on the second user's userID (AUTH-015).
        const swapped = await call("GET", t.userPath(intruder, `/oauth-client/${clientId}/callback-url`));
        expect4xxAndErrorBody(swapped, {
          req: "AUTH-015",
          what: `with the primary user's session on the second user's id ${intruder.userId}`,
        });
      } finally {
        await cleanUp(id);
        for (const stray of strays) await cleanUp(stray);
      }
    },
  );
});

// OAuth client callback URLs (banking-api.md "Endpoints > OAuth client callback URLs"; wire conventions
// §1, §2; GAP-08, GAP-19, GAP-32): create, read, list, update and delete under the user's OAuth client.
// The client comes from the profile (fixtures.oauthClientId, primary user only). Whether url must look
// like a URL (or be https) is not stated, so a non-URL string is neither sent nor judged. The blind ruling of
// 2026-11-28 left open what a read, the list, a PUT or a DELETE shows of the posted url (OCB-002, OCB-003, OCB-004,
// OCB-006, OCB-010) and whether a url of another JSON type is refused (OCB-008): each such reading is noted
// (LENIENT) and fails only on a strict profile.
import { randomUUID } from "node:crypto";
import { describe, test } from "vitest";
import { sharedOnce } from "./support/shared-once.js";
import {
  expectNot5xx,
  expectObjects,
  expectOk,
  expectRefused,
  expectSchema,
  expectStatus,
  expectThat,
  failPlain,
  type About,
} from "../harness/checks.js";
import { expect4xxAndErrorBody, expectDeleteAnswer, expectUpdateAnswer, idsIn, listAll } from "./support/crud-checks.js";
import { createdId } from "../harness/envelope.js";
import { SAME_ID_ELSEWHERE, sameUrl } from "./support/resource-helpers.js";
import type { Session } from "../harness/session/session.js";
import type { Exchange } from "../harness/http/exchange.js";
import { SKIP, useTarget } from "../harness/run/target.js";
import { LenientLog } from "../harness/lenient.js";

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

/** Every callback URL of the primary's OAuth client, every page (crud-checks' listAll). */
function listPrimaryUrls(about: About) {
  return listAll(t.client, { path: callbackPath(), token: t.primary().sessionToken, from, typeKeys: [TYPE] }, about);
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
  const log = new LenientLog(strict);
  const found = await urlOfAnsweredId(id!, url, about, log);
  await log.report();
  return found;
}

/**
 * After a PUT of `url` on `id`: where `id` no longer reads (4XX) and the list shows `url` under another id, that id (noted;
 * strict: undefined, so the read of `id` fails).
 */
async function movedId(id: number, url: string, about: About, log: LenientLog): Promise<number | undefined> {
  if (strict) return undefined;
  const listed = await listedInstead(
    id,
    url,
    { ...about, what: `${about.what ?? ""}: GET ${callbackPath()} (all pages) for the url the PUT set` },
    id,
  );
  if (listed === undefined) return undefined;
  log.note(about, "a PUT stored the callback URL under a new id (the id it named reads 4XX)", "the callback URL keeping its id");
  return listed;
}

/** Where `id` reads 4XX: the id the whole list shows `url` under (never `except`), else undefined. */
async function listedInstead(id: number, url: string, listAbout: About, except?: number): Promise<number | undefined> {
  const read = await call("GET", callbackPath({ id }));
  if (read.status < 400 || read.status >= 500) return undefined;
  const { objects } = await listPrimaryUrls(listAbout);
  const listed = objects.find((o) => sameUrl(o.url, url) && typeof o.id === "number" && o.id !== except);
  return listed?.id as number | undefined;
}

/**
 * The id of the callback URL a POST made: the answered Id where a read of it answers a callback URL, else (noted; strict: the
 * answered Id) the id the list shows the posted url under. Blind round 3: both readers OPEN on an answered Id naming
 * something else (wire conventions §1 fixes the Id's shape, not what it names).
 */
async function urlOfAnsweredId(answered: number, url: string, about: About, log: LenientLog): Promise<number> {
  const listed = await listedInstead(answered, url, {
    ...about,
    what: `${about.what ?? ""}: GET ${callbackPath()} (all pages) for the posted url`,
  });
  if (listed === undefined) return answered;
  log.note(
    about,
    "the Id a POST callback-url answered named no callback URL (the list shows it under another id)",
    "the answered Id naming it",
  );
  return listed;
}

/** Created by a test, deleted afterwards; a failed clean-up is not the test's verdict. */
async function cleanUp(id: number | undefined): Promise<void> {
  // Where a DELETE removes another of the client's URLs (OCB-012, noted), clean-up would remove URLs other checks still read.
  if (id !== undefined && !(await deletes())?.takesAnother) await call("DELETE", callbackPath({ id }));
}

const listedIds = async (about: About) =>
  (await listPrimaryUrls(about)).objects.map((o) => o.id).filter((id): id is number => typeof id === "number");

/**
 * What a DELETE of one callback URL removes, asked before any check of this file deletes one (every writing check waits
 * for it): two URLs made, the newer deleted, the list compared. Blind round 6 (asked again: both readers OPEN): a DELETE
 * that removes another URL of the client (the oldest) is noted; the checks then keep their URLs (cleanUp) and the DELETE
 * check skips, as each of its DELETEs would remove a URL another check reads.
 */
const deletes = sharedOnce(async (): Promise<{ takesAnother: boolean; removed: number[]; exchange: Exchange } | undefined> => {
  if (clientId === undefined || readOnly) return undefined;
  const about = { req: "OCB-012", what: "(two callback URLs made, the newer deleted)" };
  const older = await create(uniqueUrl("delete-probe-kept"), "OCB-012");
  const named = await create(uniqueUrl("delete-probe-deleted"), "OCB-012");
  const before = await listedIds({ ...about, what: `${about.what}: the list before the DELETE` });
  const exchange = await call("DELETE", callbackPath({ id: named }));
  const after = await listedIds({ ...about, what: `${about.what}: the list after the DELETE` });
  const removed = before.filter((id) => id !== named && !after.includes(id));
  const takesAnother = removed.length > 0;
  if (!takesAnother) await call("DELETE", callbackPath({ id: older }));
  return { takesAnother, removed, exchange };
});

async function readUrl(id: number, req: string, what: string): Promise<unknown> {
  const exchange = await call("GET", callbackPath({ id }));
  const about = { req, what };
  expectOk(exchange, about);
  const object = expectObjects(exchange, [TYPE], about)[0]!;
  expectSchema(object, "oauth-callback-url", about, exchange);
  return object.url;
}

/**
 * OCB-011 (MUST, blind ruling 2026-11-28): after a refused POST, nothing of its body was stored: every callback URL the
 * client lists has a string url (the specification's one field). Only urls of other types are looked for, so callback
 * URLs other checks create and change meanwhile never count; any such stray is deleted.
 */
async function expectNothingStored(what: string): Promise<void> {
  const about = { req: "OCB-011", what: `GET ${callbackPath()} (all pages) after the refused POST ${what}` };
  const { objects } = await listPrimaryUrls(about);
  const strays = objects.filter((o) => typeof o.url !== "string");
  for (const stray of strays) if (typeof stray.id === "number") await cleanUp(stray.id);
  if (strays.length > 0)
    failPlain(
      about,
      `expected no callback URL stored by the refused POST (every listed url a string), got ${strays.length} without one: ` +
        JSON.stringify(strays[0]).slice(0, 200),
    );
}

async function writingTest(skip: (condition: boolean, reason: string) => void): Promise<void> {
  skip(clientId === undefined, NO_CLIENT);
  skip(readOnly, SKIP.readOnly);
  await deletes();
}

// Independent: each check works on a callback URL of its own (a unique url, read by id or looked for in the list).
describe.concurrent("create, read, list", () => {
  test(
    "OCB-001 a posted callback URL is answered 200 with Id and reads back under OauthCallbackUrl, with the url sent or another " +
      "(strict: the url sent)",
    { tags: ["OCB-002", "ERR-009", "ERR-015"] },
    async ({ skip, annotate }) => {
      await writingTest(skip);
      const log = new LenientLog(strict);
      const url = uniqueUrl("create");
      let id: number | undefined;
      try {
        const exchange = await call("POST", callbackPath(), { url });
        const about = { req: "OCB-001", what: `with {url: "${url}"}` };
        expectStatus(exchange, 200, about);
        expectOk(exchange, { ...about, req: "ERR-009" });
        expectSchema(expectObjects(exchange, ["Id"], { ...about, req: "ERR-009" })[0], "id", { ...about, req: "ERR-009" }, exchange);
        id = await urlOfAnsweredId(createdId(exchange.json)!, url, about, log);
        const read = await call("GET", callbackPath({ id }));
        const readAbout = { req: "OCB-002", what: `(the id the POST answered; url sent: ${url})` };
        expectOk(read, readAbout);
        const object = expectObjects(read, [TYPE], { ...readAbout, req: "ERR-015" })[0]!;
        expectSchema(object, "oauth-callback-url", readAbout, read);
        if (!sameUrl(object.url, url))
          log.note(readAbout, "the read of a posted callback URL by its id showed another url", `url "${url}", as posted`);
      } finally {
        await cleanUp(id);
      }
      await log.report(annotate);
    },
  );

  test(
    "OCB-003 the callback-url list shows a posted URL once under its id, or not at all (strict: listed)",
    { tags: ["ERR-015"] },
    async ({ skip, annotate }) => {
      await writingTest(skip);
      const log = new LenientLog(strict);
      const url = uniqueUrl("list");
      let id: number | undefined;
      try {
        id = await create(url, "OCB-003");
        const { objects } = await listPrimaryUrls({ req: "OCB-003" });
        for (const object of objects) expectSchema(object, "oauth-callback-url", { req: "OCB-003", what: `element of ${callbackPath()}` });
        const listed = objects.filter((o) => sameUrl(o.url, url));
        if (listed.length === 0) {
          log.note(
            { req: "OCB-003", what: `GET ${callbackPath()} (all pages)` },
            "a posted callback URL is not listed",
            `the posted url ${url}`,
          );
          return;
        }
        if (listed.length > 1)
          failPlain(
            { req: "OCB-003" },
            `GET ${callbackPath()} (all pages): expected the posted url ${url} at most once, found it ${listed.length} times among ` +
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
        await log.report(annotate);
      }
    },
  );

  /**
   * A url is any string (whether it must look like a URL is not stated), so these are taken or refused with an
   * error body, never a 5XX: a server that percent-decodes the url (to log or normalise it) must not fail on
   * bytes that are not UTF-8 or a stray "%".
   */
  const encodedUrls: [string, string][] = [
    ["a percent-encoded byte that is not UTF-8 (%E4)", "caf%E4"],
    ['a "%" not followed by two hex digits', "100%"],
    ["percent-encoded UTF-8 (%C3%A9)", "caf%C3%A9"],
    ["characters outside ASCII", "café-ünïcode"],
  ];
  test.for(encodedUrls)(
    "ERR-003 a POST or PUT whose url holds %s is never answered 5XX: it is taken, or refused with an error body",
    { tags: ["ERR-001"] },
    async ([what, segment], { skip }) => {
      await writingTest(skip);
      const url = () => `https://conformance.example/oauth/${segment}/${randomUUID()}`;
      const id = await create(uniqueUrl("encoded"), "ERR-003");
      const strays: number[] = [];
      try {
        for (const [method, path] of [
          ["POST", callbackPath()],
          ["PUT", callbackPath({ id })],
        ] as const) {
          const sent = url();
          const exchange = await call(method, path, { url: sent });
          if (method === "POST" && exchange.status === 200) strays.push(...idsIn(exchange.json));
          const about = { req: "ERR-003", what: `with a url holding ${what} ("${sent}")` };
          expectNot5xx(exchange, about);
          if (exchange.status !== 200) expectRefused(exchange, { ...about, req: "ERR-001" });
        }
      } finally {
        for (const stray of [id, ...strays]) await cleanUp(stray);
      }
    },
  );

  test("ERR-015 every callback URL of the OAuth client is listed under OauthCallbackUrl with a string url", async ({ skip }) => {
    skip(clientId === undefined, NO_CLIENT);
    const { objects } = await listPrimaryUrls({ req: "ERR-015" });
    for (const object of objects) expectSchema(object, "oauth-callback-url", { req: "ERR-015", what: `element of GET ${callbackPath()}` });
  });
});

// Independent: each check changes only the callback URL it created.
describe.concurrent("update and delete", () => {
  test(
    "OCB-004 a PUT with a new url answers 200 with Id or the callback URL; a later GET shows the new url or another " +
      "(strict: the new url)",
    { tags: ["ERR-011"] },
    async ({ skip, annotate }) => {
      await writingTest(skip);
      const log = new LenientLog(strict);
      const before = uniqueUrl("before-put");
      const after = uniqueUrl("after-put");
      let id: number | undefined;
      try {
        id = await create(before, "OCB-004");
        // Read once before the PUT too: a server serving an earlier read from a cache shows it here.
        await readUrl(id, "OCB-004", "before the PUT");
        const exchange = await call("PUT", callbackPath({ id }), { url: after });
        const about = { req: "OCB-004", what: `with {url: "${after}"}` };
        expectStatus(exchange, 200, about);
        const answered = expectUpdateAnswer(exchange, TYPE, "oauth-callback-url", { ...about, req: "ERR-011" }, strict);
        if (answered && !sameUrl(answered.url, after))
          log.note(about, "a PUT answered the callback URL without the url it set", `the answered object with the new url "${after}"`);
        // A PUT that stored the URL under a new id, the old one gone (blind round 4: both readers OPEN, no sentence keeps the id):
        // noted, and the URL is read under the id the list shows it with; strict reads the id the PUT named.
        const moved = await movedId(id, after, about, log);
        if (moved !== undefined) id = moved;
        const url = await readUrl(id, "OCB-004", `after PUT {url: "${after}"}`);
        if (!sameUrl(url, after))
          log.note(
            { ...about, what: `GET ${callbackPath({ id })} after the PUT` },
            "a later GET did not show the url a PUT set",
            `the new url "${after}"`,
          );
      } finally {
        await cleanUp(id);
      }
      await log.report(annotate);
    },
  );

  test("OCB-012 a DELETE of one callback URL removes no other URL of the client (else noted; strict: none)", async ({ skip, annotate }) => {
    await writingTest(skip);
    const { takesAnother, removed, exchange } = (await deletes())!;
    const about = { req: "OCB-012", what: "(two callback URLs made, the newer deleted)" };
    if (takesAnother && !strict) {
      const log = new LenientLog(strict);
      log.note(about, `a DELETE of one callback URL removed others of the client (${removed.join(", ")})`, "only the URL named");
      return log.report(annotate);
    }
    expectThat(!takesAnother, exchange, "the client's other callback URLs still listed", about, `callback URLs ${removed.join(", ")} gone`);
  });

  test(
    "OCB-005 a DELETE answers 200; the callback URL then reads 4XX and is gone from the list, or is still there " + "(strict: gone)",
    { tags: ["OCB-006", "ERR-010", "ERR-001"] },
    async ({ skip, annotate }) => {
      await writingTest(skip);
      skip(!strict && (await deletes())!.takesAnother, "a DELETE here removes another callback URL of the client (OCB-012, noted)");
      const log = new LenientLog(strict);
      const url = uniqueUrl("delete");
      const id = await create(url, "OCB-005");
      let deleted = false;
      try {
        const exchange = await call("DELETE", callbackPath({ id }));
        expectStatus(exchange, 200, { req: "OCB-005" });
        deleted = true;
        expectDeleteAnswer(exchange, TYPE, { req: "ERR-010" }, strict);
        const read = await call("GET", callbackPath({ id }));
        const readAbout = { req: "OCB-006", what: "after the DELETE of that callback URL" };
        if (read.status === 200) {
          expectOk(read, readAbout);
          log.note(readAbout, "a deleted callback URL could still be read", "a 4XX refusal with an error body");
        } else {
          expect4xxAndErrorBody(read, readAbout);
        }
        const { objects } = await listPrimaryUrls({ req: "OCB-006" });
        const still = objects.filter((o) => o.id === id || sameUrl(o.url, url));
        if (still.length > 0)
          log.note(
            { req: "OCB-006", what: `GET ${callbackPath()} after the DELETE of that callback URL` },
            "a deleted callback URL is still listed",
            "the deleted callback URL gone from the list",
          );
      } finally {
        if (!deleted) await cleanUp(id);
      }
      await log.report(annotate);
    },
  );
});

// Independent: each refused PUT targets a callback URL the check created itself.
describe.concurrent("invalid bodies", () => {
  test(
    "OCB-007 a POST or PUT without url is refused with an error body, and the refused POST stores nothing",
    { tags: ["OCB-011", "ERR-001"] },
    async ({ skip }) => {
      await writingTest(skip);
      const id = await create(uniqueUrl("missing-url"), "OCB-007");
      const strays: number[] = [];
      try {
        for (const body of [{}, { description: "no url here" }]) {
          const post = await call("POST", callbackPath(), body);
          const stray = post.status === 200 ? createdId(post.json) : undefined;
          if (stray !== undefined) strays.push(stray);
          expectRefused(post, { req: "OCB-007", what: `with ${JSON.stringify(body)}` });
          await expectNothingStored(`with ${JSON.stringify(body)}`);
          const put = await call("PUT", callbackPath({ id }), body);
          expectRefused(put, { req: "OCB-007", what: `with ${JSON.stringify(body)}` });
        }
      } finally {
        for (const stray of [id, ...strays]) await cleanUp(stray);
      }
    },
  );

  const wrongTypes: [string, unknown][] = [
    ["a number", 42],
    ["a boolean", true],
    ["an array", ["https://conformance.example/oauth/array"]],
    ["an object", { href: "https://conformance.example/oauth/object" }],
  ];
  /** Accepted or refused (OCB-008, LENIENT): a 200 is noted, anything else must be a refusal with an error body. */
  function refusedOrNoted(exchange: Awaited<ReturnType<typeof call>>, what: string, log: LenientLog): void {
    const about = { req: "OCB-008", what };
    if (exchange.status !== 200) return expectRefused(exchange, about);
    expectOk(exchange, about);
    log.note(about, `a ${exchange.request.method} with a url of another JSON type was accepted`, "a 4XX refusal with an error body");
  }

  test.for(wrongTypes)(
    "OCB-008 a POST or PUT whose url is %s is refused with an error body or accepted (strict: refused)",
    { tags: ["OCB-011", "ERR-001"] },
    async ([what, value], { skip, annotate }) => {
      await writingTest(skip);
      const log = new LenientLog(strict);
      const id = await create(uniqueUrl("wrong-type"), "OCB-008");
      let stray: number | undefined;
      try {
        const post = await call("POST", callbackPath(), { url: value });
        if (post.status === 200) stray = createdId(post.json);
        refusedOrNoted(post, `with url ${what} (${JSON.stringify(value)})`, log);
        if (post.status !== 200) await expectNothingStored(`with url ${what} (${JSON.stringify(value)})`);
        const put = await call("PUT", callbackPath({ id }), { url: value });
        refusedOrNoted(put, `with url ${what} (${JSON.stringify(value)})`, log);
      } finally {
        await cleanUp(id);
        await cleanUp(stray);
      }
      await log.report(annotate);
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
    "OCB-010 a PUT with %s is refused (a wrong type may be accepted); a later GET shows a string url, as it was or changed " +
      "(strict: as it was)",
    { tags: ["OCB-007", "OCB-008"] },
    async ([what, body], { skip, annotate }) => {
      await writingTest(skip);
      const log = new LenientLog(strict);
      const url = uniqueUrl("refused-put");
      const id = await create(url, "OCB-010");
      try {
        const put = await call("PUT", callbackPath({ id }), body);
        const sent = `with ${what} (${JSON.stringify(body)})`;
        if ((body as { url?: unknown }).url === undefined) expectRefused(put, { req: "OCB-007", what: sent });
        else refusedOrNoted(put, sent, log);
        if (put.status === 200) return;
        const kept = await readUrl(id, "OCB-010", `after the refused PUT with ${what}`);
        if (!sameUrl(kept, url))
          log.note(
            { req: "OCB-010", what: `GET ${callbackPath({ id })} after the refused PUT ${JSON.stringify(body)}` },
            "a later GET after a refused PUT did not show the url as it was",
            `url "${url}" unchanged`,
          );
      } finally {
        await cleanUp(id);
        await log.report(annotate);
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
        const own = await listPrimaryUrls({ req: "OCB-009", what: "(the primary user's own list, control)" });
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
          const intruderUrl = uniqueUrl("intruder");
          const put = await call("PUT", callbackPath({ session: intruder, id: target }), { url: intruderUrl }, intruder);
          expect4xxAndErrorBody(put, { req: "OCB-009", what: `${what}, PUT on its callback URL ${target}` });
          const del = await call("DELETE", callbackPath({ session: intruder, id: target }), undefined, intruder);
          expect4xxAndErrorBody(del, { req: "OCB-009", what: `${what}, DELETE of its callback URL ${target}` });
          // Refused, and nothing happened: the owner still reads its callback URL, never with the second user's url
          // (which url a read by id shows is open, OCB-002 LENIENT).
          const kept = await readUrl(
            target,
            "OCB-009",
            `by the owner after the second user's refused PUT and DELETE of callback URL ${target}`,
          );
          if (sameUrl(kept, intruderUrl))
            failPlain(
              { req: "OCB-009", what: `GET ${callbackPath({ id: target })} after the second user's refused PUT` },
              `expected the owner's url unchanged, got the url "${intruderUrl}" the second user's refused PUT sent`,
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

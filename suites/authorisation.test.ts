// Object-level authorisation on every endpoint and method (banking-api.md "Authentication > Rules": "The user id
// in every path is the authenticated user's id"; "What the service does": always scoped to a user; wire
// conventions §6). A userID that names nobody, and another user's userID, are refused on every endpoint the
// specification lists, writes included, and a refused write changes none of the other user's data.
// Items named in the paths are real ones of the path's owner, so that only the user check can refuse them.
import { randomBytes } from "node:crypto";
import { afterAll, describe, test } from "vitest";
import { expectRefused, failPlain, type About } from "../harness/checks.js";
import { mapConcurrently, together } from "./support/concurrent-property.js";
import { CARD_TYPES, canonical } from "./support/cards.js";
import { idsIn } from "./support/crud-checks.js";
import { objectsOfType } from "../harness/envelope.js";
import { ENDPOINTS, endpointsFor, fillPath, type Endpoint } from "../harness/endpoints.js";
import type { Exchange } from "../harness/http/exchange.js";
import { expectNoTrace } from "./support/resource-helpers.js";
import type { Session } from "../harness/session/session.js";
import { useTarget } from "../harness/run/target.js";
import { SharedData } from "./support/shared-data.js";
import { FULL_CHAIN } from "../harness/test-data/certificates.js";
import { png1x1 } from "../harness/test-data/images.js";
import { sharedOnce } from "./support/shared-once.js";
import { freshFixtures } from "./support/list-growth.js";

const t = useTarget();
const readOnly = t.profile.mode === "read-only";
/** Independent requests of one check in flight at once (the profile's concurrency). */
const inFlight = t.profile.concurrency;
/** Written into every write body, so a write that landed anyway is found by its mark. */
const MARK = `authz${randomBytes(4).toString("hex")}`;
/** An item id no one is expected to hold, for writes where a real id would put shared data at risk. */
const MADE_UP_ID = 1_999_999_941;
/**
 * UserIDs no user is expected to hold (checked against every user this run knows): a large one, and 0, which a
 * server that reads a missing or falsy userID as "the session's user" would serve.
 */
const NOBODIES = [1_999_999_937, 0] as const;

/** One endpoint as this file exercises it: whose items the path names and what is sent. */
interface Case {
  endpoint: Endpoint;
  /** The user the item ids (and fixtures) belong to. */
  owner: Session;
  itemId?: number;
  /** The item id is a real item of the owner that this file may write to. */
  writable: boolean;
  /** No other file writes to the owner's item (a fresh owner, or an item this file created): its read may be compared. */
  ownItem: boolean;
  /** The owner's list this endpoint belongs to (filled for the owner), to see a write that landed. */
  listPath?: string;
  /** The owner's item read, to see a write that landed. */
  itemPath?: string;
}

/** A fresh user whose items writes may name (only where the target provisions users and may be written). */
const freshOwner = sharedOnce((): Promise<Session | undefined> =>
  !readOnly && t.canProvision() ? t.freshSession() : Promise.resolve(undefined),
);

/**
 * Items this file created on the primary (callback URLs): deleted again at the end. A clean-up that meets weather (a
 * dropped connection: a DELETE is not resent) leaves the item behind; it is no finding, and no error of the run.
 */
const created: string[] = [];
afterAll(async () => {
  for (const path of created)
    await t.client.request({ method: "DELETE", path, token: t.primary().sessionToken, from: t.primary().from }).catch(() => undefined);
});

const get = (session: Session, path: string, query?: Record<string, number>) =>
  t.client.request({ path, ...(query ? { query } : {}), token: session.sessionToken, from: session.from });

function listTemplateOf(endpoint: Endpoint): string | undefined {
  const template = endpoint.path.replace(/\/\{itemId\}(\/replace)?$/, "");
  return ENDPOINTS.some((e) => e.method === "GET" && e.path === template) ? template : undefined;
}

/** The owner's own item for an item endpoint, and whether this file may write to it. */
async function ownItem(endpoint: Endpoint, owner: Session, fresh: boolean): Promise<{ id?: number; writable: boolean; created?: boolean }> {
  const fixtures = fresh ? {} : t.profile.fixtures;
  if (endpoint.path.endsWith("/challenge-request/{itemId}")) {
    const id = fresh ? undefined : t.profile.fixtures.challengeRequestIds?.[0];
    return { ...(id === undefined ? {} : { id }), writable: id !== undefined && t.profile.allowDestructive };
  }
  if (endpoint.path.endsWith("/feature-announcement/{itemId}")) {
    const id = fresh ? undefined : t.profile.fixtures.featureAnnouncementIds?.[0];
    return { ...(id === undefined ? {} : { id }), writable: false };
  }
  if (endpoint.path.endsWith("/attachment/{itemId}")) {
    // No list: the primary uploads one where it may write (the only user whose monetary account is known).
    const account = t.profile.fixtures.monetaryAccountId;
    if (readOnly || fresh || account === undefined) return { writable: false };
    const upload = await t.client.request({
      method: "POST",
      path: `/user/${owner.userId}/monetary-account/${account}/attachment`,
      token: owner.sessionToken,
      from: owner.from,
      body: png1x1(),
      headers: { "Content-Type": "image/png", [t.header("Attachment-Description")]: `authz ${MARK}` },
    });
    const id = upload.status === 200 ? idsIn(upload.json)[0] : undefined;
    return { ...(id === undefined ? {} : { id }), writable: false };
  }
  const template = listTemplateOf(endpoint);
  const listPath = template && fillPath({ ...endpoint, path: template }, { userID: owner.userId, fixtures });
  if (!listPath) return { writable: false };
  // Items this file creates for itself: a certificate chain of the fresh user, a callback URL of the primary.
  if (!readOnly && (fresh || endpoint.needs === "oauthClientId") && /\/(certificate-pinned|callback-url)$/.test(listPath)) {
    const json = listPath.endsWith("callback-url")
      ? { url: `https://client.example/${MARK}/own` }
      : { certificate_chain: FULL_CHAIN.map((certificate) => ({ certificate })) };
    const made = await t.client.request({ method: "POST", path: listPath, json, token: owner.sessionToken, from: owner.from });
    const id = made.status === 200 ? idsIn(made.json)[0] : undefined;
    if (id !== undefined && !fresh) created.push(`${listPath}/${id}`);
    if (id !== undefined) return { id, writable: true, created: true };
  }
  const list = await get(owner, listPath, { count: 200 });
  if (list.status !== 200) return { writable: false };
  // A card update must be one the card's state allows: an ACTIVE card where there is one.
  const active = objectsOfType(list.json, ...CARD_TYPES).find((card) => card.status === "ACTIVE")?.id;
  const id = typeof active === "number" ? active : idsIn(list.json)[0];
  return { ...(id === undefined ? {} : { id }), writable: id !== undefined && fresh };
}

/** Every endpoint of the profile (GETs only on a read-only target), with the owner whose items it names. */
const cases = sharedOnce(async (): Promise<Case[]> => {
  const fresh = await freshOwner();
  const out: Case[] = [];
  for (const endpoint of endpointsFor(t.profile.capabilities).filter((e) => !readOnly || e.method === "GET")) {
    // Fixture ids (monetary account, OAuth client, challenge requests, announcements) are the primary's.
    const usesFixtures = endpoint.needs !== undefined || /\/(challenge-request|feature-announcement)\//.test(endpoint.path);
    const owner = fresh && !usesFixtures ? fresh : t.primary();
    const isFresh = owner === fresh;
    const fixtures = isFresh ? {} : t.profile.fixtures;
    if (fillPath(endpoint, { userID: owner.userId, fixtures }) === undefined) continue;
    const write = endpoint.method !== "GET";
    const hasItem = endpoint.path.includes("{itemId}");
    // Batch replace names the owner's card in its body: the card endpoints' item stands in for it.
    const batch = endpoint.path.endsWith("/card-batch-replace");
    const itemEndpoint = batch ? { ...endpoint, path: "/user/{userID}/card/{itemId}" } : endpoint;
    const item = hasItem || batch ? await ownItem(itemEndpoint, owner, isFresh) : { writable: false };
    // Writes on an item only where the item is the file's to write; else a made-up id (any refusal then passes).
    const useReal = item.id !== undefined && (!write || item.writable);
    const template = listTemplateOf(itemEndpoint);
    const listPath = template && fillPath({ ...endpoint, path: template }, { userID: owner.userId, fixtures });
    const readTemplate = itemEndpoint.path.replace(/\/replace$/, "");
    const readable = useReal && ENDPOINTS.some((e) => e.method === "GET" && e.path === readTemplate);
    const itemPath = readable
      ? fillPath({ ...endpoint, path: readTemplate }, { userID: owner.userId, itemId: item.id!, fixtures })
      : undefined;
    out.push({
      endpoint,
      owner,
      ...(hasItem || (batch && useReal) ? { itemId: useReal ? item.id! : MADE_UP_ID } : {}),
      writable: write && (hasItem || batch ? useReal : true),
      ownItem: isFresh || item.created === true,
      ...(listPath ? { listPath } : {}),
      ...(itemPath ? { itemPath } : {}),
    });
  }
  return out;
});

/** A body the endpoint accepts for the owner's item, so that only the user check can refuse it; it carries MARK where it can. */
function bodyOf(c: Case): { json?: unknown; body?: Buffer; headers?: Record<string, string> } {
  const { endpoint } = c;
  const path = endpoint.path;
  if (endpoint.raw)
    return { body: png1x1(), headers: { "Content-Type": "image/png", [t.header("Attachment-Description")]: `authz ${MARK}` } };
  if (path.endsWith("/company") || path.endsWith("/company/{itemId}"))
    return { json: { ...(endpoint.body as object), name: `Authz ${MARK}` } };
  if (path.endsWith("/certificate-pinned")) return { json: { certificate_chain: FULL_CHAIN.map((certificate) => ({ certificate })) } };
  if (path.endsWith("/card/{itemId}") || path.endsWith("/replace")) return { json: { second_line: MARK } };
  if (path.endsWith("/card-batch-replace")) return { json: { cards: c.itemId === undefined ? [] : [{ id: c.itemId, second_line: MARK }] } };
  if (path.endsWith("/callback-url") || path.endsWith("/callback-url/{itemId}")) return { json: { url: `https://client.example/${MARK}` } };
  if (path.endsWith("-user-defined")) return { json: { status: "ACTIVE", category: `Authz ${MARK}` } };
  return endpoint.body === undefined ? {} : { json: endpoint.body };
}

function send(
  c: Case,
  userID: number,
  caller: Session,
  fixtures = c.owner === t.primary() ? t.profile.fixtures : {},
  body = bodyOf(c),
): Promise<Exchange> {
  const itemId = c.endpoint.path.includes("{itemId}") ? c.itemId : undefined;
  const path = fillPath(c.endpoint, { userID, fixtures, ...(itemId === undefined ? {} : { itemId }) })!;
  return t.client.request({ method: c.endpoint.method, path, token: caller.sessionToken, from: caller.from, ...body });
}

/**
 * A card PUT that blocks the card (status LOST): a block is often its own code path, with its own lookup. Only on a card
 * this file may write to and where the profile allows permanent card states.
 */
function blockBody(c: Case): ReturnType<typeof bodyOf> | undefined {
  const blocks = c.endpoint.method === "PUT" && c.endpoint.path.endsWith("/card/{itemId}") && c.writable && t.profile.allowDestructive;
  return blocks ? { json: { status: "LOST" } } : undefined;
}

/** What the owner can see of the data a write could touch: its item and its list, as read before and after. */
async function snapshot(c: Case): Promise<string> {
  const [item, list] = await together(
    async () => (c.itemPath ? get(c.owner, c.itemPath) : undefined),
    async () => (c.listPath ? get(c.owner, c.listPath, { count: 200 }) : undefined),
  );
  return [item, list].flatMap((read) => (read ? [read.bodyText] : [])).join("\n");
}

/**
 * The owners' data the write cases of this file's tests read before and after their write. Each write case holds it
 * alone (`write`), whichever test it belongs to; AUTH-022's refused writes, which read nothing back, hold it shared
 * (`read`): a write that landed anyway shows in its own case and never in another case's reads.
 */
const ownerData = new SharedData();

/**
 * The cases of a sweep, side by side where that cannot blur the verdict: refused reads change nothing and
 * read nothing back, so they run at once; writes, each between two reads of the owner's data, go one at a
 * time (across the file's tests too: ownerData), so a write that landed shows in its own case and never in a
 * neighbour's reads.
 */
async function sweep<C extends Case | { c: Case }>(list: C[], check: (c: C) => Promise<void>): Promise<void> {
  const method = (x: Case | { c: Case }) => ("c" in x ? x.c : x).endpoint.method;
  await mapConcurrently(list, inFlight, (x) => (method(x) === "GET" ? check(x) : ownerData.write(() => check(x))));
}

/**
 * A refused write left the owner's data as it was: no read holds MARK, and the item reads the same where no other
 * file writes to it; the whole list is compared only for a fresh owner.
 */
function expectUnchanged(c: Case, before: string, after: string, about: About, listOwnedByFile: boolean): void {
  const [itemBefore, itemAfter] = [before, after].map((s) => (c.itemPath ? s.split("\n")[0] : ""));
  const problems: string[] = [];
  if (c.ownItem && itemBefore !== itemAfter) problems.push(`the item read changed: before ${itemBefore}, after ${itemAfter}`);
  if (after.includes(MARK) && !before.includes(MARK)) problems.push(`the owner's data now holds the mark ${MARK} of the refused write`);
  if (listOwnedByFile && before !== after && problems.length === 0)
    problems.push(`the owner's data changed: before ${before.slice(0, 400)}, after ${after.slice(0, 400)}`);
  if (problems.length > 0) failPlain(about, `expected the refused write to change nothing, but ${problems.join("; ")}`);
}

/** The inner objects of an answer's Response (each element's one value), canonical. */
function innerObjects(json: unknown): string[] {
  const response = (json as { Response?: unknown } | undefined)?.Response;
  if (!Array.isArray(response)) return [];
  return response.flatMap((element) =>
    element !== null && typeof element === "object" ? Object.values(element as object).map((inner) => canonical(inner)) : [],
  );
}

/** A 200 on the owner's item id through the intruder's own userID leaks only where it answers the owner's item as the owner reads it. */
async function expectNotOwnersItem(c: Case, exchange: Exchange, about: About): Promise<void> {
  if (!c.itemPath) return;
  const owners = await get(c.owner, c.itemPath);
  const own = innerObjects(owners.json);
  const leaked = innerObjects(exchange.json).filter((inner) => own.includes(inner));
  if (leaked.length > 0)
    failPlain(
      about,
      `expected a refusal, or the intruder's own item under the same id; got 200 with user ${c.owner.userId}'s item ${c.itemId} ` +
        `exactly as its owner reads it: ${leaked[0]!.slice(0, 300)}`,
    );
}

// Side by side: every request is refused and changes nothing; each write case reads the owner's data before and
// after its write with no other write of the file in between (ownerData).
describe.concurrent("another user's userID on every endpoint and method", () => {
  test(
    "AUTH-015 another user's session on the owner's userID is refused on every endpoint and method, and a refused write changes nothing",
    { tags: ["AUTH-023"] },
    async ({ skip }) => {
      const list = await cases();
      const fresh = await freshOwner();
      // The intruder: the second user; where the owner is the primary and no second user exists, nobody.
      const intruder = t.secondary() ?? (t.canProvision() && !readOnly ? await t.freshSession() : undefined);
      skip(!intruder, t.secondaryMissing());
      await sweep(list, async (c) => {
        if (c.owner.userId === intruder!.userId) return;
        const what = `with another user's session (user ${intruder!.userId}) on user ${c.owner.userId}'s path`;
        const write = c.endpoint.method !== "GET";
        const before = write ? await snapshot(c) : "";
        const exchange = await send(c, c.owner.userId, intruder!);
        const about = { req: "AUTH-015", what };
        expectRefused(exchange, about);
        if (c.itemId !== undefined && c.itemId !== MADE_UP_ID) expectNoTrace(exchange, [c.itemId], about);
        if (write && c.writable) {
          const after = await snapshot(c);
          expectUnchanged(
            c,
            before,
            after,
            { req: "AUTH-023", what: `${c.endpoint.method} ${exchange.request.path} ${what}` },
            c.owner === fresh,
          );
        }
      });
    },
  );
});

// Side by side: every request is refused and reads nothing back; its writes stay out of the other tests' write
// cases (ownerData).
describe.concurrent("a userID that names nobody", () => {
  test("AUTH-022 a userID no user has is refused with an error body on every endpoint and method, never with an empty list", async () => {
    const list = await cases();
    const known = [t.primary().userId, t.secondary()?.userId, ...list.map((c) => c.owner.userId)];
    const taken = NOBODIES.find((id) => known.includes(id));
    if (taken !== undefined) failPlain({ req: "AUTH-022" }, `the made-up userID ${taken} belongs to a user of this run; pick another`);
    // No case reads anything back: every request goes out side by side.
    const sends = list.flatMap((c) => NOBODIES.map((nobody) => ({ c, nobody })));
    await mapConcurrently(sends, inFlight, async ({ c, nobody }) => {
      // The caller's own item ids in the path: a server that ignored the path's user would serve them.
      const exchange = await (c.endpoint.method === "GET" ? send(c, nobody, c.owner) : ownerData.read(() => send(c, nobody, c.owner)));
      expectRefused(exchange, { req: "AUTH-022", what: `by user ${c.owner.userId} on userID ${nobody}, which names no user` });
    });
  });
});

// Side by side: the intruder is a fresh user of its own (its ids, read once, stay its own); each write case reads the
// owner's data before and after its write with no other write of the file in between (ownerData).
describe.concurrent("another user's item through the caller's own userID", () => {
  test(
    "AUTH-019 the owner's item id under another user's own userID (and own monetary account or OAuth client) is refused on every item " +
      "endpoint and method, a card block included, and a refused write changes nothing",
    { tags: ["AUTH-023"] },
    async ({ skip }) => {
      const list = await cases();
      const fresh = await freshOwner();
      // A fresh intruder where the target provisions: nobody else writes to its lists, so the ids it owns, read once
      // below, stay the ids it owns (other files add items to the shared second user while this test runs, and with
      // ids per user an id of theirs can equal the owner's).
      const intruder = t.canProvision() && !readOnly ? await t.freshSession() : t.secondary();
      skip(!intruder, t.secondaryMissing());
      // Each item endpoint under the path the owner's fixtures (account, OAuth client) fill, and, where the intruder has its own
      // (a fresh user's), under the intruder's own account or client too: a lookup by item id alone shows only there.
      const ownFixtures = intruder === t.secondary() ? {} : await freshFixtures(t, intruder!);
      const ownerFixtures = (c: Case) => (c.owner === t.primary() ? t.profile.fixtures : {});
      const attempts = list
        .filter((x) => x.endpoint.path.includes("{itemId}") && x.itemId !== MADE_UP_ID && x.listPath && x.owner.userId !== intruder!.userId)
        .flatMap((c) => {
          const need = c.endpoint.needs;
          const own = need !== undefined && ownFixtures[need] !== undefined ? [{ c, fixtures: ownFixtures, own: true }] : [];
          const block = blockBody(c);
          const blocking = block ? [{ c, fixtures: ownerFixtures(c), own: false, body: block, blocks: true }] : [];
          const plain = { body: bodyOf(c), blocks: false };
          return [{ c, fixtures: ownerFixtures(c), own: false, ...plain }, ...own.map((a) => ({ ...a, ...plain })), ...blocking];
        });
      // Only item endpoints with a list: the intruder's own ids are known, so an id it also owns (ids per user, GAP-70) is left out.
      const intruderListOf = ({ c, fixtures }: (typeof attempts)[number]) =>
        fillPath({ ...c.endpoint, path: listTemplateOf(c.endpoint)! }, { userID: intruder!.userId, fixtures })!;
      // The intruder's own lists, each read once, all at once.
      const intruderLists = [...new Set(attempts.map(intruderListOf))];
      const intruderIds = await mapConcurrently(intruderLists, inFlight, async (path) => {
        const read = await get(intruder!, path, { count: 200 });
        return read.status === 200 ? idsIn(read.json) : [];
      });
      const ownIds = new Map(intruderLists.map((path, i) => [path, intruderIds[i]!]));
      await sweep(attempts, async (attempt) => {
        const { c, fixtures, own, body, blocks } = attempt;
        if (ownIds.get(intruderListOf(attempt))!.includes(c.itemId!)) return;
        const under = own ? ` under its own ${c.endpoint.needs === "oauthClientId" ? "OAuth client" : "monetary account"}` : "";
        const what =
          `with user ${intruder!.userId}'s session and own userID${under}, naming user ${c.owner.userId}'s item ${c.itemId}` +
          (blocks ? ", to block it (status LOST)" : "");
        const write = c.endpoint.method !== "GET";
        const before = write ? await snapshot(c) : "";
        const exchange = await send(c, intruder!.userId, intruder!, fixtures, body);
        const about = { req: "AUTH-019", what };
        const after = write && c.writable ? await snapshot(c) : "";
        const writeAbout = { req: "AUTH-023", what: `${c.endpoint.method} ${exchange.request.path} ${what}` };
        if (exchange.status === 200) {
          // Ids may be per user (GAP-70) and the intruder's list may not show all of its own: an answered 200 may be
          // its own item under the same id. Only an effect proves a leak: the owner's item in the answer, or (a
          // write) the owner's data changed.
          if (!write) await expectNotOwnersItem(c, exchange, about);
          else if (c.writable) expectUnchanged(c, before, after, writeAbout, c.owner === fresh);
          return;
        }
        expectRefused(exchange, about);
        expectNoTrace(exchange, [c.itemId!], about);
        if (write && c.writable) expectUnchanged(c, before, after, writeAbout, c.owner === fresh);
      });
    },
  );
});

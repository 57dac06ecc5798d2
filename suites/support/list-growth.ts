// Lists a check grows, shrinks and reads whole, shared by the pagination suites (suites/pagination.test.ts,
// suites/list-sizes.test.ts): a fresh user's fixtures and lists it can add to, every id of a list, and the checks on
// a whole walk of a list's pages.
import fc from "fast-check";
import { accountIdsOf, CardCalls } from "./cards.js";
import { mapConcurrently, together } from "./concurrent-property.js";
import { cursorOf, expectAtMost, expectNullLink, fillList, getPage, listEndpoints, readPage, type ListCase, type Page } from "./pages.js";
import { expectThat, fail, failPlain } from "../../harness/checks.js";
import { createdId } from "../../harness/envelope.js";
import { ENDPOINTS } from "../../harness/endpoints.js";
import type { Fixtures } from "../../harness/profile/profile.js";
import { discoverFixtures } from "../../harness/session/fixtures-discovery.js";
import type { Session } from "../../harness/session/session.js";
import { perRun } from "./shared-once.js";
import { skipRunningTest } from "../../harness/run/test-scope.js";
import type { Target } from "../../harness/run/target.js";
import { validBody, type BodyName } from "../../generators/bodies.js";
import { bodyNameOf } from "../../generators/requests.js";
import { DEFAULT_COUNT, MAX_COUNT } from "../../generators/query.js";

/**
 * A fresh user's fixture ids: its monetary account, which the API shows through its cards, and its OAuth client, which no
 * endpoint of the specification shows: asked of the sandbox-only fixtures endpoint where the target offers it (the
 * embedded reference, or a profile with `fixtures: discover`), so the fresh user's callback URLs are checked too.
 */
export async function freshFixtures(t: Target, session: Session): Promise<Fixtures> {
  return (await freshFixturesAndAccounts(t, session)).fixtures;
}

/** freshFixtures, and every monetary account the fresh user's cards name (the fixture is the first), from one card listing. */
export async function freshFixturesAndAccounts(t: Target, session: Session): Promise<{ fixtures: Fixtures; accounts: number[] }> {
  const offersDiscovery = t.profile.embedded || t.profile.discoverFixtures === true;
  const [{ cards }, discovered] = await together(
    () => new CardCalls(t, session).all({ req: "PAGE-021", what: "listing a fresh user's cards for its monetary account id" }),
    async () => (offersDiscovery ? (await discoverFixtures(t.client, session)).fixtures : {}),
  );
  const accounts = accountIdsOf(cards);
  const account = accounts[0];
  const fixtures = {
    ...(account === undefined ? {} : { monetaryAccountId: account }),
    ...(discovered.oauthClientId === undefined ? {} : { oauthClientId: discovered.oauthClientId }),
  };
  return { fixtures, accounts };
}

/** Every id of a list, ascending: the first page with count 200, then older_url and newer_url to the ends. */
export async function allIds(t: Target, list: ListCase): Promise<number[]> {
  const first = readPage(await getPage(t, list, list.path, { count: MAX_COUNT }), {
    req: "PAGE-005",
    what: `(count ${MAX_COUNT}, reading the whole list)`,
  });
  const ids = new Set(first.ids);
  // The two directions are read side by side: each walk reads only pages.
  await mapConcurrently(["older_url", "newer_url"] as const, 2, async (direction) => {
    let link = first.pagination?.[direction] ?? null;
    for (let pages = 0; typeof link === "string"; pages++) {
      if (pages > 50)
        failPlain({ req: "PAGE-016" }, `following ${direction} from ${first.exchange.request.path} did not end after 50 pages`);
      const page = readPage(await getPage(t, list, link), { req: "PAGE-021", what: `following ${direction}` });
      page.ids.forEach((id) => ids.add(id));
      link = page.pagination?.[direction] ?? null;
    }
  });
  return [...ids].sort((a, b) => a - b);
}

/** How a count reads in messages. */
export const describeCount = (count: number | undefined) => (count === undefined ? "without count" : `with count=${count}`);

/** PAGE-003, PAGE-004, PAGE-012: the first page holds exactly the newest min(count, size) items. */
export function expectNewestItems(first: Page, count: number | undefined, all: number[]): void {
  const req = count === undefined ? "PAGE-003" : "PAGE-004";
  const newest = all.slice(-(count ?? DEFAULT_COUNT));
  const got = `${first.ids.length} items, ids ${first.ids.join(", ")}`;
  expectThat(
    first.ids.length === newest.length,
    first.exchange,
    `exactly ${newest.length} items (the list holds ${all.length})`,
    { req },
    got,
  );
  const same = newest.every((id) => first.ids.includes(id));
  expectThat(same, first.exchange, `the newest ${newest.length} items, ids ${newest.join(", ")}`, { req: "PAGE-012" }, got);
}

/**
 * PAGE-010, PAGE-011, PAGE-016, PAGE-021: from the first page, older_url until null, then from the
 * oldest page newer_url until null; each walk visits every id of `all` exactly once, page after page
 * in id order, and a link is null exactly where no item lies beyond the page. PAGE-003, PAGE-004: every
 * page holds at most count items (10 without), and a page reached by a link exactly min(count, the
 * items beyond its cursor): a server that honours count on the first page only is caught here.
 */
export async function expectWalks(
  t: Target,
  list: ListCase,
  first: Page,
  all: number[],
  count: number | undefined,
  /** More checks on each page a walk reaches by a link (not the page it starts from). */
  eachPage?: (page: Page, direction: "older_url" | "newer_url") => void,
): Promise<void> {
  const limit = count ?? DEFAULT_COUNT;
  const sizeReq = count === undefined ? "PAGE-003" : "PAGE-004";
  const ends = (page: Page) => {
    expectAtMost(page, limit, sizeReq);
    if (page.ids.length === 0) return;
    const max = Math.max(...page.ids);
    const min = Math.min(...page.ids);
    if (max === all[all.length - 1])
      expectNullLink(page, "newer_url", "newer_url null: no item has a greater id than this page's", "PAGE-010");
    if (min === all[0]) expectNullLink(page, "older_url", "older_url null: no item has a smaller id than this page's", "PAGE-011");
  };
  // Counted from the link's own cursor, so a wrong cursor is left to PAGE-008/PAGE-009 and only the size is judged here.
  const sized = (page: Page, link: string, direction: "older_url" | "newer_url") => {
    const cursor = cursorOf(link, direction === "older_url" ? "older_id" : "newer_id");
    if (cursor === undefined) return;
    const beyond = all.filter((id) => (direction === "older_url" ? id < cursor : id > cursor)).length;
    const want = Math.min(limit, beyond);
    const where = direction === "older_url" ? `below older_id ${cursor}` : `above newer_id ${cursor}`;
    expectThat(
      page.ids.length === want,
      page.exchange,
      `exactly ${want} items (${beyond} items of the list lie ${where}; the count is ${limit})`,
      { req: sizeReq },
      `${page.ids.length} items, ids ${page.ids.join(", ")}`,
    );
  };
  const walk = async (from: Page, direction: "older_url" | "newer_url"): Promise<Page[]> => {
    const pages = [from];
    ends(from);
    for (let link = from.pagination?.[direction]; typeof link === "string"; link = pages[pages.length - 1]!.pagination?.[direction]) {
      if (pages.length > all.length + 1)
        failPlain(
          { req: "PAGE-016" },
          `following ${direction} from ${from.exchange.request.path} did not end after ${pages.length} pages of a list of ` +
            `${all.length} items`,
        );
      const page = readPage(await getPage(t, list, link), { req: "PAGE-021", what: `(${direction} of the page before)` });
      ends(page);
      sized(page, link, direction);
      eachPage?.(page, direction);
      pages.push(page);
    }
    return pages;
  };
  const visits = (pages: Page[], direction: "older_url" | "newer_url") => {
    const visited = pages.flatMap((p) => p.ids);
    const inOrder = pages.every(
      (p, i) =>
        i === 0 ||
        p.ids.length === 0 ||
        pages[i - 1]!.ids.length === 0 ||
        (direction === "older_url"
          ? Math.max(...p.ids) < Math.min(...pages[i - 1]!.ids)
          : Math.min(...p.ids) > Math.max(...pages[i - 1]!.ids)),
    );
    const once = visited.length === all.length && all.every((id) => visited.includes(id));
    if (!once || !inOrder) {
      failPlain(
        { req: "PAGE-016", what: `following ${direction} from ${pages[0]!.exchange.request.path}` },
        `expected every one of the ${all.length} items (ids ${all.join(", ")}) exactly once, each page ` +
          `${direction === "older_url" ? "older" : "newer"} than the one before; the pages held ` +
          `${pages.map((p) => `[${p.ids.join(", ")}]`).join(" ")}`,
      );
    }
  };
  // The two directions side by side where the oldest page can be asked for directly: a walk of a long list with a
  // small count is a chain of round trips, and the newer walk need not wait for the older one to reach its end.
  const [older, early] = await together(
    () => walk(first, "older_url"),
    async () => {
      const start = await startOfNewerWalk(t, list, all, limit);
      return start && walk(start, "newer_url");
    },
  );
  visits(older, "older_url");
  const newer = early ?? (await walk(older[older.length - 1]!, "newer_url"));
  visits(newer, "newer_url");
}

/**
 * The page an older walk with `count` ends on, the oldest items (as many as the walk leaves for its last page), asked
 * for directly with older_id: the newer walk starts there while the older one is still going. Undefined (the newer walk
 * then starts where the older one ends, as the links lead) where the list is one page, or the answer is not exactly
 * those items: a server whose cursors disagree with its links is judged by the walks, not by this shortcut.
 */
async function startOfNewerWalk(t: Target, list: ListCase, all: number[], count: number): Promise<Page | undefined> {
  const oldest = all.length % count || count;
  if (oldest >= all.length) return undefined;
  try {
    const page = readPage(await getPage(t, list, list.path, { count, older_id: all[oldest]! }), { req: "PAGE-016" });
    const wanted = all.slice(0, oldest);
    return page.ids.length === oldest && wanted.every((id) => page.ids.includes(id)) ? page : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lists of the session's user that the API lets it add to: POST on the list path with a body the
 * generators make. Given `cases`, those lists as they are; else every list filled with `fixtures`.
 */
export function creatableLists(
  t: Target,
  session: Session,
  fixtures: Fixtures,
  cases?: ListCase[],
): { list: ListCase; bodyName: BodyName; deletable: boolean }[] {
  const lists =
    cases ??
    listEndpoints(t).flatMap((endpoint) => {
      const path = fillList(endpoint, session, fixtures);
      return path ? [{ template: endpoint.path, path, session, stable: true }] : [];
    });
  return lists.flatMap((list) => {
    const post = ENDPOINTS.find((e) => e.method === "POST" && e.path === list.template);
    const bodyName = post && bodyNameOf(post);
    if (!bodyName) return [];
    const deletable = ENDPOINTS.some((e) => e.method === "DELETE" && e.path === `${list.template}/{itemId}`);
    return [{ list, bodyName, deletable }];
  });
}

/**
 * The ids of the items the suite made on each user's list, live or deleted, by run and "user list-path" (caller): the
 * kill matrix runs one target after another in a worker, each with ids of its own.
 */
const madeOnLists = perRun(() => new Map<string, Map<number, "live" | "deleted">>());
function madeItems(t: Target, session: Session, list: ListCase): Map<number, "live" | "deleted"> {
  const lists = madeOnLists(t.run);
  const key = `${session.userId} ${list.path}`;
  const made = lists.get(key) ?? new Map<number, "live" | "deleted">();
  lists.set(key, made);
  return made;
}

/** Creates and deletes items of one list for a session (the bodies drawn from the run's seed). */
export function caller(t: Target, session: Session, list: ListCase, bodyName: BodyName) {
  // Realistic bodies, drawn from the run's seed so a replay sends the same ones.
  const bodies = fc.sample(validBody(bodyName, t.profile.bodyValues), { numRuns: 500, seed: t.run.seed });
  let next = 0;
  const made = madeItems(t, session, list);
  return {
    async create(): Promise<number> {
      const post = (json: unknown) =>
        t.client.request({
          method: "POST",
          path: list.path,
          json,
          token: session.sessionToken,
          from: session.from,
          resend: "same-request-id",
        });
      let exchange = await post(bodies[next++ % bodies.length]);
      // A body the generators call valid may still be refused on its data (values not shown in the
      // specification); the endpoint catalogue's plain body is the fallback, so only a list that takes neither fails.
      const plain = ENDPOINTS.find((e) => e.method === "POST" && e.path === list.template)?.body;
      if (exchange.status >= 400 && exchange.status < 500 && plain !== undefined) exchange = await post(plain);
      const id = createdId(exchange.json);
      if (exchange.status !== 200 || id === undefined)
        fail({ req: "ERR-009", what: "(creating an item to page through)" }, exchange, "HTTP 200 with the new item's Id");
      // A POST answered with an item this caller made and still holds: the target keeps one item per content (a pinned
      // chain: blind round 5, the readers split), so the list cannot be grown with the few bodies the run draws.
      // An id reused after its item's delete names the new item, which is listed (ids after a delete are not stated).
      if (made.get(id) === "live" || (made.get(id) === "deleted" && !(await allIds(t, list)).includes(id)))
        skipRunningTest(
          `POST ${list.template} answered the id of an item the suite made before (${id}), one item per content: the list ` +
            "cannot be grown item by item with the bodies the run draws (a reading the blind rulings leave open)",
        );
      made.set(id, "live");
      return id;
    },
    async remove(id: number, checked = true): Promise<void> {
      if (made.has(id)) made.set(id, "deleted");
      const exchange = await t.client.request({
        method: "DELETE",
        path: `${list.path}/${id}`,
        token: session.sessionToken,
        from: session.from,
      });
      if (checked && exchange.status !== 200) fail({ req: "ERR-010", what: "(deleting an item to shrink the list)" }, exchange, "HTTP 200");
    },
  };
}

/**
 * Whether a list shows the writes made to it: an item created is listed and, where it can be deleted, no longer listed
 * once deleted. The rulings leave both open on some lists (a created callback URL need not be listed, OCB-003; a deleted
 * chain may stay, CERT-005/006), so a check that sizes a list by its writes first asks this. Undefined: it does;
 * else why not. The probe's item is deleted again where it can be.
 */
export async function honoursWrites(
  t: Target,
  chosen: { list: ListCase; bodyName: BodyName; deletable: boolean },
): Promise<string | undefined> {
  const { create, remove } = caller(t, chosen.list.session, chosen.list, chosen.bodyName);
  const id = await create();
  const listed = async () => (await allIds(t, chosen.list)).includes(id);
  if (!(await listed())) {
    if (chosen.deletable) await remove(id, false);
    return `${chosen.list.template} does not list the item a POST created (id ${id}): the list cannot be grown`;
  }
  if (!chosen.deletable) return undefined;
  await remove(id, false);
  return (await listed()) ? `${chosen.list.template} still lists item ${id} after its DELETE: the list cannot be shrunk` : undefined;
}

/** The first of the candidates whose list shows its writes (honoursWrites), or why none does. */
export async function firstHonest<C extends { list: ListCase; bodyName: BodyName; deletable: boolean }>(
  t: Target,
  candidates: C[],
): Promise<{ chosen?: C; reason: string }> {
  const reasons: string[] = [];
  for (const candidate of candidates) {
    const problem = await honoursWrites(t, candidate);
    if (problem === undefined) return { chosen: candidate, reason: "" };
    reasons.push(problem);
  }
  return { reason: reasons.join("; ") || "no list endpoint the API lets the user add to" };
}

/** A list of a fresh user that the API lets it both add to and delete from, and that shows both, with its calls. */
export async function resizableList(t: Target, session: Session) {
  const deletable = creatableLists(t, session, await freshFixtures(t, session)).filter((c) => c.deletable);
  const { chosen } = await firstHonest(t, deletable);
  return chosen && { list: chosen.list, ...caller(t, session, chosen.list, chosen.bodyName) };
}

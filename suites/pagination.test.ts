// Pagination of every list endpoint (banking-api.md "Paginated lists", "Limits > Pagination rules";
// wire conventions §5; spec/gaps.md GAP-47, GAP-48, GAP-49), as properties over lists, counts, paths of
// links and list sizes. The lists are every GET without {itemId} in harness/endpoints.ts, so a list that
// lands later is covered without a change here. Exact checks (every item once, the newest items first) run
// only on a fresh user's lists, which no other file touches; the shared fixtures' lists (the primary user's
// OAuth client) get the checks that hold page by page.
import * as allure from "allure-js-commons";
import fc from "fast-check";
import { describe, test } from "vitest";
import { accountIdsOf, CardCalls } from "./support/cards.js";
import { assertConcurrently, mapConcurrently, together } from "./support/concurrent-property.js";
import { SharedData } from "./support/shared-data.js";
import { expectErrorBody, expectRefused, expectThat, fail, failPlain } from "../harness/checks.js";
import { createdId } from "../harness/envelope.js";
import { ENDPOINTS } from "../harness/endpoints.js";
import { LenientLog } from "../harness/lenient.js";
import {
  cursorOf,
  expectCursors,
  expectIdOrder,
  expectLinkShapes,
  expectPageRules,
  expectPaginationObject,
  fillList,
  getPage,
  listEndpoints,
  readPage,
  walkChecked,
  type ListCase,
  type Page,
} from "./support/pages.js";
import type { Fixtures } from "../harness/profile/profile.js";
import type { Session } from "../harness/session/session.js";
import { SKIP, useTarget } from "../harness/run/target.js";
import { validBody, type BodyName } from "../generators/bodies.js";
import { bodyNameOf } from "../generators/requests.js";
import { countAboveMax, DEFAULT_COUNT, invalidCount, MAX_COUNT, optionalCount } from "../generators/query.js";

const t = useTarget();
const readOnly = t.profile.mode === "read-only";
/** Independent requests of one check in flight at once (the profile's concurrency). */
const inFlight = t.profile.concurrency;
/** Creates in flight at once while a list is grown (a fresh user's list, or a shared one with the test's own items). */
const GROW_IN_FLIGHT = 10;

/** A fresh user's fixture ids the API shows: its monetary account, through its cards. */
async function freshFixtures(session: Session): Promise<Fixtures> {
  const { cards } = await new CardCalls(t, session).all({
    req: "PAGE-021",
    what: "listing a fresh user's cards for its monetary account id",
  });
  const account = accountIdsOf(cards)[0];
  return account === undefined ? {} : { monetaryAccountId: account };
}

/** A list case that prints as its path in counterexamples (never with the session's tokens). */
function listCase(fields: ListCase): ListCase {
  return Object.assign(fields, { [fc.toStringMethod]: () => `GET ${fields.path}` });
}

/** Every list endpoint: on this file's fresh user where its ids are known (stable), else on the primary user. */
let casesOnce: Promise<ListCase[]> | undefined;
function listCases(): Promise<ListCase[]> {
  casesOnce ??= (async () => {
    const primary = t.primary();
    const fresh = t.canProvision() ? await t.freshSession() : undefined;
    const fixtures = fresh ? await freshFixtures(fresh) : {};
    return listEndpoints(t).flatMap((endpoint): ListCase[] => {
      const own = fresh && fillList(endpoint, fresh, fixtures);
      if (fresh && own) return [listCase({ template: endpoint.path, path: own, session: fresh, stable: true })];
      const shared = fillList(endpoint, primary, t.profile.fixtures);
      return shared ? [listCase({ template: endpoint.path, path: shared, session: primary, stable: false })] : [];
    });
  })();
  return casesOnce;
}

/**
 * This file's fresh user's lists (listCases, `stable`): the whole-list checks read them (exactly the newest items,
 * every item once) and "every list, page by page" grows them past 10 items; the growth runs alone.
 */
const stableLists = new SharedData();

/** Every id of a list, ascending: the first page with count 200, then older_url and newer_url to the ends. */
async function allIds(list: ListCase): Promise<number[]> {
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

/** The list cases, or a skip when the target has none (a profile that turns every list off). */
async function listsOrSkip(skip: (condition: boolean, note: string) => void): Promise<ListCase[]> {
  const lists = await listCases();
  skip(lists.length === 0, "no list endpoint can be filled in for this profile (fixture ids missing)");
  return lists;
}

async function property<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>): Promise<void> {
  await allure.parameter("seed", String(t.run.seed), { excluded: true });
  await fc.assert(fc.asyncProperty(arbitrary, predicate), { seed: t.run.seed, numRuns: t.profile.propertyRuns });
}

/**
 * A property whose runs only read lists no run changes: they go side by side (profile concurrency), with
 * fc.assert's values, shrinking and report (suites/support/concurrent-property.ts).
 */
async function readingProperty<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>): Promise<void> {
  await allure.parameter("seed", String(t.run.seed), { excluded: true });
  await assertConcurrently([arbitrary], predicate, { seed: t.run.seed, numRuns: t.profile.propertyRuns, concurrency: inFlight });
}

const describeCount = (count: number | undefined) => (count === undefined ? "without count" : `with count=${count}`);

/** PAGE-003, PAGE-004, PAGE-012: the first page holds exactly the newest min(count, size) items. */
function expectNewestItems(first: Page, count: number | undefined, all: number[]): void {
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
async function expectWalks(list: ListCase, first: Page, all: number[], count: number | undefined): Promise<void> {
  const limit = count ?? DEFAULT_COUNT;
  const sizeReq = count === undefined ? "PAGE-003" : "PAGE-004";
  const ends = (page: Page) => {
    expectThat(
      page.ids.length <= limit,
      page.exchange,
      `at most ${limit} items (the count the link kept)`,
      { req: sizeReq },
      `${page.ids.length} items`,
    );
    if (page.ids.length === 0) return;
    const max = Math.max(...page.ids);
    const min = Math.min(...page.ids);
    // An absent link counts as null here: whether all three are present is PAGE-001's check.
    if (max === all[all.length - 1])
      expectThat(
        (page.pagination?.newer_url ?? null) === null,
        page.exchange,
        "newer_url null: no item has a greater id than this page's",
        { req: "PAGE-010" },
        `newer_url ${JSON.stringify(page.pagination?.newer_url)}`,
      );
    if (min === all[0])
      expectThat(
        (page.pagination?.older_url ?? null) === null,
        page.exchange,
        "older_url null: no item has a smaller id than this page's",
        { req: "PAGE-011" },
        `older_url ${JSON.stringify(page.pagination?.older_url)}`,
      );
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
  const older = await walk(first, "older_url");
  visits(older, "older_url");
  const newer = await walk(older[older.length - 1]!, "newer_url");
  visits(newer, "newer_url");
}

// Side by side: these only read lists. The whole-list checks read the stable lists through stableLists; the
// others judge each page on its own, which holds however a list changes (as on the primary's lists other files change).
describe.concurrent("pages of every list", () => {
  test(
    "PAGE-003 the first page of every list holds at most count items (10 without count), in id order, and exactly the newest ones",
    { tags: ["PAGE-004", "PAGE-012", "PAGE-019"] },
    async ({ skip, annotate }) => {
      const lists = await listsOrSkip(skip);
      const log = new LenientLog(t.profile.strict);
      const truth = new Map<string, Promise<number[]>>();
      try {
        await stableLists.read(() =>
          readingProperty(fc.record({ list: fc.constantFrom(...lists), count: optionalCount }), async ({ list, count }) => {
            const req = count === undefined ? "PAGE-003" : "PAGE-004";
            const first = readPage(await getPage(t, list, list.path, { count }), { req });
            const limit = count ?? DEFAULT_COUNT;
            expectThat(first.ids.length <= limit, first.exchange, `at most ${limit} items`, { req }, `${first.ids.length} items`);
            expectIdOrder(first, log);
            if (!list.stable) return;
            if (!truth.has(list.path)) truth.set(list.path, allIds(list));
            expectNewestItems(first, count, await truth.get(list.path)!);
          }),
        );
      } finally {
        await log.report(annotate);
      }
    },
  );

  test(
    "PAGE-001 on every page reached by following links, Pagination links are relative /v1/ links to the same list that keep count, " +
      "newer_id is the page's greatest id and older_id its smallest",
    { tags: ["PAGE-002", "PAGE-008", "PAGE-009", "PAGE-013", "PAGE-014", "PAGE-015", "PAGE-017", "PAGE-021"] },
    async ({ skip }) => {
      const lists = await listsOrSkip(skip);
      const steps = fc.array(fc.constantFrom("older_url" as const, "newer_url" as const, "future_url" as const), { maxLength: 4 });
      await readingProperty(fc.record({ list: fc.constantFrom(...lists), count: optionalCount, steps }), async ({ list, count, steps }) => {
        let page = readPage(await getPage(t, list, list.path, { count }), { req: "PAGE-001", what: describeCount(count) });
        for (const step of [...steps, undefined]) {
          const pagination = expectPaginationObject(page.exchange);
          expectLinkShapes(page.exchange, pagination, count);
          expectCursors(page);
          const link = step && pagination[step];
          if (typeof link !== "string") break;
          page = readPage(await getPage(t, list, link), { req: "PAGE-021", what: `(${step} of the page before)` });
        }
      });
    },
  );

  test(
    "PAGE-003 following older_url from the first page, and newer_url back from the oldest, visits every item exactly once, every page " +
      "holds count items (fewer only at the end), and each link is null exactly at its end",
    { tags: ["PAGE-004", "PAGE-010", "PAGE-011", "PAGE-016", "PAGE-021"] },
    async ({ skip }) => {
      const lists = (await listCases()).filter((list) => list.stable);
      skip(lists.length === 0, `${SKIP.provisioning} (a whole-list walk needs lists no other check changes meanwhile)`);
      const truth = new Map<string, Promise<number[]>>();
      await stableLists.read(() =>
        readingProperty(fc.record({ list: fc.constantFrom(...lists), count: optionalCount }), async ({ list, count }) => {
          if (!truth.has(list.path)) truth.set(list.path, allIds(list));
          const all = await truth.get(list.path)!;
          const first = readPage(await getPage(t, list, list.path, { count }), { req: "PAGE-016", what: describeCount(count) });
          await expectWalks(list, first, all, count);
        }),
      );
    },
  );
});

// Side by side: the refusal checks judge single pages (true however a list changes); the long-list check has a fresh user of its own.
describe.concurrent("the count parameter", () => {
  test("PAGE-007 a count below 1 or not an integer is refused with 4XX and an error body on every list", async ({ skip }) => {
    const lists = await listsOrSkip(skip);
    await readingProperty(fc.record({ list: fc.constantFrom(...lists), count: invalidCount }), async ({ list, count }) => {
      const exchange = await getPage(t, list, list.path, { count });
      expectRefused(exchange, { req: "PAGE-007", what: `with count=${count}` });
    });
  });

  test("PAGE-006 a count above 200 is refused with 4XX and an error body, or answered with at most 200 items (strict: refused)", async ({
    skip,
    annotate,
  }) => {
    const lists = await listsOrSkip(skip);
    const log = new LenientLog(t.profile.strict);
    try {
      await readingProperty(fc.record({ list: fc.constantFrom(...lists), count: countAboveMax }), async ({ list, count }) => {
        expectCountAboveMax(await getPage(t, list, list.path, { count }), count, log);
      });
    } finally {
      await log.report(annotate);
    }
  });

  test(
    "PAGE-003 on a list of more than 200 items, count 200 answers exactly 200 items, no count exactly 10, a count above 10 exactly that " +
      "many on the first page and on the page older_id leads to, and no count ever more than 200",
    { tags: ["PAGE-004", "PAGE-005", "PAGE-006"] },
    async ({ skip, annotate }) => {
      skip(readOnly, SKIP.readOnly);
      skip(!t.canProvision(), SKIP.provisioning);
      const session = await t.freshSession();
      const grown = await growList(session, MAX_COUNT + 1);
      skip(!grown.list, grown.reason);
      const list = grown.list!;
      const log = new LenientLog(t.profile.strict);
      try {
        // Reads of a list nothing changes meanwhile: sent together, judged in order.
        const [fullPage, plainPage] = await together(
          () => getPage(t, list, list.path, { count: MAX_COUNT }),
          () => getPage(t, list, list.path),
        );
        const full = readPage(fullPage, { req: "PAGE-005", what: `on a list of ${grown.size} items` });
        expectThat(
          full.ids.length === MAX_COUNT,
          full.exchange,
          `exactly ${MAX_COUNT} items (the list holds ${grown.size})`,
          { req: "PAGE-005" },
          `${full.ids.length} items`,
        );
        const plain = readPage(plainPage, { req: "PAGE-003", what: `on a list of ${grown.size} items` });
        expectThat(
          plain.ids.length === DEFAULT_COUNT,
          plain.exchange,
          `exactly ${DEFAULT_COUNT} items (the list holds ${grown.size})`,
          { req: "PAGE-003" },
          `${plain.ids.length} items`,
        );
        // Counts above the default need a long list to show on a cursor page: a server that serves cursor
        // requests the default 10 (count honoured on the first page only) is caught only here.
        const all = await allIds(list);
        await readingProperty(fc.integer({ min: DEFAULT_COUNT + 1, max: MAX_COUNT - 1 }), async (count) => {
          const first = readPage(await getPage(t, list, list.path, { count }), {
            req: "PAGE-004",
            what: `on a list of ${all.length} items`,
          });
          expectThat(
            first.ids.length === count,
            first.exchange,
            `exactly ${count} items (the list holds ${all.length})`,
            { req: "PAGE-004" },
            `${first.ids.length} items`,
          );
          const cursor = Math.min(...first.ids);
          const below = all.filter((id) => id < cursor).length;
          const older = readPage(await getPage(t, list, list.path, { count, older_id: cursor }), {
            req: "PAGE-004",
            what: `(older_id ${cursor}, the smallest id of the page before)`,
          });
          const want = Math.min(count, below);
          expectThat(
            older.ids.length === want,
            older.exchange,
            `exactly ${want} items (${below} items of the list lie below ${cursor})`,
            { req: "PAGE-004" },
            `${older.ids.length} items`,
          );
        });
        await readingProperty(countAboveMax, async (count) => {
          expectCountAboveMax(await getPage(t, list, list.path, { count }), count, log);
        });
      } finally {
        await grown.cleanup();
        await log.report(annotate);
      }
    },
  );
});

// Independent: a fresh user of its own.
describe.concurrent("lists of every size", () => {
  test(
    "PAGE-003 a list grown and shrunk through the API to any size, empty included, pages correctly at every count, and a future_url " +
      "finds the items created after it",
    { tags: ["PAGE-004", "PAGE-010", "PAGE-011", "PAGE-012", "PAGE-016", "PAGE-018", "PAGE-020", "PAGE-021"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(!t.canProvision(), SKIP.provisioning);
      const session = await t.freshSession();
      const sized = await resizableList(session);
      skip(!sized, "no list endpoint the API lets a fresh user both add to and delete from (POST and DELETE)");
      const { list, create, remove } = sized!;
      const alive = await allIds(list);
      const created = new Set<number>();
      try {
        await property(
          fc.record({
            size: fc.integer({ min: 0, max: 15 }),
            count: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined, freq: 3 }),
          }),
          async ({ size, count }) => {
            const before = readPage(await getPage(t, list, list.path, { count }), { req: "PAGE-021", what: describeCount(count) });
            const future = before.pagination?.future_url;
            const added: number[] = [];
            // Oldest first out, new ones in; the requests of each step go out together (a remote target's
            // round trips overlap), and the new ids join in ascending order, as created one by one.
            const dropped = alive.splice(0, Math.max(0, alive.length - size));
            await Promise.all(
              dropped.map(async (id) => {
                await remove(id);
                created.delete(id);
              }),
            );
            const made = await Promise.all(Array.from({ length: Math.max(0, size - alive.length) }, () => create()));
            for (const id of made.sort((a, b) => a - b)) {
              alive.push(id);
              added.push(id);
              created.add(id);
            }
            // Two reads of the list as it now stands: sent together, judged in order.
            const [futurePage, firstPage] = await together(
              async () => (added.length > 0 && typeof future === "string" ? getPage(t, list, future) : undefined),
              () => getPage(t, list, list.path, { count }),
            );
            if (futurePage) {
              const fresh = readPage(futurePage, {
                req: "PAGE-018",
                what: `(future_url of the listing before ${added.length} items were created)`,
              });
              const found = fresh.ids.length > 0 && fresh.ids.every((id) => added.includes(id));
              expectThat(
                found,
                fresh.exchange,
                `items created after the listing (ids ${added.join(", ")})`,
                { req: "PAGE-018" },
                `ids ${fresh.ids.join(", ")}`,
              );
            }
            const first = readPage(firstPage, { req: "PAGE-021", what: `${describeCount(count)} on a list of ${alive.length} items` });
            if (alive.length === 0) {
              const empty =
                first.ids.length === 0 && (first.pagination?.newer_url ?? null) === null && (first.pagination?.older_url ?? null) === null;
              expectThat(empty, first.exchange, "Response [] with newer_url and older_url null (an empty list)", { req: "PAGE-020" });
            }
            expectNewestItems(first, count, alive);
            await expectWalks(list, first, alive, count);
          },
        );
      } finally {
        await mapConcurrently([...created], inFlight, (id) => remove(id, false));
      }
    },
  );
});

// Side by side: the page-by-page check grows the stable lists through stableLists (alone); the other has a fresh user of its own.
describe.concurrent("every list, page by page", () => {
  const WALK_COUNT = 3;
  const INVALID_COUNTS = ["0", "-1", "1.5", "abc", "10x"];

  test(
    "PAGE-001 on every list, grown past 10 items where the API allows: no count answers exactly 10 items when more exist, count 200 at " +
      "most 200, a count below 1 or not an integer is refused, and walks with count 3 both ways keep count, relative /v1 links, " +
      "cursors and null ends",
    {
      tags: [
        "PAGE-002",
        "PAGE-003",
        "PAGE-004",
        "PAGE-005",
        "PAGE-006",
        "PAGE-007",
        "PAGE-008",
        "PAGE-009",
        "PAGE-010",
        "PAGE-011",
        "PAGE-012",
        "PAGE-013",
        "PAGE-014",
        "PAGE-015",
        "PAGE-016",
        "PAGE-017",
        "PAGE-019",
        "PAGE-021",
      ],
    },
    async ({ skip, annotate }) => {
      // Handed in before the lists are known, as the whole-list checks wait for them too: the growth runs before
      // those checks, not after them (a gated test's wait counts towards its timeout).
      const { lists, grown } = await stableLists.write(async () => {
        const cases = await listsOrSkip(skip);
        // Grown in parallel: each list past the default count, with items this test made (deleted afterwards where it can).
        return { lists: cases, grown: await Promise.all(cases.map((list) => growPastDefault(list))) };
      });
      const log = new LenientLog(t.profile.strict);
      try {
        // Every list on its own, side by side; a list's single-page reads are sent together and judged in order.
        await mapConcurrently(lists, inFlight, async (list, i) => {
          const { all, atLeast } = grown[i]!;
          const [plainPage, fullPage, invalidPages, abovePage, firstPage] = await together(
            () => getPage(t, list, list.path),
            () => getPage(t, list, list.path, { count: MAX_COUNT }),
            () => mapConcurrently(INVALID_COUNTS, INVALID_COUNTS.length, (count) => getPage(t, list, list.path, { count })),
            () => getPage(t, list, list.path, { count: MAX_COUNT + 1 }),
            () => getPage(t, list, list.path, { count: WALK_COUNT }),
          );
          const plain = readPage(plainPage, { req: "PAGE-003", what: "(no count)" });
          expectPageRules(plain, undefined);
          expectIdOrder(plain, log);
          if (all) expectNewestItems(plain, undefined, all);
          const wantPlain = all ? Math.min(DEFAULT_COUNT, all.length) : atLeast > DEFAULT_COUNT ? DEFAULT_COUNT : undefined;
          if (wantPlain === undefined)
            expectThat(
              plain.ids.length <= DEFAULT_COUNT,
              plain.exchange,
              `at most ${DEFAULT_COUNT} items`,
              { req: "PAGE-003" },
              `${plain.ids.length} items`,
            );
          else
            expectThat(
              plain.ids.length === wantPlain,
              plain.exchange,
              `exactly ${wantPlain} items (the list holds ${all ? all.length : `at least ${atLeast}`})`,
              { req: "PAGE-003" },
              `${plain.ids.length} items`,
            );
          expectThat(
            (plain.pagination?.newer_url ?? null) === null,
            plain.exchange,
            "newer_url null on the page without cursor (the newest items)",
            { req: "PAGE-010" },
            `newer_url ${JSON.stringify(plain.pagination?.newer_url)}`,
          );

          const full = readPage(fullPage, { req: "PAGE-005", what: `(count ${MAX_COUNT})` });
          expectPageRules(full, MAX_COUNT);
          const wantFull = all ? Math.min(MAX_COUNT, all.length) : undefined;
          expectThat(
            full.ids.length <= MAX_COUNT && (wantFull === undefined || full.ids.length === wantFull),
            full.exchange,
            wantFull === undefined ? `at most ${MAX_COUNT} items` : `exactly ${wantFull} items (the whole list)`,
            { req: "PAGE-005" },
            `${full.ids.length} items`,
          );

          INVALID_COUNTS.forEach((count, k) => expectRefused(invalidPages[k]!, { req: "PAGE-007", what: `with count=${count}` }));
          expectCountAboveMax(abovePage, MAX_COUNT + 1, log);

          const first = readPage(firstPage, { req: "PAGE-004", what: `(count ${WALK_COUNT})` });
          expectPageRules(first, WALK_COUNT);
          expectIdOrder(first, log);
          const known = all ? all.length : atLeast;
          if (known >= WALK_COUNT || all)
            expectThat(
              first.ids.length === Math.min(WALK_COUNT, known),
              first.exchange,
              `exactly ${Math.min(WALK_COUNT, known)} items (the list holds ${all ? known : `at least ${known}`})`,
              { req: "PAGE-004" },
              `${first.ids.length} items`,
            );
          const maxPages = Math.ceil((all ? all.length : MAX_COUNT) / WALK_COUNT) + 5;
          const older = await walkChecked(t, list, first, "older_url", WALK_COUNT, maxPages);
          await walkChecked(t, list, older[older.length - 1]!, "newer_url", WALK_COUNT, maxPages);
          if (all) await expectWalks(list, first, all, WALK_COUNT);
        });
      } finally {
        await Promise.all(grown.map((g) => g.cleanup()));
        await log.report(annotate);
      }
    },
  );

  test(
    "PAGE-003 every list a fresh user can add to, grown past 200 items in parallel, answers count 200 with exactly 200 items, no count " +
      "with exactly 10, and a count above 200 with a refusal or at most 200 items",
    { tags: ["PAGE-005", "PAGE-006"] },
    async ({ skip, annotate }) => {
      skip(readOnly, SKIP.readOnly);
      skip(!t.canProvision(), SKIP.provisioning);
      const session = await t.freshSession();
      const candidates = creatableLists(session, await freshFixtures(session));
      skip(candidates.length === 0, "no list endpoint the API lets a fresh user add to");
      const log = new LenientLog(t.profile.strict);
      try {
        await Promise.all(candidates.map((c) => grow(c, MAX_COUNT + 1)));
        // Every list is read on its own, its five reads sent together and judged in order.
        await mapConcurrently(candidates, inFlight, async ({ list }) => {
          const above = [MAX_COUNT + 1, 1_000, 1_000_000];
          const [fullPage, plainPage, abovePages] = await together(
            () => getPage(t, list, list.path, { count: MAX_COUNT }),
            () => getPage(t, list, list.path),
            () => mapConcurrently(above, above.length, (count) => getPage(t, list, list.path, { count })),
          );
          const full = readPage(fullPage, { req: "PAGE-005", what: `on a list of more than ${MAX_COUNT} items` });
          expectThat(
            full.ids.length === MAX_COUNT,
            full.exchange,
            `exactly ${MAX_COUNT} items (the list holds more)`,
            { req: "PAGE-005" },
            `${full.ids.length} items`,
          );
          const plain = readPage(plainPage, { req: "PAGE-003", what: `on a list of more than ${MAX_COUNT} items` });
          expectThat(
            plain.ids.length === DEFAULT_COUNT,
            plain.exchange,
            `exactly ${DEFAULT_COUNT} items`,
            { req: "PAGE-003" },
            `${plain.ids.length} items`,
          );
          above.forEach((count, i) => expectCountAboveMax(abovePages[i]!, count, log));
        });
      } finally {
        await log.report(annotate);
      }
    },
  );
});

// Independent: a fresh user of its own.
describe.concurrent("an emptied list and its refresh link", () => {
  test(
    "PAGE-020 a fresh user's list emptied through the API answers Response [] with newer_url and older_url null, and a future_url taken " +
      "before two items were created answers exactly those two",
    { tags: ["PAGE-018", "PAGE-010", "PAGE-011"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(!t.canProvision(), SKIP.provisioning);
      const session = await t.freshSession();
      const chosen = creatableLists(session, await freshFixtures(session)).find((c) => c.deletable);
      skip(!chosen, "no list endpoint the API lets a fresh user both add to and delete from (POST and DELETE)");
      const { list, bodyName } = chosen!;
      const { create, remove } = caller(session, list, bodyName);
      await Promise.all((await allIds(list)).map((id) => remove(id)));
      const empty = readPage(await getPage(t, list, list.path), { req: "PAGE-020", what: "(every item deleted)" });
      expectPageRules(empty, undefined);
      const links = `newer_url ${JSON.stringify(empty.pagination?.newer_url)}, older_url ${JSON.stringify(empty.pagination?.older_url)}`;
      const nullLinks = (empty.pagination?.newer_url ?? null) === null && (empty.pagination?.older_url ?? null) === null;
      expectThat(
        empty.ids.length === 0 && nullLinks,
        empty.exchange,
        "Response [] with newer_url and older_url null (an empty list)",
        { req: "PAGE-020" },
        `${empty.ids.length} items, ${links}`,
      );
      const seed = await create();
      const before = readPage(await getPage(t, list, list.path), { req: "PAGE-018", what: "(one item)" });
      expectPageRules(before, undefined);
      const future = before.pagination?.future_url;
      const added = await together(create, create);
      // future_url may be null (conventions §5, LENIENT); where it is a link, it finds exactly the items made since.
      if (typeof future === "string") {
        const fresh = readPage(await getPage(t, list, future), {
          req: "PAGE-018",
          what: "(future_url of the listing before two items were created)",
        });
        const same = fresh.ids.length === added.length && added.every((id) => fresh.ids.includes(id));
        expectThat(
          same,
          fresh.exchange,
          `exactly the items created after the listing (ids ${added.join(", ")}; ${seed} was listed)`,
          { req: "PAGE-018" },
          `ids ${fresh.ids.join(", ")}`,
        );
      }
    },
  );
});

/**
 * A list grown past the default count where the API lets the test add to it: a fresh user's list to more
 * than 10 items (every id then known: `all`); a shared list only where the test can delete again, with
 * 11 items of its own, so at least 11 exist whatever other files do meanwhile (`atLeast`).
 */
async function growPastDefault(list: ListCase): Promise<{ all?: number[]; atLeast: number; cleanup(): Promise<void> }> {
  const creatable = readOnly ? undefined : creatableLists(list.session, {}, [list])[0];
  if (list.stable) {
    const have = await allIds(list);
    if (creatable && have.length <= DEFAULT_COUNT) await grow(creatable, DEFAULT_COUNT + 1, have.length);
    const all = creatable && have.length <= DEFAULT_COUNT ? await allIds(list) : have;
    return { all, atLeast: all.length, cleanup: async () => {} };
  }
  if (!creatable?.deletable) return { atLeast: 0, cleanup: async () => {} };
  const { remove } = caller(list.session, list, creatable.bodyName);
  const mine = await grow(creatable, DEFAULT_COUNT + 1, 0);
  return { atLeast: mine.length, cleanup: async () => void (await Promise.all(mine.map((id) => remove(id, false)))) };
}

/** Adds items to a list until it holds `size` (`have` already there, counted when undefined), ten requests in flight at a time. */
async function grow(chosen: { list: ListCase; bodyName: BodyName }, size: number, have?: number): Promise<number[]> {
  const { create } = caller(chosen.list.session, chosen.list, chosen.bodyName);
  const left = size - (have ?? (await allIds(chosen.list)).length);
  return mapConcurrently(Array.from({ length: Math.max(0, left) }), GROW_IN_FLIGHT, () => create());
}

/** PAGE-006: 4XX with an error body, or 200 with at most 200 items (recorded; strict requires the refusal). */
function expectCountAboveMax(exchange: Awaited<ReturnType<typeof getPage>>, count: number, log: LenientLog): void {
  const about = { req: "PAGE-006", what: `with count=${count}` };
  if (exchange.status >= 400 && exchange.status < 500) return expectErrorBody(exchange, about);
  if (exchange.status !== 200) fail(about, exchange, `a 4XX with an error body, or 200 with at most ${MAX_COUNT} items`);
  const page = readPage(exchange, about);
  expectThat(page.ids.length <= MAX_COUNT, exchange, `at most ${MAX_COUNT} items`, about, `${page.ids.length} items`);
  log.note(about, `a count above ${MAX_COUNT} is answered with at most ${MAX_COUNT} items (clamped)`, "a 4XX refusal");
}

/**
 * Lists of the session's user that the API lets it add to: POST on the list path with a body the
 * generators make. Given `cases`, those lists as they are; else every list filled with `fixtures`.
 */
function creatableLists(
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

function caller(session: Session, list: ListCase, bodyName: BodyName) {
  // Realistic bodies, drawn from the run's seed so a replay sends the same ones.
  const bodies = fc.sample(validBody(bodyName, t.profile.bodyValues), { numRuns: 500, seed: t.run.seed });
  let next = 0;
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
      return id;
    },
    async remove(id: number, checked = true): Promise<void> {
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

/** A list grown to at least `size` items on a fresh user; prefers lists without DELETE (nothing to clean up on a throw-away user). */
async function growList(
  session: Session,
  size: number,
): Promise<{ list?: ListCase; size: number; reason: string; cleanup(): Promise<void> }> {
  const candidates = creatableLists(session, await freshFixtures(session)).sort((a, b) => Number(a.deletable) - Number(b.deletable));
  const chosen = candidates[0];
  if (!chosen) return { size: 0, reason: "no list endpoint the API lets a fresh user add to", cleanup: async () => {} };
  const { create, remove } = caller(session, chosen.list, chosen.bodyName);
  const have = (await allIds(chosen.list)).length;
  // A few at a time: enough in flight to be quick, few enough not to swamp the target.
  const created = await mapConcurrently(Array.from({ length: Math.max(0, size - have) }), GROW_IN_FLIGHT, () => create());
  return {
    list: chosen.list,
    size: have + created.length,
    reason: "",
    cleanup: async () => {
      if (chosen.deletable) await mapConcurrently(created, inFlight, (id) => remove(id, false));
    },
  };
}

async function resizableList(session: Session) {
  const chosen = creatableLists(session, await freshFixtures(session)).find((c) => c.deletable);
  return chosen && { list: chosen.list, ...caller(session, chosen.list, chosen.bodyName) };
}

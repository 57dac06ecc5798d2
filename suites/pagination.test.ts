// Pagination of every list endpoint (banking-api.md "Paginated lists", "Limits > Pagination rules";
// wire conventions §5; spec/gaps.md GAP-47, GAP-48, GAP-49), as properties over lists, counts and paths of
// links (one list grown and shrunk to every size: suites/list-sizes.test.ts). The lists are every GET without {itemId}
// in harness/endpoints.ts, so a list that lands later is covered without a change here. Exact checks (every item once,
// the newest items first) run only on lists no check changes meanwhile (a fresh user's, and the primary's lists without
// a create endpoint); the shared fixtures' lists (the primary user's OAuth client) get the checks that hold page by page.
import fc from "fast-check";
import { describe, test } from "vitest";
import { assertConcurrently, mapConcurrently, together } from "./support/concurrent-property.js";
import { showSeed } from "./support/seed-parameter.js";
import { SharedData } from "./support/shared-data.js";
import { retiredDeprecated } from "./support/resource-helpers.js";
import { onScopeEnd } from "../harness/run/test-scope.js";
import { expectErrorBody, expectRefused, expectThat, fail } from "../harness/checks.js";
import { ENDPOINTS, type Endpoint } from "../harness/endpoints.js";
import { LenientLog } from "../harness/lenient.js";
import {
  expectCursors,
  expectIdOrder,
  expectLinkShapes,
  expectNullLink,
  expectPageRules,
  expectPaginationObject,
  fillList,
  getPage,
  listEndpoints,
  readPage,
  walkChecked,
  expectWalkedPage,
  type ListCase,
} from "./support/pages.js";
import {
  allIds,
  caller,
  creatableLists,
  describeCount,
  expectNewestItems,
  expectWalks,
  firstHonest,
  freshFixtures,
  freshFixturesAndAccounts,
  honoursWrites,
} from "./support/list-growth.js";
import type { BodyName } from "../generators/bodies.js";
import type { Fixtures } from "../harness/profile/profile.js";
import type { Session } from "../harness/session/session.js";
import { SKIP, useTarget } from "../harness/run/target.js";
import { countAboveMax, DEFAULT_COUNT, invalidCount, MAX_COUNT, optionalCount } from "../generators/query.js";
import { sharedOnce } from "./support/shared-once.js";

const t = useTarget();
const readOnly = t.profile.mode === "read-only";
/** Independent requests of one check in flight at once (the profile's concurrency). */
const inFlight = t.profile.concurrency;
/** Creates in flight at once while a list is grown (a fresh user's list, or a shared one with the test's own items). */
const GROW_IN_FLIGHT = 10;

/** A list case that prints as its path in counterexamples (never with the session's tokens). */
function listCase(fields: ListCase): ListCase {
  return Object.assign(fields, { [fc.toStringMethod]: () => `GET ${fields.path}` });
}

/**
 * Every list endpoint: on this file's fresh user where its ids are known (stable), else on the primary user. A list
 * the API gives no way to add to (cards, share invites) is walked on the primary's fixture data too: a fresh user's
 * may be too short to reach a second page, and a rule broken only on a long list would pass unseen.
 */
const listCases = sharedOnce(async (): Promise<ListCase[]> => {
  const primary = t.primary();
  const fresh = t.canProvision() ? await t.freshSession() : undefined;
  const { fixtures, accounts } = fresh ? await freshFixturesAndAccounts(t, fresh) : { fixtures: {} as Fixtures, accounts: [] as number[] };
  // A deprecated list the target has retired (VER-003, LENIENT) has no pages to check.
  const endpoints = await mapConcurrently(listEndpoints(t), inFlight, async (endpoint) =>
    endpoint.deprecated && (await retiredList(endpoint, primary)) ? undefined : endpoint,
  );
  return endpoints
    .filter((e) => e !== undefined)
    .flatMap((endpoint): ListCase[] => {
      const own = fresh && fillList(endpoint, fresh, fixtures);
      const shared = fillList(endpoint, primary, t.profile.fixtures);
      // A list under a monetary account is walked under each of the fresh user's accounts: its links must name the account
      // of the path, not the user's first (blind round 6).
      const otherAccounts = endpoint.path.includes("{monetaryAccountId}")
        ? accounts
            .filter((id) => id !== fixtures.monetaryAccountId)
            .map((id) => fillList(endpoint, fresh!, { ...fixtures, monetaryAccountId: id }))
        : [];
      const ownCase = own
        ? [own, ...otherAccounts]
            .filter((path) => path !== undefined)
            .map((path) => listCase({ template: endpoint.path, path, session: fresh!, stable: true }))
        : [];
      const growable = ENDPOINTS.some((e) => e.method === "POST" && e.path === endpoint.path);
      if (own && (growable || !shared)) return ownCase;
      // A list no check can add to holds still: no check of this file writes to it, and where the files write to the
      // primary's data (no provisioning) they run one at a time.
      return shared ? [...ownCase, listCase({ template: endpoint.path, path: shared, session: primary, stable: !growable })] : [];
    });
});

/** Why a deprecated list is not checked: the target retired it (its path asked with the primary's fixture ids filled in). */
async function retiredList(endpoint: Endpoint, primary: Session): Promise<string | undefined> {
  const path = fillList(endpoint, primary, t.profile.fixtures);
  // Without the fixture the primary's list cannot be asked; a fresh user's is still walked, as served.
  return path === undefined ? undefined : retiredDeprecated(t, primary, path.replace(/^\/user\/\d+/, ""));
}

/**
 * This file's fresh user's lists (listCases, `stable`): the whole-list checks read them (exactly the newest items,
 * every item once) and "every list, page by page" grows them past 10 items; the growth runs alone.
 */
const stableLists = new SharedData();

/** The list cases, or a skip when the target has none (a profile that turns every list off). */
async function listsOrSkip(skip: (condition: boolean, note: string) => void): Promise<ListCase[]> {
  const lists = await listCases();
  skip(lists.length === 0, "no list endpoint can be filled in for this profile (fixture ids missing)");
  return lists;
}

/**
 * A property whose runs only read lists no run changes: they go side by side (profile concurrency), with
 * fc.assert's values, shrinking and report (suites/support/concurrent-property.ts).
 */
async function readingProperty<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>): Promise<void> {
  await showSeed(t.run.seed);
  await assertConcurrently([arbitrary], predicate, { seed: t.run.seed, numRuns: t.profile.propertyRuns, concurrency: inFlight });
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
            if (!truth.has(list.path)) truth.set(list.path, allIds(t, list));
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
          if (!truth.has(list.path)) truth.set(list.path, allIds(t, list));
          const all = await truth.get(list.path)!;
          const first = readPage(await getPage(t, list, list.path, { count }), { req: "PAGE-016", what: describeCount(count) });
          await expectWalks(t, list, first, all, count);
        }),
      );
    },
  );
});

// Side by side: the refusal checks judge single pages (true however a list changes); the long-list check reads longLists,
// a fresh user's lists no check changes once grown.
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
      // The list this check has always taken (one without DELETE first: the company list); only read, as the other long-list
      // check reads them.
      const chosen = [...(await longLists())].sort((a, b) => Number(a.deletable) - Number(b.deletable))[0];
      skip(!chosen, "no list endpoint the API lets a fresh user add to that lists what was added");
      await chosen!.grown();
      const list = chosen!.list;
      const log = new LenientLog(t.profile.strict);
      try {
        const all = await allIds(t, list);
        // Reads of a list nothing changes meanwhile: sent together, judged in order.
        const [fullPage, plainPage] = await together(
          () => getPage(t, list, list.path, { count: MAX_COUNT }),
          () => getPage(t, list, list.path),
        );
        const full = readPage(fullPage, { req: "PAGE-005", what: `on a list of ${all.length} items` });
        expectThat(
          full.ids.length === MAX_COUNT,
          full.exchange,
          `exactly ${MAX_COUNT} items (the list holds ${all.length})`,
          { req: "PAGE-005" },
          `${full.ids.length} items`,
        );
        const plain = readPage(plainPage, { req: "PAGE-003", what: `on a list of ${all.length} items` });
        expectThat(
          plain.ids.length === DEFAULT_COUNT,
          plain.exchange,
          `exactly ${DEFAULT_COUNT} items (the list holds ${all.length})`,
          { req: "PAGE-003" },
          `${plain.ids.length} items`,
        );
        // Counts above the default need a long list to show on a cursor page: a server that serves cursor
        // requests the default 10 (count honoured on the first page only) is caught only here.
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
        await log.report(annotate);
      }
    },
  );
});

// Side by side: the page-by-page check grows the stable lists through stableLists (alone); the other reads longLists (with
// fresh users) or grows the primary's lists alone (holdLists).
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
          expectNullLink(plain, "newer_url", "newer_url null on the page without cursor (the newest items)", "PAGE-010");

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
          // Where the whole list is known, one walk each way carries both the whole-list checks and each page's own;
          // else the walk there and back checks each page.
          if (all) await expectWalks(t, list, first, all, WALK_COUNT, (page, direction) => expectWalkedPage(page, direction, WALK_COUNT));
          else {
            const maxPages = Math.ceil(MAX_COUNT / WALK_COUNT) + 5;
            const older = await walkChecked(t, list, first, "older_url", WALK_COUNT, maxPages);
            await walkChecked(t, list, older[older.length - 1]!, "newer_url", WALK_COUNT, maxPages);
          }
        });
      } finally {
        await Promise.all(grown.map((g) => g.cleanup()));
        await log.report(annotate);
      }
    },
  );

  test(
    "PAGE-003 every list a fresh user (else the primary, deleting what it added after) can add to, grown past 200 items in parallel, " +
      "answers count 200 with exactly 200 items, no count with exactly 10, and a count above 200 with a refusal or at most 200 items; " +
      "each page's links carry its own ids",
    { tags: ["PAGE-005", "PAGE-006", "PAGE-008", "PAGE-009", "PAGE-017"] },
    async ({ skip, annotate }) => {
      skip(readOnly, SKIP.readOnly);
      // A fresh user's lists are grown once for this check and the long-list one (longLists). Without provisioning, the
      // primary's lists it can delete from again: grown, checked and shrunk back, alone.
      const fresh = t.canProvision();
      const long = fresh ? await longLists() : undefined;
      const candidates = long ?? (await listsShowingWrites(t.primary(), t.profile.fixtures, true));
      skip(candidates.length === 0, "no list endpoint the API lets the user add to (and, without provisioning, delete from) that lists it");
      const log = new LenientLog(t.profile.strict);
      const made: { remove: (id: number, checked?: boolean) => Promise<void>; ids: number[] }[] = [];
      try {
        if (long) await Promise.all(long.map((c) => c.grown()));
        else {
          await holdLists();
          await Promise.all(
            candidates.map(async (c) => {
              const ids = await grow(c, MAX_COUNT + 1);
              made.push({ remove: caller(t, c.list.session, c.list, c.bodyName).remove, ids });
            }),
          );
        }
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
          // Lists only a grown list pages (some a fresh user cannot fill any other way): their links name the page's ids.
          for (const page of [full, plain]) expectCursors(page);
          above.forEach((count, i) => expectCountAboveMax(abovePages[i]!, count, log));
        });
      } finally {
        if (!fresh)
          await mapConcurrently(
            made.flatMap(({ remove, ids }) => ids.map((id) => () => remove(id, false))),
            GROW_IN_FLIGHT,
            (f) => f(),
          );
        await log.report(annotate);
      }
    },
  );
});

/** Holds the lists this file's checks grow for the rest of the running check (stableLists, as a writer). */
function holdLists(): Promise<void> {
  return new Promise<void>((started) => {
    void stableLists.write(
      () =>
        new Promise<void>((ended) => {
          started();
          if (!onScopeEnd(async () => ended())) ended();
        }),
    );
  });
}

// Independent: a fresh user of its own.
describe.concurrent("an emptied list and its refresh link", () => {
  test(
    "PAGE-020 every list a fresh user can empty through the API answers Response [] with newer_url and older_url null, and a future_url " +
      "taken before two items were created answers exactly those two",
    { tags: ["PAGE-018", "PAGE-010", "PAGE-011"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(!t.canProvision(), SKIP.provisioning);
      const session = await t.freshSession();
      const deletable = creatableLists(t, session, await freshFixtures(t, session)).filter((c) => c.deletable);
      // Every list the fresh user can empty is emptied (a rule kept on one list may be dropped on another), side by side.
      const problems = await mapConcurrently(deletable, inFlight, (c) => honoursWrites(t, c));
      const emptiable = deletable.filter((_, i) => problems[i] === undefined);
      const reason = problems.filter((p) => p !== undefined).join("; ") || "no list endpoint the API lets the user add to";
      skip(emptiable.length === 0, `no list the API lets a fresh user add to and delete from and that shows both: ${reason}`);
      await mapConcurrently(emptiable, inFlight, async ({ list, bodyName }) => {
        const { remove } = caller(t, session, list, bodyName);
        await Promise.all((await allIds(t, list)).map((id) => remove(id)));
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
      });
      const { list, bodyName } = emptiable[0]!;
      const { create } = caller(t, session, list, bodyName);
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

  test(
    "PAGE-018 without fresh users: a future_url taken before two items were created on a list of the primary's answers exactly " +
      "those two (the three items made are deleted again)",
    { tags: ["PAGE-021"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(t.canProvision(), "checked on a fresh user's emptied list (the PAGE-020 test)");
      const primary = t.primary();
      const deletable = creatableLists(t, primary, t.profile.fixtures).filter((c) => c.deletable);
      const { chosen, reason } = await firstHonest(t, deletable);
      skip(!chosen, `no list of the primary's the API lets it add to and delete from and that shows both: ${reason}`);
      const { list, bodyName } = chosen!;
      const { create, remove } = caller(t, primary, list, bodyName);
      // Alone on the primary's lists: no check of this file adds to them meanwhile (stableLists' growth holds it too).
      await stableLists.write(async () => {
        const made = [await create()];
        try {
          const before = readPage(await getPage(t, list, list.path), { req: "PAGE-018", what: "(the newest page)" });
          const future = before.pagination?.future_url;
          const added = await together(create, create);
          made.push(...added);
          // future_url may be null (conventions §5, LENIENT); where it is a link, it finds exactly the items made since.
          if (typeof future !== "string") return;
          const fresh = readPage(await getPage(t, list, future), { req: "PAGE-018", what: "(future_url of the newest page before)" });
          expectThat(
            fresh.ids.length === added.length && added.every((id) => fresh.ids.includes(id)),
            fresh.exchange,
            `exactly the items created after the listing (ids ${added.join(", ")})`,
            { req: "PAGE-018" },
            `ids ${fresh.ids.join(", ")}`,
          );
        } finally {
          await Promise.all(made.map((id) => remove(id, false)));
        }
      });
    },
  );
});

/**
 * A list grown past the default count where the API lets the test add to it: a fresh user's list to more
 * than 10 items (every id then known: `all`); a shared list only where the test can delete again, with
 * 11 items of its own, so at least 11 exist whatever other files do meanwhile (`atLeast`).
 */
async function growPastDefault(list: ListCase): Promise<{ all?: number[]; atLeast: number; cleanup(): Promise<void> }> {
  const creatable = readOnly ? undefined : creatableLists(t, list.session, {}, [list])[0];
  if (list.stable) {
    const have = await allIds(t, list);
    if (creatable && have.length <= DEFAULT_COUNT) await grow(creatable, DEFAULT_COUNT + 1, have.length);
    const all = creatable && have.length <= DEFAULT_COUNT ? await allIds(t, list) : have;
    return { all, atLeast: all.length, cleanup: async () => {} };
  }
  if (!creatable?.deletable) return { atLeast: 0, cleanup: async () => {} };
  const { remove } = caller(t, list.session, list, creatable.bodyName);
  const mine = await grow(creatable, DEFAULT_COUNT + 1, 0);
  // Counted as listed only where the list shows them: a server may leave a created item out of it (OCB-003, LENIENT).
  const listed = new Set(await allIds(t, list));
  return {
    atLeast: mine.filter((id) => listed.has(id)).length,
    cleanup: async () => void (await Promise.all(mine.map((id) => remove(id, false)))),
  };
}

/** Adds items to a list until it holds `size` (`have` already there, counted when undefined), ten requests in flight at a time. */
async function grow(chosen: { list: ListCase; bodyName: BodyName }, size: number, have?: number): Promise<number[]> {
  const { create } = caller(t, chosen.list.session, chosen.list, chosen.bodyName);
  const left = size - (have ?? (await allIds(t, chosen.list)).length);
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

/** The lists the session can add to (only those it can also delete from, where `deletable`) that show what a POST created. */
async function listsShowingWrites(session: Session, fixtures: Fixtures, deletable: boolean) {
  const creatable = creatableLists(t, session, fixtures).filter((c) => !deletable || c.deletable);
  // Only lists that show what a POST created can be grown past 200 (OCB-003 leaves that open on callback URLs).
  const honest = await mapConcurrently(creatable, inFlight, async (c) => ((await honoursWrites(t, c)) === undefined ? c : undefined));
  return honest.filter((c) => c !== undefined);
}

/**
 * A fresh user's lists that show their writes, each grown past 200 items when a check first asks for it (`grown`), then
 * only read: by both checks of lists longer than the largest page. Growing a list that far is about 200 requests; made
 * once, for the two. Each list's growth stands alone: one refused list fails the check that needs it, not the other; a
 * growth that failed is forgotten, so a check run again after weather tops the list up.
 */
const longLists = sharedOnce(async () => {
  const session = await t.freshSession();
  const lists = await listsShowingWrites(session, await freshFixtures(t, session), false);
  return lists.map((c) => ({ ...c, grown: sharedOnce(() => grow(c, MAX_COUNT + 1)) }));
});

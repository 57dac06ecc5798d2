// Lists of every size (banking-api.md "Paginated lists", "Limits > Pagination rules"; wire conventions §5): lists of
// fresh users grown and shrunk through the API to sizes drawn by a property, paged at every count after each step.
// Its own file, away from the other pagination checks: each list is a chain of requests that must go one after
// another (each step reads what the one before left), among the longest of a run; in a worker of its own no other
// check's answers queue before its own (README: what a run costs).
import fc from "fast-check";
import { describe, test } from "vitest";
import { assertInLanes, mapConcurrently, together } from "./support/concurrent-property.js";
import { showSeed } from "./support/seed-parameter.js";
import { expectThat } from "../harness/checks.js";
import { getPage, readPage } from "./support/pages.js";
import { allIds, describeCount, expectNewestItems, expectWalks, resizableList } from "./support/list-growth.js";
import { SKIP, useTarget } from "../harness/run/target.js";

const t = useTarget();
const readOnly = t.profile.mode === "read-only";
/** Independent requests of one check in flight at once (the profile's concurrency). */
const inFlight = t.profile.concurrency;

/**
 * Runs each list takes in turn, at least. The property's runs go to several lists (each of a fresh user) side by
 * side: one list through all 25 sizes was the longest chain of a run (about 180 requests one after another, 9 s
 * against a server 50 ms away). Each list still passes through several sizes drawn at random, so each is grown
 * and shrunk; which run goes to which list depends only on the seed and the number of runs.
 */
const RUNS_PER_LIST = 5;

// Independent: fresh users of their own.
describe.concurrent("lists of every size", () => {
  test(
    "PAGE-003 a list grown and shrunk through the API to any size, empty included, pages correctly at every count, and a future_url " +
      "finds the items created after it",
    { tags: ["PAGE-004", "PAGE-010", "PAGE-011", "PAGE-012", "PAGE-016", "PAGE-018", "PAGE-020", "PAGE-021"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(!t.canProvision(), SKIP.provisioning);
      const runs = t.profile.propertyRuns;
      const lists = await mapConcurrently(Array.from({ length: Math.max(1, Math.floor(runs / RUNS_PER_LIST)) }), inFlight, async () => {
        const sized = await resizableList(t, await t.freshSession());
        return sized && { ...sized, alive: await allIds(t, sized.list), created: new Set<number>() };
      });
      skip(
        !lists.every(Boolean),
        "no list endpoint the API lets a fresh user both add to and delete from (POST and DELETE) and that shows both",
      );
      const ready = lists.map((l) => l!);
      await showSeed(t.run.seed);
      try {
        await assertInLanes(
          fc.record({
            size: fc.integer({ min: 0, max: 15 }),
            count: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined, freq: 3 }),
          }),
          ready,
          async ({ list, create, remove, alive, created }, { size, count }) => {
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
            await expectWalks(t, list, first, alive, count);
          },
          { seed: t.run.seed, numRuns: runs, concurrency: inFlight },
        );
      } finally {
        await mapConcurrently(
          ready.flatMap((l) => [...l.created].map((id) => () => l.remove(id, false))),
          inFlight,
          (remove) => remove(),
        );
      }
    },
  );
});

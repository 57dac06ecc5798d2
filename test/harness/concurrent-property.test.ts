// Property runs side by side keep fast-check's promises: the same values in the same order for a seed, and a
// failure that shrinks to the same counterexample, with the same seed and path, as the sequential fc.assert.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertConcurrently, assertInLanes, mapConcurrently, oneAtATime, together } from "../../suites/support/concurrent-property.js";

const arbitraries = [fc.integer({ min: 0, max: 1000 }), fc.array(fc.nat(50), { maxLength: 6 })] as const;
/** Fails on some values; waits a value-dependent time, so runs finish out of order when concurrent. */
const predicate = async (n: number, xs: number[]) => {
  await new Promise((resolve) => setTimeout(resolve, (n * 7) % 5));
  if (n > 600 && xs.length > 1) throw new Error(`too big: ${n} with ${xs.length}`);
};

async function failure(concurrency: number, seed: number): Promise<string> {
  try {
    await assertConcurrently([...arbitraries], predicate, { seed, numRuns: 60, concurrency });
  } catch (error) {
    return (error as Error).message;
  }
  return "passed";
}

describe("properties with runs side by side", () => {
  it("fail with the same seed, path and shrunk counterexample as fc.assert, for several seeds", async () => {
    let failed = 0;
    for (const seed of [1, 2, 3, 42, 20261122]) {
      const sequential = await failure(1, seed);
      const concurrent = await failure(8, seed);
      expect(concurrent, `seed ${seed}`).toBe(sequential);
      if (sequential !== "passed") failed++;
    }
    expect(failed, "some seeds must find the failure").toBeGreaterThan(0);
  });

  it("try exactly the values fc.assert tries, each once", async () => {
    const seen: string[] = [];
    const concurrent: string[] = [];
    await fc.assert(
      fc.asyncProperty(...arbitraries, async (n, xs) => void seen.push(JSON.stringify([n, xs]))),
      { seed: 7, numRuns: 40 },
    );
    await assertConcurrently([...arbitraries], async (n, xs) => void concurrent.push(JSON.stringify([n, xs])), {
      seed: 7,
      numRuns: 40,
      concurrency: 8,
    });
    expect([...concurrent].sort()).toEqual([...seen].sort());
    expect(concurrent.length).toBe(40);
  });

  it("keep at most `concurrency` runs in flight", async () => {
    let inFlight = 0;
    let most = 0;
    await assertConcurrently(
      [fc.nat()],
      async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight--;
      },
      { seed: 3, numRuns: 30, concurrency: 4 },
    );
    expect(most).toBe(4);
  });
});

describe("properties whose runs share a state, in lanes of their own", () => {
  /** A lane's state: the values its runs have seen. Fails once a lane has seen a big value and then a small one. */
  const stateful = (log: string[]) => async (lane: { id: number; seen: number[] }, n: number) => {
    log.push(`${lane.id}:${n}`);
    await new Promise((resolve) => setTimeout(resolve, (n * 7) % 5));
    lane.seen.push(n);
    if (n < 200 && lane.seen.some((m) => m > 900)) throw new Error(`${n} after a big one in lane ${lane.id}`);
  };
  const lanes = (count: number) => Array.from({ length: count }, (_, id) => ({ id, seen: [] as number[] }));

  async function outcome(concurrency: number, seed: number): Promise<{ message: string; log: string[] }> {
    const log: string[] = [];
    try {
      await assertInLanes(fc.integer({ min: 0, max: 1000 }), lanes(4), stateful(log), { seed, numRuns: 40, concurrency });
    } catch (error) {
      return { message: (error as Error).message, log };
    }
    return { message: "passed", log };
  }

  it("give each lane the runs i, i + lanes, … in fc.assert's order, whatever the number of lanes at once", async () => {
    const values = fc.sample(fc.integer({ min: 0, max: 1000 }), { seed: 5, numRuns: 10 });
    const log: string[] = [];
    await assertInLanes(fc.integer({ min: 0, max: 1000 }), lanes(3), async (lane, n) => void log.push(`${lane.id}:${n}`), {
      seed: 5,
      numRuns: 10,
      concurrency: 3,
    });
    for (const lane of [0, 1, 2]) {
      const own = log.filter((entry) => entry.startsWith(`${lane}:`));
      expect(own).toEqual(values.flatMap((n, i) => (i % 3 === lane ? [`${lane}:${n}`] : [])));
    }
  });

  it("fail with the same seed, path and shrunk counterexample side by side as one lane at a time, for several seeds", async () => {
    let failed = 0;
    for (const seed of [1, 2, 3, 42, 20261122]) {
      const oneAtATime = await outcome(1, seed);
      const sideBySide = await outcome(4, seed);
      expect(sideBySide.message, `seed ${seed}`).toBe(oneAtATime.message);
      if (oneAtATime.message !== "passed") failed++;
    }
    expect(failed, "some seeds must find the failure").toBeGreaterThan(0);
  });
});

describe("independent calls side by side", () => {
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("mapConcurrently answers in the items' order, with at most `limit` calls in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapConcurrently([5, 1, 4, 2, 3, 0, 6], 3, async (ms, i) => {
      most = Math.max(most, ++inFlight);
      await wait(ms);
      inFlight--;
      return `${i}:${ms}`;
    });
    expect(out).toEqual(["0:5", "1:1", "2:4", "3:2", "4:3", "5:0", "6:6"]);
    expect(most).toBe(3);
  });

  it("mapConcurrently throws the earliest item's failure, once the calls in flight have ended, and starts no item after it", async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const failing = mapConcurrently([0, 1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      await wait(n === 2 ? 1 : 8 - n);
      ended.push(n);
      if (n === 2 || n === 3) throw new Error(`item ${n}`);
    });
    await expect(failing).rejects.toThrow("item 2");
    // Every item started was awaited; the loop's first failure is the one thrown, whichever ended first.
    expect([...ended].sort()).toEqual([...started].sort());
    // Items 0 to 2 were in flight when item 2 failed; none after it was started.
    expect(started).toEqual([0, 1, 2]);
  });

  it("together runs its calls at once and keeps their order; oneAtATime runs a lane's calls one after another, in order", async () => {
    const order: string[] = [];
    const [a, b] = await together(
      async () => (await wait(6), order.push("a"), "A"),
      async () => (order.push("b"), 2),
    );
    expect([a, b]).toEqual(["A", 2]);
    expect(order).toEqual(["b", "a"]);

    const lane = oneAtATime();
    const log: string[] = [];
    let overlapping = 0;
    let most = 0;
    const step = (name: string, ms: number) =>
      lane(async () => {
        most = Math.max(most, ++overlapping);
        await wait(ms);
        log.push(name);
        overlapping--;
        if (name === "fails") throw new Error("fails");
      });
    const results = await Promise.allSettled([step("first", 6), step("fails", 1), step("third", 0)]);
    expect(log).toEqual(["first", "fails", "third"]);
    expect(most).toBe(1);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });
});

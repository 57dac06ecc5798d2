// Property runs side by side keep fast-check's promises: the same values in the same order for a seed, and a
// failure that shrinks to the same counterexample, with the same seed and path, as the sequential fc.assert.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertConcurrently } from "../../harness/concurrent-property.js";

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
    await fc.assert(fc.asyncProperty(...arbitraries, async (n, xs) => void seen.push(JSON.stringify([n, xs]))), { seed: 7, numRuns: 40 });
    await assertConcurrently([...arbitraries], async (n, xs) => void concurrent.push(JSON.stringify([n, xs])), { seed: 7, numRuns: 40, concurrency: 8 });
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

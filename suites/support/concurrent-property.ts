// A fast-check property whose runs are independent of each other (each works on its own fresh user) need not
// wait for one run before the next: against a server 50 ms away, 25 sequential runs of 30 requests are 37 s of
// waiting. The runs here go side by side, with exactly the values fc.assert would try in order (fc.sample with
// the same seed). The first failing run in that order is then handed to fc.assert with its path, so fast-check
// shrinks it exactly as a sequential run would have: same seed, same path, same counterexample, same message.
// The smaller helpers below do the same for a check's own independent requests (a sweep over every endpoint,
// reads of items nothing changes meanwhile): sent side by side, judged in the order a loop would have met them.
import fc from "fast-check";
import { findTransportError } from "../../harness/run/weather.js";

export interface ConcurrentParams {
  seed: number;
  numRuns: number;
  /** Runs in flight at once; 1 is fc.assert itself. */
  concurrency: number;
  /** fast-check's endOnFailure: report the first failing run without shrinking it. */
  endOnFailure?: boolean;
}

/**
 * `fn` over every item with at most `limit` calls in flight (the profile's `concurrency`), for checks whose
 * items are independent of each other: a sweep of refused requests over every endpoint, set-up on items a
 * test made itself. The answers come back in the items' order. A failure stops new calls from starting and,
 * once the ones in flight have ended, the failure of the earliest item is thrown: the one a loop going item
 * by item would have met first (items after it may have run too; being independent, they change nothing).
 */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let firstFailure = Number.POSITIVE_INFINITY;
  let error: unknown;
  await pool(
    items.length,
    Math.max(1, limit),
    async (i) => {
      try {
        results[i] = await fn(items[i]!, i);
      } catch (e) {
        if (i < firstFailure) {
          firstFailure = i;
          error = e;
        }
      }
    },
    () => firstFailure,
  );
  if (Number.isFinite(firstFailure)) throw error;
  return results;
}

/**
 * Calls sent together, answered in order: like Promise.all, but a failure is thrown only once every call has
 * ended (none is left running into the next check), and it is the failure of the earliest call.
 */
export function together<T extends unknown[]>(...calls: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  return mapConcurrently(calls as (() => Promise<unknown>)[], calls.length, (call) => call()) as Promise<T>;
}

/**
 * A lane where calls run one at a time, in the order they were handed in: inside mapConcurrently, the items
 * that must not overlap each other (writes whose effect a later read would see) go through one lane while
 * the others run beside them.
 */
export function oneAtATime(): <R>(fn: () => Promise<R>) => Promise<R> {
  let tail: Promise<unknown> = Promise.resolve();
  return <R>(fn: () => Promise<R>) => {
    const run = tail.then(fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** Runs `task(i)` for i in [0, count) with at most `limit` in flight; stops starting new ones past `stopAfter()`. */
async function pool(count: number, limit: number, task: (i: number) => Promise<void>, stopAfter: () => number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count && next < stopAfter()) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/**
 * A property whose runs change a state they share (each run resizes one list) cannot run side by side on that one
 * state. Given several states of their own (`lanes`: one list of a fresh user each), run i takes lane
 * i % lanes.length and each lane takes its runs in order, at most `concurrency` lanes at once. What a run meets
 * depends only on the seed and the number of lanes, not on how many lanes go at once: with concurrency 1 the
 * lanes go one after another and every run meets the state it meets side by side. The first failing run in
 * fc.assert's order is replayed with its path on its own lane, where fast-check shrinks it.
 */
export async function assertInLanes<T, L>(
  arbitrary: fc.Arbitrary<T>,
  lanes: readonly L[],
  predicate: (lane: L, value: T) => Promise<void>,
  params: ConcurrentParams,
): Promise<void> {
  const options = { seed: params.seed, numRuns: params.numRuns, ...(params.endOnFailure ? { endOnFailure: true } : {}) };
  const values = fc.sample(arbitrary, { seed: params.seed, numRuns: params.numRuns });
  let firstFailure = Number.POSITIVE_INFINITY;
  const errors = new Map<number, unknown>();
  await pool(
    lanes.length,
    Math.max(1, params.concurrency),
    async (lane) => {
      // A lane stops at its own failure (its state is spoiled) or past the earliest failure of any lane.
      for (let i = lane; i < values.length && i < firstFailure; i += lanes.length) {
        try {
          await predicate(lanes[lane]!, values[i]!);
        } catch (error) {
          errors.set(i, error);
          firstFailure = Math.min(firstFailure, i);
          return;
        }
      }
    },
    () => Number.POSITIVE_INFINITY,
  );
  if (!Number.isFinite(firstFailure)) return;
  const error = errors.get(firstFailure);
  const transport = findTransportError(error);
  if (transport) throw transport;
  const lane = lanes[firstFailure % lanes.length]!;
  await replayAndShrink(() => fc.asyncProperty(arbitrary, (value) => predicate(lane, value)), options, firstFailure, params.seed, error);
}

export async function assertConcurrently<Ts extends [unknown, ...unknown[]]>(
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...args: Ts) => Promise<boolean | void>,
  params: ConcurrentParams,
): Promise<void> {
  const property = () => fc.asyncProperty(...arbitraries, predicate);
  const options = { seed: params.seed, numRuns: params.numRuns, ...(params.endOnFailure ? { endOnFailure: true } : {}) };
  if (params.concurrency <= 1 || params.numRuns <= 1) return fc.assert(property(), options);
  const values = fc.sample(fc.tuple(...(arbitraries as unknown as fc.Arbitrary<unknown>[])), {
    seed: params.seed,
    numRuns: params.numRuns,
  }) as unknown as Ts[];
  let firstFailure = Number.POSITIVE_INFINITY;
  const errors = new Map<number, unknown>();
  await pool(
    values.length,
    params.concurrency,
    async (i) => {
      try {
        if ((await predicate(...values[i]!)) === false) throw new Error("the property returned false");
      } catch (error) {
        errors.set(i, error);
        firstFailure = Math.min(firstFailure, i);
      }
    },
    () => firstFailure,
  );
  if (!Number.isFinite(firstFailure)) return;
  const error = errors.get(firstFailure);
  // Weather is not a counterexample (harness/run/weather.ts): the test ends broken by transport.
  const transport = findTransportError(error);
  if (transport) throw transport;
  await replayAndShrink(property, options, firstFailure, params.seed, error);
}

/** Replays the first failing run alone and lets fast-check shrink it, as a sequential run would; always throws. */
async function replayAndShrink<V>(
  property: () => fc.IAsyncProperty<V>,
  options: fc.Parameters<V>,
  firstFailure: number,
  seed: number,
  error: unknown,
): Promise<never> {
  try {
    await fc.assert(property(), { ...options, path: String(firstFailure) });
  } catch (replayed) {
    // The replay starts at the failing run: count the runs before it, as the sequential report would.
    const e = replayed as Error;
    e.message = e.message.replace(/^Property failed after 1 tests/, `Property failed after ${firstFailure + 1} tests`);
    throw e;
  }
  throw new Error(
    `run ${firstFailure} of the property (seed ${seed}) failed with runs side by side, but passed when replayed alone: ` +
      `${String((error as Error)?.message ?? error)}`,
    { cause: error },
  );
}

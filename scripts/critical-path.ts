// The critical path of a run: the longest chain of requests one test made strictly one after another
// (each sent after the previous answer came back), read from the run's exchange log. Against a server
// `delay` ms away, no scheduling gets a run below that chain × delay.
import type { LoggedExchange } from "../harness/run/exchange-log.js";

/** The longest chain of non-overlapping exchanges in one test (greedy by end time: an interval schedule). */
export function longestChain(exchanges: LoggedExchange[]): number {
  const spans = exchanges.map((e) => {
    const start = Date.parse(e.startedAt);
    return { start, end: start + e.durationMs };
  });
  spans.sort((a, b) => a.end - b.end);
  let chain = 0;
  let free = Number.NEGATIVE_INFINITY;
  for (const span of spans) {
    if (span.start >= free) {
      chain++;
      free = span.end;
    }
  }
  return chain;
}

/** The test with the longest chain, and its length. */
export function criticalPath(log: LoggedExchange[]): { test: string; requests: number } {
  const byTest = new Map<string, LoggedExchange[]>();
  for (const e of log) if (e.test) byTest.set(e.test, [...(byTest.get(e.test) ?? []), e]);
  let best = { test: "", requests: 0 };
  for (const [test, exchanges] of byTest) {
    const requests = longestChain(exchanges);
    if (requests > best.requests) best = { test, requests };
  }
  return best;
}

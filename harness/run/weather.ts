import type fc from "fast-check";
import { resendable } from "../http/client.js";
import type { Exchange } from "../http/exchange.js";
import { TransportError } from "../http/transport-error.js";
import { currentTest, currentWeather, type WeatherTally } from "./test-scope.js";

/**
 * Weather is what a bad day on staging does to a run (a dropped connection, a 503 page, a 429): it is told
 * apart from the target's defects. The client retries safe requests (harness/http/client.ts); this module keeps,
 * per test attempt (harness/run/test-scope.ts: tests of a file may run side by side), what it saw of it, so
 * harness/setup/weather-setup.ts can run a test that the weather touched once more, and the summary can count the
 * retries.
 */
/** "POST /v1/user/{id}/card/{id}": the endpoint of a request, ids folded. */
const endpointOf = (exchange: Exchange) =>
  `${exchange.request.method} ${exchange.request.path.split("?")[0]!.replace(/\/\d+(?=\/|$)/g, "/{id}")}`;

const TRANSIENT = new Set([502, 503, 504]);

/** Called with every exchange (harness/run/target.ts): counts retries and weather, in the attempt that made it. */
export function noteExchange(exchange: Exchange): void {
  if (exchange.retrying !== undefined) return; // an attempt: counted with the final answer
  const tally = currentWeather();
  if (exchange.attempts !== undefined) {
    tally.seen++;
    const meta = currentTest()?.meta;
    if (meta) meta.retries = (meta.retries ?? 0) + exchange.attempts.length;
  }
  if (exchange.request.method === "GET" || resendable(exchange.request.method, exchange.request.path)) return;
  const endpoint = endpointOf(exchange);
  const writes = (tally.writes ??= new Map());
  const counts = writes.get(endpoint) ?? { answered: 0, unavailable: 0 };
  writes.set(endpoint, counts);
  if (TRANSIENT.has(exchange.status)) {
    counts.unavailable++;
    tally.seen++;
  } else counts.answered++;
}

/**
 * The endpoints an attempt met only 502/503/504 on (every write to them): what a broken endpoint looks
 * like, as opposed to weather, which hits one write among others that were answered.
 */
export function unavailableEndpoints(tally: WeatherTally): Set<string> {
  return new Set([...(tally.writes ?? [])].filter(([, c]) => c.unavailable > 0 && c.answered === 0).map(([endpoint]) => endpoint));
}

/** Whether an attempt got a 502/503/504 to a write (never resent, so that answer was the one checked). */
export const metUnavailableWrite = (tally: WeatherTally) => [...(tally.writes?.values() ?? [])].some((c) => c.unavailable > 0);

/** The TransportError a value is or carries as a cause (a property failure, a wrapped error). */
export function findTransportError(error: unknown): TransportError | undefined {
  for (let e = error, depth = 0; e !== null && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof TransportError) return e;
  }
  return undefined;
}

/**
 * A fast-check plugin (installed globally in the test workers): a property run that ends with a TransportError
 * is weather, not a counterexample. Later runs of the same property (the shrinking) fail at once with that
 * error, sending nothing, and the assertion ends by throwing the TransportError itself, so the test ends
 * "broken: transport" instead of blaming a rule with a shrunk counterexample.
 */
export const weatherPlugin: fc.Plugin<unknown> = () => {
  let broken: TransportError | undefined;
  const note = <R>(result: R): R => {
    const error =
      result !== null && typeof result === "object" && "error" in result
        ? findTransportError((result as { error: unknown }).error)
        : undefined;
    if (error && !broken) broken = error;
    return result;
  };
  return {
    decorateRun: (run) => (value) => {
      if (broken) return { error: broken };
      const out = run(value);
      return out instanceof Promise ? out.then(note) : note(out);
    },
    onAllRunsComplete: () => {
      if (broken) throw broken;
    },
  };
};

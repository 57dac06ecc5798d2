import fc from "fast-check";
import { afterEach, beforeAll, beforeEach, TestRunner, type RunnerTestCase, type RunnerTestSuite } from "vitest";
import { DROPPED_CODES, transportErrorIn } from "../http/transport-error.js";
import { NOT_RUN_NOTE, transportLimitReason } from "../http/transport-limit.js";
import { currentWeather, lastWeather, type WeatherTally } from "../run/test-scope.js";
import { metUnavailableWrite, unavailableEndpoints, weatherPlugin } from "../run/weather.js";

declare module "vitest" {
  interface TaskMeta {
    /** Requests of this test the client sent again after weather (harness/http/client.ts), over all its runs. */
    retries?: number;
    /**
     * "transport": the last run failed on a 502/503/504 to a write (never resent) that weather explains: the
     * endpoint answered other writes, or broke only in this run. Reported "broken: transport", not failed.
     */
    weather?: "transport";
    /** Not run: the target had stopped answering before the test began (profile maxTransportErrors). */
    notRun?: "target-stopped-answering";
  }
}

/**
 * A setup file of the conformance projects: weather never becomes a verdict on a rule.
 * - fast-check properties end "broken: transport" on a TransportError, without shrinking (harness/run/weather.ts).
 * - A test that failed after meeting weather (a retried request, a 502/503/504 to a write never resent, a
 *   dropped connection) runs once more from the start; the second run's result stands. A target that fails
 *   the same way twice is judged on it: a persistent 5XX is still a finding.
 * - A beforeAll hook that failed after meeting weather runs once more too (else the whole file would stop).
 */
const INSTALLED = Symbol.for("banking-api-conformance.weather-plugin");
const scope = globalThis as { [INSTALLED]?: true };
if (!scope[INSTALLED]) {
  // Workers are reused across files (isolate: false) and setup files run for each file: install once.
  scope[INSTALLED] = true;
  fc.installGlobalPlugin(weatherPlugin);
}

/** Whether a failure met weather: the attempt saw some since `seenBefore`, or it ended with a dropped connection. */
function metWeather(error: unknown, tally: WeatherTally | undefined, seenBefore: number): boolean {
  if ((tally?.seen ?? 0) > seenBefore) return true;
  const transport = transportErrorIn(error);
  return transport !== undefined && transport.kind === "connection" && DROPPED_CODES.has(transport.code ?? "");
}

const wrapped = new WeakSet<object>();

// vitest reads the first parameter for fixtures: it must be an object pattern.
// eslint-disable-next-line no-empty-pattern
function prepare({}: object, file: Readonly<RunnerTestSuite>): void {
  const walk = (suite: Readonly<RunnerTestSuite>) => {
    const hooks = TestRunner.getSuiteHooks(suite as RunnerTestSuite).beforeAll;
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]!;
      if (wrapped.has(hook)) continue; // already wrapped, or this very hook
      const retried: typeof hook = async (s) => {
        // The target stopped answering (maxTransportErrors): its tests are marked not run, so their set-up is not sent.
        if (transportLimitReason() !== undefined) return undefined;
        const tally = currentWeather();
        const before = tally.seen;
        try {
          return await hook(s);
        } catch (error) {
          if (transportErrorIn(error)?.kind === "given-up") return undefined;
          if (!metWeather(error, tally, before)) throw error;
          return hook(s);
        }
      };
      wrapped.add(retried);
      hooks[i] = retried;
    }
    for (const task of suite.tasks) {
      if (task.type === "suite") walk(task);
      else if (task.type === "test" && (task.retry === undefined || task.retry === 0)) retryOnWeather(task);
    }
  };
  walk(file);
}
wrapped.add(prepare);
beforeAll(prepare);

/**
 * Up to two more runs: the first after any weather; the second only when the run before it ended broken by
 * weather again (a long check, such as a sweep over every endpoint, meets weather often at 2 %), or met a 502/503/504
 * on a write again: a check with one write sees a broken endpoint and weather alike, and two 503s in a row at 2 %
 * chaos came about once in ten whole-suite runs. A check that fails the same way each time is judged on its last run.
 */
function retryOnWeather(test: RunnerTestCase): void {
  let reruns = 0;
  test.retry = {
    count: 2,
    condition: (error) => {
      // Decided after the attempt, outside its scope: the attempt's tally is looked up.
      const tally = lastWeather(test);
      if (transportErrorIn(error)?.kind === "given-up" || !metWeather(error, tally, 0)) return false;
      const unavailableAgain = tally !== undefined && metUnavailableWrite(tally);
      if (reruns >= 1 && transportErrorIn(error) === undefined && test.meta.weather !== "transport" && !unavailableAgain) return false;
      reruns++;
      return true;
    },
  };
}

beforeEach(({ task, skip }) => {
  // A target that stopped answering (maxTransportErrors): the rest of the run is not sent, said once in the summary.
  if (transportLimitReason() !== undefined) {
    task.meta.notRun = "target-stopped-answering";
    skip(NOT_RUN_NOTE);
  }
});

/** Per test, the endpoints its previous run met only 502/503/504 on. */
const unavailableBefore = new Map<string, Set<string>>();

afterEach(({ task }) => {
  delete task.meta.weather;
  // Inside the attempt's scope (harness/setup/test-scope-setup.ts): its own tally, whatever runs beside it.
  const tally = currentWeather();
  // Kept for every run, failed or not yet (a cleanup hook after this one may still fail it).
  const now = unavailableEndpoints(tally);
  const before = unavailableBefore.get(task.id);
  unavailableBefore.set(task.id, now);
  if (task.result?.state !== "fail" || !metUnavailableWrite(tally)) return;
  // A 5XX is never a pass. It is a finding when an endpoint answered nothing but 5XX, in this run and in the
  // one before (a broken endpoint); weather when the endpoint answered other writes, or broke in one run only.
  const errors = task.result.errors ?? [];
  if (transportErrorIn(errors[errors.length - 1]) !== undefined) return; // typed already
  const persistent = [...now].some((endpoint) => before === undefined || before.has(endpoint));
  if (!persistent) task.meta.weather = "transport";
});

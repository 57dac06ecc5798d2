import { AsyncLocalStorage } from "node:async_hooks";
import { TestRunner, type RunnerTestCase, type RunnerTestSuite } from "vitest";
import { processWide } from "./process-wide.js";

/**
 * What one attempt of one test keeps to itself while tests of a file run side by side (`describe.concurrent`):
 * vitest's own "current test" (TestRunner.getCurrentTest, expect.getState) is one per worker and names whichever
 * test started last. The scope follows the test's async calls instead (AsyncLocalStorage), so an exchange, a
 * LENIENT reading or a retry is filed under the test that made it. Entered by harness/setup/test-scope-setup.ts.
 */
export interface TestScope {
  readonly task: RunnerTestCase;
  readonly weather: WeatherTally;
  /** Run when the attempt ends, pass or fail (onScopeEnd): what a check holds is given back. */
  readonly cleanups: (() => Promise<void>)[];
}

/** Weather one attempt met (harness/run/weather.ts). */
export interface WeatherTally {
  /** Retried requests, and 502/503/504 answers to requests never resent. */
  seen: number;
  /** Writes by endpoint ("POST /v1/user/{id}/card"): how many got an answer, how many a 502/503/504. */
  writes?: Map<string, { answered: number; unavailable: number }>;
}

// One store per thread: setup files and suites may load this module in more than one module graph.
const storage = () => processWide("test-scope", () => new AsyncLocalStorage<TestScope>());
/** Weather outside any test (a beforeAll hook): files run one at a time in a worker, so one tally per thread. */
const outside = () => processWide("test-scope.outside", (): WeatherTally => ({ seen: 0 }));
/** Each test's last attempt, for what vitest decides after the attempt, outside its scope (the retry condition). */
const lastAttempts = () => processWide("test-scope.last", () => new WeakMap<RunnerTestCase, TestScope>());

/** Runs one attempt of `task` in a scope of its own. */
export async function runInScope<T>(task: RunnerTestCase, fn: () => T | Promise<T>): Promise<T> {
  const scope: TestScope = { task, weather: { seen: 0 }, cleanups: [] };
  lastAttempts().set(task, scope);
  try {
    return await storage().run(scope, fn);
  } finally {
    for (const cleanup of scope.cleanups.splice(0).reverse()) await cleanup();
  }
}

/**
 * Runs `cleanup` when the running test's attempt ends, whatever its outcome (vitest's own onTestFinished names the
 * test that started last while tests run side by side). Outside a scope (self-tests) nothing is registered.
 */
export function onScopeEnd(cleanup: () => Promise<void>): boolean {
  const scope = storage().getStore();
  scope?.cleanups.push(cleanup);
  return scope !== undefined;
}

/**
 * The test whose code is running here, or undefined outside a test (global setup, beforeAll). Where no scope was
 * entered (a project without the setup file: the self-tests), vitest's own current test, right while tests of a
 * file run one after another.
 */
export const currentTest = (): RunnerTestCase | undefined => storage().getStore()?.task ?? TestRunner.getCurrentTest();

/** Skips the test running here with its reason (vitest's context.skip, reached from a helper through the test's task). */
export function skipRunningTest(reason: string): never {
  const task = currentTest() as { context?: { skip(note?: string): never } } | undefined;
  if (task?.context) task.context.skip(reason);
  throw new Error(`could not skip the test: ${reason}`);
}

/** The weather tally of the attempt running here; outside a test, the thread's own. */
export const currentWeather = (): WeatherTally => storage().getStore()?.weather ?? outside();

/** The weather tally of a test's last attempt (read after the attempt has ended). */
export const lastWeather = (task: RunnerTestCase): WeatherTally | undefined => lastAttempts().get(task)?.weather;

/** "<describe> > … > <title>": a test's name inside its file, as vitest's currentTestName and summary.json name it. */
export function nameInFile(task: RunnerTestCase): string {
  const names = [task.name];
  for (let suite: RunnerTestSuite | undefined = task.suite; suite && suite !== task.file; suite = suite.suite) names.unshift(suite.name);
  return names.join(" > ");
}

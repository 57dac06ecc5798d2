import { afterAll, aroundEach } from "vitest";
import { flushExchangeLogs } from "../run/exchange-log.js";
import { runInScope } from "../run/test-scope.js";

/**
 * A setup file of the conformance projects: every attempt of every test (its beforeEach and afterEach hooks
 * included) runs in a scope of its own, so tests of one file can run side by side and still file their exchanges,
 * LENIENT readings and weather under their own names (harness/run/test-scope.ts). A test's exchanges are in the log
 * when it ends, and a file's when the file ends: the CLI reads the log as each file ends (report/reporters/har.ts).
 */
aroundEach(async (runTest, { task }) => {
  try {
    return await runInScope(task, runTest);
  } finally {
    flushExchangeLogs();
  }
});
afterAll(() => flushExchangeLogs());

import { aroundEach } from "vitest";
import { runInScope } from "../run/test-scope.js";

/**
 * A setup file of the conformance projects: every attempt of every test (its beforeEach and afterEach hooks
 * included) runs in a scope of its own, so tests of one file can run side by side and still file their exchanges,
 * LENIENT readings and weather under their own names (harness/run/test-scope.ts).
 */
aroundEach(async (runTest, { task }) => runInScope(task, runTest));

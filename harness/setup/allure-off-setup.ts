import { setGlobalTestRuntime } from "allure-js-commons/sdk/runtime";
import type { TestRuntime } from "allure-js-commons/sdk/runtime";
import { allureOn } from "../run/allure-on.js";

/**
 * A setup file of the conformance projects: where no Allure reporter runs (the kill matrix, vitest started directly),
 * allure calls do nothing, at once. Without a runtime, allure-js-commons tries to import an autoconfig module on every
 * call and logs a warning: in the kill matrix's clean run that was seconds of each worker, spent on every exchange.
 */
const nothing = async () => {};
const nothingSync = () => {};
const silent = new Proxy({} as TestRuntime, {
  // Not thenable (an awaited runtime must not look like a promise); `sync` is the synchronous API's runtime.
  get: (_, name) =>
    name === "then" ? undefined : name === "sync" ? new Proxy({}, { get: (__, n) => (n === "then" ? undefined : nothingSync) }) : nothing,
});

if (!allureOn()) setGlobalTestRuntime(silent);

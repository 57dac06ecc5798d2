import { inject } from "vitest";
import "./provided.js";

/** Whether this run writes Allure results: its reporter provided `allure` (report/reporters/allure-reporter.ts). */
export function allureOn(): boolean {
  return inject("allure") === true;
}

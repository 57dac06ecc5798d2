import { readFileSync } from "node:fs";

/** The suite's version is the package version: reports and the target contract quote it. */
export const SUITE_VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string })
  .version;

/** The specification edition the requirement catalogue was written against. */
export const SPEC_VERSION = "banking-api.md 2026-11";

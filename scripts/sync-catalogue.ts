// Brings spec/requirements.yaml's status and coveredBy in line with the suites: a requirement some test
// proves is "covered" (by those suites); a "covered" one no test proves any more goes back to "planned".
// Comments and layout are kept (yaml Document API). It also writes catalogue/requirement-ids.ts, the
// catalogue's IDs as a type (what a test's `tags` may name). Run: npm run catalogue:sync
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isMap, isSeq, parseDocument, type YAMLMap } from "yaml";
import { coverageBySuite } from "../catalogue/coverage.js";

const file = fileURLToPath(new URL("../spec/requirements.yaml", import.meta.url));
const doc = parseDocument(readFileSync(file, "utf8"));
const coverage = coverageBySuite();
const list = doc.get("requirements");
if (!isSeq(list)) throw new Error("requirements.yaml: requirements is not a list");
let changed = 0;
for (const item of list.items) {
  if (!isMap(item)) continue;
  const entry = item as YAMLMap<string, unknown>;
  const id = String(entry.get("id"));
  const status = String(entry.get("status"));
  const suites = coverage.get(id);
  const before = JSON.stringify([status, entry.toJSON().coveredBy]);
  if (suites && status !== "withdrawn") {
    if (status === "not-testable") throw new Error(`${id} is not-testable but named by ${suites.join(", ")}`);
    entry.set("status", "covered");
    entry.set("coveredBy", doc.createNode(suites, { flow: true }));
  } else {
    if (status === "covered") entry.set("status", "planned");
    entry.delete("coveredBy");
  }
  if (JSON.stringify([String(entry.get("status")), entry.toJSON().coveredBy]) !== before) changed++;
}
writeFileSync(file, doc.toString({ lineWidth: 0 }));
process.stdout.write(`spec/requirements.yaml: ${changed} entries updated\n`);

const ids = list.items.filter(isMap).map((item) => String((item as YAMLMap<string, unknown>).get("id")));
const idsFile = fileURLToPath(new URL("../catalogue/requirement-ids.ts", import.meta.url));
writeFileSync(
  idsFile,
  [
    "// The requirement IDs of spec/requirements.yaml, in catalogue order: written by `npm run catalogue:sync`, not by hand.",
    "// A test's `tags` option takes these (harness/setup/setup-requirements.ts types vitest's TestTags with them).",
    "export const REQUIREMENT_IDS = [",
    ...ids.map((id) => `  "${id}",`),
    "] as const;",
    "",
    "export type RequirementId = (typeof REQUIREMENT_IDS)[number];",
    "",
  ].join("\n"),
);
process.stdout.write(`catalogue/requirement-ids.ts: ${ids.length} IDs\n`);

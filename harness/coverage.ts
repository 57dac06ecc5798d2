import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { REQUIREMENT_ID } from "./requirements.js";

const SUITES = new URL("../suites/", import.meta.url);

// A test title starts with requirement IDs: test("AUTH-004 …"), test.for(rows)("AUTH-002 …"), it(`CARD-001 …`).
const TITLE = /\b(?:test|it)(?:\.(?:for|each|skip|skipIf|runIf|concurrent|sequential)\([^)]*\))*\(\s*["'`]((?:[A-Z]+-\d{3}\s+)+)/g;

/** Requirement ID → the suites whose test titles name it (read from the suite sources). */
export function coverageBySuite(): Map<string, string[]> {
  const coverage = new Map<string, Set<string>>();
  for (const file of readdirSync(fileURLToPath(SUITES)).filter((f) => f.endsWith(".test.ts")).sort()) {
    const suite = file.slice(0, -".test.ts".length);
    const source = readFileSync(new URL(file, SUITES), "utf8");
    for (const match of source.matchAll(TITLE)) {
      for (const id of match[1]!.trim().split(/\s+/)) {
        if (!REQUIREMENT_ID.test(id)) continue;
        if (!coverage.has(id)) coverage.set(id, new Set());
        coverage.get(id)!.add(suite);
      }
    }
  }
  return new Map([...coverage].map(([id, suites]) => [id, [...suites].sort()]));
}

// The house's size limits, run by `npm run lint`: no folder holds more than 15 `.ts` files directly (suites/ excepted:
// a suite's file name is its public name, `conformance run cards`), and no line of a `.ts` or `.js` file is longer than
// 140 characters (Prettier's width; a string or comment it cannot wrap would pass it unseen). One line per breach, exit 1.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SKIP = new Set(["node_modules", ".git", "reports", "coverage"]);
const MAX_FILES = 15;
const MAX_LINE = 140;
const EXEMPT = new Set(["suites"]);

const problems: string[] = [];
function walk(dir: string): void {
  const entries = readdirSync(dir, { withFileTypes: true });
  const ts = entries.filter((e) => e.isFile() && e.name.endsWith(".ts"));
  const where = relative(ROOT, dir) || ".";
  if (ts.length > MAX_FILES && !EXEMPT.has(where))
    problems.push(`${where}/ holds ${ts.length} .ts files (at most ${MAX_FILES}): split it by role`);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name) && !entry.name.startsWith(".")) walk(path);
    else if (entry.isFile() && /\.(ts|js)$/.test(entry.name))
      readFileSync(path, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (line.length > MAX_LINE) problems.push(`${relative(ROOT, path)}:${i + 1}: ${line.length} characters (at most ${MAX_LINE})`);
        });
  }
}
walk(ROOT);
for (const problem of problems) process.stderr.write(`house limits: ${problem}\n`);
process.exit(problems.length > 0 ? 1 : 0);

// Test titles read from the suite sources, without running them: `conformance list` prints them, the
// catalogue sync and `conformance coverage` count what they prove, and selection by requirement
// (`conformance run --requirement`, the kill matrix's fault runs) picks suite files and tests by them.
// Titles are literals, or literals joined with +, in test("…"), it(`…`), test.for(rows)("…"),
// describe("…"); the `tags` of an options object after the title are read too. A title whose leading
// requirement ID is filled in at run time ("%s a PUT with %s …", `${id} …`) is marked dynamic.
import { readdirSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { requirementIdsIn, requirementIdsOf } from "./requirements.js";

export const SUITES_DIR = fileURLToPath(new URL("../suites/", import.meta.url));

export interface SuiteTitle {
  suite: string;
  kind: "test" | "describe";
  /** The title as written: template parts stay `${…}`, test.for placeholders stay `%s`. */
  title: string;
  /** The requirement IDs the test proves: the one its title leads with (unless dynamic), then its tags. */
  requirements: string[];
  /** The IDs its `tags` option names (the requirements it proves besides the one its title leads with). */
  tags: string[];
  /** The leading ID is filled in at run time (per test.for row). */
  dynamic: boolean;
  line: number;
}

/** A suite file's name as reports give it ("card-state-machine"), from its path under `dir`. */
export function suiteOfFile(filepath: string, dir = SUITES_DIR): string {
  return relative(dir, filepath).replace(/\.test\.ts$/, "");
}

export function suiteFileNames(dir = SUITES_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => f.slice(0, -".test.ts".length))
    .sort();
}

export function suiteSource(suite: string, dir = SUITES_DIR): string {
  return readFileSync(`${dir}/${suite}.test.ts`, "utf8");
}

/** Every test and describe title of every suite, in source order. */
export function suiteTitles(dir = SUITES_DIR): SuiteTitle[] {
  return suiteFileNames(dir).flatMap((suite) => titlesIn(suite, suiteSource(suite, dir)));
}

const CALL = /(?<![\w.$])(describe|test|it)\b/g;
const MODIFIER = /^\.(\w+)/;

/** The titles of one suite source. */
export function titlesIn(suite: string, source: string): SuiteTitle[] {
  const titles: SuiteTitle[] = [];
  for (const match of source.matchAll(CALL)) {
    let at = match.index + match[0].length;
    // Modifiers: .skip, .for(rows), .skipIf(cond), .each(table) …
    for (;;) {
      const modifier = MODIFIER.exec(source.slice(at));
      if (!modifier) break;
      at += modifier[0].length;
      if (source[at] === "(") at = skipBalanced(source, at);
      if (at < 0) break;
    }
    if (at < 0 || source[at] !== "(") continue;
    const literal = readTitle(source, skipSpace(source, at + 1));
    if (literal === undefined) continue;
    const title = literal.text.replace(/\s+/g, " ").trim();
    const dynamic = /^(%[sdifjo]|\$\{|\$\w)/.test(title);
    const tags = optionTags(source, literal.end);
    titles.push({
      suite,
      kind: match[1] === "describe" ? "describe" : "test",
      title,
      requirements: dynamic ? tags : requirementIdsOf(title, tags),
      tags,
      dynamic,
      line: source.slice(0, match.index).split("\n").length,
    });
  }
  return titles;
}

/** A title: one string literal, or several joined with +; its text and the index just past it. */
function readTitle(source: string, at: number): { text: string; end: number } | undefined {
  let text = readLiteral(source, at);
  if (text === undefined) return undefined;
  let end = literalEnd(source, at);
  for (;;) {
    const plus = skipSpace(source, end);
    if (source[plus] !== "+") return { text, end };
    const next = skipSpace(source, plus + 1);
    const more = readLiteral(source, next);
    if (more === undefined) return { text, end };
    text += more;
    end = literalEnd(source, next);
  }
}

/** The requirement IDs of the `tags` of an options object that follows a title (`"…", { tags: ["ERR-001"] }, …`). */
function optionTags(source: string, at: number): string[] {
  at = skipSpace(source, at);
  if (source[at] !== ",") return [];
  at = skipSpace(source, at + 1);
  if (source[at] !== "{") return [];
  const end = skipBalanced(source, at);
  if (end < 0) return [];
  const tags = /(?<![\w$])tags\s*:\s*(\[[^\]]*\]|"[^"]*"|'[^']*')/.exec(source.slice(at, end));
  return tags ? requirementIdsIn(tags[1]!) : [];
}

/** Requirement IDs named anywhere in a suite source (titles, test.for rows, helper arguments). */
export function idsMentionedIn(source: string): Set<string> {
  return new Set(requirementIdsIn(source));
}

function skipSpace(source: string, at: number): number {
  while (at < source.length && /\s/.test(source[at]!)) at++;
  return at;
}

/** Index just past the parenthesis group that opens at `at`; -1 when it does not close. */
function skipBalanced(source: string, at: number): number {
  let depth = 0;
  for (let i = at; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"' || c === "'" || c === "`") {
      const end = literalEnd(source, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Index just past the string literal that opens at `at`; -1 when it does not close. */
function literalEnd(source: string, at: number): number {
  const quote = source[at]!;
  for (let i = at + 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") i++;
    else if (quote === "`" && c === "$" && source[i + 1] === "{") {
      const end = skipBalanced(source, i + 1);
      if (end < 0) return -1;
      i = end - 1;
    } else if (c === quote) return i + 1;
    else if (quote !== "`" && c === "\n") return -1;
  }
  return -1;
}

/** The text of the string literal at `at` (escapes undone, `${…}` kept as written); undefined when none starts there. */
function readLiteral(source: string, at: number): string | undefined {
  const quote = source[at];
  if (quote !== '"' && quote !== "'" && quote !== "`") return undefined;
  const end = literalEnd(source, at);
  if (end < 0) return undefined;
  return source.slice(at + 1, end - 1).replace(/\\(.)/g, "$1");
}

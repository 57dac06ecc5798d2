// The specification's text as statements: each sentence of prose, each list item, each table row (not the
// header and separator rows), keyed by file and heading path. spec/coverage.yaml maps every statement to
// the requirements that check it (catalogue/spec-coverage.ts).
import { readFileSync } from "node:fs";

export const SPEC_FILES = ["banking-api.md", "wire-conventions.md"] as const;
export type SpecFile = (typeof SPEC_FILES)[number];

export interface Statement {
  in: SpecFile;
  /** Heading path below the document title ("Endpoints > Cards"); the title itself before the first part. */
  section: string;
  kind: "sentence" | "item" | "row";
  /** As written: a table row with its pipes, a list item without its marker. */
  text: string;
  /** A list item with its marker ("- …", "1. …"), as quotes may keep it; otherwise the text. */
  raw: string;
  /** 1-based line of the statement in its file. */
  line: number;
}

/** White space runs compare as one space (as in the catalogue's quote check), so a quote may be re-wrapped. */
export const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

export function specText(file: SpecFile): string {
  return readFileSync(new URL(`../spec/${file}`, import.meta.url), "utf8");
}

const HEADING = /^(#{1,6})\s+(.*)$/;
const ITEM = /^\s*(?:[-*+]|\d+\.)\s+(.*)$/;
const SEPARATOR = /^\|(\s*:?-+:?\s*\|)+\s*$/;
// A sentence ends at . ! or ? followed by white space and a capital, a digit or an opening mark.
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9`"'(*[])/;

/** The statements of one specification text, in document order. */
export function statementsOf(file: SpecFile, text: string): Statement[] {
  const out: Statement[] = [];
  const headings: string[] = [];
  let title = "";
  let paragraph: { text: string; line: number } | undefined;
  let tableRow = 0;
  // The last line of the list item just read (continuation lines extend it).
  let itemEnd = -1;
  const flush = () => {
    if (!paragraph) return;
    const section = sectionOf(headings, title);
    for (const sentence of paragraph.text.split(SENTENCE_END)) {
      if (sentence.trim())
        out.push({ in: file, section, kind: "sentence", text: sentence.trim(), raw: sentence.trim(), line: paragraph.line });
    }
    paragraph = undefined;
  };
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trimEnd();
    const number = index + 1;
    if (!line.trim().startsWith("|")) tableRow = 0;
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const depth = heading[1]!.length;
      if (depth === 1) title = heading[2]!.trim();
      else headings.splice(depth - 2, headings.length, heading[2]!.trim());
      return;
    }
    if (line.trim() === "") return flush();
    if (line.trim().startsWith("|")) {
      flush();
      tableRow++;
      // Row 1 is the header, row 2 the separator: neither states anything.
      if (tableRow > 2 && !SEPARATOR.test(line.trim()))
        out.push({ in: file, section: sectionOf(headings, title), kind: "row", text: line.trim(), raw: line.trim(), line: number });
      return;
    }
    const item = ITEM.exec(line);
    if (item) {
      flush();
      out.push({ in: file, section: sectionOf(headings, title), kind: "item", text: item[1]!.trim(), raw: line.trim(), line: number });
      itemEnd = number;
      return;
    }
    // A continuation line of a list item (indented, right after it) belongs to that item.
    const last = out[out.length - 1];
    if (!paragraph && last?.kind === "item" && /^\s+\S/.test(raw) && itemEnd + 1 === number) {
      last.text = `${last.text} ${line.trim()}`;
      last.raw = `${last.raw} ${line.trim()}`;
      itemEnd = number;
      return;
    }
    if (paragraph) paragraph.text = `${paragraph.text} ${line.trim()}`;
    else paragraph = { text: line.trim(), line: number };
  });
  flush();
  return out;
}

function sectionOf(headings: string[], title: string): string {
  return headings.length > 0 ? headings.join(" > ") : title;
}

/** The headings of one text (a quote may name a section by its heading). */
export function headingsOf(text: string): string[] {
  return text.split(/\r?\n/).flatMap((line) => HEADING.exec(line.trimEnd())?.[2]?.trim() ?? []);
}

const squashed = new WeakMap<Statement, [string, string]>();

/** The statement's text and raw form, squashed (memoised: every quote is compared with every statement). */
export function squashedOf(statement: Statement): [string, string] {
  let pair = squashed.get(statement);
  if (!pair) squashed.set(statement, (pair = [squash(statement.text), squash(statement.raw)]));
  return pair;
}

/** contains() for a quote already squashed. */
export function containsSquashed(statement: Statement, quote: string): boolean {
  const [text, raw] = squashedOf(statement);
  return text.includes(quote) || raw.includes(quote);
}

/** Every statement of both specification files. */
export function specStatements(): Statement[] {
  return SPEC_FILES.flatMap((file) => statementsOf(file, specText(file)));
}

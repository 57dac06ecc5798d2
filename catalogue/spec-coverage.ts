// The specification coverage matrix: every statement of spec/banking-api.md and spec/wire-conventions.md
// (catalogue/spec-statements.ts) mapped, through spec/coverage.yaml, to the requirements that check it, or
// marked not testable or informative with the reason. A statement's requirements are those coverage.yaml
// lists for it UNION those whose `source` quotes (spec/requirements.yaml) fall inside it.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { requirementIdsIn, requirements, type Requirement } from "./requirements.js";
import {
  containsSquashed,
  headingsOf,
  SPEC_FILES,
  specStatements,
  specText,
  squash,
  squashedOf,
  type SpecFile,
  type Statement,
} from "./spec-statements.js";

/**
 * The coordinator's switch. false while the catalogue is being filled: `todo` statements, requirements
 * without a `source` quote and LENIENT requirements without a legal variant are reported, not failed.
 * true: each of them fails test/spec-coverage.test.ts or test/lenient-variants.test.ts.
 */
export const COVERAGE_ENFORCED = true;

const COVERAGE_FILE = new URL("../spec/coverage.yaml", import.meta.url);
const GAPS_FILE = new URL("../spec/gaps.md", import.meta.url);

/** One statement's entry in spec/coverage.yaml. Exactly one of requirements, notTestable, informative. */
interface CoverageEntry {
  /** The statement, or a distinctive part of it, verbatim (white-space runs may differ). */
  quote: string;
  requirements?: string[];
  /** An observable rule no check can see from outside (billing, events, OAuth): why. */
  notTestable?: string;
  /** States nothing observable (an intro, a cross-reference, "see gap list"): why. */
  informative?: string;
  /** Observable, but no requirement states it yet (requirements: []). */
  todo?: true;
}

interface CoverageSection {
  in: SpecFile;
  section: string;
  statements: CoverageEntry[];
}

/** mapped: a requirement that can be tested (planned or covered) rests on it; todo: observable, none yet. */
type StatementState = "mapped" | "not-testable" | "informative" | "todo";

export interface MappedStatement extends Statement {
  /** Its coverage.yaml entry; undefined when none matches (a problem). */
  entry?: CoverageEntry;
  /** Requirement IDs: those listed in coverage.yaml and those whose source quotes fall inside it. */
  requirements: string[];
  /** The subset of `requirements` that comes from source quotes. */
  quotedBy: string[];
  state: StatementState;
}

export type ProblemKind =
  | "unlisted"
  | "stale-quote"
  | "ambiguous-quote"
  | "listed-twice"
  | "bad-entry"
  | "unknown-requirement"
  | "contradiction"
  | "source-outside"
  | "no-source"
  | "todo";

export interface Problem {
  kind: ProblemKind;
  message: string;
  /** Reported only until COVERAGE_ENFORCED is switched on. */
  enforcedOnly: boolean;
}

export interface CoverageAnalysis {
  statements: MappedStatement[];
  problems: Problem[];
}

const ENTRY_KEYS = new Set(["quote", "requirements", "notTestable", "informative", "todo"]);

/** spec/coverage.yaml, checked for shape; shape errors become problems. */
function readCoverageFile(text = readFileSync(COVERAGE_FILE, "utf8")): { sections: CoverageSection[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const bad = (message: string) => problems.push({ kind: "bad-entry", message, enforcedOnly: false });
  const parsed = parseYaml(text) as { sections?: unknown } | null;
  const sections: CoverageSection[] = [];
  if (!parsed || !Array.isArray(parsed.sections)) {
    bad("spec/coverage.yaml has no `sections` list");
    return { sections, problems };
  }
  for (const raw of parsed.sections as Record<string, unknown>[]) {
    const where = `${String(raw.in)} > ${String(raw.section)}`;
    if (!SPEC_FILES.includes(raw.in as SpecFile) || typeof raw.section !== "string" || !Array.isArray(raw.statements)) {
      bad(`${where}: a section needs in (${SPEC_FILES.join(" or ")}), section and statements`);
      continue;
    }
    const entries: CoverageEntry[] = [];
    for (const entry of raw.statements as Record<string, unknown>[]) {
      const unknown = Object.keys(entry).filter((k) => !ENTRY_KEYS.has(k));
      const kinds = (["requirements", "notTestable", "informative"] as const).filter((k) => entry[k] !== undefined);
      const label = `${where}: "${String(entry.quote)}"`;
      if (typeof entry.quote !== "string" || entry.quote.trim() === "") bad(`${where}: an entry without a quote`);
      else if (unknown.length > 0) bad(`${label}: unknown key(s) ${unknown.join(", ")}`);
      else if (kinds.length !== 1)
        bad(`${label}: give exactly one of requirements, notTestable, informative (has ${kinds.join(", ") || "none"})`);
      else if (
        entry.requirements !== undefined &&
        (!Array.isArray(entry.requirements) || entry.requirements.some((id) => typeof id !== "string"))
      )
        bad(`${label}: requirements must be a list of IDs`);
      else if (
        (entry.notTestable ?? entry.informative ?? "x") === "" ||
        (kinds[0] !== "requirements" && typeof entry[kinds[0]!] !== "string")
      )
        bad(`${label}: ${kinds[0]} needs the reason as text`);
      else if (entry.todo !== undefined && (entry.todo !== true || (entry.requirements as unknown[] | undefined)?.length !== 0))
        bad(`${label}: todo: true goes only with requirements: []`);
      else if (entry.requirements !== undefined && (entry.requirements as unknown[]).length === 0 && entry.todo !== true)
        bad(`${label}: requirements: [] needs todo: true (or name the requirements)`);
      else entries.push(entry as unknown as CoverageEntry);
    }
    sections.push({ in: raw.in as SpecFile, section: raw.section, statements: entries });
  }
  return { sections, problems };
}

/** The matrix: every statement with its entry, requirements and state, and every inconsistency found. */
export function analyseCoverage(
  statements: Statement[] = specStatements(),
  coverageText?: string,
  catalogue: Map<string, Requirement> = requirements(),
): CoverageAnalysis {
  const { sections, problems } = readCoverageFile(coverageText);
  const problem = (kind: ProblemKind, message: string, enforcedOnly = false) => problems.push({ kind, message, enforcedOnly });
  const entryOf = new Map<Statement, CoverageEntry>();

  for (const section of sections) {
    const candidates = statements.filter((s) => s.in === section.in && s.section === section.section);
    if (candidates.length === 0) {
      problem("stale-quote", `${section.in} > ${section.section}: no such section in the specification`);
      continue;
    }
    for (const entry of section.statements) {
      const quote = squash(entry.quote);
      const hits = candidates.filter((s) => containsSquashed(s, quote));
      const label = `${section.in} > ${section.section}: "${entry.quote}"`;
      if (hits.length === 0) problem("stale-quote", `${label} is no longer a statement of that section`);
      else if (hits.length > 1)
        problem(
          "ambiguous-quote",
          `${label} is in ${hits.length} statements (lines ${hits.map((h) => h.line).join(", ")}): quote more of it`,
        );
      else if (entryOf.has(hits[0]!))
        problem("listed-twice", `${label}: line ${hits[0]!.line} already has an entry ("${entryOf.get(hits[0]!)!.quote}")`);
      else entryOf.set(hits[0]!, entry);
    }
  }

  const quoted = quotedStatements(statements, catalogue, problem);
  const mapped = statements.map((s): MappedStatement => {
    const entry = entryOf.get(s);
    const listed = entry?.requirements ?? [];
    const quotedBy = [...(quoted.get(s) ?? [])];
    const ids = [...new Set([...listed, ...quotedBy])];
    const testable = ids.filter((id) => ["planned", "covered"].includes(catalogue.get(id)?.status ?? ""));
    const known = ids.filter((id) => catalogue.has(id));
    const state: StatementState =
      testable.length > 0
        ? "mapped"
        : entry?.informative
          ? "informative"
          : entry?.notTestable || known.length > 0
            ? "not-testable"
            : "todo";
    const where = `${s.in}:${s.line} (${s.section}) "${s.text.slice(0, 90)}${s.text.length > 90 ? "…" : ""}"`;
    if (!entry) problem("unlisted", `${where} has no entry in spec/coverage.yaml`);
    for (const id of listed) {
      const r = catalogue.get(id);
      if (!r) problem("unknown-requirement", `${where} lists ${id}, which spec/requirements.yaml does not have`);
      else if (r.status === "withdrawn") problem("unknown-requirement", `${where} lists ${id}, which is withdrawn`);
    }
    if (entry && (entry.informative || entry.notTestable) && testable.length > 0) {
      problem(
        "contradiction",
        `${where} is marked ${entry.informative ? "informative" : "notTestable"}, yet ${testable.join(", ")} ` +
          `quote${testable.length === 1 ? "s" : ""} it: list the requirements instead`,
      );
    }
    if (entry?.todo && state === "todo") problem("todo", `${where}: no requirement yet`, true);
    return { ...s, ...(entry ? { entry } : {}), requirements: ids, quotedBy, state };
  });

  for (const r of catalogue.values()) {
    if (r.status !== "withdrawn" && !r.source?.length) problem("no-source", `${r.id} has no source quote`, true);
  }
  return { statements: mapped, problems };
}

/**
 * Statement → requirements whose source quotes fall inside it. A quote inside several statements goes to
 * those in the requirement's own section where there are any; a quote spanning several statements goes
 * to each of them.
 */
function quotedStatements(
  statements: Statement[],
  catalogue: Map<string, Requirement>,
  problem: (kind: ProblemKind, message: string, enforcedOnly?: boolean) => void,
): Map<Statement, Set<string>> {
  const out = new Map<Statement, Set<string>>();
  const headings = new Map(SPEC_FILES.map((file) => [file, headingsOf(specText(file)).map(squash)]));
  for (const r of catalogue.values()) {
    if (r.status === "withdrawn") continue;
    for (const source of r.source ?? []) {
      const quote = squash(source.quote);
      const inFile = statements.filter((s) => s.in === source.in);
      let hits = inFile.filter((s) => containsSquashed(s, quote));
      if (hits.length > 1) {
        const own = hits.filter(
          (s) => s.section === r.section || s.section.startsWith(`${r.section} > `) || r.section.startsWith(`${s.section} > `),
        );
        if (own.length > 0) hits = own;
      }
      if (hits.length === 0) hits = inFile.filter((s) => squashedOf(s)[0].length > 0 && quote.includes(squashedOf(s)[0]));
      // A heading names its section; it states nothing itself, so no statement takes the requirement.
      if (hits.length === 0 && headings.get(source.in)?.some((h) => h.includes(quote))) continue;
      if (hits.length === 0)
        problem(
          "source-outside",
          `${r.id}: its quote from ${source.in} is in no statement (a quote must sit inside one sentence, list item or table ` +
            `row, or span whole ones): "${source.quote}"`,
        );
      for (const s of hits) out.set(s, (out.get(s) ?? new Set()).add(r.id));
    }
  }
  return out;
}

// ------------------------------------------------------------------ the figures

export interface CoverageFigures {
  /** Statements in both files. */
  statements: number;
  /** Statements that state something a check could observe (mapped + todo). */
  observable: number;
  /** Observable statements a testable requirement rests on. */
  mapped: number;
  notTestable: number;
  informative: number;
  todo: number;
  /** mapped / observable, in percent with one decimal. */
  percent: number;
}

export function figuresOf(statements: MappedStatement[]): CoverageFigures {
  const count = (state: StatementState) => statements.filter((s) => s.state === state).length;
  const mapped = count("mapped");
  const observable = mapped + count("todo");
  return {
    statements: statements.length,
    observable,
    mapped,
    notTestable: count("not-testable"),
    informative: count("informative"),
    todo: count("todo"),
    percent: observable === 0 ? 100 : Math.round((1000 * mapped) / observable) / 10,
  };
}

/** "spec coverage 98.6% (212 of 215 observable statements map to a requirement; 16 not testable, 19 informative)". */
export function coverageLine(f: CoverageFigures): string {
  return (
    `spec coverage ${f.percent}% (${f.mapped} of ${f.observable} observable statements map to a requirement; ` +
    `${f.notTestable} not testable, ${f.informative} informative${f.todo > 0 ? `, ${f.todo} without a requirement yet` : ""})`
  );
}

let cached: CoverageFigures | undefined;

/** The suite's spec coverage, for every run's verdict; undefined when coverage.yaml cannot be read. */
export function specCoverageFigures(): CoverageFigures | undefined {
  try {
    cached ??= figuresOf(analyseCoverage().statements);
    return cached;
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------------ gaps by section

export interface GapRow {
  id: string;
  where: string;
  requirements: string[];
}

export function gapRows(text = readFileSync(GAPS_FILE, "utf8")): GapRow[] {
  return [...text.matchAll(/^\|\s*(GAP-\d+)\s*\|([^|]*)\|.*\|([^|]*)\|\s*$/gm)].map((m) => ({
    id: m[1]!,
    where: m[2]!.trim(),
    requirements: requirementIdsIn(m[3]!),
  }));
}

/**
 * The sections (file + heading path) a gap row's "Where" names. A place deeper than any section with
 * statements ("Authentication > Rules") goes to its ancestor; a part without statements of its own
 * ("Endpoints") to every section below it.
 */
export function sectionsOfGap(where: string, sections: { in: SpecFile; section: string }[]): { in: SpecFile; section: string }[] {
  const found: { in: SpecFile; section: string }[] = [];
  for (const raw of where.split(";")) {
    const place = raw
      .replace(/\([^)]*\)/g, "")
      .replace(/,\s*row \d+/g, "")
      .replace(/\s+/g, " ")
      .trim();
    const wire = /^wire-conventions §(\d+)/.exec(place);
    if (wire) {
      found.push(...sections.filter((s) => s.in === "wire-conventions.md" && s.section.startsWith(`${wire[1]}.`)));
      continue;
    }
    const path = (place === "Endpoint gaps" ? "Endpoints > Endpoint gaps" : place).split(" > ").map((p) => p.trim());
    const banking = sections.filter((s) => s.in === "banking-api.md");
    // A heading matches its name exactly, or failing that by its first words ("Share invite" for
    // "Share invite monetary account response (deprecated)").
    const matches = (section: string, depth: number, loose: boolean) => {
      const heads = section.split(" > ");
      return heads.length === depth && path.slice(0, depth).every((p, i) => heads[i] === p || (loose && heads[i]!.startsWith(`${p} `)));
    };
    const at = (depth: number) => {
      const exact = banking.filter((s) => matches(s.section, depth, false));
      return exact.length > 0 ? exact : banking.filter((s) => matches(s.section, depth, true));
    };
    let hits = at(path.length);
    for (let depth = path.length - 1; hits.length === 0 && depth > 0; depth--) hits = at(depth);
    if (hits.length === 0)
      hits = banking.filter((s) => s.section.split(" > ").length > path.length && path.every((p, i) => s.section.split(" > ")[i] === p));
    found.push(...hits);
  }
  return found.filter((s, i) => found.findIndex((t) => t.in === s.in && t.section === s.section) === i);
}

// The coverage matrix per specification section: statements, how many map to a requirement, the
// requirements, the checks proving them (suite test titles), the reference faults that break them, the gaps
// spec/gaps.md records there, and the statements not testable. `conformance coverage` prints it.
import {
  analyseCoverage,
  figuresOf,
  gapRows,
  sectionsOfGap,
  type CoverageAnalysis,
  type CoverageFigures,
  type MappedStatement,
} from "./spec-coverage.js";
import type { SpecFile } from "./spec-statements.js";
import { idsMentionedIn, suiteSource, suiteTitles, type SuiteTitle } from "./test-titles.js";

export interface MatrixRow {
  in: SpecFile;
  section: string;
  statements: number;
  /** Statements a testable requirement rests on. */
  mapped: number;
  notTestable: number;
  informative: number;
  todo: number;
  requirements: string[];
  /** Suite tests ("suite > title") that name one of the requirements. */
  checks: string[];
  /** Reference faults that break one of the requirements. */
  faults: string[];
  /** GAP IDs whose "Where" names this section. */
  gaps: string[];
}

export interface CoverageMatrix {
  figures: CoverageFigures;
  rows: MatrixRow[];
  totals: Omit<MatrixRow, "in" | "section">;
  /** Observable statements no requirement rests on yet. */
  todo: Pick<MappedStatement, "in" | "section" | "line" | "text">[];
}

/** Builds the matrix; `faults` is the reference's fault catalogue (name and the requirement it breaks). */
export function coverageMatrix(
  faults: { name: string; requirement: string }[],
  analysis: CoverageAnalysis = analyseCoverage(),
  titles: SuiteTitle[] = suiteTitles(),
): CoverageMatrix {
  const tests = titles.filter((t) => t.kind === "test");
  const mentions = new Map<string, Set<string>>();
  const mentioned = (suite: string) => {
    if (!mentions.has(suite)) mentions.set(suite, idsMentionedIn(suiteSource(suite)));
    return mentions.get(suite)!;
  };
  // A title whose leading ID is filled in at run time may prove any ID its suite names.
  const checksOf = (ids: Set<string>) =>
    tests
      .filter((t) => t.requirements.some((id) => ids.has(id)) || (t.dynamic && [...ids].some((id) => mentioned(t.suite).has(id))))
      .map((t) => `${t.suite} > ${t.title}`);
  const sections: { in: SpecFile; section: string }[] = [];
  for (const s of analysis.statements)
    if (!sections.some((x) => x.in === s.in && x.section === s.section)) sections.push({ in: s.in, section: s.section });
  const gaps = gapRows().map((g) => ({ id: g.id, sections: sectionsOfGap(g.where, sections) }));

  const rows = sections.map((where): MatrixRow => {
    const mine = analysis.statements.filter((s) => s.in === where.in && s.section === where.section);
    const ids = new Set(mine.flatMap((s) => s.requirements));
    return {
      ...where,
      ...counts(mine),
      requirements: [...ids],
      checks: checksOf(ids),
      faults: faults.filter((f) => ids.has(f.requirement)).map((f) => f.name),
      gaps: gaps.filter((g) => g.sections.some((s) => s.in === where.in && s.section === where.section)).map((g) => g.id),
    };
  });
  const union = (pick: (r: MatrixRow) => string[]) => [...new Set(rows.flatMap(pick))];
  return {
    figures: figuresOf(analysis.statements),
    rows,
    totals: {
      ...counts(analysis.statements),
      requirements: union((r) => r.requirements),
      checks: union((r) => r.checks),
      faults: union((r) => r.faults),
      gaps: union((r) => r.gaps),
    },
    todo: analysis.statements.filter((s) => s.state === "todo").map((s) => ({ in: s.in, section: s.section, line: s.line, text: s.text })),
  };
}

function counts(statements: MappedStatement[]) {
  const n = (state: MappedStatement["state"]) => statements.filter((s) => s.state === state).length;
  return {
    statements: statements.length,
    mapped: n("mapped"),
    notTestable: n("not-testable"),
    informative: n("informative"),
    todo: n("todo"),
  };
}

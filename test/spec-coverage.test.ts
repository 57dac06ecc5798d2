// Self-test of the specification coverage matrix: spec/coverage.yaml must give every statement of
// spec/banking-api.md and spec/wire-conventions.md an entry, quote only what is still there, and name only
// requirements that exist; requirement source quotes must fall inside statements. Items the catalogue is
// still being filled in for (todo statements, requirements without a source) are reported until the
// coordinator switches COVERAGE_ENFORCED on.
import { describe, expect, it } from "vitest";
import { faultCatalogue } from "../faults/catalogue.js";
import type { Requirement } from "../catalogue/requirements.js";
import {
  analyseCoverage,
  COVERAGE_ENFORCED,
  figuresOf,
  gapRows,
  sectionsOfGap,
  type Problem,
  type ProblemKind,
} from "../catalogue/spec-coverage.js";
import { coverageMatrix } from "../catalogue/spec-matrix.js";
import { specStatements, statementsOf, type Statement } from "../catalogue/spec-statements.js";

type Annotate = (message: string, type?: string) => Promise<unknown>;

describe("statements of a specification text", () => {
  const text = [
    "# Title",
    "",
    "Intro one. Intro two (see Limits).",
    "",
    "## Part",
    "",
    "| Field | Type |",
    "|---|---|",
    "| id | integer |",
    "",
    "- An item. Still the item.",
    "  - A nested item.",
    "1. A numbered item.",
    "",
    "### Sub",
    "",
    "Rules:",
    "",
    "A sentence on",
    "two lines.",
  ].join("\n");
  const statements = statementsOf("banking-api.md", text);

  it("splits prose into sentences, one statement per list item and per table row (not header or separator)", () => {
    expect(statements.map((s) => [s.section, s.kind, s.text])).toEqual([
      ["Title", "sentence", "Intro one."],
      ["Title", "sentence", "Intro two (see Limits)."],
      ["Part", "row", "| id | integer |"],
      ["Part", "item", "An item. Still the item."],
      ["Part", "item", "A nested item."],
      ["Part", "item", "A numbered item."],
      ["Part > Sub", "sentence", "Rules:"],
      ["Part > Sub", "sentence", "A sentence on two lines."],
    ]);
  });

  it("keeps a list item's marker in its raw form, so a quote may keep it", () => {
    expect(statements.find((s) => s.text === "A nested item.")?.raw).toBe("- A nested item.");
    expect(statements.find((s) => s.text === "A numbered item.")?.raw).toBe("1. A numbered item.");
  });
});

// ------------------------------------------------------------------ the analyser on a made-up specification

describe("the coverage analyser", () => {
  const spec = statementsOf(
    "banking-api.md",
    [
      "# T",
      "",
      "## Cards",
      "",
      "- Cards have a status.",
      "- Cards have a status and a limit.",
      "- A card can be lost.",
      "- Cards are nice.",
      "- Billing is monthly.",
    ].join("\n"),
  );
  const requirement = (id: string, status: Requirement["status"], quote?: string): Requirement => ({
    id,
    statement: `${id} statement.`,
    part: "Endpoints",
    resource: "card",
    section: "Cards",
    level: "MUST",
    status,
    ...(quote ? { source: [{ in: "banking-api.md" as const, quote }] } : {}),
  });
  const catalogue = new Map([
    ["CARD-001", requirement("CARD-001", "covered", "Cards have a status.")],
    ["CARD-002", requirement("CARD-002", "covered")],
    ["CARD-003", requirement("CARD-003", "not-testable", "Billing is monthly.")],
    ["CARD-004", requirement("CARD-004", "covered", "Cards are wonderful.")],
  ]);
  const coverage = `
sections:
  - in: banking-api.md
    section: Cards
    statements:
      - quote: "Cards have a status."
        requirements: [CARD-002]
      - quote: "Cards have a status"
        requirements: [CARD-002]
      - quote: "A card can be found."
        requirements: [CARD-002]
      - quote: "Cards are nice."
        requirements: []
        todo: true
      - quote: "Billing is monthly."
        notTestable: "billing is not exposed"
      - quote: "status and a limit"
        requirements: [CARD-404]
`;
  const analysis = analyseCoverage(spec, coverage, catalogue);
  const kinds = (kind: ProblemKind) => analysis.problems.filter((p) => p.kind === kind).map((p) => p.message);

  it("a statement with no entry is reported", () => {
    expect(kinds("unlisted")).toEqual([expect.stringContaining("A card can be lost.")]);
  });

  it("a quote no statement holds any more, or one that several hold, is reported", () => {
    expect(kinds("stale-quote")).toEqual([expect.stringContaining("A card can be found.")]);
    expect(kinds("ambiguous-quote")).toEqual([expect.stringContaining('"Cards have a status" is in 2 statements')]);
  });

  it("a requirement ID the catalogue does not have is reported", () => {
    expect(kinds("unknown-requirement")).toEqual([expect.stringContaining("CARD-404")]);
  });

  it("a statement's requirements are those listed UNION those whose source quotes fall inside it", () => {
    const status = analysis.statements.find((s) => s.text === "Cards have a status.");
    expect(status?.requirements.sort()).toEqual(["CARD-001", "CARD-002"]);
    expect(status?.quotedBy).toEqual(["CARD-001"]);
    expect(status?.state).toBe("mapped");
  });

  it("a source quote in no statement is reported; a requirement without source only while enforcement is on", () => {
    expect(kinds("source-outside")).toEqual([expect.stringContaining("CARD-004")]);
    expect(analysis.problems.filter((p) => p.kind === "no-source").map((p) => [p.message, p.enforcedOnly])).toEqual([
      ["CARD-002 has no source quote", true],
    ]);
  });

  it("a todo statement is reported only while enforcement is on, and counts against the coverage", () => {
    expect(analysis.problems.filter((p) => p.kind === "todo").map((p) => p.enforcedOnly)).toEqual([true]);
    // Mapped: "Cards have a status."; todo: the todo entry, the unlisted statement, the one naming an unknown ID.
    expect(figuresOf(analysis.statements)).toMatchObject({ statements: 5, observable: 4, mapped: 1, todo: 3, notTestable: 1, percent: 25 });
  });

  it("an entry with no state or two is refused", () => {
    const bad = analyseCoverage(
      spec,
      "sections:\n  - in: banking-api.md\n    section: Cards\n    statements:\n      - quote: Cards are nice.\n" +
        "        informative: x\n        requirements: [CARD-001]\n      - quote: A card can be lost.\n        requirements: []\n",
      catalogue,
    );
    expect(bad.problems.filter((p) => p.kind === "bad-entry").map((p) => p.message)).toEqual([
      expect.stringContaining("exactly one of requirements, notTestable, informative"),
      expect.stringContaining("requirements: [] needs todo: true"),
    ]);
  });
});

// ------------------------------------------------------------------ spec/coverage.yaml against the specification

describe("spec/coverage.yaml", () => {
  const analysis = analyseCoverage();
  const problems = (...kinds: ProblemKind[]) => analysis.problems.filter((p) => kinds.includes(p.kind));
  const messages = (list: Problem[]) => list.map((p) => p.message);

  /** Fails while COVERAGE_ENFORCED is on; until then records the list on the test (and prints it). */
  async function reportOrFail(list: Problem[], what: string, annotate: Annotate): Promise<void> {
    if (COVERAGE_ENFORCED || list.length === 0) {
      expect(messages(list), what).toEqual([]);
      return;
    }
    console.info(`${what} (${list.length}, reported until COVERAGE_ENFORCED):\n  ${messages(list).join("\n  ")}`);
    await annotate(`${list.length} ${what}: ${messages(list).join(" | ")}`, "notice");
  }

  it("splits both files into statements", () => {
    const statements = specStatements();
    expect(new Set(statements.map((s) => s.in))).toEqual(new Set(["banking-api.md", "wire-conventions.md"]));
    expect(statements.length).toBeGreaterThan(200);
    expect(statements.every((s) => s.text.trim() !== "" && !/^\|[\s:|-]+\|$/.test(s.text))).toBe(true);
  });

  it("is well formed: every entry has a quote and exactly one of requirements, notTestable, informative", () => {
    expect(messages(problems("bad-entry"))).toEqual([]);
  });

  it("gives every statement of both files an entry", () => {
    expect(messages(problems("unlisted"))).toEqual([]);
  });

  it("quotes only what is still in the specification: each quote is exactly one statement of its section", () => {
    expect(messages(problems("stale-quote", "ambiguous-quote", "listed-twice"))).toEqual([]);
  });

  it("names only requirements the catalogue has (and none withdrawn)", () => {
    expect(messages(problems("unknown-requirement"))).toEqual([]);
  });

  it("every requirement source quote falls inside a statement (or whole statements)", () => {
    expect(messages(problems("source-outside"))).toEqual([]);
  });

  it("a statement a requirement quotes is not marked informative or not testable", async ({ annotate }) => {
    await reportOrFail(
      problems("contradiction"),
      "statements marked informative or notTestable that a testable requirement quotes",
      annotate,
    );
  });

  it("every observable statement maps to a requirement (todo entries)", async ({ annotate }) => {
    await reportOrFail(problems("todo"), "observable statements without a requirement", annotate);
  });

  it("every requirement quotes its source", async ({ annotate }) => {
    await reportOrFail(problems("no-source"), "requirements without a source quote", annotate);
  });

  it("the figures add up: every statement is mapped, not testable, informative or todo", () => {
    const f = figuresOf(analysis.statements);
    expect(f.mapped + f.todo + f.notTestable + f.informative).toBe(f.statements);
    expect(f.observable).toBe(f.mapped + f.todo);
    expect(f.percent).toBeGreaterThanOrEqual(0);
    expect(f.percent).toBeLessThanOrEqual(100);
  });
});

// ------------------------------------------------------------------ the matrix `conformance coverage` prints

describe("the coverage matrix", () => {
  const matrix = coverageMatrix(faultCatalogue());

  it("has one row per section with statements, and its totals are the rows' sums", () => {
    const sum = (pick: (r: (typeof matrix.rows)[number]) => number) => matrix.rows.reduce((n, r) => n + pick(r), 0);
    expect(new Set(matrix.rows.map((r) => `${r.in} ${r.section}`)).size).toBe(matrix.rows.length);
    expect(matrix.totals.statements).toBe(sum((r) => r.statements));
    expect(matrix.totals.mapped).toBe(sum((r) => r.mapped));
    expect(matrix.totals.notTestable).toBe(sum((r) => r.notTestable));
    expect(matrix.totals.statements).toBe(matrix.figures.statements);
  });

  it("finds checks and faults for the card endpoints", () => {
    const cards = matrix.rows.find((r) => r.section === "Endpoints > Cards");
    expect(cards?.requirements).toContain("CARD-024");
    expect(cards?.checks.length).toBeGreaterThan(0);
    expect(cards?.faults.length).toBeGreaterThan(0);
  });

  it("places every gap of spec/gaps.md in at least one section", () => {
    const sections: Pick<Statement, "in" | "section">[] = matrix.rows;
    const lost = gapRows()
      .filter((g) => sectionsOfGap(g.where, sections).length === 0)
      .map((g) => `${g.id} (${g.where})`);
    expect(lost).toEqual([]);
  });

  it("a gap's place goes to the section it names, its ancestor, or every section below it", () => {
    const sections = matrix.rows;
    expect(sectionsOfGap("Authentication > Rules", sections).map((s) => s.section)).toEqual(["Authentication"]);
    expect(sectionsOfGap("Resources and their fields > Share invite", sections).map((s) => s.section)).toEqual([
      "Resources and their fields > Share invite monetary account response (deprecated)",
    ]);
    expect(sectionsOfGap("States and transitions > Card, row 1", sections).map((s) => s.section)).toEqual([
      "States and transitions > Card",
    ]);
    expect(sectionsOfGap("wire-conventions §5", sections).map((s) => `${s.in} ${s.section}`)).toEqual([
      "wire-conventions.md 5. Pagination",
    ]);
    expect(sectionsOfGap("Endpoint gaps", sections).map((s) => s.section)).toEqual(["Endpoints > Endpoint gaps"]);
  });
});

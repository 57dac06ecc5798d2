import { ConfigError } from "../../harness/profile/config-error.js";
import { analyseCoverage, coverageLine } from "../../catalogue/spec-coverage.js";
import { coverageMatrix, type CoverageMatrix, type MatrixRow } from "../../catalogue/spec-matrix.js";
import { parseFlags } from "../args.js";
import { sweepMatrix } from "../sweep-matrix.js";
import { resolve } from "node:path";
import { writeOut } from "../output.js";

export const COVERAGE_HELP = `conformance coverage [--json] [--todo] [--sweeps [--reports DIR]]

The specification coverage matrix: every sentence, list item and table row of spec/banking-api.md and
spec/wire-conventions.md is mapped in spec/coverage.yaml to the requirements that check it (with those whose
source quotes fall inside it), or marked not testable or informative. One row per section:

  statements    statements in the section
  mapped        statements a testable requirement rests on
  reqs          requirements of those statements
  checks        suite tests naming one of them
  faults        reference faults breaking one of them
  gaps          spec/gaps.md entries for the section
  not testable  statements no check can observe (billing, events, OAuth)

  --json   the matrix as JSON (rows with the IDs, test titles, fault names and gap IDs)
  --todo   also list the observable statements no requirement rests on yet
  --sweeps per endpoint and method of the specification, which sweeps (one shape of bug tried everywhere it applies:
           catalogue/sweeps.ts) the last run's requests reached, read from DIR/exchanges.har (default reports/)`;

/** conformance coverage [--json] [--todo] [--help] */
export async function coverageCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("coverage", args, {
    json: { type: "boolean" },
    todo: { type: "boolean" },
    sweeps: { type: "boolean" },
    reports: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    await writeOut(`${COVERAGE_HELP}\n`);
    return 0;
  }
  if (positionals.length > 0)
    throw new ConfigError(`conformance coverage: unexpected argument "${positionals[0]}" (see: conformance coverage --help)`);
  if (values.sweeps) {
    await writeOut(sweepMatrix(resolve(values.reports ?? "reports")));
    return 0;
  }
  const { faultCatalogue } = await import("../../faults/catalogue.js");
  const analysis = analyseCoverage();
  const matrix = coverageMatrix(faultCatalogue(), analysis);
  if (values.json) {
    await writeOut(`${JSON.stringify({ ...matrix, problems: analysis.problems }, null, 2)}\n`);
    return 0;
  }
  await writeOut(
    render(
      matrix,
      values.todo === true,
      analysis.problems.filter((p) => !p.enforcedOnly).map((p) => p.message),
    ),
  );
  return 0;
}

const HEADERS = ["section", "statements", "mapped", "reqs", "checks", "faults", "gaps", "not testable"];

function cells(label: string, r: Omit<MatrixRow, "in" | "section">): string[] {
  return [label, r.statements, r.mapped, r.requirements.length, r.checks.length, r.faults.length, r.gaps.length, r.notTestable].map(String);
}

function render(matrix: CoverageMatrix, todo: boolean, problems: string[]): string {
  const table = [
    ...matrix.rows.map((r) => cells(`${r.in === "wire-conventions.md" ? "conventions " : ""}${r.section}`, r)),
    cells("all sections", matrix.totals),
  ];
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  const out = [line(HEADERS), widths.map((w) => "-".repeat(w)).join("  ")];
  table.forEach((row, i) => {
    if (i === table.length - 1) out.push(widths.map((w) => "-".repeat(w)).join("  "));
    out.push(line(row));
  });
  out.push("", coverageLine(matrix.figures));
  if (todo) {
    out.push(
      "",
      matrix.todo.length === 0 ? "Every observable statement maps to a requirement." : "Observable statements without a requirement:",
    );
    for (const s of matrix.todo) out.push(`  ${s.in}:${s.line} (${s.section}) ${s.text}`);
  }
  if (problems.length > 0)
    out.push(
      "",
      `spec/coverage.yaml is out of step with the specification (${problems.length}; npx vitest run --project selftest ` +
        `test/spec-coverage.test.ts):`,
      ...problems.slice(0, 20).map((p) => `  ${p}`),
    );
  return `${out.join("\n")}\n`;
}

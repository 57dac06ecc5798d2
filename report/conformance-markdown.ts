// conformance.md: the verdict as a pull request shows it (report/conformance-summary.ts builds the report it renders).
import { consumedMarkdown, uncheckedMarkdown } from "./unfinished.js";
import {
  FORMAT,
  LEVELS,
  type BaselineResult,
  type ConformanceReport,
  type LenientReading,
  type Outcome,
  type Verdict,
} from "./conformance-types.js";

const ICON: Record<Outcome, string> = {
  passed: "✅ passed",
  failed: "❌ failed",
  deviation: "⚠️ deviation",
  skipped: "⏭️ skipped",
};
const VERDICT_ICON: Record<Verdict, string> = { CONFORMANT: "✅", "NOT CONFORMANT": "❌", INCOMPLETE: "⚠️" };
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

function fence(text: string): string {
  const body = text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
  const ticks = "`".repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}\n${body}\n${ticks}`;
}

export function renderMarkdown(report: ConformanceReport): string {
  const { run } = report;
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const out: string[] = [];
  out.push(`## Banking API conformance: ${VERDICT_ICON[report.verdict]} ${report.verdict}`, "");
  out.push(`${report.reason}.`, "");
  out.push(
    `Target \`${run.target}\` · suite ${run.suiteVersion} · spec ${run.specVersion} · seed ${run.seed ?? "none"} · ` +
      `${run.startedAt} → ${run.finishedAt}`,
    "",
  );
  if (!report.complete) {
    const parts = [
      run.scope.suites === "all" ? undefined : `suites ${run.scope.suites.join(", ")}`,
      run.scope.grep === null ? undefined : `--grep ${JSON.stringify(run.scope.grep)}`,
      run.scope.shards === null ? undefined : `shard ${run.scope.shards.join(", ")}`,
    ].filter(Boolean);
    out.push(
      `> Partial run (${parts.join("; ")}): the verdict covers only the ${report.requirements.length} requirements these tests name.`,
      "",
    );
  }
  if (run.faults.length > 0)
    out.push(`> Reference faults switched on (a self-test of the suite): ${run.faults.map((f) => `\`${f}\``).join(", ")}.`, "");
  if (run.variants && run.variants.length > 0)
    out.push(
      `> Legal variants of the reference switched on (a self-test of the suite): ${run.variants.map((f) => `\`${f}\``).join(", ")}.`,
      "",
    );
  if (run.conventionsOff.length > 0)
    out.push(`Conventions switched off by the profile (failures reported as deviations): ${run.conventionsOff.join(", ")}.`, "");

  if (report.specCoverage) {
    const c = report.specCoverage;
    out.push(
      `**Spec coverage**: ${c.percent}% (${c.mapped} of the specification's ${c.observable} observable statements map to a ` +
        `requirement; ${c.notTestable} not testable, ${c.informative} informative; \`conformance coverage\`).`,
      "",
    );
  }
  const t = report.totals;
  out.push(
    `**Requirements**: ${t.requirements.passed} passed, ${t.requirements.failed} failed, ${t.requirements.deviation} deviations, ` +
      `${t.requirements.skipped} skipped (of ${t.requirements.total} checked; ${t.notChecked} in the catalogue not checked by this ` +
      `run).  `,
    `**Tests**: ${t.tests.passed} passed, ${t.tests.failed} failed, ${t.tests.deviation} deviations, ${t.tests.skipped} ` +
      `skipped${t.tests.brokenByTransport ? `, ${t.tests.brokenByTransport} broken by transport (weather: not counted as failed)` : ""}.`,
    "",
    "| level | passed | failed | deviation | skipped |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...LEVELS.map(
      (l) =>
        `| ${l} | ${report.levels[l].passed} | ${report.levels[l].failed} | ${report.levels[l].deviation} | ${report.levels[l].skipped} |`,
    ),
    "",
  );

  const failures = report.tests.filter((x) => x.outcome === "failed");
  if (failures.length > 0 || report.errors.length > 0) {
    out.push("### Failures", "");
    for (const f of failures) {
      const kind = {
        defect: "",
        unreachable: " (target unreachable)",
        bootstrap: " (session bootstrap failed)",
        broken: " (broken check)",
        transport: " (broken: transport; not a failure of these requirements)",
      }[f.kind ?? "broken"];
      out.push(
        `- **${(f.kind === "transport" ? f.requirements : f.blamed).join(" ")}**${kind}: ${f.name}`,
        "",
        indent(fence(f.message ?? "")),
        "",
      );
      const again = report.reproduce?.[f.name];
      if (again) out.push(indent(fence(`${again.rerun}${again.curl ? `\n${again.curl}` : ""}`)), "");
    }
    for (const e of report.errors) out.push(`- **error outside any test**`, "", indent(fence(e)), "");
  }
  const deviations = report.tests.filter((x) => x.outcome === "deviation");
  if (deviations.length > 0) {
    out.push("### Deviations (conventions switched off by the profile)", "");
    for (const d of deviations) out.push(`- **${d.blamed.join(" ")}**: ${d.name}`, "", indent(fence(d.message ?? "")), "");
  }
  if (report.expectations) out.push(...expectationsMarkdown(report.expectations), "");
  if (report.lenient && report.lenient.readings > 0) out.push(...lenientMarkdown(report.lenient.observations), "");
  out.push(...uncheckedMarkdown(report.uncheckedByField ?? []), ...consumedMarkdown(report.consumed ?? []));

  for (const part of report.parts) {
    const rows = part.requirements.map((id) => byId.get(id)!);
    const open = rows.filter((r) => r.status !== "passed");
    const passed = rows.filter((r) => r.status === "passed");
    const c = part.counts;
    out.push(`### ${part.part}: ${c.passed} passed, ${c.failed} failed, ${c.deviation} deviations, ${c.skipped} skipped`, "");
    if (open.length > 0) {
      out.push("| requirement | level | resource | result | statement |", "| --- | --- | --- | --- | --- |");
      for (const r of open)
        out.push(
          `| ${r.id} | ${r.level} | ${r.resource} | ${ICON[r.status]} | ${cell(r.statement)}${r.note ? ` _(${cell(r.note)})_` : ""} |`,
        );
      out.push("");
    }
    if (passed.length > 0) {
      out.push(
        `<details><summary>${passed.length} passed</summary>`,
        "",
        "| requirement | level | resource | tests | statement |",
        "| --- | --- | --- | ---: | --- |",
      );
      for (const r of passed) out.push(`| ${r.id} | ${r.level} | ${r.resource} | ${r.tests} | ${cell(r.statement)} |`);
      out.push("", "</details>", "");
    }
  }
  out.push(
    `<sub>Results SHA-256 \`${report.resultsSha256}\` (of the \`tests\` array in conformance.json) · profile SHA-256 ` +
      `\`${run.profileSha256}\` · ${FORMAT}</sub>`,
    "",
  );
  return `${out.join("\n")}\n`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

function lenientMarkdown(readings: LenientReading[]): string[] {
  const lines = [
    `### LENIENT readings observed: ${readings.length}`,
    "",
    "Readings the specification allows, other than the suite's first: they pass; a profile with `strict: true` fails those with " +
      "a strict expectation, and only records the others.",
    "",
    "| requirement | what the target did | strict requires | tests |",
    "| --- | --- | --- | ---: |",
  ];
  for (const r of readings) {
    const seen = r.observed.slice(0, 3).map(cell).join("; ") + (r.observed.length > 3 ? `; and ${r.observed.length - 3} more` : "");
    lines.push(`| ${r.requirement} | ${seen} | ${r.strict ? cell(r.strict) : "_(recorded only)_"} | ${r.tests.length} |`);
  }
  return lines;
}

function expectationsMarkdown(e: BaselineResult): string[] {
  const lines = [
    `### Baseline \`${e.file}\`: ${e.expected.length} expected, ${e.newFailures.length} new, ${e.unexpectedPasses.length} ` +
      `unexpected passes, ${e.expired.length} expired`,
    "",
  ];
  for (const n of e.newFailures) lines.push(`- ❌ new failure: ${n}`);
  for (const u of e.unexpectedPasses) lines.push(`- ❌ ${u}`);
  for (const x of e.expired) lines.push(`- ❌ ${x}`);
  if (e.expected.length > 0) {
    lines.push("", `<details><summary>${e.expected.length} expected failures</summary>`, "");
    for (const x of e.expected) lines.push(`- ${cell(x.test)}: ${cell(x.reason)}`);
    lines.push("", "</details>");
  }
  return lines;
}

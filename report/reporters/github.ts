import type { BaselineResult, ConformanceReport } from "../conformance-types.js";

/**
 * GitHub Actions workflow commands (printed when GITHUB_ACTIONS=true): an ::error per failure that
 * fails the run, a ::warning per deviation, and a ::notice with the verdict. GitHub shows at most 10
 * errors per step, so the ones that fail the run come first.
 */

const data = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const property = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

function command(kind: "error" | "warning" | "notice", props: Record<string, string | undefined>, message: string): string {
  const list = Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${property(v!)}`)
    .join(",");
  return `::${kind}${list ? ` ${list}` : ""}::${data(message.length > 4000 ? `${message.slice(0, 4000)}…` : message)}`;
}

export function githubAnnotations(report: ConformanceReport, baseline?: BaselineResult): string[] {
  const failing = new Set(baseline ? baseline.newFailures : report.tests.filter((t) => t.outcome === "failed").map((t) => t.name));
  const lines: string[] = [];
  for (const test of report.tests) {
    const file = `suites/${test.suite}.test.ts`;
    if (failing.has(test.name)) {
      lines.push(
        command(
          "error",
          { file, title: `${test.blamed.join(" ")} failed${baseline ? " (not in the baseline)" : ""}` },
          `${test.name}\n${test.message ?? ""}`,
        ),
      );
    } else if (test.outcome === "deviation") {
      lines.push(
        command(
          "warning",
          { file, title: `${test.blamed.join(" ")} deviation (convention switched off)` },
          `${test.name}\n${test.message ?? ""}`,
        ),
      );
    }
  }
  for (const problem of [...(baseline?.unexpectedPasses ?? []), ...(baseline?.expired ?? [])])
    lines.push(command("error", { file: baseline!.file, title: "expectation baseline" }, problem));
  for (const error of report.errors) lines.push(command("error", { title: "conformance run error" }, error));
  lines.push(command("notice", { title: `conformance: ${report.verdict}` }, `${report.reason} (target ${report.run.target})`));
  return lines;
}

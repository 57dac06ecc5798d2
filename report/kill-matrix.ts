import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FaultSpec } from "../faults/fault.js";
import { variantProject } from "../faults/variant-groups.js";
import type { VariantSpec } from "../faults/variant-spec.js";
import type { RunSummary } from "./reporters/summary-reporter.js";

interface FaultVerdict {
  fault: string;
  requirement: string;
  description: string;
  suites: string[];
  /** At least one failing test names the fault's requirement. */
  killed: boolean;
  /** Failing tests that name the requirement. */
  caughtBy: string[];
  /** Other failing tests (the fault also broke checks of other requirements). */
  alsoFailed: string[];
  /** Why a fault survived, in words. */
  note?: string;
  /** Every test naming the requirement skipped (the profile cannot check it): no verdict on the fault either way. */
  notChecked?: true;
}

/** A legal variant: the whole suite ran against the reference with it on, and must not fail. */
interface VariantVerdict {
  variant: string;
  description: string;
  allowedBy: string;
  passed: boolean;
  tests: number;
  /** Tests that skipped with the variant on (a variant may leave a check unable to decide: never a failure). */
  skipped: number;
  failures: string[];
  /** The other variants it ran beside (its group passed as a whole); absent when it was judged on its own. */
  clearedWith?: string[];
}

/** A group of legal variants that failed together although each passed alone: the suite fails their combination. */
interface VariantGroupFailure {
  variants: string[];
  failures: string[];
}

export interface KillMatrix {
  faults: number;
  killed: number;
  killRate: number;
  wallMs: number;
  /** Failures of the clean reference in the same run (must be none). */
  cleanFailures: string[];
  verdicts: FaultVerdict[];
  /** Legal variants of the reference and whether the suite passed each one (a failure is a false alarm of the suite). */
  variants: VariantVerdict[];
  /** Variant groups that failed only together (must be none). */
  groupFailures: VariantGroupFailure[];
}

/** Verdicts from one summary of a kill-matrix run (fault runs filed as "fault:<name>" and, optionally, "conformance"). */
export function judge(
  faults: FaultSpec[],
  summary: RunSummary,
  wallMs: number,
  variants: VariantSpec[] = [],
  ranVariants: ReadonlyMap<string, readonly string[]> = new Map(),
): KillMatrix {
  const verdicts = faults.map((fault): FaultVerdict => {
    const tests = summary.tests.filter((t) => t.project === `fault:${fault.name}`);
    const failed = tests.filter((t) => t.status === "failed");
    const caughtBy = failed.filter((t) => t.requirements.includes(fault.requirement)).map((t) => `[${t.suite}] ${t.name}`);
    const killed = caughtBy.length > 0;
    const naming = tests.filter((t) => t.requirements.includes(fault.requirement));
    // Not checked: every test naming the requirement skipped, or the fault shows only on fresh users (the kill matrix
    // honours it only under another profile than the default, cli/commands/kill-matrix.ts).
    const notChecked = !killed && ((naming.length > 0 && naming.every((t) => t.status === "skipped")) || fault.freshUsers === true);
    const note = killed
      ? undefined
      : tests.length === 0
        ? `no test ran for suites ${fault.suites.join(", ")}`
        : failed.length === 0
          ? `all ${tests.length} checks of ${fault.suites.join(", ")} passed with the fault on`
          : `failures did not name ${fault.requirement}: ${failed.map((t) => t.name).join("; ")}`;
    return {
      fault: fault.name,
      requirement: fault.requirement,
      description: fault.description,
      suites: fault.suites,
      killed,
      caughtBy,
      alsoFailed: failed.filter((t) => !t.requirements.includes(fault.requirement)).map((t) => `[${t.suite}] ${t.name}`),
      ...(note ? { note } : {}),
      ...(notChecked ? { notChecked: true as const } : {}),
    };
  });
  const killed = verdicts.filter((v) => v.killed).length;
  return {
    faults: verdicts.length,
    killed,
    killRate: verdicts.length === 0 ? 1 : killed / verdicts.length,
    wallMs,
    cleanFailures: summary.tests
      .filter((t) => t.project === "conformance" && t.status === "failed")
      .map((t) => `[${t.suite}] ${t.name}: ${t.message ?? ""}`),
    verdicts: verdicts.sort((a, b) => a.fault.localeCompare(b.fault)),
    ...judgeVariants(variants, summary, ranVariants),
  };
}

/**
 * Verdicts of the legal variants, run in groups (faults/variant-groups.ts; `ranVariants`: each variant project's
 * variants, from the run plan): a variant whose group passed passed (cleared beside the others); one whose group
 * failed is judged on its own run. A failed group whose members all
 * pass alone is a failure of its own: the suite refuses a server that combines legal behaviours.
 */
function judgeVariants(
  variants: VariantSpec[],
  summary: RunSummary,
  ranVariants: ReadonlyMap<string, readonly string[]>,
): Pick<KillMatrix, "variants" | "groupFailures"> {
  const variantsOf = (project: string) => ranVariants.get(project);
  const projects = new Map<string, RunSummary["tests"]>();
  for (const test of summary.tests) {
    if (!variantsOf(test.project)) continue;
    const list = projects.get(test.project) ?? [];
    list.push(test);
    projects.set(test.project, list);
  }
  const failuresOf = (tests: RunSummary["tests"]) =>
    tests.filter((t) => t.status === "failed").map((t) => `[${t.suite}] ${t.name}: ${t.message ?? ""}`);
  const verdicts = variants.map((variant): VariantVerdict => {
    const alone = projects.get(variantProject([variant.name]));
    const group = [...projects.keys()].find((p) => p !== variantProject([variant.name]) && variantsOf(p)!.includes(variant.name));
    const groupTests = group === undefined ? undefined : projects.get(group)!;
    const groupPassed = groupTests !== undefined && groupTests.length > 0 && failuresOf(groupTests).length === 0;
    const tests = alone ?? (groupPassed ? groupTests : undefined) ?? groupTests ?? [];
    const failures = failuresOf(tests);
    // No test at all is no pass: the project did not run.
    return {
      variant: variant.name,
      description: variant.description,
      allowedBy: variant.allowedBy,
      passed: tests.length > 0 && failures.length === 0,
      tests: tests.length,
      skipped: tests.filter((t) => t.status === "skipped").length,
      failures,
      ...(alone === undefined && group !== undefined ? { clearedWith: variantsOf(group)!.filter((n) => n !== variant.name) } : {}),
    };
  });
  const groupFailures = [...projects]
    .filter(([project, tests]) => variantsOf(project)!.length > 1 && failuresOf(tests).length > 0)
    .filter(([project]) =>
      variantsOf(project)!.every((name) => projects.has(variantProject([name])) && verdicts.find((v) => v.variant === name)?.passed),
    )
    .map(([project, tests]) => ({ variants: [...variantsOf(project)!], failures: failuresOf(tests) }));
  return { variants: verdicts, groupFailures };
}

export function writeKillMatrix(reportsDir: string, matrix: KillMatrix): void {
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(join(reportsDir, "kill-matrix.json"), `${JSON.stringify(matrix, null, 2)}\n`);
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  const lines = [
    "# Kill matrix",
    "",
    `${matrix.killed} of ${matrix.faults} reference faults caught (${(matrix.killRate * 100).toFixed(1)} %); clean reference: ` +
      `${matrix.cleanFailures.length} failures; wall time ${(matrix.wallMs / 1000).toFixed(1)} s.`,
    "",
    "| fault | breaks | caught | caught by |",
    "| --- | --- | --- | --- |",
    ...matrix.verdicts.map(
      (v) =>
        `| \`${v.fault}\` | ${v.requirement} | ${v.killed ? "yes" : "**no**"} | ` +
        `${esc(v.killed ? v.caughtBy.join("<br>") : (v.note ?? ""))} |`,
    ),
    "",
  ];
  const survivors = matrix.verdicts.filter((v) => !v.killed);
  if (survivors.length > 0)
    lines.push("## Surviving faults", "", ...survivors.map((v) => `- \`${v.fault}\` (${v.requirement}): ${v.note}`), "");
  if (matrix.variants.length > 0) {
    const passed = matrix.variants.filter((v) => v.passed).length;
    lines.push(
      "## Legal variants (the suite must pass each)",
      "",
      `${passed} of ${matrix.variants.length} passed. Each is a behaviour the specification or the conventions allow; a failure ` +
        `here is a false alarm of the suite.`,
      "",
      "| variant | allowed by | passed | tests | skipped | failures |",
      "| --- | --- | --- | --- | --- | --- |",
      ...matrix.variants.map(
        (v) =>
          `| \`${v.variant}\` | ${esc(v.allowedBy)} | ${v.passed ? "yes" : "**no**"} | ${v.tests} | ${v.skipped} | ` +
          `${esc(v.failures.map((f) => f.split("\n")[0]!).join("<br>"))} |`,
      ),
      "",
      "Variants run in groups (faults/variant-groups.ts): a variant whose group passed was cleared beside the others, " +
        "each of which still showed its mark (test/variants.test.ts); a failed group was run again member by member.",
      "",
    );
    for (const g of matrix.groupFailures)
      lines.push(
        `- **Failed together, each passing alone:** ${g.variants.join(" + ")}: ${esc(g.failures.map((f) => f.split("\n")[0]!).join("; "))}`,
      );
  }
  writeFileSync(join(reportsDir, "kill-matrix.md"), lines.join("\n"));
}

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "../../harness/profile/config-error.js";
import { judge, writeKillMatrix } from "../../report/kill-matrix.js";
import { loadTargetsFile, selectProfile } from "../../harness/profile/profile.js";
import { SummaryReporter } from "../../report/reporters/summary-reporter.js";
import {
  CONFORMANCE_PROJECT,
  FAULT_RUNS_PROJECT,
  faultProject,
  profilePlan,
  type FaultRun,
  type ProjectPlan,
  type RunPlan,
} from "../../harness/run/run-plan.js";
import { testNamePattern } from "../../catalogue/selection.js";
import { suiteTitles } from "../../catalogue/test-titles.js";
import type { FaultSpec } from "../../faults/fault.js";
import { groupSuites, variantGroups, variantProject } from "../../faults/variant-groups.js";
import type { VariantSpec } from "../../faults/variant-spec.js";
import { parseFlags } from "../args.js";
import { PACKAGE_ROOT, runVitest } from "../vitest-run.js";

/**
 * conformance kill-matrix [--fault NAME…] [--variant NAME…] [--reports DIR]: the suite against the clean
 * reference, against the reference with each fault on, and with each legal variant on (one vitest project
 * each, all in one process). Exit 0 when every fault is caught, and the clean reference and every variant pass.
 * Naming faults runs only those (and the variants named, if any); naming only variants runs only those;
 * --only faults|variants runs one half of the matrix.
 */
export async function killMatrixCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("kill-matrix", args, {
    fault: { type: "string", multiple: true },
    variant: { type: "string", multiple: true },
    only: { type: "string" },
    reports: { type: "string" },
    "no-clean": { type: "boolean" },
  });
  if (positionals.length > 0) throw new ConfigError(`conformance kill-matrix: unexpected argument "${positionals[0]}"`);
  const { faultCatalogue, variantCatalogue } = await import("../../faults/catalogue.js");
  const catalogue = faultCatalogue();
  const unknown = (values.fault ?? []).find((name) => !catalogue.some((f) => f.name === name));
  if (unknown) throw new ConfigError(`conformance kill-matrix: unknown fault "${unknown}" (see: conformance faults)`);
  const unknownVariant = (values.variant ?? []).find((name) => !variantCatalogue().some((v) => v.name === name));
  if (unknownVariant) throw new ConfigError(`conformance kill-matrix: unknown variant "${unknownVariant}" (see: conformance variants)`);
  if (values.only !== undefined && !["faults", "variants"].includes(values.only)) {
    throw new ConfigError(`conformance kill-matrix: --only expects faults or variants, got "${values.only}"`);
  }
  const faults =
    values.only === "variants"
      ? []
      : values.fault
        ? catalogue.filter((f) => values.fault!.includes(f.name))
        : values.variant
          ? []
          : catalogue;
  const variants =
    values.only === "faults"
      ? []
      : values.variant
        ? variantCatalogue().filter((v) => values.variant!.includes(v.name))
        : values.fault
          ? []
          : variantCatalogue();
  const reportsDir = resolve(values.reports ?? "reports");

  // Legal variants run in groups (faults/variant-groups.ts); a group that fails is run again member by member.
  const groups = variantGroups(variants).map((g) => g.map((v) => v.name));
  const plan = killMatrixPlan(reportsDir, { clean: !values["no-clean"], faults, groups, catalogue: variants });
  const runs = plan.projects.get(FAULT_RUNS_PROJECT)?.faultRuns ?? [];
  const summary = new SummaryReporter({
    reportsDir,
    target: "reference (kill matrix)",
    seed: () => undefined,
    root: PACKAGE_ROOT,
    quiet: true,
    fileName: "kill-matrix-summary.json",
    // A fault run's file stands for the fault and the suite it loads (the judge reads "fault:<name>").
    attribute: (moduleId) => {
      const run = runs.find((r) => r.file === moduleId);
      return run && { project: faultProject(run.fault), suite: run.suite };
    },
  });
  const started = Date.now();
  writeFaultRunFiles(reportsDir, runs);
  try {
    await runVitest({ plan, files: [], reporters: [summary] });
  } finally {
    rmSync(faultRunsDir(reportsDir), { recursive: true, force: true });
  }
  if (!summary.summary) return 1;
  // Which variants each project ran, from the plans (the project names are for display).
  const ranVariants = new Map([...plan.projects].flatMap(([name, p]) => (p.variants ? [[name, p.variants] as const] : [])));
  const failedGroups = groups.filter(
    (g) => g.length > 1 && summary.summary!.tests.some((t) => t.project === variantProject(g) && t.status === "failed"),
  );
  if (failedGroups.length > 0) {
    const singles = failedGroups.flat().map((name) => [name]);
    process.stdout.write(
      `kill matrix: ${failedGroups.length} variant group(s) failed; running their ${singles.length} variants one by one\n`,
    );
    const alone = killMatrixPlan(reportsDir, { clean: false, faults: [], groups: singles, catalogue: variants });
    const again = new SummaryReporter({
      reportsDir,
      target: "reference (kill matrix, variants alone)",
      seed: () => undefined,
      root: PACKAGE_ROOT,
      quiet: true,
      fileName: "kill-matrix-variants-summary.json",
    });
    for (const [name, p] of alone.projects) if (p.variants) ranVariants.set(name, p.variants);
    await runVitest({ plan: alone, files: [], reporters: [again] });
    if (!again.summary) return 1;
    summary.summary.tests.push(...again.summary.tests);
    summary.summary.errors.push(...again.summary.errors);
  }
  if (!summary.summary) return 1;
  const matrix = judge(faults, summary.summary, Date.now() - started, variants, ranVariants);
  writeKillMatrix(reportsDir, matrix);
  for (const v of matrix.verdicts.filter((x) => !x.killed)) process.stdout.write(`survived: ${v.fault} (${v.requirement}): ${v.note}\n`);
  for (const f of matrix.cleanFailures) process.stdout.write(`clean reference failed: ${f.split("\n")[0]}\n`);
  const flagged = matrix.variants.filter((v) => !v.passed);
  for (const v of flagged)
    process.stdout.write(`legal variant failed: ${v.variant}: ${v.failures.map((f) => f.split("\n")[0]).join("; ")}\n`);
  for (const g of matrix.groupFailures)
    process.stdout.write(
      `legal variants failed together, each passing alone: ${g.variants.join(" + ")}: ` +
        `${g.failures.map((f) => f.split("\n")[0]).join("; ")}\n`,
    );
  process.stdout.write(
    `kill matrix: ${matrix.killed} of ${matrix.faults} faults caught, clean reference ${matrix.cleanFailures.length} failures, ` +
      `${matrix.variants.length - flagged.length} of ${matrix.variants.length} legal variants passed, ` +
      `${(matrix.wallMs / 1000).toFixed(1)} s (${join(reportsDir, "kill-matrix.md")})\n`,
  );
  const clean = matrix.cleanFailures.length === 0 && flagged.length === 0 && matrix.groupFailures.length === 0;
  return matrix.killed === matrix.faults && clean && summary.summary.errors.length === 0 ? 0 : 1;
}

/**
 * The kill matrix's run plan: the clean reference ("conformance", unless left out), one project of fault runs (per
 * fault and suite it names, a generated file: the suite's tests proving the fault's requirement, against a reference
 * with the fault on, from the fault's own target profile: "reference" unless it names one, e.g. reference-signed) and
 * one per group of legal variants (the suites any member can change, all when one names none). Every profile comes
 * from the package's own targets file, read once here.
 */
function killMatrixPlan(
  reportsDir: string,
  options: { clean: boolean; faults: FaultSpec[]; groups: string[][]; catalogue: VariantSpec[] },
): RunPlan {
  const targetsFile = join(PACKAGE_ROOT, "targets.yaml");
  const targets = loadTargetsFile(targetsFile);
  const reference = profilePlan({ targetsFile, profile: selectProfile(targets, "reference"), reportsDir });
  const base = reference.projects.get(CONFORMANCE_PROJECT)!.profile;
  const projects = new Map<string, ProjectPlan>(options.clean ? [[CONFORMANCE_PROJECT, { profile: base }]] : []);
  if (options.faults.length > 0) {
    const titles = suiteTitles();
    const dir = faultRunsDir(reportsDir);
    const faultRuns: FaultRun[] = options.faults.flatMap((f) =>
      f.suites.map((suite) => ({
        fault: f.name,
        suite,
        file: join(dir, f.name, `${suite}.test.ts`),
        profile: f.target ? selectProfile(targets, f.target) : base,
      })),
    );
    // One test-name pattern for the project: each fault run loads its suite inside a describe named for the fault
    // (harness/run/fault-run.ts), and each fault's part picks the tests proving its requirement.
    const parts = options.faults.map((f) => {
      const proving = testNamePattern(
        { requirementIds: [f.requirement] },
        titles.filter((t) => f.suites.includes(t.suite)),
      )!.replace(/^\^/, "");
      return `${escapeRegExp(faultProject(f.name))}(?=\\s)${proving}`;
    });
    projects.set(FAULT_RUNS_PROJECT, { profile: base, faultRuns, dir, pattern: `^(?:${parts.join("|")})` });
  }
  const specs = (names: string[]) => names.map((name) => options.catalogue.find((v) => v.name === name)!);
  for (const names of options.groups) {
    const suites = groupSuites(specs(names));
    projects.set(variantProject(names), { profile: base, ...(suites ? { suites } : {}), variants: names });
  }
  return { ...reference, projects };
}

/** Where the fault runs' generated test files live for the length of a kill-matrix run. */
const faultRunsDir = (reportsDir: string) => join(reportsDir, ".fault-runs");

/** Each fault run's test file: it starts the reference with its fault on and loads its suite (harness/run/fault-run.ts). */
function writeFaultRunFiles(reportsDir: string, runs: readonly FaultRun[]): void {
  rmSync(faultRunsDir(reportsDir), { recursive: true, force: true });
  const module = JSON.stringify(join(PACKAGE_ROOT, "harness/run/fault-run.ts"));
  for (const run of runs) {
    mkdirSync(dirname(run.file), { recursive: true });
    writeFileSync(
      run.file,
      `// Written by conformance kill-matrix for one fault run; removed when the matrix ends.\n` +
        `import { runFaultSuite } from ${module};\n` +
        `await runFaultSuite(${JSON.stringify(run.fault)}, ${JSON.stringify(run.suite)});\n`,
    );
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

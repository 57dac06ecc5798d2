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
  VARIANT_RUNS_PROJECT,
  type MatrixRun,
  type ProjectPlan,
  type RunPlan,
} from "../../harness/run/run-plan.js";
import { testNamePattern } from "../../catalogue/selection.js";
import { suiteFileNames, suiteTitles } from "../../catalogue/test-titles.js";
import type { FaultSpec } from "../../faults/fault.js";
import { groupSuites, variantGroups, variantProject } from "../../faults/variant-groups.js";
import type { VariantSpec } from "../../faults/variant-spec.js";
import { parseFlags } from "../args.js";
import { PACKAGE_ROOT, runVitest } from "../vitest-run.js";
import { escapeRegExp } from "../../harness/escape-reg-exp.js";

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
    target: { type: "string" },
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
  // --target NAME: the fault runs against another embedded profile of the package (reference-shared: no provisioning);
  // faults that name a profile of their own (strict, signed) belong to that profile and are left out of such a pass.
  const target = values.target;
  if (target !== undefined) {
    const known = loadTargetsFile(join(PACKAGE_ROOT, "targets.yaml")).profiles[target];
    if (!known?.embedded) throw new ConfigError(`conformance kill-matrix: --target "${target}" is not an embedded profile of targets.yaml`);
  }

  // Legal variants run in groups (faults/variant-groups.ts); a group that fails is run again member by member.
  const groups = variantGroups(variants).map((g) => g.map((v) => v.name));
  const planned = target === undefined ? faults : faults.filter((f) => f.target === undefined);
  const plan = killMatrixPlan(reportsDir, {
    clean: !values["no-clean"],
    faults: planned,
    groups,
    catalogue: variants,
    ...(target ? { base: target } : {}),
  });
  const summary = new SummaryReporter({
    reportsDir,
    target: "reference (kill matrix)",
    seed: () => undefined,
    root: PACKAGE_ROOT,
    quiet: true,
    fileName: "kill-matrix-summary.json",
    attribute: standsFor(plan),
  });
  const started = Date.now();
  await runMatrix(reportsDir, plan, summary);
  if (!summary.summary) return 1;
  // Which variants each group's runs had on (the labels are for display).
  const ranVariants = new Map(groups.map((g) => [variantProject(g), g] as const));
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
      attribute: standsFor(alone),
    });
    for (const single of singles) ranVariants.set(variantProject(single), single);
    await runMatrix(reportsDir, alone, again);
    if (!again.summary) return 1;
    summary.summary.tests.push(...again.summary.tests);
    summary.summary.errors.push(...again.summary.errors);
  }
  if (!summary.summary) return 1;
  const matrix = judge(planned, summary.summary, Date.now() - started, variants, ranVariants);
  writeKillMatrix(reportsDir, matrix);
  // Under another profile a fault whose requirement that profile cannot check (every test naming it skipped) is no survivor.
  const survived = matrix.verdicts.filter((x) => !x.killed && !(target && x.notChecked));
  for (const v of survived) process.stdout.write(`survived: ${v.fault} (${v.requirement}): ${v.note}\n`);
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
  return survived.length === 0 && clean && summary.summary.errors.length === 0 ? 0 : 1;
}

/**
 * The kill matrix's run plan: the clean reference ("conformance", unless left out), one project of fault runs (per
 * fault and suite it names, a generated file: the suite's tests proving the fault's requirement, against a reference
 * with the fault on, from the fault's own target profile: "reference" unless it names one, e.g. reference-signed) and
 * one of variant runs (per group of legal variants, every suite any member can change, all when one names none). Every
 * profile comes from the package's own targets file, read once here.
 */
function killMatrixPlan(
  reportsDir: string,
  options: { clean: boolean; faults: FaultSpec[]; groups: string[][]; catalogue: VariantSpec[]; base?: string },
): RunPlan {
  const targetsFile = join(PACKAGE_ROOT, "targets.yaml");
  const targets = loadTargetsFile(targetsFile);
  const reference = profilePlan({ targetsFile, profile: selectProfile(targets, options.base ?? "reference"), reportsDir });
  const base = reference.projects.get(CONFORMANCE_PROJECT)!.profile;
  const projects = new Map<string, ProjectPlan>(options.clean ? [[CONFORMANCE_PROJECT, { profile: base }]] : []);
  // Fewer property runs (the seed stays the profile's). fast-check draws the same runs in the same order for a seed, so
  // the first ten are a prefix of the default 25: a fault caught here is caught by a default run too. (A variant is
  // cleared on those ten runs only: tolerance, not depth.)
  const propertyRuns = Math.min(base.propertyRuns, KILL_MATRIX_PROPERTY_RUNS);
  const dir = matrixRunsDir(reportsDir);
  if (options.faults.length > 0) {
    const titles = suiteTitles();
    const matrixRuns: MatrixRun[] = options.faults.flatMap((f) =>
      f.suites.map((suite) => ({
        label: faultProject(f.name),
        suite,
        file: join(dir, "faults", f.name, `${suite}.test.ts`),
        profile: { ...(f.target ? selectProfile(targets, f.target) : base), embedded: true, faults: [f.name], propertyRuns },
      })),
    );
    // One test-name pattern for the project: each run loads its suite inside a describe named by its label
    // (harness/run/matrix-run.ts), and each fault's part picks the tests proving its requirement.
    const parts = options.faults.map((f) => {
      const proving = testNamePattern(
        { requirementIds: [f.requirement] },
        titles.filter((t) => f.suites.includes(t.suite)),
      )!.replace(/^\^/, "");
      return `${escapeRegExp(faultProject(f.name))}(?=\\s)${proving}`;
    });
    projects.set(FAULT_RUNS_PROJECT, { profile: base, matrixRuns, dir: join(dir, "faults"), pattern: `^(?:${parts.join("|")})` });
  }
  if (options.groups.length > 0) {
    const all = suiteFileNames();
    const specs = (names: string[]) => names.map((name) => options.catalogue.find((v) => v.name === name)!);
    const matrixRuns: MatrixRun[] = options.groups.flatMap((names, i) =>
      (groupSuites(specs(names)) ?? all).map((suite) => ({
        label: variantProject(names),
        suite,
        file: join(dir, "variants", String(i), `${suite}.test.ts`),
        profile: { ...base, embedded: true, variants: names, propertyRuns },
      })),
    );
    projects.set(VARIANT_RUNS_PROJECT, { profile: base, matrixRuns, dir: join(dir, "variants") });
  }
  return { ...reference, projects };
}

/** Property runs of the kill matrix's runs (the clean project keeps the profile's). */
const KILL_MATRIX_PROPERTY_RUNS = 10;

/** What each generated run's file stands for in the summary: its label and the suite it loads (the judge reads both). */
function standsFor(plan: RunPlan): (moduleId: string) => { project: string; suite: string } | undefined {
  const runs = new Map([...plan.projects.values()].flatMap((p) => p.matrixRuns ?? []).map((r) => [r.file, r]));
  return (moduleId) => {
    const run = runs.get(moduleId);
    return run && { project: run.label, suite: run.suite };
  };
}

/** One vitest start of a matrix plan, its runs' files written before and removed after. */
async function runMatrix(reportsDir: string, plan: RunPlan, summary: SummaryReporter): Promise<void> {
  writeMatrixRunFiles(
    reportsDir,
    [...plan.projects.values()].flatMap((p) => p.matrixRuns ?? []),
  );
  try {
    await runVitest({ plan, files: [], reporters: [summary] });
  } finally {
    rmSync(matrixRunsDir(reportsDir), { recursive: true, force: true });
  }
}

/** Where the runs' generated test files live for the length of a kill-matrix start. */
const matrixRunsDir = (reportsDir: string) => join(reportsDir, ".kill-matrix-runs");

/** Each run's test file: it starts the reference with its fault or variants on and loads its suite (harness/run/matrix-run.ts). */
function writeMatrixRunFiles(reportsDir: string, runs: readonly MatrixRun[]): void {
  rmSync(matrixRunsDir(reportsDir), { recursive: true, force: true });
  const module = JSON.stringify(join(PACKAGE_ROOT, "harness/run/matrix-run.ts"));
  for (const run of runs) {
    mkdirSync(dirname(run.file), { recursive: true });
    writeFileSync(
      run.file,
      `// Written by conformance kill-matrix for one run; removed when the matrix ends.\n` +
        `import { runMatrixSuite } from ${module};\n` +
        `await runMatrixSuite(${JSON.stringify(run.label)}, ${JSON.stringify(run.suite)});\n`,
    );
  }
}

import { join, resolve } from "node:path";
import { ConfigError } from "../harness/config-error.js";
import { judge, writeKillMatrix } from "../harness/kill-matrix.js";
import { SummaryReporter } from "../harness/reporters/summary-reporter.js";
import { RUN_ENV } from "../harness/run-env.js";
import { groupSuites, variantGroups, variantProject } from "../reference/variant-groups.js";
import type { VariantSpec } from "../reference/variant-spec.js";
import { parseFlags } from "./args.js";
import { PACKAGE_ROOT, runVitest } from "./vitest-run.js";

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
  const { faultCatalogue, variantCatalogue } = await import("../reference/server.js");
  const catalogue = faultCatalogue();
  const unknown = (values.fault ?? []).find((name) => !catalogue.some((f) => f.name === name));
  if (unknown) throw new ConfigError(`conformance kill-matrix: unknown fault "${unknown}" (see: conformance faults)`);
  const unknownVariant = (values.variant ?? []).find((name) => !variantCatalogue().some((v) => v.name === name));
  if (unknownVariant) throw new ConfigError(`conformance kill-matrix: unknown variant "${unknownVariant}" (see: conformance variants)`);
  if (values.only !== undefined && !["faults", "variants"].includes(values.only)) {
    throw new ConfigError(`conformance kill-matrix: --only expects faults or variants, got "${values.only}"`);
  }
  const faults = values.only === "variants" ? [] : values.fault ? catalogue.filter((f) => values.fault!.includes(f.name)) : values.variant ? [] : catalogue;
  const variants =
    values.only === "faults" ? [] : values.variant ? variantCatalogue().filter((v) => values.variant!.includes(v.name)) : values.fault ? [] : variantCatalogue();
  const reportsDir = resolve(values.reports ?? "reports");

  // A fault with a `target` runs against that profile (e.g. reference-signed), the others against "reference".
  process.env.CONFORMANCE_KILL_PLAN = JSON.stringify(faults.map((f) => ({ fault: f.name, suites: f.suites, requirement: f.requirement, ...(f.target ? { target: f.target } : {}) })));
  // Legal variants run in groups (reference/variant-groups.ts); a group that fails is run again member by member.
  const groups = variantGroups(variants).map((g) => g.map((v) => v.name));
  setVariantPlan(groups, variants);
  process.env[RUN_ENV.targets] = join(PACKAGE_ROOT, "targets.yaml");
  process.env[RUN_ENV.target] = "reference";
  process.env[RUN_ENV.reports] = reportsDir;
  const summary = new SummaryReporter({ reportsDir, target: "reference (kill matrix)", seed: () => undefined, root: PACKAGE_ROOT, quiet: true, fileName: "kill-matrix-summary.json" });
  const started = Date.now();
  await runVitest({
    projects: [...(values["no-clean"] ? [] : ["conformance"]), ...faults.map((f) => `fault:${f.name}`), ...groups.map(variantProject)],
    files: [],
    reporters: [summary],
  });
  if (!summary.summary) return 1;
  const failedGroups = groups.filter((g) => g.length > 1 && summary.summary!.tests.some((t) => t.project === variantProject(g) && t.status === "failed"));
  if (failedGroups.length > 0) {
    const singles = failedGroups.flat().map((name) => [name]);
    process.stdout.write(`kill matrix: ${failedGroups.length} variant group(s) failed; running their ${singles.length} variants one by one\n`);
    process.env.CONFORMANCE_KILL_PLAN = "[]";
    setVariantPlan(singles, variants);
    const again = new SummaryReporter({ reportsDir, target: "reference (kill matrix, variants alone)", seed: () => undefined, root: PACKAGE_ROOT, quiet: true, fileName: "kill-matrix-variants-summary.json" });
    await runVitest({ projects: singles.map(variantProject), files: [], reporters: [again] });
    if (!again.summary) return 1;
    summary.summary.tests.push(...again.summary.tests);
    summary.summary.errors.push(...again.summary.errors);
  }
  if (!summary.summary) return 1;
  const matrix = judge(faults, summary.summary, Date.now() - started, variants);
  writeKillMatrix(reportsDir, matrix);
  for (const v of matrix.verdicts.filter((x) => !x.killed)) process.stdout.write(`survived: ${v.fault} (${v.requirement}): ${v.note}\n`);
  for (const f of matrix.cleanFailures) process.stdout.write(`clean reference failed: ${f.split("\n")[0]}\n`);
  const flagged = matrix.variants.filter((v) => !v.passed);
  for (const v of flagged) process.stdout.write(`legal variant failed: ${v.variant}: ${v.failures.map((f) => f.split("\n")[0]).join("; ")}\n`);
  for (const g of matrix.groupFailures) process.stdout.write(`legal variants failed together, each passing alone: ${g.variants.join(" + ")}: ${g.failures.map((f) => f.split("\n")[0]).join("; ")}\n`);
  process.stdout.write(
    `kill matrix: ${matrix.killed} of ${matrix.faults} faults caught, clean reference ${matrix.cleanFailures.length} failures, ` +
      `${matrix.variants.length - flagged.length} of ${matrix.variants.length} legal variants passed, ${(matrix.wallMs / 1000).toFixed(1)} s (${join(reportsDir, "kill-matrix.md")})\n`,
  );
  const clean = matrix.cleanFailures.length === 0 && flagged.length === 0 && matrix.groupFailures.length === 0;
  return matrix.killed === matrix.faults && clean && summary.summary.errors.length === 0 ? 0 : 1;
}

/** Hands vitest.config.ts the variant projects to make: each group's variants and the suites it runs. */
function setVariantPlan(groups: string[][], catalogue: VariantSpec[]): void {
  const specs = (names: string[]) => names.map((name) => catalogue.find((v) => v.name === name)!);
  process.env.CONFORMANCE_VARIANT_PLAN = JSON.stringify(
    groups.map((names) => {
      const suites = groupSuites(specs(names));
      return { variants: names, ...(suites ? { suites } : {}) };
    }),
  );
}

import { basename, join } from "node:path";
import { loadTargetsFile, selectProfile } from "../../harness/profile/profile.js";
import { requirementIdsOf } from "../../catalogue/requirements.js";
import { CONFORMANCE_PROJECT, profilePlan, withRunPlan } from "../../harness/run/run-plan.js";
import { SUITES_DIR, suiteTitles, type SuiteTitle } from "../../catalogue/test-titles.js";
import { CONCURRENT_FILES, PACKAGE_ROOT } from "../vitest-run.js";
import { bootstrapForGlobalSetup } from "../../harness/run/bootstrap-run.js";

/**
 * The test titles as the runner makes them: vitest collects the suite files (against the embedded reference's
 * profile, whose values some rows read), so a test.for row's title has its values filled in, as a run reports it.
 * Falls back to the titles read from the sources when collection fails (the listing never depends on a target).
 */
export async function collectTitles(suites: string[]): Promise<SuiteTitle[]> {
  const statics = suiteTitles();
  try {
    const targetsFile = join(PACKAGE_ROOT, "targets.yaml");
    const plan = profilePlan({ targetsFile, profile: selectProfile(loadTargetsFile(targetsFile), "reference"), reportsDir: "reports" });
    // The reference starts while vitest loads (the global setup takes it from the plan); it stops after collection.
    const stopReference = bootstrapForGlobalSetup(plan, {
      seed: plan.seed ?? 0,
      reportsDir: plan.reportsDir,
      workers: CONCURRENT_FILES,
      logExchanges: false,
    });
    try {
      return await withRunPlan(plan, () => collect(suites, statics));
    } finally {
      await stopReference();
    }
  } catch {
    return statics;
  }
}

/** vitest collects the suite files of the "conformance" project of the plan handed over. */
async function collect(suites: string[], statics: SuiteTitle[]): Promise<SuiteTitle[]> {
  const { createVitest } = await import("vitest/node");
  const vitest = await createVitest(
    "test",
    {
      root: PACKAGE_ROOT,
      config: join(PACKAGE_ROOT, "vitest.config.ts"),
      project: [CONFORMANCE_PROJECT],
      watch: false,
      maxWorkers: CONCURRENT_FILES,
      includeTaskLocation: true,
      reporters: [],
    },
    {},
  );
  try {
    const files = suites.map((s) => join(SUITES_DIR, `${s}.test.ts`));
    const result = await vitest.collect(files);
    if (result.unhandledErrors.length > 0 || result.testModules.some((m) => !m.ok())) return statics;
    const titles: SuiteTitle[] = [];
    // In the order of the suite files (several workers collect at once: they finish in any order).
    const order = [...new Set(statics.map((t) => t.suite))];
    const modules = [...result.testModules].sort(
      (a, b) => order.indexOf(basename(a.moduleId, ".test.ts")) - order.indexOf(basename(b.moduleId, ".test.ts")),
    );
    for (const module of modules) {
      const suite = basename(module.moduleId, ".test.ts");
      for (const test of module.children.allTests()) {
        titles.push({
          suite,
          kind: "test",
          title: test.name,
          requirements: requirementIdsOf(test.name, test.tags),
          tags: test.tags,
          dynamic: false,
          line: test.location?.line ?? 0,
        });
      }
    }
    // Describe titles stay as written (listed for the requirement scan, not printed).
    return [...titles, ...statics.filter((t) => t.kind === "describe")];
  } finally {
    await vitest.close();
  }
}

import { basename, join } from "node:path";
import { requirementIdsOf } from "../harness/requirements.js";
import { RUN_ENV } from "../harness/run-env.js";
import { SUITES_DIR, suiteTitles, type SuiteTitle } from "../harness/test-titles.js";
import { PACKAGE_ROOT } from "./vitest-run.js";

/**
 * The test titles as the runner makes them: vitest collects the suite files (against the embedded reference's
 * profile, whose values some rows read), so a test.for row's title has its values filled in, as a run reports it.
 * Falls back to the titles read from the sources when collection fails (the listing never depends on a target).
 */
export async function collectTitles(suites: string[]): Promise<SuiteTitle[]> {
  const statics = suiteTitles();
  try {
    process.env[RUN_ENV.targets] = join(PACKAGE_ROOT, "targets.yaml");
    process.env[RUN_ENV.target] = "reference";
    const { createVitest } = await import("vitest/node");
    const vitest = await createVitest(
      "test",
      { root: PACKAGE_ROOT, config: join(PACKAGE_ROOT, "vitest.config.ts"), project: ["conformance"], watch: false, includeTaskLocation: true, reporters: [] },
      {},
    );
    try {
      const files = suites.map((s) => join(SUITES_DIR, `${s}.test.ts`));
      const result = await vitest.collect(files);
      if (result.unhandledErrors.length > 0 || result.testModules.some((m) => !m.ok())) return statics;
      const titles: SuiteTitle[] = [];
      for (const module of result.testModules) {
        const suite = basename(module.moduleId, ".test.ts");
        for (const test of module.children.allTests()) {
          titles.push({ suite, kind: "test", title: test.name, requirements: requirementIdsOf(test.name), dynamic: false, line: test.location?.line ?? 0 });
        }
      }
      // Describe titles stay as written (listed for the requirement scan, not printed).
      return [...titles, ...statics.filter((t) => t.kind === "describe")];
    } finally {
      await vitest.close();
    }
  } catch {
    return statics;
  }
}

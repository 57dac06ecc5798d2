import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Projects: `conformance` aims the suites at a target (harness/global-setup.ts); `selftest` is the
// project's own tests. For the kill matrix, CONFORMANCE_KILL_PLAN adds one project per reference fault
// ("fault:<name>", only the suites that can see it), so the whole matrix runs in one vitest process.
// Reporters for conformance runs are added by the CLI.

const conformance = (name: string, include: string[], only?: RegExp): TestProjectInlineConfiguration => ({
  test: {
    name,
    include,
    ...(only ? { testNamePattern: only } : {}),
    globalSetup: ["harness/global-setup.ts"],
    setupFiles: ["harness/setup-requirements.ts", "harness/weather-setup.ts"],
    pool: "threads",
    // Suites keep no module state but the per-target cache in harness/target.ts: reusing workers saves
    // re-importing undici, ajv and fast-check for every file.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

// `target` (optional) is read by harness/global-setup.ts: the profile that fault's server is built from.
const killPlan = JSON.parse(process.env.CONFORMANCE_KILL_PLAN ?? "[]") as { fault: string; suites: string[]; requirement: string; target?: string }[];
// Legal variants of the reference, in groups ("variant:<name>+<name>…", reference/variant-groups.ts): the suites
// any member can change (all when one names none) run, and nothing may fail.
const variantPlan = JSON.parse(process.env.CONFORMANCE_VARIANT_PLAN ?? "[]") as { variants: string[]; suites?: string[] }[];

/**
 * The kill matrix is the longest self-test by far (minutes, on both cores): started first, the other self-test
 * files fill the second worker beside it instead of waiting in line (npm test stays within 10 minutes on 2 cores).
 */
class KillMatrixFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => /kill-matrix\.test\.ts$/.test(f.moduleId);
    return [...sorted.filter(first), ...sorted.filter((f) => !first(f))];
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: KillMatrixFirst },
    experimental: { fsModuleCache: true },
    projects: [
      conformance("conformance", ["suites/**/*.test.ts"]),
      // A fault is caught when a test naming its requirement fails, so only those tests need to run.
      ...killPlan.map((entry) =>
        conformance(
          `fault:${entry.fault}`,
          entry.suites.map((s) => `suites/${s}.test.ts`),
          new RegExp(`(?:^|\\s)${entry.requirement}(?=\\s)`),
        ),
      ),
      ...variantPlan.map(({ variants, suites }) =>
        conformance(`variant:${variants.join("+")}`, suites ? suites.map((s) => `suites/${s}.test.ts`) : ["suites/**/*.test.ts"]),
      ),
      {
        test: {
          name: "selftest",
          include: ["test/**/*.test.ts"],
          pool: "forks",
          // Two files at once on 2 cores: most self-tests wait on a child process or a server, not on the CPU.
          maxWorkers: 2,
          testTimeout: 300_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

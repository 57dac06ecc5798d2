import { accessSync, constants, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { PROFILE_DEFAULTS } from "./harness/profile/profile.js";
import { plannedProjects, type ProjectShape } from "./harness/run/run-plan.js";
import { REQUIREMENT_IDS } from "./catalogue/requirement-ids.js";
import { suiteRank } from "./harness/run/suite-order.js";

// Projects: `conformance` aims the suites at a target (harness/run/global-setup.ts); `selftest` is the
// project's own tests. The run plan the CLI hands over (harness/run/run-plan.ts) names the conformance projects: for
// the kill matrix one of fault runs ("faults": per fault and suite a generated file, only the tests proving the
// fault's requirement) and one of variant runs ("variants": per group of legal variants and suite any member can
// change, a generated file), so the whole matrix runs in one vitest process. Started directly, there is one: `conformance`.
// Reporters for conformance runs are added by the CLI.

const conformance = (name: string, plan: ProjectShape): TestProjectInlineConfiguration => ({
  test: {
    name,
    // The kill matrix's runs are test files it generates, each loading one suite (harness/run/matrix-run.ts).
    ...(plan.dir
      ? { dir: plan.dir, include: ["**/*.test.ts"] }
      : { include: plan.suites ? plan.suites.map((s) => `suites/${s}.test.ts`) : ["suites/**/*.test.ts"] }),
    // A fault is caught when a test proving its requirement fails, so only those tests need to run.
    ...(plan.pattern ? { testNamePattern: new RegExp(plan.pattern) } : {}),
    // A test's tags are the requirement IDs it proves besides its title's (docs/architecture.md): an ID the
    // catalogue does not know is no tag, and fails the file's collection.
    tags: REQUIREMENT_IDS.map((name) => ({ name })),
    globalSetup: ["harness/run/global-setup.ts"],
    setupFiles: [
      "harness/setup/allure-off-setup.ts",
      "harness/setup/test-scope-setup.ts",
      "harness/setup/setup-requirements.ts",
      "harness/setup/weather-setup.ts",
    ],
    pool: "threads",
    // Suites keep no module state but the per-target cache in harness/run/target.ts: reusing workers saves
    // re-importing undici, ajv and fast-check for every file.
    isolate: false,
    // Tests of a file marked describe.concurrent (each touching only its own data) run side by side, at most the
    // profile's `concurrency` at once; each attempt keeps its own scope (harness/run/test-scope.ts).
    maxConcurrency: plan.profile?.concurrency ?? PROFILE_DEFAULTS.concurrency,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

/**
 * Conformance runs start their suites in a fixed order, the longest first (harness/run/suite-order.ts). Of the self-tests
 * the kill matrix is the longest by far (minutes, on both cores): started first, the other self-test files fill the
 * second worker beside it instead of waiting in line (npm test stays within 10 minutes on 2 cores). Other files keep
 * vitest's order (the kill matrix's generated files: by their last durations).
 */
class RunOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => (/kill-matrix\.test\.ts$/.test(f.moduleId) ? -1 : suiteRank(f.moduleId));
    // Array.prototype.sort is stable: files of one rank stay in vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * vitest keeps the TypeScript it transformed for the test workers on disk (keyed by each file's content, the config and
 * the lockfile), so a run does not transform the suites and the harness again: about a second of CPU per run, on the
 * cores the checks need. Only where the folder can be written (an installation may be read-only): a write that fails
 * would fail the test file that needed it.
 */
function moduleCache(): { fsModuleCache: boolean; fsModuleCachePath?: string } {
  const dir = fileURLToPath(new URL("node_modules/.experimental-vitest-cache", import.meta.url));
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return { fsModuleCache: true, fsModuleCachePath: dir };
  } catch {
    return { fsModuleCache: false };
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: RunOrder },
    experimental: moduleCache(),
    projects: [
      ...[...plannedProjects()].map(([name, plan]) => conformance(name, plan)),
      {
        test: {
          name: "selftest",
          include: ["test/**/*.test.ts"],
          // One temporary folder per run, removed at its end (test/support/temp-root.ts).
          globalSetup: ["test/support/temp-root.ts"],
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

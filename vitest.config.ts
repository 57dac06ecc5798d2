import { defineConfig } from "vitest/config";

// Two projects: `conformance` aims the suites at a target (see harness/global-setup.ts);
// `selftest` is the project's own tests. Reporters for conformance runs are added by the CLI.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "conformance",
          include: ["suites/**/*.test.ts"],
          globalSetup: ["harness/global-setup.ts"],
          setupFiles: ["harness/setup-requirements.ts"],
          pool: "threads",
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "selftest",
          include: ["test/**/*.test.ts"],
          pool: "forks",
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

// Lint: the recommended JS and TypeScript rules, type-aware where it catches real bugs (floating promises).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "reports/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  { files: ["**/*.js"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
  // Rooms by role (docs/architecture.md, "Where things live"): what each folder may import at run time.
  // Type-only imports may cross (a type costs nothing at run time); everything else follows these arrows.
  ...rooms({
    "harness/**": ["cli", "report", "suites", "test", "scripts", "faults"],
    "catalogue/**": ["cli", "report", "suites", "test", "scripts", "reference", "generators", "faults"],
    "report/**": ["cli", "suites", "test", "scripts"],
    "faults/**": ["harness", "catalogue", "cli", "report", "suites", "test", "scripts", "generators", "reference"],
    "reference/**": ["harness", "catalogue", "cli", "report", "suites", "test", "scripts", "generators"],
    "generators/**": ["cli", "report", "test", "scripts", "reference", "faults"],
    "suites/**": ["cli", "report", "test", "scripts", "reference", "faults"],
    "cli/**": ["suites", "test", "scripts"],
  }),
);

/** One no-restricted-imports rule per folder: the top-level folders its files may not import from. */
function rooms(forbidden) {
  return Object.entries(forbidden).map(([files, folders]) => ({
    files: [files.replace("/**", "/**/*.ts")],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: folders.map((folder) => ({
            group: [`**/${folder}/*`, `**/${folder}/**`, `!**/test-data/**`],
            message: `${files.split("/")[0]}/ does not import ${folder}/ at run time (docs/architecture.md, "Where things live")`,
            allowTypeImports: true,
          })),
        },
      ],
    },
  }));
}

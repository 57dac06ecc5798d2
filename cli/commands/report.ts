import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "../../harness/profile/config-error.js";
import type { ConformanceReport } from "../../report/conformance-types.js";
import { categoryRules, type CategoryRule } from "../../report/reporters/allure-results.js";
import { parseFlags } from "../args.js";

/**
 * conformance report [--reports DIR] [--output DIR] [--single-file] [--open]: the Allure 3 HTML report
 * of the last run (or merge) from DIR/allure-results: environment, categories (target defects, broken
 * checks, unreachable target, skipped preconditions, deviations), behaviours by spec part → resource →
 * requirement, and each test's request/response exchanges.
 */
export async function reportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("report", args, {
    reports: { type: "string" },
    output: { type: "string", short: "o" },
    "single-file": { type: "boolean" },
    open: { type: "boolean" },
  });
  if (positionals.length > 0)
    throw new ConfigError(`conformance report: unexpected argument "${positionals[0]}" (the results folder is --reports DIR)`);
  const reportsDir = resolve(values.reports ?? "reports");
  const results = join(reportsDir, "allure-results");
  if (!existsSync(results) || !readdirSync(results).some((f) => f.endsWith("-result.json"))) {
    throw new ConfigError(`conformance report: no Allure results in ${results}: run "conformance run" (or "conformance merge") first`);
  }
  const output = resolve(values.output ?? join(reportsDir, "allure-report"));
  const conformance = readJson<ConformanceReport>(join(reportsDir, "conformance.json"));
  const categories = readJson<CategoryRule[]>(join(results, "categories.json")) ?? categoryRules(conformance?.run.conventionsOff ?? []);
  const title = conformance ? `Banking API conformance: ${conformance.run.target}, ${conformance.verdict}` : "Banking API conformance";

  const configDir = mkdtempSync(join(tmpdir(), "conformance-allure-"));
  const config = join(configDir, "allurerc.json");
  writeFileSync(
    config,
    JSON.stringify({
      name: title,
      output,
      categories,
      plugins: {
        awesome: {
          options: {
            reportName: title,
            singleFile: values["single-file"] ?? false,
            reportLanguage: "en",
            // Behaviours: spec part → resource → requirement (labels set by harness/setup/setup-requirements.ts).
            groupBy: ["epic", "feature", "story"],
            // A failed test opens with its exchanges visible: the request and answer that broke the check.
            stepTreeExpansion: "expanded",
          },
        },
      },
    }),
  );
  rmSync(output, { recursive: true, force: true });
  const cli = allureCli();
  const generated = spawnSync(process.execPath, [cli, "generate", results, "--config", config, "--output", output], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  rmSync(configDir, { recursive: true, force: true });
  if (generated.status !== 0 || !existsSync(join(output, "index.html"))) {
    process.stderr.write(`${generated.stdout ?? ""}${generated.stderr ?? ""}`);
    process.stderr.write(`conformance report: allure generate failed (exit ${generated.status ?? "signal"})\n`);
    return 1;
  }
  process.stdout.write(`Allure report: ${join(output, "index.html")}${conformance ? ` (${conformance.verdict})` : ""}\n`);
  if (!values["single-file"] && !values.open) {
    // The folder form loads its data with fetch(): a browser shows it only when it is served.
    process.stdout.write(
      "  serve the folder to view it (conformance report --open), or build one file you can open directly with --single-file\n",
    );
  }
  if (values.open) {
    // Serves the report until interrupted.
    const child = spawn(process.execPath, [cli, "open", output], { stdio: "inherit" });
    return await new Promise((done) => child.on("close", (code) => done(code ?? 0)));
  }
  return 0;
}

function allureCli(): string {
  // The allure package exports only its API; its CLI sits beside dist/.
  return join(dirname(fileURLToPath(import.meta.resolve("allure"))), "..", "cli.js");
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}

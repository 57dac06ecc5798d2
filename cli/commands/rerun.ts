import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "../../harness/profile/config-error.js";
import type { RunSummary } from "../../report/reporters/summary-reporter.js";
import { parseFlags } from "../args.js";
import { RERUN_FILE, type RerunContext } from "../reproduce.js";
import { runCommand } from "./run.js";

/** conformance rerun --failed [--reports DIR]: the failed tests of the last run, alone, with the same flags. */
export async function rerunCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("rerun", args, { failed: { type: "boolean" }, reports: { type: "string" } });
  if (positionals.length > 0)
    throw new ConfigError(`conformance rerun: unexpected argument "${positionals[0]}" (see: conformance rerun --help)`);
  if (!values.failed) throw new ConfigError("conformance rerun: say what to rerun: --failed (the failed tests of the last run)");
  const dir = resolve(values.reports ?? "reports");
  const summaryFile = join(dir, "summary.json");
  const contextFile = join(dir, RERUN_FILE);
  if (!existsSync(summaryFile) || !existsSync(contextFile))
    throw new ConfigError(`conformance rerun: ${dir} holds no finished run (summary.json and ${RERUN_FILE}); run conformance run first`);
  const summary = JSON.parse(readFileSync(summaryFile, "utf8")) as RunSummary;
  const context = JSON.parse(readFileSync(contextFile, "utf8")) as RerunContext;
  const failed = summary.tests.filter((t) => t.status === "failed");
  if (failed.length === 0) {
    process.stdout.write(`conformance rerun: the last run (${summaryFile}) has no failed test\n`);
    return 0;
  }
  const suites = [...new Set(failed.map((t) => t.suite))];
  const flags = ["--target", context.target, ...(context.targetsFlag === undefined ? [] : ["--targets", context.targetsFlag])];
  if (context.seed !== null) flags.push("--seed", String(context.seed));
  for (const f of context.faults) flags.push("--fault", f);
  for (const v of context.variants) flags.push("--variant", v);
  for (const t of failed) flags.push("--test", t.name);
  process.stdout.write(`conformance rerun: ${failed.length} failed test${failed.length === 1 ? "" : "s"} of ${suites.join(", ")}\n`);
  return runCommand([...suites, ...flags, "--reports", dir]);
}

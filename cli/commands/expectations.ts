import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "../../harness/profile/config-error.js";
import type { ConformanceReport } from "../../report/conformance-types.js";
import { shardsComplete } from "../../report/verdict-rule.js";
import { baselineFromReport, loadBaseline } from "../../report/expectations.js";
import { parseFlags } from "../args.js";

/**
 * conformance expectations update [--target NAME] [--reports DIR] [--file FILE]
 *   writes the baseline (default expectations/<target>.yaml) from the last run's reports.
 * conformance expectations check FILE
 *   validates a baseline (exit 2 with one line when it is bad).
 */
export async function expectationsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "check") return check(rest);
  if (sub === "update") return update(rest);
  throw new ConfigError(
    `conformance expectations: expected "update" or "check", got ${sub === undefined ? "nothing" : `"${sub}"`} (see: conformance --help)`,
  );
}

function check(args: string[]): number {
  const { positionals } = parseFlags("expectations check", args, {});
  if (positionals.length !== 1) throw new ConfigError("conformance expectations check: name one baseline file");
  const baseline = loadBaseline(resolve(positionals[0]!));
  process.stdout.write(`${baseline.file}: ${baseline.entries.length} entries, valid\n`);
  return 0;
}

function update(args: string[]): number {
  const { values, positionals } = parseFlags("expectations update", args, {
    target: { type: "string", short: "t" },
    reports: { type: "string" },
    file: { type: "string" },
  });
  if (positionals.length > 0) throw new ConfigError(`conformance expectations update: unexpected argument "${positionals[0]}"`);
  const reportsDir = resolve(values.reports ?? "reports");
  const path = join(reportsDir, "conformance.json");
  if (!existsSync(path)) throw new ConfigError(`conformance expectations update: no ${path}: run "conformance run" first`);
  const report = JSON.parse(readFileSync(path, "utf8")) as ConformanceReport;
  if (values.target !== undefined && values.target !== report.run.target) {
    throw new ConfigError(
      `conformance expectations update: the last run in ${reportsDir} was against "${report.run.target}", not "${values.target}"`,
    );
  }
  if (report.run.scope.shards !== null && !shardsComplete(report.run.scope.shards)) {
    throw new ConfigError(
      `conformance expectations update: ${reportsDir} holds one shard (${report.run.scope.shards.join(", ")}); merge the shards first`,
    );
  }
  const file = resolve(values.file ?? join("expectations", `${report.run.target}.yaml`));
  const previous = existsSync(file) ? loadBaseline(file) : undefined;
  const { text, kept, added, dropped } = baselineFromReport(report, previous);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  for (const gone of dropped) process.stdout.write(`removed (now passes): ${gone}\n`);
  process.stdout.write(
    `${file}: ${kept + added} entries (${kept} kept, ${added} added, ${dropped.length} removed) from the run of ${report.run.startedAt}\n`,
  );
  return 0;
}

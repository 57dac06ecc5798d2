import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "../harness/config-error.js";
import { loadTargetsFile, selectProfile, targetsFilePath } from "../harness/profile.js";
import { SummaryReporter } from "../harness/reporters/summary-reporter.js";
import { RUN_ENV } from "../harness/run-env.js";
import { SPEC_VERSION, SUITE_VERSION } from "../harness/version.js";
import { integerFlag, parseFlags } from "./args.js";
import { PACKAGE_ROOT, runVitest } from "./vitest-run.js";
const SUITES_DIR = join(PACKAGE_ROOT, "suites");

export function suiteNames(): string[] {
  return readdirSync(SUITES_DIR).filter((f) => f.endsWith(".test.ts")).map((f) => f.slice(0, -".test.ts".length)).sort();
}

/** conformance run [suite…] [--target NAME] [--targets FILE] [--grep PATTERN] [--seed N] [--reports DIR] [--fault NAME…] */
export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("run", args, {
    target: { type: "string", short: "t" },
    targets: { type: "string" },
    grep: { type: "string", short: "g" },
    seed: { type: "string" },
    reports: { type: "string" },
    fault: { type: "string", multiple: true },
  });
  const targetsFile = targetsFilePath(values.targets);
  const profile = selectProfile(loadTargetsFile(targetsFile), values.target);
  const known = suiteNames();
  const unknown = positionals.filter((s) => !known.includes(s));
  if (unknown.length > 0) throw new ConfigError(`conformance run: unknown suite "${unknown[0]}" (have: ${known.join(", ")})`);
  const faults = [...profile.faults, ...(values.fault ?? [])];
  if (faults.length > 0) {
    if (!profile.embedded) throw new ConfigError(`conformance run: --fault needs an embedded target; profile "${profile.name}" is not`);
    const { faultCatalogue } = await import("../reference/server.js");
    const names = new Set(faultCatalogue().map((f) => f.name));
    const bad = faults.find((f) => !names.has(f));
    if (bad) throw new ConfigError(`conformance run: unknown fault "${bad}" (see: conformance faults)`);
  }
  if (values.grep !== undefined) {
    try {
      new RegExp(values.grep);
    } catch {
      throw new ConfigError(`conformance run: --grep "${values.grep}" is not a valid regular expression`);
    }
  }
  const seed = integerFlag("run", "seed", values.seed) ?? profile.seed ?? Math.floor(Math.random() * 2 ** 31);
  const reportsDir = resolve(values.reports ?? "reports");

  process.env[RUN_ENV.targets] = targetsFile;
  process.env[RUN_ENV.target] = profile.name;
  process.env[RUN_ENV.faults] = (values.fault ?? []).join(",");
  process.env[RUN_ENV.seed] = String(seed);
  process.env[RUN_ENV.reports] = reportsDir;
  for (const old of ["allure-results", "junit.xml", "summary.json"]) rmSync(join(reportsDir, old), { recursive: true, force: true });

  const summary = new SummaryReporter({ reportsDir, target: profile.name, seed: () => seed, root: PACKAGE_ROOT });
  await runVitest({
    projects: ["conformance"],
    files: positionals.map((s) => `suites/${s}.test.ts`),
    ...(values.grep === undefined ? {} : { grep: values.grep }),
    testTimeout: profile.timeouts.testMs,
    outputFile: { junit: join(reportsDir, "junit.xml") },
    reporters: [
      "default",
      ["junit", { suiteName: `conformance (${profile.name})` }],
      [
        "allure-vitest/reporter",
        {
          resultsDir: join(reportsDir, "allure-results"),
          environmentInfo: {
            target: profile.name,
            baseUrl: profile.embedded ? "embedded reference (127.0.0.1, ephemeral port)" : (profile.baseUrl ?? ""),
            suiteVersion: SUITE_VERSION,
            specVersion: SPEC_VERSION,
            seed: String(seed),
            node: process.version,
            ...(faults.length > 0 ? { faults: faults.join(", ") } : {}),
          },
        },
      ],
      summary,
    ],
  });
  const result = summary.summary;
  if (!result) return 1;
  if (!existsSync(join(reportsDir, "summary.json"))) return 1;
  return result.totals.failed > 0 || result.errors.length > 0 ? 1 : 0;
}

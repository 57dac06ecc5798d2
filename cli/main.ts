import { stringify } from "yaml";
import { ConfigError } from "../harness/profile/config-error.js";
import { loadTargetsFile, maskProfile, targetsFilePath } from "../harness/profile/profile.js";
import { SUITE_VERSION } from "../harness/version.js";
import { parseFlags } from "./args.js";
import { keepReferenceKeyOnDisk } from "./kept-server-key.js";
import { RUN_HELP, runCommand } from "./commands/run.js";

const HELP = `conformance ${SUITE_VERSION}: conformance suite for the Banking Account Management API

Usage:
  conformance run [suite…] [--target NAME] [--targets FILE] [--grep PATTERN] [--test TITLE…] [--seed N] [--reports DIR]
                  [--requirement ID…] [--exclude-destructive] [--shard I/N] [--expectations FILE] [--bail N]
                  [--no-preflight] [--fault NAME…] [--variant NAME…] [--plan]
                                             run the suites (--plan: say what the run would use up of
                                             the target's own data, and send nothing); --requirement
                                             CARD-004 -r 'PAGE-*' runs the tests proving those
                                             requirements; --test runs one exact title; --target
                                             reference is always the embedded reference
  conformance rerun --failed [--reports DIR] replay the failed tests of the last run (same target, seed and flags)
  conformance doctor [--target NAME] [--targets FILE]
                                             the preflight alone: reachability, keys, source addresses, fixtures,
                                             provisioning
  conformance list [--suite S…] [--requirement ID…] [--json]
                                             suites, tests and requirements (levels, destructive)
  conformance init [--base-url URL] [--profile NAME] [--ci github] [--dir DIR] [--force]
                                             write targets.yaml and .env.example (and a CI workflow) for your server
  conformance openapi [--out FILE] [--header-prefix P]
                                             the API as the suite understands it, as an OpenAPI 3.1 document
  conformance targets [--targets FILE]       list target profiles (secrets masked)
  conformance serve [--port N] [--host H] [--header-prefix P] [--api-key K] [--fault NAME…] [--variant NAME…]
                    [--sign-responses] [--require-signatures [session-server|all]] [--list-items N]
                                             run the reference server standalone (--list-items: each seeded list
                                             holds at least N items, as a long-lived account's)
  conformance coverage [--json] [--todo] [--sweeps]
                                             the specification coverage matrix: each section's statements, those
                                             mapped to requirements, checks, faults, gaps (conformance coverage --help)
  conformance faults                         list the reference server's faults
  conformance variants                       list the reference server's legal variants (conformant behaviours
                                             the suite must accept; the kill matrix runs each one)
  conformance kill-matrix [--fault NAME…] [--variant NAME…] [--only faults|variants] [--target NAME] [--reports DIR]
                                             prove the suite: every fault must be caught
  conformance report [--reports DIR] [--output DIR] [--single-file] [--open]
                                             the Allure HTML report of the last run (reports/allure-report)
  conformance merge DIR… [--reports OUT] [--expectations FILE]
                                             merge the reports of shards into one summary, verdict and report
  conformance expectations update [--target NAME] [--reports DIR] [--file FILE] | check FILE
                                             write the baseline expectations/<target>.yaml from the last run

Targets file: --targets, else $CONFORMANCE_TARGETS, else ./targets.yaml.
Every run writes reports/conformance.{json,md} (verdict), summary.json, junit.xml and allure-results/.
Exit codes: 0 all checks passed (deviations from conventions switched off do not count; with --expectations:
no new failure, no unexpected pass, no expired entry); 1 a check failed or the target misbehaved;
2 bad configuration, flags or baseline file.`;

async function targetsCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("targets", args, { targets: { type: "string" } });
  const file = loadTargetsFile(targetsFilePath(values.targets));
  const masked = Object.fromEntries(Object.entries(file.profiles).map(([name, p]) => [name, maskProfile(p)]));
  process.stdout.write(`# ${file.file}${file.defaultName ? ` (default: ${file.defaultName})` : ""}\n${stringify(masked)}`);
  return 0;
}

async function variantsCommand(): Promise<number> {
  const { variantCatalogue } = await import("../faults/catalogue.js");
  for (const v of variantCatalogue()) process.stdout.write(`${v.name.padEnd(30)} ${v.description} (${v.allowedBy})\n`);
  return 0;
}

async function faultsCommand(): Promise<number> {
  const { faultCatalogue } = await import("../faults/catalogue.js");
  for (const fault of faultCatalogue())
    process.stdout.write(`${fault.name.padEnd(52)} ${fault.requirement.padEnd(10)} ${fault.description}\n`);
  return 0;
}

/**
 * The lines of HELP that describe one command (its usage line and the indented lines under it). Commands other than
 * `run` load when called: each brings modules of its own (the reference server, the kill matrix, the coverage matrix).
 */
async function commandHelp(command: string): Promise<string | undefined> {
  if (command === "run") return RUN_HELP;
  if (command === "doctor") return (await import("./commands/doctor.js")).DOCTOR_HELP;
  if (command === "coverage") return (await import("./commands/coverage.js")).COVERAGE_HELP;
  const lines = HELP.split("\n");
  const start = lines.findIndex(
    (l) => l.startsWith(`  conformance ${command} `) || l === `  conformance ${command}` || l.startsWith(`  conformance ${command}  `),
  );
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && /^ {4,}/.test(lines[end]!) && !lines[end]!.startsWith("  conformance")) end++;
  return lines
    .slice(start, end)
    .map((l) => l.slice(2))
    .join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // Any command may start the embedded reference (run, rerun, kill-matrix, serve): its key is kept between runs.
  keepReferenceKeyOnDisk();
  if (command !== undefined && (rest.includes("--help") || rest.includes("-h"))) {
    const help = await commandHelp(command);
    if (help) {
      process.stdout.write(`${help}\n`);
      return 0;
    }
  }
  try {
    switch (command) {
      case "doctor":
        return await (await import("./commands/doctor.js")).doctorCommand(rest);
      case "rerun":
        return await (await import("./commands/rerun.js")).rerunCommand(rest);
      case "run":
        return await runCommand(rest);
      case "targets":
        return await targetsCommand(rest);
      case "serve":
        return await (await import("./commands/serve.js")).serveCommand(rest);
      case "faults":
        return await faultsCommand();
      case "variants":
        return await variantsCommand();
      case "kill-matrix":
        return await (await import("./commands/kill-matrix.js")).killMatrixCommand(rest);
      case "list":
        return await (await import("./commands/list.js")).listCommand(rest);
      case "init":
        return await (await import("./commands/init.js")).initCommand(rest);
      case "openapi":
        return await (await import("./commands/openapi.js")).openapiCommand(rest);
      case "report":
        return await (await import("./commands/report.js")).reportCommand(rest);
      case "merge":
        return await (await import("./commands/merge.js")).mergeCommand(rest);
      case "expectations":
        return await (await import("./commands/expectations.js")).expectationsCommand(rest);
      case "coverage":
        return await (await import("./commands/coverage.js")).coverageCommand(rest);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(`${HELP}\n`);
        return command === undefined ? 2 : 0;
      case "--version":
        process.stdout.write(`${SUITE_VERSION}\n`);
        return 0;
      default:
        throw new ConfigError(
          `conformance: unknown command "${command}" (commands: run, rerun, doctor, list, init, openapi, report, merge, ` +
            `expectations, coverage, targets, serve, faults, variants, kill-matrix; see conformance --help)`,
        );
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

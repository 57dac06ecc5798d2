import { stringify } from "yaml";
import { ConfigError } from "../harness/config-error.js";
import { loadTargetsFile, maskProfile, targetsFilePath } from "../harness/profile.js";
import { SUITE_VERSION } from "../harness/version.js";
import { parseFlags } from "./args.js";
import { killMatrixCommand } from "./kill-matrix.js";
import { runCommand } from "./run.js";
import { serveCommand } from "./serve.js";

const HELP = `conformance ${SUITE_VERSION}: conformance suite for the Banking Account Management API

Usage:
  conformance run [suite…] [--target NAME] [--targets FILE] [--grep PATTERN] [--seed N] [--reports DIR] [--fault NAME…]
  conformance targets [--targets FILE]       list target profiles (secrets masked)
  conformance serve [--port N] [--host H] [--header-prefix P] [--api-key K] [--fault NAME…]
                                             run the reference server standalone
  conformance faults                         list the reference server's faults
  conformance kill-matrix [--fault NAME…] [--reports DIR]
                                             prove the suite: every fault must be caught

Targets file: --targets, else $CONFORMANCE_TARGETS, else ./targets.yaml.
Exit codes: 0 all checks passed; 1 a check failed or the target misbehaved; 2 bad configuration or flags.`;

async function targetsCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("targets", args, { targets: { type: "string" } });
  const file = loadTargetsFile(targetsFilePath(values.targets));
  const masked = Object.fromEntries(Object.entries(file.profiles).map(([name, p]) => [name, maskProfile(p)]));
  process.stdout.write(`# ${file.file}${file.defaultName ? ` (default: ${file.defaultName})` : ""}\n${stringify(masked)}`);
  return 0;
}

async function faultsCommand(): Promise<number> {
  const { faultCatalogue } = await import("../reference/server.js");
  for (const fault of faultCatalogue()) process.stdout.write(`${fault.name.padEnd(52)} ${fault.requirement.padEnd(10)} ${fault.description}\n`);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "run":
        return await runCommand(rest);
      case "targets":
        return await targetsCommand(rest);
      case "serve":
        return await serveCommand(rest);
      case "faults":
        return await faultsCommand();
      case "kill-matrix":
        return await killMatrixCommand(rest);
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
        throw new ConfigError(`conformance: unknown command "${command}" (commands: run, targets, serve, faults, kill-matrix; see conformance --help)`);
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError } from "../harness/profile/config-error.js";

/** parseArgs with strict checking, its errors turned into one-line configuration errors. */
export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message.split("\n")[0]!.replace(/\. To specify a positional argument.*$/, "");
    throw new ConfigError(`conformance ${command}: ${message} (see: conformance --help)`);
  }
}

export function integerFlag(command: string, name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new ConfigError(`conformance ${command}: --${name} expects an integer, got "${value}"`);
  return Number(value);
}

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseEnv } from "node:util";
import { parse as parseYaml } from "yaml";
import { ConfigError } from "../harness/profile/config-error.js";
import { loadTargetsFile, selectProfile, targetsFilePath, type TargetProfile } from "../harness/profile/profile.js";
import { PACKAGE_ROOT } from "./vitest-run.js";

/** The package's own targets file: its `reference` profile is the embedded reference server. */
export const BUILTIN_TARGETS = join(PACKAGE_ROOT, "targets.yaml");
const BUILTIN_PROFILE = "reference";

export interface ResolvedTarget {
  /** The targets file the run reads (handed to the vitest process in the run plan, harness/run/run-plan.ts). */
  targetsFile: string;
  profile: TargetProfile;
  /** The package's built-in reference profile stood in for a profile the caller's file lacks. */
  builtin: boolean;
}

/**
 * The targets file and profile of a run, as a project that installed the package sees them:
 * - ${VAR}s come from the environment, and from a .env beside the targets file (the environment wins);
 * - `--target reference` always exists: when the caller's targets file has no such profile (or there is
 *   no ./targets.yaml at all), the package's own embedded reference profile is used.
 */
export function resolveTarget(
  command: string,
  flags: { targets?: string; target?: string },
  env: NodeJS.ProcessEnv = process.env,
): ResolvedTarget {
  const explicit = flags.targets !== undefined || env.CONFORMANCE_TARGETS !== undefined;
  const file = targetsFilePath(flags.targets, env);
  const exists = existsSync(file);
  if (exists) loadDotEnv(join(dirname(file), ".env"), env);
  if (flags.target === BUILTIN_PROFILE && (exists ? !definesProfile(file, BUILTIN_PROFILE) : !explicit)) {
    return { targetsFile: BUILTIN_TARGETS, profile: selectProfile(loadTargetsFile(BUILTIN_TARGETS, env), BUILTIN_PROFILE), builtin: true };
  }
  if (!exists && !explicit) {
    throw new ConfigError(
      `${file}: cannot read the targets file (no such file); write one with "conformance init", or run "conformance ${command} ` +
        `--target ${BUILTIN_PROFILE}" against the embedded reference server`,
    );
  }
  return { targetsFile: file, profile: selectProfile(loadTargetsFile(file, env), flags.target), builtin: false };
}

/** Whether the file names the profile (read without ${VAR} interpolation, so unset secrets of other profiles do not matter). */
function definesProfile(file: string, name: string): boolean {
  try {
    const raw = parseYaml(readFileSync(file, "utf8")) as { targets?: Record<string, unknown> } | null;
    return raw?.targets !== undefined && raw.targets !== null && typeof raw.targets === "object" && name in raw.targets;
  } catch {
    // Unreadable or not YAML: the normal load reports it.
    return true;
  }
}

/** KEY=value lines of a .env file into env, without overriding what is set already. */
function loadDotEnv(file: string, env: NodeJS.ProcessEnv): void {
  if (!existsSync(file)) return;
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, "utf8")))) {
    if (env[key] === undefined) env[key] = value;
  }
}

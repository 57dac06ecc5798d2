import { resolve } from "node:path";
import { loadTargetsFile, selectProfile, targetsFilePath, type TargetProfile } from "./profile.js";

/**
 * The CLI hands the run's choices to the vitest process through the environment, so a suite can
 * also be started with plain `vitest --project conformance` (then the default profile is used).
 */
export const RUN_ENV = {
  targets: "CONFORMANCE_TARGETS",
  target: "CONFORMANCE_TARGET",
  faults: "CONFORMANCE_FAULTS",
  variants: "CONFORMANCE_VARIANTS",
  seed: "CONFORMANCE_SEED",
  reports: "CONFORMANCE_REPORTS",
} as const;

export function profileFromEnv(env: NodeJS.ProcessEnv = process.env): TargetProfile {
  const targets = loadTargetsFile(targetsFilePath(undefined, env));
  const profile = selectProfile(targets, env[RUN_ENV.target] || undefined);
  const list = (name: string) => (env[name] ?? "").split(",").map((f) => f.trim()).filter(Boolean);
  const extraFaults = list(RUN_ENV.faults);
  const seed = env[RUN_ENV.seed] ? Number(env[RUN_ENV.seed]) : profile.seed;
  return {
    ...profile,
    faults: [...new Set([...profile.faults, ...extraFaults])],
    variants: [...new Set([...profile.variants, ...list(RUN_ENV.variants)])],
    ...(seed === undefined ? {} : { seed }),
  };
}

export function reportsDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env[RUN_ENV.reports] ?? "reports");
}

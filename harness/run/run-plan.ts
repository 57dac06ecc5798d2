import type { Bootstrapped } from "./bootstrap-run.js";
import { resolve } from "node:path";
import { loadTargetsFile, selectProfile, targetsFilePath, type TargetProfile } from "../profile/profile.js";

/**
 * The run plan: what a conformance run was asked to do, decided once by the CLI (cli/commands/run.ts, cli/commands/kill-matrix.ts,
 * cli/commands/list-collect.ts) and read by vitest.config.ts (which projects exist, what each includes) and by
 * harness/run/global-setup.ts (what each project runs against). This module is its only channel.
 *
 * The channel is a globalThis slot: vitest runs in the CLI's own process (cli/vitest-run.ts), but loads the global
 * setup through vite, with its own copy of this module (and vitest started directly bundles its config), so a module
 * variable would not be shared. When vitest is started directly (`npx vitest run --project conformance`, no CLI), no plan is handed over:
 * the default one is built here from the environment (RUN_ENV) and the targets file.
 */

/** What one vitest project of the run runs. */
export interface ProjectPlan {
  /** The target profile, resolved: the run's faults, variants and seed merged in. */
  profile: TargetProfile;
  /** Suite files it includes (suites/<name>.test.ts); absent: every suite. */
  suites?: string[];
  /**
   * Only the tests whose name this pattern matches (vitest's testNamePattern): for the fault runs, per fault the tests
   * proving the fault's requirement (a fault is caught when one of them fails), built by catalogue/selection.ts.
   */
  pattern?: string;
  /**
   * The kill matrix's runs, all in this one project (one for the faults, one for the legal variants): each a generated
   * test file that starts a reference with one fault, or one group of variants, on in its worker and loads one suite
   * against it (harness/run/matrix-run.ts). For the faults, `pattern` picks per fault the tests proving its requirement.
   */
  matrixRuns?: MatrixRun[];
  /** The folder of the generated run files: the project runs every test file in it (and no suite directly). */
  dir?: string;
  /**
   * The target, started and its sessions opened by the CLI while vitest loads (the bootstrap's round trips overlap
   * vitest's start): the global setup provides it as it is, and the CLI stops it after the run. Absent: the global
   * setup bootstraps the project itself.
   */
  bootstrapped?: Promise<Bootstrapped>;
}

/** One run of the kill matrix: one suite against the reference with one fault, or one group of legal variants, on. */
export interface MatrixRun {
  /** What it stands for in the reports, and the describe its tests run in: "fault:<name>" or "variant:<name>+<name>…". */
  label: string;
  suite: string;
  /** The test file generated for it (absolute; cli/commands/kill-matrix.ts writes and removes it). */
  file: string;
  /** The embedded reference it starts: the fault or the variants on, fewer property runs (the seed comes at the start). */
  profile: TargetProfile;
}

/** Which tests the run selected (cli/select.ts); `pattern` is the test-name pattern vitest is given. */
export interface RunSelection {
  grep?: string;
  tests?: string[];
  requirements?: string[];
  excludeDestructive?: boolean;
  pattern?: string;
}

export interface RunPlan {
  /** The targets file the profile was read from. */
  targetsFile: string;
  /** The run's profile as the targets file gives it (resolved and validated once; the projects' profiles derive from it). */
  profile: TargetProfile;
  /** Suite files named (none: all). */
  suites: string[];
  selection: RunSelection;
  /** --seed, else the profile's; undefined: the global setup draws one. */
  seed?: number;
  /** Reference faults and legal variants switched on for the run: the profile's and the flags', each once. */
  faults: string[];
  variants: string[];
  /** Where the run writes its reports (absolute). */
  reportsDir: string;
  /** The vitest projects, by name (the name is for display: nothing is read back out of it). */
  projects: ReadonlyMap<string, ProjectPlan>;
}

/** The project a vendor's run uses (and the kill matrix's run against the clean reference). */
export const CONFORMANCE_PROJECT = "conformance";

/** A kill-matrix fault's name in its report (the project its runs stand for). */
export const faultProject = (fault: string) => `fault:${fault}`;

/** The kill matrix's projects of runs: one for every fault, one for every group of legal variants (display only). */
export const FAULT_RUNS_PROJECT = "faults";
export const VARIANT_RUNS_PROJECT = "variants";

/** The environment a direct vitest start reads (the CLI hands its plan over in-process, never through these). */
const RUN_ENV = {
  targets: "CONFORMANCE_TARGETS",
  target: "CONFORMANCE_TARGET",
  faults: "CONFORMANCE_FAULTS",
  variants: "CONFORMANCE_VARIANTS",
  seed: "CONFORMANCE_SEED",
  reports: "CONFORMANCE_REPORTS",
} as const;

/** A plan with one project, "conformance", against `profile` with the run's faults, variants and seed merged in. */
export function profilePlan(options: {
  targetsFile: string;
  profile: TargetProfile;
  reportsDir: string;
  suites?: string[];
  selection?: RunSelection;
  seed?: number;
  faults?: string[];
  variants?: string[];
}): RunPlan {
  const { profile, seed } = options;
  const faults = [...new Set([...profile.faults, ...(options.faults ?? [])])];
  const variants = [...new Set([...profile.variants, ...(options.variants ?? [])])];
  const resolved: TargetProfile = { ...profile, faults, variants, ...(seed === undefined ? {} : { seed }) };
  return {
    targetsFile: options.targetsFile,
    profile,
    suites: options.suites ?? [],
    selection: options.selection ?? {},
    ...(resolved.seed === undefined ? {} : { seed: resolved.seed }),
    faults,
    variants,
    reportsDir: resolve(options.reportsDir),
    projects: new Map([[CONFORMANCE_PROJECT, { profile: resolved }]]),
  };
}

const SLOT = Symbol.for("banking-api-conformance.run-plan");
const slot = globalThis as { [SLOT]?: RunPlan };

/**
 * Runs `body` (a vitest start) with `plan` handed over, and takes it back after: a later vitest start in the same
 * process (the kill matrix's second round, a test calling the CLI) never sees a stale plan.
 */
export async function withRunPlan<T>(plan: RunPlan, body: () => Promise<T>): Promise<T> {
  const before = slot[SLOT];
  slot[SLOT] = plan;
  try {
    return await body();
  } finally {
    if (before === undefined) delete slot[SLOT];
    else slot[SLOT] = before;
  }
}

/** The plan the CLI handed over, else the default one of a direct vitest start (built from the environment). */
export function runPlan(): RunPlan {
  return slot[SLOT] ?? planFromEnvironment();
}

/** What vitest.config.ts needs of each project (read without loading a targets file: the selftest project needs none). */
export type ProjectShape = Pick<ProjectPlan, "suites" | "pattern" | "dir"> & { profile?: Pick<TargetProfile, "concurrency"> };

/** The projects vitest.config.ts makes: the handed plan's, or the one "conformance" project of a direct start. */
export function plannedProjects(): ReadonlyMap<string, ProjectShape> {
  return slot[SLOT]?.projects ?? new Map([[CONFORMANCE_PROJECT, {}]]);
}

/** The plan of one vitest project (harness/run/global-setup.ts). */
export function projectPlan(plan: RunPlan, name: string): ProjectPlan {
  const found = plan.projects.get(name);
  if (!found) throw new Error(`the run plan has no vitest project "${name}" (has: ${[...plan.projects.keys()].join(", ")})`);
  return found;
}

/** The default plan of a direct vitest start: targets file, profile, faults, variants, seed and reports folder from RUN_ENV. */
export function planFromEnvironment(env: NodeJS.ProcessEnv = process.env): RunPlan {
  const targetsFile = targetsFilePath(env[RUN_ENV.targets], env);
  const profile = selectProfile(loadTargetsFile(targetsFile, env), env[RUN_ENV.target] || undefined);
  const list = (name: string) =>
    (env[name] ?? "")
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
  const seed = env[RUN_ENV.seed] ? Number(env[RUN_ENV.seed]) : undefined;
  return profilePlan({
    targetsFile,
    profile,
    reportsDir: env[RUN_ENV.reports] ?? "reports",
    faults: list(RUN_ENV.faults),
    variants: list(RUN_ENV.variants),
    ...(seed === undefined ? {} : { seed }),
  });
}

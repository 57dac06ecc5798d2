import { plannedConsumption, renderPlan } from "../plan.js";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { clearOldOutputs } from "../old-outputs.js";
import { prepareServerKey } from "../../reference/server-key.js";
import { join, resolve } from "node:path";
import { ConfigError } from "../../harness/profile/config-error.js";
import { runInfo } from "../../report/conformance-summary.js";
import { loadBaseline } from "../../report/expectations.js";
import { SummaryReporter } from "../../report/reporters/summary-reporter.js";
import { profilePlan } from "../../harness/run/run-plan.js";
import { bootstrapForGlobalSetup } from "../../harness/run/bootstrap-run.js";
import { SPEC_VERSION, SUITE_VERSION } from "../../harness/version.js";
import { integerFlag, parseFlags } from "../args.js";
import { suiteFileNames, suiteTitles, type SuiteTitle } from "../../catalogue/test-titles.js";
import { selectTests } from "../select.js";
import { resolveTarget } from "../targets-resolve.js";
import { HarWriter } from "../../report/reporters/har.js";
import { preflightIncomplete } from "../preflight-incomplete.js";
import { sharedKeyPair } from "../../harness/session/keys.js";
import { AllureReporter } from "../../report/reporters/allure-reporter.js";
import { ExchangesByTest } from "../../report/reporters/allure-exchanges.js";
import { fileConcurrency } from "../file-concurrency.js";
import { runPreflight, stepLines } from "../preflight.js";
import { RERUN_FILE, type RerunContext } from "../reproduce.js";
import { finishRun } from "../verdict.js";
import { PACKAGE_ROOT, runVitest } from "../vitest-run.js";
import { escapeRegExp } from "../../harness/escape-reg-exp.js";
import { provisionsUsers } from "../../harness/profile/profile.js";

export const RUN_HELP =
  "conformance run [suite…] [--target NAME] [--targets FILE] [--grep PATTERN] [--test TITLE…] [--requirement ID…]\n" +
  `                [--exclude-destructive] [--seed N] [--reports DIR] [--shard I/N] [--expectations FILE] [--bail N]
                [--no-preflight] [--fault NAME…] [--variant NAME…] [--plan]
  Runs the suites against a target. --plan prints what the run would use up of the target's own data (cards
  made permanent, replacements, keys locked out, invites answered) and sends nothing. --test runs the test with
  exactly that title (each failure prints its own rerun line); --grep matches titles by regular expression;
  --requirement CARD-004 -r 'PAGE-*' runs the tests proving those requirements. A selection that matches no
  test exits 2. A remote target is checked first (conformance doctor): a profile mistake exits 2, an unreachable target ends INCOMPLETE.
  --bail N stops after N failed tests. Exit 0: every check passed; 1: a check failed or the target
  misbehaved; 2: bad configuration or flags.`;

/** Files a run writes under its reports folder (removed first, so nothing stale is left). */
const RUN_OUTPUTS = [
  "allure-results",
  "allure-report",
  "junit.xml",
  "summary.json",
  "conformance.json",
  "conformance.md",
  "exchanges.ndjson",
  "exchanges.har",
  "rerun.json",
];

/**
 * conformance run [suite…] [--target NAME] [--targets FILE] [--grep PATTERN] [--requirement ID…] [--exclude-destructive]
 * [--seed N] [--reports DIR] [--fault NAME…]
 *   [--shard I/N] (one part of the suite files, for CI machines) [--expectations FILE] (a baseline: fail on regressions only)
 */
export async function runCommand(args: string[]): Promise<number> {
  const options = await runOptions(args);
  if (options.plan) {
    process.stdout.write(renderPlan(options.profile, plannedConsumption(plannedTitles(options.selection))));
    return 0;
  }
  const { profile, reportsDir, seed, values } = options;
  // Everything vitest.config.ts and the global setup need, made once: the profile validated above goes as it is.
  const plan = profilePlan({
    targetsFile: options.targetsFile,
    profile,
    reportsDir,
    suites: options.selection.suites,
    selection: {
      ...(values.grep === undefined ? {} : { grep: values.grep }),
      ...(values.test === undefined ? {} : { tests: values.test }),
      ...(values.requirement === undefined ? {} : { requirements: values.requirement }),
      ...(values["exclude-destructive"] ? { excludeDestructive: true } : {}),
      ...(options.selection.grep === undefined ? {} : { pattern: options.selection.grep }),
    },
    seed,
    faults: values.fault ?? [],
    variants: values.variant ?? [],
  });
  if (existsSync(reportsDir) && !statSync(reportsDir).isDirectory()) {
    throw new ConfigError(`conformance run: --reports ${reportsDir} is a file, not a folder`);
  }
  const cleared = reportsFolder(reportsDir);
  let stopTarget: (() => Promise<void>) | undefined;
  try {
    const rerun: RerunContext = {
      target: profile.name,
      ...(values.targets === undefined ? {} : { targetsFlag: values.targets }),
      seed,
      faults: values.fault ?? [],
      variants: values.variant ?? [],
    };
    writeFileSync(join(reportsDir, RERUN_FILE), `${JSON.stringify(rerun, null, 2)}\n`);

    // The run's client key pair (RSA-2048, up to half a second of one core) is made on libuv's thread pool: started by
    // the entry point while it loaded the modules (bin/early-keys.js), else here. The preflight and the global setup, in
    // this process, take the same pair.
    void sharedKeyPair();
    // The embedded reference's own key likewise, ahead of the global setup that starts it.
    if (profile.embedded) void prepareServerKey();

    const looked = await lookFirst(options);
    if ("code" in looked) return looked.code;
    const maxWorkers = workersFor(options, looked.roundTripMs);
    // The target is started (embedded) and its sessions opened here, while vitest loads; the global setup provides
    // what came of it (harness/run/global-setup.ts).
    stopTarget = bootstrapForGlobalSetup(plan, { seed, reportsDir, workers: maxWorkers });
    return await runAndJudge(options, plan, maxWorkers, rerun);
  } finally {
    // A reference started for the run stops with it (whether or not vitest got as far as its global setup).
    await stopTarget?.();
    // The last run's outputs, moved aside above, are gone before the process exits.
    await cleared;
  }
}

/** The flags of `run`, checked: a mistake is a configuration error (exit 2) before anything is started or sent. */
async function runOptions(args: string[]) {
  const { values, positionals } = parseFlags("run", args, {
    target: { type: "string", short: "t" },
    targets: { type: "string" },
    grep: { type: "string", short: "g" },
    seed: { type: "string" },
    reports: { type: "string" },
    fault: { type: "string", multiple: true },
    variant: { type: "string", multiple: true },
    shard: { type: "string" },
    expectations: { type: "string" },
    requirement: { type: "string", short: "r", multiple: true },
    "exclude-destructive": { type: "boolean" },
    test: { type: "string", multiple: true },
    bail: { type: "string" },
    "no-preflight": { type: "boolean" },
    plan: { type: "boolean" },
  });
  // `--target reference` falls back to the package's own embedded profile (cli/targets-resolve.ts).
  const { targetsFile, profile } = resolveTarget("run", values);
  const known = suiteFileNames();
  const unknown = positionals.filter((s) => !known.includes(s));
  if (unknown.length > 0) throw new ConfigError(`conformance run: unknown suite "${unknown[0]}" (have: ${known.join(", ")})`);
  const faults = [...profile.faults, ...(values.fault ?? [])];
  const variants = [...profile.variants, ...(values.variant ?? [])];
  await checkSwitches(profile, faults, variants);
  if (values.grep !== undefined) {
    try {
      new RegExp(values.grep);
    } catch {
      throw new ConfigError(`conformance run: --grep "${values.grep}" is not a valid regular expression`);
    }
  }
  const selection = selectTests({
    suites: positionals,
    grep: combineGrep(values.grep, values.test),
    requirement: values.requirement,
    excludeDestructive: values["exclude-destructive"],
  });
  const bail = integerFlag("run", "bail", values.bail);
  if (bail !== undefined && bail < 1)
    throw new ConfigError(`conformance run: --bail expects a number of failures of 1 or more, got "${values.bail}"`);
  const shard = shardFlag(values.shard);
  if (shard !== undefined && values.expectations !== undefined) {
    throw new ConfigError(
      "conformance run: --expectations judges a whole run: apply it when merging the shards (conformance merge DIR… --expectations FILE)",
    );
  }
  const baseline = values.expectations === undefined ? undefined : loadBaseline(resolve(values.expectations));
  if (baseline?.target !== undefined && baseline.target !== profile.name) {
    throw new ConfigError(`${baseline.file}: the baseline is for target "${baseline.target}", this run is against "${profile.name}"`);
  }
  const seed = integerFlag("run", "seed", values.seed) ?? profile.seed ?? Math.floor(Math.random() * 2 ** 31);
  const reportsDir = resolve(values.reports ?? "reports");
  return {
    values,
    positionals,
    targetsFile,
    profile,
    faults,
    variants,
    selection,
    bail,
    shard,
    baseline,
    seed,
    reportsDir,
    known,
    plan: values.plan === true,
  };
}
type RunOptions = Awaited<ReturnType<typeof runOptions>>;

/** Reference faults and variants named on the command line or in the profile: known names, and an embedded target only. */
async function checkSwitches(profile: RunOptions["profile"], faults: string[], variants: string[]): Promise<void> {
  if (faults.length === 0 && variants.length === 0) return;
  const { faultCatalogue, variantCatalogue } = await import("../../faults/catalogue.js");
  if (faults.length > 0) {
    if (!profile.embedded) throw new ConfigError(`conformance run: --fault needs an embedded target; profile "${profile.name}" is not`);
    const names = new Set(faultCatalogue().map((f) => f.name));
    const bad = faults.find((f) => !names.has(f));
    if (bad) throw new ConfigError(`conformance run: unknown fault "${bad}" (see: conformance faults)`);
  }
  if (variants.length > 0) {
    if (!profile.embedded) throw new ConfigError(`conformance run: --variant needs an embedded target; profile "${profile.name}" is not`);
    const bad = variants.find((v) => !variantCatalogue().some((c) => c.name === v));
    if (bad) throw new ConfigError(`conformance run: unknown variant "${bad}" (see: conformance variants)`);
  }
}

/** The tests a selection picks, read from the sources (titles as written: a pattern's lookaheads find a title's IDs). */
function plannedTitles(selection: RunOptions["selection"]): SuiteTitle[] {
  const pattern = selection.grep === undefined ? undefined : new RegExp(selection.grep);
  return suiteTitles().filter(
    (t) => (selection.suites.length === 0 || selection.suites.includes(t.suite)) && (pattern === undefined || pattern.test(t.title)),
  );
}

/**
 * A remote target is looked at before any check: a typo in the profile is a configuration error (exit 2), a target
 * that does not answer is INCOMPLETE, never a list of requirement failures. Gives the quickest round trip seen.
 */
async function lookFirst(options: RunOptions): Promise<{ roundTripMs: number | undefined } | { code: number }> {
  const { profile, values } = options;
  if (profile.embedded || values["no-preflight"]) return { roundTripMs: undefined };
  const checked = await runPreflight({ ...profile, baseUrl: profile.baseUrl! });
  const blocking = checked.blocking;
  if (blocking?.kind === "config") throw new ConfigError(stepLines(blocking).join("\n"));
  if (blocking?.kind === "unreachable")
    return {
      code: preflightIncomplete({
        reportsDir: options.reportsDir,
        profile,
        blocking,
        seed: options.seed,
        faults: options.faults,
        variants: options.variants,
        shard: options.shard,
        suites: options.selection.suites,
        grep: options.selection.grep,
      }),
    };
  for (const step of checked.steps.filter((x) => x.kind === "finding"))
    process.stderr.write(`preflight: ${stepLines(step).join(" ")} (the checks below show which rules this breaks)\n`);
  return { roundTripMs: checked.roundTripMs };
}

/** More files at once the further away the target; one at a time where every file writes to the primary user's data. */
function workersFor(options: RunOptions, roundTripMs: number | undefined): number {
  const { profile, selection, known } = options;
  const files = (selection.suites.length > 0 ? selection.suites : known).length;
  const sharedWrites = profile.mode === "full" && !provisionsUsers(profile);
  if (sharedWrites && files > 1) {
    process.stderr.write(
      `note: profile "${profile.name}" provisions no users, so every file writes to the primary user's data: the suite files run ` +
        `one at a time (with provisioning: sandbox-user they run side by side, on fresh users)\n`,
    );
  }
  return fileConcurrency({
    embedded: profile.embedded === true,
    roundTripMs,
    files,
    rateLimited: profile.rateLimit?.requestsPerSecond !== undefined,
    sharedWrites,
  });
}

/** vitest with the run's reporters, then the verdict and every report. */
async function runAndJudge(options: RunOptions, plan: ReturnType<typeof profilePlan>, maxWorkers: number, rerun: RerunContext) {
  const { profile, reportsDir, seed, selection, shard, bail, faults, variants } = options;
  const summary = new SummaryReporter({ reportsDir, target: profile.name, seed: () => seed, root: PACKAGE_ROOT, silent: true });
  // exchanges.har grows as each test file ends, while the run waits on the target, not after it: the Allure reporter
  // takes in what the exchange log gained (for each test's steps) as each file ends, and the HAR with it.
  const byTest = new ExchangesByTest();
  const har = new HarWriter(reportsDir, (exchange) => byTest.file(exchange));
  await runVitest({
    plan,
    files: selection.suites.map((s) => `suites/${s}.test.ts`),
    ...(selection.grep === undefined ? {} : { grep: selection.grep }),
    ...(shard === undefined ? {} : { shard }),
    ...(bail === undefined ? {} : { bail }),
    testTimeout: profile.timeouts.testMs,
    maxWorkers,
    outputFile: { junit: join(reportsDir, "junit.xml") },
    reporters: [
      "default",
      ["junit", { suiteName: `conformance (${profile.name})` }],
      new AllureReporter({
        resultsDir: join(reportsDir, "allure-results"),
        environmentInfo: environmentInfo(options),
        exchanges: { absorb: () => har.absorb(), byTest },
      }),
      summary,
    ],
  });
  const result = summary.summary;
  if (!result) return 1;
  if (!existsSync(join(reportsDir, "summary.json"))) return 1;
  // A selection that picks nothing is a typo, not a green run (a CI gate would pass silently).
  if (result.errors.length === 0 && result.tests.every((t) => t.notSelected)) {
    throw new ConfigError(
      `conformance run: ${describeSelection(options.positionals, options.values, shard)} selects no test (see: conformance list)`,
    );
  }
  har.finish();
  const run = runInfo(profile, {
    faults,
    variants,
    seed,
    startedAt: result.startedAt,
    finishedAt: result.finishedAt ?? new Date().toISOString(),
    suites: selection.suites,
    ...(selection.grep === undefined ? {} : { grep: selection.grep }),
    ...(shard === undefined ? {} : { shard }),
  });
  // A shard's annotations would repeat in the merge job, which judges the whole run.
  const github = process.env.GITHUB_ACTIONS === "true" && shard === undefined;
  return finishRun({ reportsDir, summary: result, run, github, rerun, ...(options.baseline ? { baseline: options.baseline } : {}) }).code;
}

/** The Allure report's environment: the target without credentials, versions, seed and switches. */
function environmentInfo({ profile, seed, faults, variants }: RunOptions): Record<string, string> {
  return {
    target: profile.name,
    baseUrl: profile.embedded ? "embedded reference (127.0.0.1, ephemeral port)" : withoutCredentials(profile.baseUrl ?? ""),
    suiteVersion: SUITE_VERSION,
    specVersion: SPEC_VERSION,
    seed: String(seed),
    node: process.version,
    ...(faults.length > 0 ? { faults: faults.join(", ") } : {}),
    ...(variants.length > 0 ? { variants: variants.join(", ") } : {}),
    ...(profile.conventionsOff.length > 0 ? { conventionsOff: profile.conventionsOff.join(", ") } : {}),
  };
}

/**
 * The reports folder made, and cleared of the last run's outputs (deleted in the background: await the promise before
 * exiting). A folder this run cannot write is a configuration error, said in one line, before anything runs.
 */
function reportsFolder(reportsDir: string): Promise<void> {
  try {
    mkdirSync(reportsDir, { recursive: true });
    // Moving the old outputs aside makes a folder in it: a folder this run cannot write fails here.
    return clearOldOutputs(reportsDir, RUN_OUTPUTS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`conformance run: --reports ${reportsDir} cannot be written (${code ?? (error as Error).message})`);
  }
}

/** --grep and --test (exact titles) as one vitest test-name pattern. */
function combineGrep(grep: string | undefined, titles: string[] | undefined): string | undefined {
  if (!titles || titles.length === 0) return grep;
  // vitest matches the pattern against "<describe…> <title>": an exact title is the end of that name.
  const exact = `(?:^|\\s)(?:${titles.map(escapeRegExp).join("|")})$`;
  return grep === undefined ? exact : `(?=.*(?:${grep}))${exact}`;
}

function describeSelection(
  suites: string[],
  values: { grep?: string; test?: string[]; requirement?: string[]; "exclude-destructive"?: boolean },
  shard: string | undefined,
): string {
  const parts = [
    suites.length > 0 ? `suite${suites.length > 1 ? "s" : ""} ${suites.join(" ")}` : undefined,
    values.grep === undefined ? undefined : `--grep ${JSON.stringify(values.grep)}`,
    ...(values.test ?? []).map((t) => `--test ${JSON.stringify(t)}`),
    ...(values.requirement ?? []).map((r) => `--requirement ${r}`),
    values["exclude-destructive"] ? "--exclude-destructive" : undefined,
    shard === undefined ? undefined : `--shard ${shard}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : "the selection";
}

/** --shard I/N with 1 <= I <= N. */
function shardFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2])) {
    throw new ConfigError(`conformance run: --shard expects I/N with 1 <= I <= N (e.g. 2/3), got "${value}"`);
  }
  return `${Number(match[1])}/${Number(match[2])}`;
}

/** The base URL for reports: no user:password@, no query string (either may carry a secret). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    return parsed.toString();
  } catch {
    return url;
  }
}

import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Reporter, TestCase, TestModule } from "vitest/node";
import type { SerializedError } from "vitest";
import type { Consumption } from "../../harness/consumption.js";
import type { LenientObservation } from "../../harness/lenient.js";
import { redactText } from "../../harness/redact.js";
import { requirementIdsOf } from "../../catalogue/requirements.js";
import { transportErrorIn } from "../../harness/http/transport-error.js";
import { NOT_RUN_NOTE } from "../../harness/http/transport-limit.js";
import { SUITE_VERSION } from "../../harness/version.js";

/**
 * Why a test failed, recorded by the harness where the failure was raised (harness/setup/setup-requirements.ts):
 * - check: a requirement check failed (a CheckFailure, harness/checks.ts): `requirement` is the one it proves;
 * - unreachable: no usable answer (a TransportError), or no session because the target did not answer the bootstrap;
 * - bootstrap: no session because the target refused the bootstrap, or refused a fresh user's;
 * - error: anything else (a timeout, a suite or harness error).
 */
export type FailureCause = { kind: "check"; requirement: string } | { kind: "unreachable" | "bootstrap" | "error" };

/**
 * Why a test skipped: the profile says the target lacks an optional part (a capability, signing: recorded as the
 * check skipped, harness/setup/setup-requirements.ts); the selection left it out; the target had stopped answering; or a
 * precondition the profile does not meet (fresh users, a second user, a writable target…; or a todo).
 */
type SkipReason = "not-applicable" | "not-selected" | "not-run" | "precondition";

export interface TestSummary {
  /** The vitest project ("conformance"), or in the kill matrix the fault a fault run stands for ("fault:<name>"). */
  project: string;
  suite: string;
  name: string;
  /** "<suite> > <describe…> > <title>": unique in a run; expectation baselines name tests by it. */
  fullName?: string;
  status: "passed" | "failed" | "skipped";
  requirements: string[];
  durationMs: number;
  message?: string;
  /** Skipped because the run's selection (--grep, --requirement) left it out, not for a reason of its own. */
  notSelected?: true;
  /** Not run (status skipped): the target had stopped answering (profile maxTransportErrors, harness/http/transport-limit.ts). */
  notRun?: "target-stopped-answering";
  /**
   * Failed without an answer to judge: it ended with a TransportError (harness/http/transport-error.ts; `transport` is
   * its kind), or on a 502/503/504 to a write that weather explains ("unavailable", harness/setup/weather-setup.ts).
   * Weather, not a failure of the requirements it names; counted apart (totals.broken).
   */
  broken?: "transport";
  transport?: string;
  /** Requests sent again after weather (harness/http/client.ts), plus runs of the whole test again; absent when none. */
  retries?: number;
  /** LENIENT readings the test observed (harness/lenient.ts): what strict would require otherwise; absent when none. */
  lenient?: LenientObservation[];
  /** What the test used up of the target's own data (harness/consumption.ts); absent when nothing. */
  consumed?: Consumption[];
  /** Failed: why, typed. Absent only in summaries written before it was added (the verdict then reads the message). */
  failure?: FailureCause;
  /** Skipped: why, typed. Absent only in summaries written before it was added. */
  skipReason?: SkipReason;
}

export interface RunSummary {
  target: string;
  suiteVersion: string;
  startedAt: string;
  /** When the run ended (ISO); absent in summaries written before it was added. */
  finishedAt?: string;
  durationMs: number;
  seed: number | null;
  /** failed: tests a check failed; broken: tests that ended by transport (not in failed); retries: over all tests. */
  totals: { passed: number; failed: number; skipped: number; broken?: number; retries?: number };
  /** Errors outside any test (a suite file that failed to load, an unhandled rejection). */
  errors: string[];
  tests: TestSummary[];
}

export interface SummaryOptions {
  reportsDir: string;
  target: string;
  /** Reads the run's seed at the end (the global setup may draw it). */
  seed: () => number | undefined;
  root: string;
  /** Print only the closing line (the kill matrix prints its own table). */
  quiet?: boolean;
  /** Print nothing (the caller prints its own verdict, e.g. with a baseline applied). */
  silent?: boolean;
  /** File name under reportsDir (default summary.json). */
  fileName?: string;
  /** The project and suite a test file stands for, where its own are not (the kill matrix's generated fault runs). */
  attribute?: (moduleId: string) => { project: string; suite: string } | undefined;
}

/** Writes reports/summary.json and prints a short verdict with the failures, each naming its requirements. */
export class SummaryReporter implements Reporter {
  summary: RunSummary | undefined;
  private started = new Date();

  constructor(private readonly options: SummaryOptions) {}

  onTestRunStart(): void {
    this.started = new Date();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const tests: TestSummary[] = [];
    const errors: string[] = unhandledErrors.map((e) => redactText(e.message ?? String(e)));
    for (const module of modules) {
      const stands = this.options.attribute?.(module.moduleId);
      const suite =
        stands?.suite ??
        relative(this.options.root, module.moduleId)
          .replace(/^suites\//, "")
          .replace(/\.test\.ts$/, "");
      for (const error of module.errors()) errors.push(redactText(`${suite}: ${error.message}`));
      for (const test of module.children.allTests()) tests.push(this.summarise(suite, test, stands?.project));
    }
    const count = (status: TestSummary["status"]) => tests.filter((t) => t.status === status).length;
    const broken = tests.filter((t) => t.broken).length;
    const retries = tests.reduce((sum, t) => sum + (t.retries ?? 0), 0);
    const finished = new Date();
    this.summary = {
      target: this.options.target,
      suiteVersion: SUITE_VERSION,
      startedAt: this.started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: finished.getTime() - this.started.getTime(),
      seed: this.options.seed() ?? null,
      totals: { passed: count("passed"), failed: count("failed") - broken, skipped: count("skipped"), broken, retries },
      errors,
      tests,
    };
    mkdirSync(this.options.reportsDir, { recursive: true });
    writeFileSync(join(this.options.reportsDir, this.options.fileName ?? "summary.json"), `${JSON.stringify(this.summary, null, 2)}\n`);
    if (!this.options.silent) this.print(this.summary);
  }

  private summarise(suite: string, test: TestCase, project = test.project.name): TestSummary {
    const result = test.result();
    const diagnostic = test.diagnostic();
    const reruns = diagnostic?.retryCount ?? 0;
    // A test run again after weather (harness/setup/weather-setup.ts) keeps every run's errors: its last run's stands.
    const errors = result.state === "failed" ? (reruns > 0 ? result.errors.slice(-1) : result.errors) : undefined;
    const final = errors && errors.length > 0 ? transportErrorIn(errors[errors.length - 1]) : undefined;
    // Cut short because the client had stopped sending (maxTransportErrors), or skipped before it began: not run.
    const notRun = final?.kind === "given-up" || test.meta().notRun === "target-stopped-answering";
    const last = notRun ? undefined : final;
    const status = notRun ? "skipped" : result.state === "passed" ? "passed" : result.state === "failed" ? "failed" : "skipped";
    // A test-name filter marks the tests it leaves out "skip" before they run; a check's own skip carries a note.
    const notSelected = result.state === "skipped" && test.options.mode === "skip" && !result.note;
    // Typed either way: the last error is a TransportError, or the worker found the failure was a 502/503/504 to a
    // write that weather explains (harness/setup/weather-setup.ts).
    const transport = last ?? (result.state === "failed" && test.meta().weather === "transport" ? { kind: "unavailable" } : undefined);
    const retries = (test.meta().retries ?? 0) + (last?.retries ?? 0) + reruns;
    const message = notRun
      ? NOT_RUN_NOTE
      : result.state === "failed"
        ? errors?.map((e) => e.message).join("\n")
        : result.state === "skipped"
          ? (result.note ?? (test.options.mode === "todo" ? "todo" : "skipped"))
          : undefined;
    return {
      project,
      suite,
      name: test.name,
      fullName: `${suite} > ${test.fullName}`,
      status,
      requirements: test.meta().requirements ?? requirementIdsOf(test.name, test.tags),
      durationMs: Math.round(diagnostic?.duration ?? 0),
      ...(message ? { message: redactText(message) } : {}),
      ...(notSelected ? { notSelected: true as const } : {}),
      ...(notRun ? { notRun: "target-stopped-answering" as const } : {}),
      ...(transport ? { broken: "transport" as const, transport: transport.kind } : {}),
      ...(retries > 0 ? { retries } : {}),
      ...(test.meta().lenient?.length ? { lenient: test.meta().lenient } : {}),
      ...(test.meta().consumed?.length ? { consumed: test.meta().consumed } : {}),
      // Set by the worker as the test failed; a failure no harness hook saw is some other error.
      ...(status === "failed" ? { failure: test.meta().failure ?? { kind: "error" as const } } : {}),
      ...(status === "skipped" ? { skipReason: skipReason(notRun, notSelected, test.meta().notApplicable === true) } : {}),
    };
  }

  private print(summary: RunSummary): void {
    const lines: string[] = [""];
    if (this.options.quiet) {
      process.stdout.write(
        `conformance: ${summary.totals.passed} passed, ${summary.totals.failed} failed, ${summary.totals.skipped} ` +
          `skipped${weatherLine(summary)}\n`,
      );
      return;
    }
    const failed = summary.tests.filter((t) => t.status === "failed");
    if (failed.length > 0 || summary.errors.length > 0) {
      lines.push("Failures:");
      for (const test of failed)
        lines.push(`  ✗ [${test.suite}] ${test.name}${test.broken ? " (broken: transport)" : ""}`, ...indent(test.message ?? ""));
      for (const error of summary.errors) lines.push(`  ✗ ${error.split("\n")[0]}`);
      lines.push("");
    }
    const { passed, failed: nFailed, skipped } = summary.totals;
    lines.push(`Target ${summary.target} (seed ${summary.seed ?? "none"}), reports in ${this.options.reportsDir}`);
    lines.push(`conformance: ${passed} passed, ${nFailed} failed, ${skipped} skipped${weatherLine(summary)}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}

function skipReason(notRun: boolean, notSelected: boolean, notApplicable: boolean): SkipReason {
  return notRun ? "not-run" : notSelected ? "not-selected" : notApplicable ? "not-applicable" : "precondition";
}

/** ", 2 broken by transport, 7 retries" where there was weather; "" otherwise. */
function weatherLine(summary: RunSummary): string {
  const { broken = 0, retries = 0 } = summary.totals;
  return (
    `${broken > 0 ? `, ${broken} broken by transport` : ""}` + `${retries > 0 ? `, ${retries} ${retries === 1 ? "retry" : "retries"}` : ""}`
  );
}

function indent(message: string): string[] {
  return message
    .split("\n")
    .slice(0, 6)
    .map((line) => `      ${line}`);
}

// LENIENT observations: where the specification leaves a choice (wire conventions: LENIENT), the suite
// accepts every listed reading, records which one the target took, and fails only on a strict profile,
// which requires the first reading. Observations are deduplicated, so a property that meets the same
// reading in every run records it once.
import * as allure from "allure-js-commons";
import { failPlain, type About } from "./checks.js";
import { currentTest } from "./run/test-scope.js";

type Annotate = (message: string, type?: string) => Promise<unknown>;

/** One LENIENT reading a test observed: summary.json carries it per test, and the verdict counts them. */
export interface LenientObservation {
  requirement: string;
  /** What the target did. */
  observed: string;
  /** What a strict profile requires instead; absent when the reading is only recorded. */
  strict?: string;
}

declare module "vitest" {
  interface TaskMeta {
    /** The LENIENT readings this test observed (typed, for report/reporters/summary-reporter.ts). */
    lenient?: LenientObservation[];
  }
}

/** Adds the observation to the running test's metadata, once per test (a log may outlive one test). */
function recordInTest(observation: LenientObservation): void {
  const test = currentTest();
  if (!test) return;
  const list = (test.meta.lenient ??= []);
  if (!list.some((o) => o.requirement === observation.requirement && o.observed === observation.observed)) list.push(observation);
}

export class LenientLog {
  private readonly seen = new Map<string, string>();

  constructor(private readonly strict: boolean) {}

  /**
   * The target took a reading other than the first. `text` says what it did, without ids, so repeats
   * collapse; `strictExpectation` is what a strict profile requires instead (none: recorded only).
   */
  note(about: About, text: string, strictExpectation?: string): void {
    if (this.strict && strictExpectation) failPlain(about, `${text}; the strict profile requires ${strictExpectation}`);
    this.seen.set(`${about.req} ${text}`, about.req);
    recordInTest({ requirement: about.req, observed: text, ...(strictExpectation ? { strict: strictExpectation } : {}) });
  }

  get size(): number {
    return this.seen.size;
  }

  /** Records the observations in the report: an Allure parameter and attachment, and one vitest annotation each. */
  async report(annotate?: Annotate): Promise<void> {
    if (this.seen.size === 0) return;
    const lines = [...this.seen.keys()];
    await allure.parameter("LENIENT observations", String(lines.length), { excluded: true });
    await allure.attachment("LENIENT observations", lines.join("\n"), "text/plain");
    for (const line of lines) await annotate?.(`LENIENT ${line}`, "notice");
  }
}

import * as allure from "allure-js-commons";
import { beforeEach, type TestContext } from "vitest";
import { isNotApplicable } from "../not-applicable.js";
import { redactText } from "../redact.js";
import type { FailureCause } from "../../report/reporters/summary-reporter.js";
import { leadingRequirementId, primaryRequirementId, requirementIdsOf, requirements } from "../../catalogue/requirements.js";
import type { RequirementId } from "../../catalogue/requirement-ids.js";

declare module "vitest" {
  /** A test's tags are requirement IDs of the catalogue: those it proves besides the one its title leads with. */
  interface TestTags {
    tags: RequirementId;
  }
  interface TaskMeta {
    /** Requirement IDs this test proves: its title's leading ID, then its tags. */
    requirements?: string[];
    /** Why the test failed, typed (set when it fails; summary.json's `failure`). */
    failure?: FailureCause;
    /** It skipped for an optional part the profile says the target does not offer (summary.json's skipReason). */
    notApplicable?: true;
    /** It asked for the primary user's session, which the run has not got: how the bootstrap failed (harness/run/target.ts). */
    noSession?: "unreachable" | "bootstrap";
  }
}

/** An error as a test's result holds it: serialised, its name, message, own fields and cause kept. */
interface RaisedError {
  name?: unknown;
  message?: string;
  cause?: RaisedError;
}

/** A fast-check property failure whose failing run ended on a requirement check: reported led by that check (below). */
const ledByCheck = (e: RaisedError | undefined): e is RaisedError & { cause: RaisedError } =>
  e?.message?.startsWith("Property failed") === true && e.cause?.name === "CheckFailure";

/**
 * Why a test failed, from the error its report leads with: a requirement check (a CheckFailure, harness/checks.ts,
 * whose message starts with the requirement it proves: it has no field of its own), no usable answer (a
 * TransportError), no session because the bootstrap failed (recorded where it was raised, harness/run/target.ts), a
 * refused bootstrap of a fresh user (a BootstrapError, harness/session/session.ts), or anything else (a timeout, a suite or
 * harness error).
 */
function failureCause(error: RaisedError | undefined, noSession: "unreachable" | "bootstrap" | undefined): FailureCause {
  const check = error?.name === "CheckFailure" ? error : ledByCheck(error) ? error.cause : undefined;
  const requirement = leadingRequirementId(check?.message);
  if (requirement) return { kind: "check", requirement };
  if (error?.name === "TransportError") return { kind: "unreachable" };
  if (noSession) return { kind: noSession };
  if (error?.name === "BootstrapError") return { kind: "bootstrap" };
  return { kind: "error" };
}

type Skip = (condition?: boolean | string, note?: string) => void;
const watched = new WeakSet<object>();

/** Records, as a check skips, that the reason is a not-applicable one (the reports read the record, not the words). */
function watchSkips(context: TestContext): void {
  if (watched.has(context)) return; // a run again after weather keeps its context
  watched.add(context);
  const skip = context.skip as Skip;
  (context as unknown as { skip: Skip }).skip = (condition, note) => {
    if (condition !== false && isNotApplicable(typeof condition === "string" ? condition : note)) context.task.meta.notApplicable = true;
    skip(condition, note);
  };
}

const SEVERITY = { MUST: allure.Severity.CRITICAL, CONVENTION: allure.Severity.NORMAL, LENIENT: allure.Severity.MINOR } as const;

/**
 * Every conformance test names the requirement it proves first at the start of its title, and the others in
 * its tags (`test("CARD-004 a card update …", { tags: ["ERR-001"] }, …)`). Here they become test metadata
 * (for summary.json) and Allure labels: epic = spec part, feature = resource, story and tag = requirement ID,
 * severity from the level, and a link to the spec section. A title that does not lead with an ID, or an ID
 * the catalogue does not know, fails the test.
 */
beforeEach(async ({ task, onTestFailed }) => {
  delete task.meta.failure;
  delete task.meta.notApplicable;
  delete task.meta.noSession;
  watchSkips(task.context);
  // Whatever a failure says (fast-check counterexamples included) passes the worker's redactor before
  // it reaches a reporter: the main process never learns the tokens the checks made up or received.
  onTestFailed(({ task: failed }) => {
    const errors = failed.result?.errors ?? [];
    // The error the report leads with: a test run again after weather keeps every run's errors, and its last run's
    // stands (report/reporters/summary-reporter.ts).
    const leading = (failed.result?.retryCount ?? 0) > 0 ? errors.at(-1) : errors[0];
    failed.meta.failure = failureCause(leading as RaisedError | undefined, failed.meta.noSession);
    for (const error of errors) {
      const e = error as { message?: string; stack?: string; stackStr?: string; diff?: string; cause?: { message?: string } };
      // A failed property reads "Property failed after N tests {seed, path} Counterexample …"; the check that
      // failed is its cause. Lead with that check (its requirement ID first, like every other failure),
      // and keep fast-check's report, with the seed and path that replay it, after it.
      const cause = e.cause?.message;
      if (e.message?.startsWith("Property failed") && cause && leadingRequirementId(cause) !== undefined)
        e.message = `${cause}\n\n${e.message}`;
      for (const key of ["message", "stack", "stackStr", "diff"] as const) if (typeof e[key] === "string") e[key] = redactText(e[key]);
    }
  });
  if (primaryRequirementId(task.name) === undefined)
    throw new Error(`test "${task.name}" does not start with the requirement ID it proves first`);
  const ids = requirementIdsOf(task.name, task.tags);
  const catalogue = requirements();
  const unknown = ids.filter((id) => !catalogue.has(id));
  if (unknown.length > 0)
    throw new Error(`test "${task.name}" names unknown requirement ID(s) ${unknown.join(", ")}: add them to spec/requirements.yaml`);
  task.meta.requirements = ids;
  const first = catalogue.get(ids[0]!)!;
  await allure.epic(first.part);
  await allure.feature(first.resource);
  // One story per test (its primary requirement), so the behaviours tree counts each test once; every
  // requirement it proves is still a tag, a "requirement" label and a link.
  await allure.story(`${ids[0]} ${first.statement}`);
  for (const id of ids) {
    const requirement = catalogue.get(id)!;
    await allure.tag(id);
    await allure.label("requirement", id);
    await allure.link(
      `spec/${requirement.section.startsWith("wire-conventions") ? "wire-conventions" : "banking-api"}.md`,
      `${id}: ${requirement.section}`,
    );
  }
  await allure.severity(SEVERITY[first.level]);
});

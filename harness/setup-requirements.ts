import * as allure from "allure-js-commons";
import { beforeEach } from "vitest";
import { redactText } from "./redact.js";
import { requirementIdsOf, requirements } from "./requirements.js";

declare module "vitest" {
  interface TaskMeta {
    /** Requirement IDs this test proves (from its title). */
    requirements?: string[];
  }
}

const SEVERITY = { MUST: allure.Severity.CRITICAL, CONVENTION: allure.Severity.NORMAL, LENIENT: allure.Severity.MINOR } as const;

/**
 * Every conformance test names the requirements it proves at the start of its title. Here they
 * become test metadata (for summary.json) and Allure labels: epic = spec part, feature = resource,
 * story and tag = requirement ID, severity from the level, and a link to the spec section.
 * A title with no ID, or with an ID the catalogue does not know, fails the test.
 */
beforeEach(async ({ task, onTestFailed }) => {
  // Whatever a failure says (fast-check counterexamples included) passes the worker's redactor before
  // it reaches a reporter: the main process never learns the tokens the checks made up or received.
  onTestFailed(({ task: failed }) => {
    for (const error of failed.result?.errors ?? []) {
      const e = error as { message?: string; stack?: string; stackStr?: string; diff?: string; cause?: { message?: string } };
      // A failed property reads "Property failed after N tests {seed, path} Counterexample …"; the check that
      // failed is its cause. Lead with that check (its requirement ID first, like every other failure),
      // and keep fast-check's report, with the seed and path that replay it, after it.
      const cause = e.cause?.message;
      if (e.message?.startsWith("Property failed") && cause && /^[A-Z]+-\d{3}: /.test(cause)) e.message = `${cause}\n\n${e.message}`;
      for (const key of ["message", "stack", "stackStr", "diff"] as const) if (typeof e[key] === "string") e[key] = redactText(e[key]);
    }
  });
  const ids = requirementIdsOf(task.name);
  if (ids.length === 0) throw new Error(`test "${task.name}" names no requirement ID at the start of its title`);
  const catalogue = requirements();
  const unknown = ids.filter((id) => !catalogue.has(id));
  if (unknown.length > 0) throw new Error(`test "${task.name}" names unknown requirement ID(s) ${unknown.join(", ")}: add them to spec/requirements.yaml`);
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
    await allure.link(`spec/${requirement.section.startsWith("wire-conventions") ? "wire-conventions" : "banking-api"}.md`, `${id}: ${requirement.section}`);
  }
  await allure.severity(SEVERITY[first.level]);
});

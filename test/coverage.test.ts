// The catalogue and the suites agree: every ID a test proves exists and is marked covered by that suite,
// and every covered MUST or CONVENTION requirement has a reference fault that breaks it (or says why not).
import { describe, expect, it } from "vitest";
import { coverageBySuite } from "../catalogue/coverage.js";
import { requirements } from "../catalogue/requirements.js";
import { REQUIREMENT_IDS } from "../catalogue/requirement-ids.js";
import { faultCatalogue } from "../faults/catalogue.js";

const catalogue = requirements();
const coverage = coverageBySuite();
const faultsByRequirement = new Map<string, string[]>();
for (const fault of faultCatalogue())
  faultsByRequirement.set(fault.requirement, [...(faultsByRequirement.get(fault.requirement) ?? []), fault.name]);

describe("requirement coverage", () => {
  it("every requirement ID named by a test exists in spec/requirements.yaml", () => {
    const unknown = [...coverage.keys()].filter((id) => !catalogue.has(id));
    expect(unknown).toEqual([]);
  });

  it("status and coveredBy match the suites (run `npm run catalogue:sync` after adding tests)", () => {
    const wrong: string[] = [];
    for (const requirement of catalogue.values()) {
      const suites = coverage.get(requirement.id);
      const recorded = (requirement as { coveredBy?: string[] }).coveredBy;
      if (suites && (requirement.status !== "covered" || JSON.stringify(recorded) !== JSON.stringify(suites))) {
        wrong.push(
          `${requirement.id}: named by ${suites.join(", ")} but status ${requirement.status}, coveredBy ${JSON.stringify(recorded)}`,
        );
      }
      if (!suites && requirement.status === "covered") wrong.push(`${requirement.id}: status covered but no test names it`);
    }
    expect(wrong).toEqual([]);
  });

  it("the IDs a test's tags may name are the catalogue's (run `npm run catalogue:sync` after changing it)", () => {
    expect([...REQUIREMENT_IDS]).toEqual([...catalogue.keys()]);
  });

  it("every fault breaks a requirement the catalogue knows", () => {
    const unknown = [...faultsByRequirement.keys()].filter((id) => !catalogue.has(id));
    expect(unknown).toEqual([]);
  });

  it("every covered MUST or CONVENTION requirement has a fault that breaks it, or a recorded reason (noFault)", () => {
    const missing = [...catalogue.values()]
      .filter((r) => r.status === "covered" && (r.level === "MUST" || r.level === "CONVENTION"))
      .filter((r) => !faultsByRequirement.has(r.id) && !(r as { noFault?: string }).noFault)
      .map((r) => `${r.id} (${r.level}): ${r.statement}`);
    expect(missing).toEqual([]);
  });
});

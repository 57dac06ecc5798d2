// The run plan (harness/run/run-plan.ts): the one channel from the CLI to vitest.config.ts and the global setup, and
// the default plan of a direct vitest start, built from the environment.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTargetsFile, selectProfile } from "../../harness/profile/profile.js";
import {
  CONFORMANCE_PROJECT,
  planFromEnvironment,
  plannedProjects,
  profilePlan,
  projectPlan,
  runPlan,
  withRunPlan,
} from "../../harness/run/run-plan.js";
import { PROJECT_ROOT } from "../support/spawn-run.js";

const TARGETS = join(PROJECT_ROOT, "targets.yaml");
const reference = selectProfile(loadTargetsFile(TARGETS), "reference");

describe("the run plan", () => {
  it("a profile plan has one project, against the profile with the run's faults, variants and seed merged in (each once)", () => {
    const plan = profilePlan({
      targetsFile: TARGETS,
      profile: { ...reference, faults: ["a"] },
      reportsDir: "out",
      seed: 7,
      faults: ["a", "b"],
      variants: ["v"],
    });
    expect([...plan.projects.keys()]).toEqual([CONFORMANCE_PROJECT]);
    const project = projectPlan(plan, CONFORMANCE_PROJECT);
    expect(project.profile).toMatchObject({ name: "reference", faults: ["a", "b"], variants: ["v"], seed: 7 });
    expect(plan.profile.faults).toEqual(["a"]);
    expect(plan.reportsDir).toBe(join(process.cwd(), "out"));
    expect(() => projectPlan(plan, "fault:x")).toThrow(/no vitest project "fault:x"/);
  });

  it("is handed over for one vitest start only, and a direct start builds the default from the environment", async () => {
    const plan = profilePlan({ targetsFile: TARGETS, profile: reference, reportsDir: "out" });
    const projects = new Map([
      ...plan.projects,
      ["variant:v", { profile: reference, suites: ["headers"], pattern: "(?:^|\\s)HDR-003(?=\\s|$)" }],
    ]);
    await withRunPlan({ ...plan, projects }, async () => {
      expect(runPlan().projects.get("variant:v")?.suites).toEqual(["headers"]);
      expect([...plannedProjects().keys()]).toEqual([CONFORMANCE_PROJECT, "variant:v"]);
    });
    expect([...plannedProjects()]).toEqual([[CONFORMANCE_PROJECT, {}]]);
    const direct = planFromEnvironment({
      CONFORMANCE_TARGETS: TARGETS,
      CONFORMANCE_TARGET: "reference-strict",
      CONFORMANCE_FAULTS: "f1, f2",
      CONFORMANCE_SEED: "3",
      CONFORMANCE_REPORTS: "/tmp/r",
    });
    expect(projectPlan(direct, CONFORMANCE_PROJECT).profile).toMatchObject({ name: "reference-strict", faults: ["f1", "f2"], seed: 3 });
    expect(direct.reportsDir).toBe("/tmp/r");
  });
});

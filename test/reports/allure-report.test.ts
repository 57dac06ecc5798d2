// `conformance report` builds the Allure 3 HTML report from a run's allure-results: a failed check is
// "failed" (a target defect, not "broken"), categorised, with its exchanges attached; the environment
// names the run and holds no secret.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { spawnConformance, type SpawnedRun } from "../support/spawn-run.js";

interface AllureResult {
  name: string;
  status: string;
  statusDetails?: { message?: string };
  steps?: { name: string; attachments?: { name: string }[] }[];
  attachments?: { name: string; source: string }[];
  parameters?: { name: string; value: string; excluded?: boolean }[];
  historyId?: string;
}

let run: SpawnedRun;
const results = () =>
  readdirSync(join(run.reportsDir, "allure-results"))
    .filter((f) => f.endsWith("-result.json"))
    .map((f) => JSON.parse(readFileSync(join(run.reportsDir, "allure-results", f), "utf8")) as AllureResult);

beforeAll(async () => {
  run = await spawnConformance(["run", "authentication", "--fault", "ip-binding-ignored"], { env: { GITHUB_ACTIONS: "false" } });
}, 120_000);

describe("the Allure report", () => {
  it("a failed requirement check is a failed result with its message and the exchanges it made", () => {
    expect(run.code).toBe(1);
    const failed = results().filter((r) => r.status !== "passed");
    // The example check and the property over source addresses both catch the fault.
    expect(failed.length).toBeGreaterThan(0);
    for (const result of failed) expect(result.status, result.name).toBe("failed");
    const example = failed.find((r) => r.name.startsWith("AUTH-011 a session opened from one address"));
    expect(example, failed.map((r) => r.name).join("; ")).toBeDefined();
    expect(example!.statusDetails?.message).toMatch(/^AUTH-011: /);
    // Each exchange is a step named by what was sent and what came back; one attachment holds them all, redacted.
    const steps = (example!.steps ?? []).map((s) => s.name);
    expect(
      steps.some((name) => /^GET \/v1\/user\/\d+\/card → 200$/.test(name)),
      steps.join("; "),
    ).toBe(true);
    const attachment = example!.attachments?.find((a) => a.name === "exchanges");
    expect(attachment, JSON.stringify(example!.attachments)).toBeDefined();
    const shown = JSON.parse(readFileSync(join(run.reportsDir, "allure-results", attachment!.source), "utf8")) as {
      name: string;
      request: { headers: Record<string, string> };
    }[];
    expect(shown.map((e) => e.name)).toEqual(steps.filter((name) => / → \d{3}/.test(name)));
    for (const e of shown) expect(e.request.headers["X-Service-Client-Authentication"] ?? "«redacted»").toBe("«redacted»");
    const categories = JSON.parse(readFileSync(join(run.reportsDir, "allure-results", "categories.json"), "utf8")) as { name: string }[];
    expect(categories.map((c) => c.name)).toContain("Target defects: a requirement check failed");
  });

  it("a property test shows its seed but keeps one history across seeds: the seed is excluded from the history id", () => {
    const seeded = results().filter((r) => r.parameters?.some((p) => p.name === "seed"));
    // authentication has two properties (AUTH-006 over call orders, AUTH-011 over source addresses).
    expect(seeded.map((r) => r.name.slice(0, 8)).sort()).toEqual(["AUTH-006", "AUTH-011"]);
    for (const result of seeded) {
      expect(
        result.parameters!.find((p) => p.name === "seed"),
        result.name,
      ).toMatchObject({ value: "20261122", excluded: true });
    }
  });

  it("conformance report --single-file writes one HTML file; the folder form holds categories and environment", async () => {
    const single = await spawnConformance(
      ["report", "--reports", run.reportsDir, "--single-file", "--output", join(run.reportsDir, "single")],
      { timeoutMs: 120_000 },
    );
    expect(single.code, single.stderr).toBe(0);
    expect(readdirSync(join(run.reportsDir, "single"))).toContain("index.html");
    expect(readFileSync(join(run.reportsDir, "single", "index.html"), "utf8").length).toBeGreaterThan(100_000);

    const folder = await spawnConformance(["report", "--reports", run.reportsDir], { timeoutMs: 120_000 });
    expect(folder.code, folder.stderr).toBe(0);
    expect(folder.stdout).toMatch(/Allure report: .*allure-report\/index\.html \(NOT CONFORMANT\)/);
    const widgets = join(run.reportsDir, "allure-report", "widgets");
    // Allure's own data files: checked loosely, they are its format, not ours.
    if (existsSync(join(widgets, "categories.json")))
      expect(readFileSync(join(widgets, "categories.json"), "utf8")).toContain("Target defects");
    if (existsSync(join(widgets, "allure_environment.json"))) {
      const environment = readFileSync(join(widgets, "allure_environment.json"), "utf8");
      for (const field of ["target", "baseUrl", "suiteVersion", "specVersion", "seed", "node", "ip-binding-ignored"])
        expect(environment).toContain(field);
      expect(environment).not.toMatch(/api-?key|token/i);
    }
  });

  it("without results, report exits 2 with one line", async () => {
    const empty = await spawnConformance(["report", "--reports", join(run.reportsDir, "nothing-here")], { timeoutMs: 30_000 });
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim().split("\n")).toHaveLength(1);
    expect(empty.stderr).toMatch(/no Allure results in .*: run "conformance run"/);
  });
});

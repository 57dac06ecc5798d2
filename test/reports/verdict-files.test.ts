// Every run writes reports/conformance.json and conformance.md with the verdict a vendor can hand on,
// and on GitHub Actions annotates each failure.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "../../report/conformance-types.js";
import { spawnConformance } from "../support/spawn-run.js";

const dir = mkdtempSync(join(tmpdir(), "verdict-files-"));
const env = { GITHUB_ACTIONS: "false" };
const conformance = (reportsDir: string) => JSON.parse(readFileSync(join(reportsDir, "conformance.json"), "utf8")) as ConformanceReport;
const markdown = (reportsDir: string) => readFileSync(join(reportsDir, "conformance.md"), "utf8");
function targets(text: string): string {
  const path = join(dir, `t${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

describe("conformance.json and conformance.md", () => {
  it("a clean run: CONFORMANT, exit 0, with the run's facts and a results hash anyone can recompute", async () => {
    const run = await spawnConformance(["run", "headers"], { env });
    expect(run.code, run.stderr).toBe(0);
    const report = conformance(run.reportsDir);
    expect(report.verdict).toBe("CONFORMANT");
    expect(report.totals.tests.failed).toBe(0);
    expect(report.requirements.length).toBeGreaterThan(0);
    expect(report.requirements.every((r) => r.status === "passed")).toBe(true);
    expect(report.run).toMatchObject({
      target: "reference",
      seed: expect.any(Number),
      scope: { suites: ["headers"], grep: null, shards: null },
    });
    expect(report.run.suiteVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(report.run.profileSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(report.run.finishedAt)).toBeGreaterThanOrEqual(Date.parse(report.run.startedAt));
    expect(report.resultsSha256).toBe(createHash("sha256").update(JSON.stringify(report.tests)).digest("hex"));
    expect(Object.keys(report.levels)).toEqual(["MUST", "CONVENTION", "LENIENT"]);
    expect(report.parts.map((p) => p.part).length).toBeGreaterThan(0);
    const md = markdown(run.reportsDir);
    expect(md.split("\n")[0]).toBe("## Banking API conformance: ✅ CONFORMANT");
    expect(md).not.toContain("### Failures");
    expect(md).toMatch(/<details><summary>\d+ passed<\/summary>/);
    expect(run.stdout).toMatch(/^verdict: CONFORMANT: /m);
  });

  it("a faulty run: NOT CONFORMANT, exit 1, the failed requirement and its message in both files; GitHub Actions annotations", async () => {
    const stepSummary = join(dir, "step-summary.md");
    const run = await spawnConformance(["run", "headers", "--fault", "cache-control-required"], {
      env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: stepSummary },
    });
    expect(run.code).toBe(1);
    const report = conformance(run.reportsDir);
    expect(report.verdict).toBe("NOT CONFORMANT");
    expect(report.run.faults).toEqual(["cache-control-required"]);
    const failed = report.requirements.filter((r) => r.status === "failed");
    expect(failed.map((r) => r.id)).toEqual(["HDR-008"]);
    expect(failed[0]!.failures[0]!.message).toMatch(/^HDR-008: GET .* without Cache-Control: expected HTTP 200, got 400/);
    const md = markdown(run.reportsDir);
    expect(md.split("\n")[0]).toBe("## Banking API conformance: ❌ NOT CONFORMANT");
    expect(md).toMatch(/### Failures\n\n- \*\*HDR-008\*\*: headers > .*HDR-008/);
    expect(md).toContain(failed[0]!.failures[0]!.message);
    expect(md).toMatch(/\| HDR-008 \| MUST \| headers \| ❌ failed \|/);
    // GitHub Actions: one ::error per failure on the suite file, the verdict as a notice, conformance.md in the step summary.
    const errors = run.stdout.split("\n").filter((l) => l.startsWith("::error "));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^::error file=suites\/headers\.test\.ts,title=HDR-008 failed::headers > .*HDR-008.*%0AHDR-008: GET /);
    expect(run.stdout).toMatch(/^::notice title=conformance%3A NOT CONFORMANT::/m);
    expect(readFileSync(stepSummary, "utf8")).toBe(`${md}\n`);
  });

  it("a convention the profile switched off: the failure is a deviation, the verdict CONFORMANT, exit 0", async () => {
    const file = targets(
      "targets:\n  lenient:\n    embedded: true\n    provisioning: sandbox-user\n    sourceAddresses: [127.0.0.1, 127.0.0.2]\n" +
        "    conventionsOff: [HDR-003]\n",
    );
    const run = await spawnConformance(["run", "headers", "--targets", file, "--target", "lenient", "--fault", "request-id-not-echoed"], {
      env,
    });
    expect(run.code, run.stdout).toBe(0);
    const report = conformance(run.reportsDir);
    expect(report.verdict).toBe("CONFORMANT");
    expect(report.requirements.find((r) => r.id === "HDR-003")!.status).toBe("deviation");
    // Every check of the echo (on answers and on refusals) deviates; none fails.
    expect(report.totals.tests.failed).toBe(0);
    expect(report.totals.tests.deviation).toBeGreaterThan(0);
    expect(markdown(run.reportsDir)).toMatch(/### Deviations \(conventions switched off by the profile\)\n\n- \*\*HDR-003\*\*/);
    expect(run.stdout).toMatch(/Deviations \(conventions the profile switched off; they do not fail the run\):\n {2}~ headers > /);
    // The summary still records the raw failure; the verdict is where the profile's choice applies.
    expect(run.summary!.totals.failed).toBe(report.totals.tests.deviation);
  });

  it("required checks skipped: INCOMPLETE, with the skip reason (and exit 0: nothing failed)", async () => {
    const file = targets("targets:\n  ro:\n    embedded: true\n    mode: read-only\n");
    const run = await spawnConformance(["run", "errors", "--targets", file, "--target", "ro"], { env });
    expect(run.code, run.stdout).toBe(0);
    const report = conformance(run.reportsDir);
    expect(report.verdict).toBe("INCOMPLETE");
    const skipped = report.requirements.filter((r) => r.status === "skipped");
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped[0]!.note).toMatch(/read-only/);
    expect(markdown(run.reportsDir).split("\n")[0]).toBe("## Banking API conformance: ⚠️ INCOMPLETE");
  });

  it("a target that never answers: INCOMPLETE (no requirement could be judged), exit 1", async () => {
    const file = targets("targets:\n  down:\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: k\n    timeouts: { requestMs: 2000 }\n");
    const run = await spawnConformance(["run", "headers", "--targets", file], { env, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    const report = conformance(run.reportsDir);
    expect(report.verdict).toBe("INCOMPLETE");
    // The preflight stops before any check: one reason, no requirement failure.
    expect(report.reason).toMatch(/target unreachable: .*connection refused/);
    expect(report.tests).toEqual([]);
  });
});

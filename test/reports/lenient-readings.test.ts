// The verdict counts the LENIENT readings a run observed (a vendor sees what strict would add without
// failing) and states the specification coverage: harness/lenient.ts records each reading in the test's
// metadata, summary.json carries it per test, conformance.json/md and the verdict line count it.
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../report/conformance-markdown.js";
import { buildConformance } from "../../report/conformance-summary.js";
import type { RunInfo } from "../../report/conformance-types.js";
import { lenientReadings } from "../../report/lenient-readings.js";
import { LenientLog } from "../../harness/lenient.js";
import type { RunSummary, TestSummary } from "../../report/reporters/summary-reporter.js";

function test(name: string, lenient?: TestSummary["lenient"]): TestSummary {
  const requirements = name.split(" ").filter((w) => /^[A-Z]+-\d{3}$/.test(w));
  return {
    project: "conformance",
    suite: "pagination",
    name,
    fullName: `pagination > ${name}`,
    status: "passed",
    requirements,
    durationMs: 1,
    ...(lenient ? { lenient } : {}),
  };
}

function summary(tests: TestSummary[]): RunSummary {
  return {
    target: "t",
    suiteVersion: "0",
    startedAt: "2026-11-22T10:00:00.000Z",
    finishedAt: "2026-11-22T10:00:05.000Z",
    durationMs: 5000,
    seed: 1,
    totals: { passed: tests.length, failed: 0, skipped: 0 },
    errors: [],
    tests,
  };
}

const info: RunInfo = {
  target: "t",
  suiteVersion: "0",
  specVersion: "s",
  profileSha256: "0".repeat(64),
  conventionsOff: [],
  faults: [],
  seed: 1,
  startedAt: "2026-11-22T10:00:00.000Z",
  finishedAt: "2026-11-22T10:00:05.000Z",
  node: "v20",
  scope: { suites: "all", grep: null, shards: null },
};

const DESCENDING = { requirement: "PAGE-019", observed: "pages descend by id", strict: "ascending pages" };
const CLAMPED = { requirement: "PAGE-006", observed: "a count above 200 is clamped", strict: "a 4XX refusal" };

describe("LENIENT readings in the verdict", () => {
  it("a LenientLog records each reading once in the running test's metadata, with what strict requires", ({ task }) => {
    const log = new LenientLog(false);
    log.note({ req: "PAGE-019" }, "pages descend by id", "ascending pages");
    log.note({ req: "PAGE-019" }, "pages descend by id", "ascending pages");
    log.note({ req: "PAGE-017" }, "future_url is null");
    expect(task.meta.lenient).toEqual([DESCENDING, { requirement: "PAGE-017", observed: "future_url is null" }]);
  });

  it("readings are counted once per requirement and strict expectation, over every test that saw them", () => {
    const readings = lenientReadings([
      test("PAGE-019 pages are in id order", [DESCENDING]),
      test("PAGE-003 PAGE-019 the first page holds the newest items", [
        DESCENDING,
        { ...DESCENDING, observed: "pages descend by id on /company" },
      ]),
      test("PAGE-006 a count above 200 is refused or clamped", [CLAMPED]),
    ]);
    expect(readings).toEqual([
      {
        requirement: "PAGE-006",
        strict: "a 4XX refusal",
        observed: ["a count above 200 is clamped"],
        tests: ["pagination > PAGE-006 a count above 200 is refused or clamped"],
      },
      {
        requirement: "PAGE-019",
        strict: "ascending pages",
        observed: ["pages descend by id", "pages descend by id on /company"],
        tests: ["pagination > PAGE-019 pages are in id order", "pagination > PAGE-003 PAGE-019 the first page holds the newest items"],
      },
    ]);
  });

  it("a CONFORMANT verdict says how many readings strict would fail, and conformance.md lists them", () => {
    const report = buildConformance(
      summary([test("PAGE-019 pages are in id order", [DESCENDING]), test("PAGE-006 a count above 200 is refused or clamped", [CLAMPED])]),
      info,
    );
    expect(report.verdict).toBe("CONFORMANT");
    expect(report.reason).toBe(
      "all 2 requirements checked passed; 2 LENIENT readings observed (strict would require otherwise: PAGE-006, PAGE-019)",
    );
    expect(report.lenient?.readings).toBe(2);
    const md = renderMarkdown(report);
    expect(md).toContain("### LENIENT readings observed: 2");
    expect(md).toContain("| PAGE-019 | pages descend by id | ascending pages | 1 |");
  });

  it("a run without LENIENT readings keeps its reason and lists none", () => {
    const report = buildConformance(summary([test("PAGE-019 pages are in id order")]), info);
    expect(report.reason).toBe("the one requirement checked passed");
    expect(report.lenient).toEqual({ readings: 0, observations: [] });
    expect(renderMarkdown(report)).not.toContain("LENIENT readings observed");
  });

  it("readings recorded without a strict expectation count once per requirement, apart from those strict would fail", () => {
    const recorded = [
      { requirement: "PAGE-017", observed: "future_url is null" },
      { requirement: "PAGE-017", observed: "future_url is null on /company" },
    ];
    const report = buildConformance(
      summary([test("PAGE-017 future_url is null or a link", recorded), test("PAGE-019 pages are in id order", [DESCENDING])]),
      info,
    );
    expect(report.reason).toBe(
      "all 2 requirements checked passed; 2 LENIENT readings observed (strict would require otherwise: PAGE-019; recorded only: PAGE-017)",
    );
    expect(renderMarkdown(report)).toContain("| PAGE-017 | future_url is null; future_url is null on /company | _(recorded only)_ | 1 |");
  });
});

describe("spec coverage in the verdict", () => {
  it("conformance.json and conformance.md state the specification coverage", () => {
    const report = buildConformance(summary([test("PAGE-019 pages are in id order")]), info);
    const c = report.specCoverage;
    expect(c).toBeDefined();
    expect(c!.observable).toBe(c!.mapped + c!.todo);
    expect(renderMarkdown(report)).toContain(
      `**Spec coverage**: ${c!.percent}% (${c!.mapped} of the specification's ${c!.observable} observable statements map to a requirement`,
    );
  });
});

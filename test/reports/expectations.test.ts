// Expectation baselines (report/expectations.ts): the file format and how a run is judged against it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../harness/profile/config-error.js";
import { buildConformance } from "../../report/conformance-summary.js";
import type { RunInfo } from "../../report/conformance-types.js";
import { applyBaseline, baselineFromReport, loadBaseline, type Baseline } from "../../report/expectations.js";
import type { RunSummary, TestSummary } from "../../report/reporters/summary-reporter.js";

const dir = mkdtempSync(join(tmpdir(), "expectations-"));
function file(text: string): string {
  const path = join(dir, `b${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

function badFile(text: string, pattern: RegExp): void {
  const path = file(text);
  let error: unknown;
  try {
    loadBaseline(path);
  } catch (e) {
    error = e;
  }
  expect(error, text).toBeInstanceOf(ConfigError);
  const message = (error as Error).message;
  expect(message.split("\n"), "one line").toHaveLength(1);
  expect(message.startsWith(path)).toBe(true);
  expect(message).toMatch(pattern);
}

describe("the baseline file", () => {
  it("a valid file loads, with test and requirement entries", () => {
    const baseline = loadBaseline(
      file(
        "target: reference\nexpectations:\n  - requirement: HDR-003\n    reason: ticket 12\n    until: 2027-03-31\n" +
          "  - test: headers > g > HDR-008 x\n    reason: vendor says so\n",
      ),
    );
    expect(baseline.target).toBe("reference");
    expect(baseline.entries).toHaveLength(2);
  });

  it("each mistake is one line naming the file and the entry", () => {
    badFile("expectations:\n  - requirement: HDR-003\n", /expectations\[0\]: field "reason" is missing/);
    badFile("expectations:\n  - reason: r\n", /expectations\[0\]: give exactly one of "test" .* or "requirement"/);
    badFile("expectations:\n  - test: a\n    requirement: HDR-003\n    reason: r\n", /expectations\[0\]: give exactly one/);
    badFile(
      "expectations:\n  - requirement: HDR-003\n    reason: r\n    until: next week\n",
      /expectations\[0\]: field "until": expected a date YYYY-MM-DD, got "next week"/,
    );
    badFile("expectations:\n  - requirement: HDR-003\n    reason: r\n    until: 2027-02-30\n", /2027-02-30 is not a calendar date/);
    badFile("expectations:\n  - requirement: HDR-999\n    reason: r\n", /HDR-999 is not in spec\/requirements.yaml/);
    badFile("expectations:\n  - requirement: HDR-003\n    reason: r\n    colour: blue\n", /unknown field "colour"/);
    badFile(
      "expectations:\n  - requirement: HDR-003\n    reason: a\n  - requirement: HDR-003\n    reason: b\n",
      /expectations\[1\]: requirement HDR-003 is listed twice/,
    );
    badFile("", /the file is empty/);
    badFile("expectations: [", /not valid YAML/);
    badFile("target: x\n", /field "expectations" is missing/);
  });
});

function test(name: string, status: TestSummary["status"], message?: string): TestSummary {
  const requirements = name.split(" ").filter((w) => /^[A-Z]+-\d{3}$/.test(w));
  return {
    project: "conformance",
    suite: "headers",
    name,
    fullName: `headers > g > ${name}`,
    status,
    requirements,
    durationMs: 1,
    ...(message ? { message } : {}),
  };
}
const run: RunInfo = {
  target: "reference",
  suiteVersion: "0",
  specVersion: "s",
  profileSha256: "0",
  conventionsOff: [],
  faults: [],
  seed: 1,
  startedAt: "2026-11-22T10:00:00.000Z",
  finishedAt: "2026-11-22T10:00:01.000Z",
  node: "v20",
  scope: { suites: "all", grep: null, shards: null },
};
function report(tests: TestSummary[]) {
  const summary: RunSummary = {
    target: "reference",
    suiteVersion: "0",
    startedAt: run.startedAt,
    durationMs: 1,
    seed: 1,
    totals: { passed: 0, failed: 0, skipped: 0 },
    errors: [],
    tests,
  };
  return buildConformance(summary, run);
}
const echo = test("HDR-002 HDR-003 ERR-001 echo", "failed", "HDR-003: GET …: expected the header, got no such header");
const cache = test("HDR-008 cache", "failed", "HDR-008: GET …: expected HTTP 200, got 400");
const baseline = (entries: Baseline["entries"]): Baseline => ({ file: "b.yaml", entries });

describe("judging a run against a baseline", () => {
  it("failures the baseline names (by requirement or by full test name) are expected; others are new", () => {
    const result = applyBaseline(report([echo, cache]), baseline([{ requirement: "HDR-003", reason: "r" }]), "2026-11-22");
    expect(result.expected.map((e) => e.test)).toEqual(["headers > g > HDR-002 HDR-003 ERR-001 echo"]);
    expect(result.newFailures).toEqual(["headers > g > HDR-008 cache"]);
    const both = applyBaseline(
      report([echo, cache]),
      baseline([
        { requirement: "HDR-003", reason: "r" },
        { test: "headers > g > HDR-008 cache", reason: "r" },
      ]),
      "2026-11-22",
    );
    expect(both.newFailures).toEqual([]);
  });

  it("an entry whose test or requirement now passes is an unexpected pass; one the run did not check is only noted", () => {
    const result = applyBaseline(
      report([echo, test("HDR-008 cache", "passed")]),
      baseline([
        { requirement: "HDR-003", reason: "r" },
        { test: "headers > g > HDR-008 cache", reason: "r" },
        { requirement: "CARD-001", reason: "r" },
      ]),
      "2026-11-22",
    );
    expect(result.unexpectedPasses).toEqual([
      'unexpected pass: test "headers > g > HDR-008 cache" now passes: remove it from the baseline',
    ]);
    expect(result.notRun).toEqual(["requirement CARD-001: not run in this run"]);
  });

  it("an entry is valid through its until: day; after it, it is expired and excuses nothing", () => {
    const entries = baseline([{ requirement: "HDR-003", reason: "r", until: "2026-11-22" }]);
    expect(applyBaseline(report([echo]), entries, "2026-11-22").expired).toEqual([]);
    const late = applyBaseline(report([echo]), entries, "2026-11-23");
    expect(late.expired[0]).toMatch(/^expired: requirement HDR-003 \(until 2026-11-22/);
    expect(late.newFailures).toHaveLength(1);
  });

  it("update keeps the entries that still apply, adds the new failures and drops what now passes", () => {
    const previous: Baseline = {
      file: "b.yaml",
      entries: [
        { requirement: "HDR-003", reason: "ticket 12", until: "2027-01-01" },
        { test: "headers > g > HDR-006 gone", reason: "fixed" },
      ],
    };
    const { text, kept, added, dropped } = baselineFromReport(report([echo, cache, test("HDR-006 gone", "passed")]), previous);
    expect({ kept, added, dropped }).toEqual({ kept: 1, added: 1, dropped: ['test "headers > g > HDR-006 gone"'] });
    const written = parseYaml(text) as { target: string; expectations: { test?: string; requirement?: string; reason: string }[] };
    expect(written.target).toBe("reference");
    expect(written.expectations[0]).toEqual({ requirement: "HDR-003", reason: "ticket 12", until: "2027-01-01" });
    expect(written.expectations[1]!.test).toBe("headers > g > HDR-008 cache");
    expect(written.expectations[1]!.reason).toMatch(/^failing since 2026-11-22: HDR-008: GET/);
    expect(loadBaseline(file(text)).entries).toHaveLength(2);
  });
});

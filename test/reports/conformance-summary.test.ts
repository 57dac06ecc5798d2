// The verdict rules (report/verdict-rule.ts, as report/conformance-summary.ts applies them) on hand-made summaries (no server needed).
import { describe, expect, it } from "vitest";
import { buildConformance, canonicalJson, sha256 } from "../../report/conformance-summary.js";
import type { RunInfo } from "../../report/conformance-types.js";
import { blamedBy, judgeFailure } from "../../report/failure-blame.js";
import { renderMarkdown } from "../../report/conformance-markdown.js";
import type { RunSummary, TestSummary } from "../../report/reporters/summary-reporter.js";

function test(name: string, status: TestSummary["status"], message?: string, suite = "headers"): TestSummary {
  const requirements = name.split(" ").filter((w) => /^[A-Z]+-\d{3}$/.test(w));
  return {
    project: "conformance",
    suite,
    name,
    fullName: `${suite} > group > ${name}`,
    status,
    requirements,
    durationMs: 1,
    ...(message ? { message } : {}),
  };
}

function summary(tests: TestSummary[], errors: string[] = []): RunSummary {
  const count = (s: string) => tests.filter((t) => t.status === s).length;
  return {
    target: "t",
    suiteVersion: "0",
    startedAt: "2026-11-22T10:00:00.000Z",
    finishedAt: "2026-11-22T10:00:05.000Z",
    durationMs: 5000,
    seed: 1,
    totals: { passed: count("passed"), failed: count("failed"), skipped: count("skipped") },
    errors,
    tests,
  };
}

function info(conventionsOff: string[] = [], scope: Partial<RunInfo["scope"]> = {}): RunInfo {
  return {
    target: "t",
    suiteVersion: "0",
    specVersion: "s",
    profileSha256: "0".repeat(64),
    conventionsOff,
    faults: [],
    seed: 1,
    startedAt: "2026-11-22T10:00:00.000Z",
    finishedAt: "2026-11-22T10:00:05.000Z",
    node: "v20",
    scope: { suites: "all", grep: null, shards: null, ...scope },
  };
}

const ECHO = "HDR-002 HDR-003 ERR-001 a request id reused is refused, and each id is echoed";
const ECHO_FAILS = "HDR-003: GET /v1/user/1/card: expected the response header X-Service-Client-Request-Id, got no such header";

describe("blame", () => {
  it("a failure message starting with a named requirement blames that one; any other message blames every named one", () => {
    expect(blamedBy(ECHO_FAILS, ["HDR-002", "HDR-003", "ERR-001"])).toEqual(["HDR-003"]);
    expect(blamedBy("Test timed out in 60000ms", ["HDR-002", "HDR-003"])).toEqual(["HDR-002", "HDR-003"]);
    expect(blamedBy("CARD-001: not named by the test", ["HDR-002"])).toEqual(["HDR-002"]);
  });
});

describe("verdicts", () => {
  it("CONFORMANT when every requirement checked passed", () => {
    const report = buildConformance(summary([test("HDR-008 requests without Cache-Control are served", "passed")]), info());
    expect(report.verdict).toBe("CONFORMANT");
    expect(report.complete).toBe(true);
  });

  it("NOT CONFORMANT when a check fails; only the blamed requirement fails", () => {
    const report = buildConformance(
      summary([test(ECHO, "failed", ECHO_FAILS), test("HDR-002 ERR-001 reuse on session-server is refused", "passed")]),
      info(),
    );
    expect(report.verdict).toBe("NOT CONFORMANT");
    const status = Object.fromEntries(report.requirements.map((r) => [r.id, r.status]));
    expect(status).toEqual({ "HDR-002": "passed", "HDR-003": "failed", "ERR-001": "passed" });
    expect(report.levels.CONVENTION.failed).toBe(1);
  });

  it("a failing CONVENTION the profile switched off is a deviation: CONFORMANT, and the failing test is no failure", () => {
    const report = buildConformance(
      summary([test(ECHO, "failed", ECHO_FAILS), test("HDR-002 ERR-001 reuse on session-server is refused", "passed")]),
      info(["HDR-003"]),
    );
    expect(report.verdict).toBe("CONFORMANT");
    expect(report.requirements.find((r) => r.id === "HDR-003")!.status).toBe("deviation");
    expect(report.tests.filter((t) => t.outcome === "failed")).toEqual([]);
    expect(report.totals.tests.deviation).toBe(1);
  });

  it("a MUST listed in conventionsOff still fails", () => {
    const report = buildConformance(
      summary([test("HDR-008 requests without Cache-Control are served", "failed", "HDR-008: GET …: expected HTTP 200, got 400")]),
      info(["HDR-008"]),
    );
    expect(report.verdict).toBe("NOT CONFORMANT");
  });

  it("INCOMPLETE when a required requirement was only skipped, or a suite file broke, or nothing ran", () => {
    const skipped = buildConformance(
      summary([
        test("ERR-005 ERR-001 a malformed body is refused", "skipped", "the profile is read-only (mode: read-only): this check writes"),
        test("ERR-001 ERR-007 an unknown path is refused", "passed"),
      ]),
      info(),
    );
    expect(skipped.verdict).toBe("INCOMPLETE");
    expect(skipped.reason).toMatch(/ERR-005/);
    expect(skipped.requirements.find((r) => r.id === "ERR-005")!.note).toMatch(/read-only/);
    expect(buildConformance(summary([test("HDR-008 x", "passed")], ["cards: SyntaxError"]), info()).verdict).toBe("INCOMPLETE");
    expect(buildConformance(summary([]), info()).verdict).toBe("INCOMPLETE");
  });

  it("INCOMPLETE when the target never answered (connection refused everywhere); NOT CONFORMANT when the bootstrap was refused", () => {
    const down = "no session for the primary user: session bootstrap: POST /v1/installation: connection refused (ECONNREFUSED)";
    expect(buildConformance(summary([test("HDR-008 x", "failed", down), test("HDR-001 y", "failed", down)]), info()).verdict).toBe(
      "INCOMPLETE",
    );
    const refused =
      "no session for the primary user: session bootstrap, installation: POST /v1/installation: expected 200 with a Token, got 400 {}";
    const report = buildConformance(summary([test("HDR-008 x", "failed", refused)]), info());
    expect(report.verdict).toBe("NOT CONFORMANT");
    expect(report.tests[0]!.kind).toBe("bootstrap");
  });

  it("tests a --grep or --requirement selection left out do not count", () => {
    const report = buildConformance(
      summary([{ ...test("HDR-001 z", "skipped", "skipped"), notSelected: true }, test("HDR-008 x", "passed")]),
      info([], { grep: "HDR-008" }),
    );
    expect(report.verdict).toBe("CONFORMANT");
    expect(report.requirements.map((r) => r.id)).toEqual(["HDR-008"]);
    expect(report.complete).toBe(false);
  });
});

describe("typed outcomes (summary.json's failure and skipReason): decided on the fields, never on the words", () => {
  const named = ["HDR-002", "HDR-003", "ERR-001"];
  const failedWith = (failure: TestSummary["failure"], message: string, name = "HDR-008 x"): TestSummary => ({
    ...test(name, "failed", message),
    ...(failure ? { failure } : {}),
  });

  it("a check blames its requirement when the test names it; the message's words do not matter", () => {
    expect(
      judgeFailure({ requirements: named, failure: { kind: "check", requirement: "HDR-003" }, message: "no requirement here" }),
    ).toEqual({ blamed: ["HDR-003"], kind: "defect" });
    // Words that read like a requirement or like weather change nothing once the cause is typed.
    expect(judgeFailure({ requirements: named, failure: { kind: "error" }, message: "HDR-003: connection refused" })).toEqual({
      blamed: named,
      kind: "broken",
    });
    expect(judgeFailure({ requirements: named, failure: { kind: "check", requirement: "CARD-001" }, message: "" })).toEqual({
      blamed: named,
      kind: "broken",
    });
    expect(judgeFailure({ requirements: ["HDR-008"], failure: { kind: "check", requirement: "CARD-001" }, message: "" })).toEqual({
      blamed: ["HDR-008"],
      kind: "defect",
    });
    expect(judgeFailure({ requirements: named, broken: "transport", failure: { kind: "unreachable" } })).toEqual({
      blamed: [],
      kind: "transport",
    });
  });

  it("an unreachable target is INCOMPLETE and a refused bootstrap NOT CONFORMANT by the recorded cause, whatever the message says", () => {
    const down = buildConformance(
      summary([
        failedWith({ kind: "unreachable" }, "no session for the primary user: the target said something new"),
        failedWith({ kind: "unreachable" }, "??", "HDR-001 y"),
      ]),
      info(),
    );
    expect(down.verdict).toBe("INCOMPLETE");
    const refused = buildConformance(
      summary([failedWith({ kind: "bootstrap" }, "no session for the primary user: POST /v1/installation: connection refused")]),
      info(),
    );
    expect(refused.verdict).toBe("NOT CONFORMANT");
    expect(refused.tests[0]!.kind).toBe("bootstrap");
  });

  it("a skip is not applicable by its skipReason; a summary from before skipReason is read by its prefix", () => {
    const skipped = (reason: TestSummary["skipReason"], message: string): TestSummary => ({
      ...test("ERR-005 x", "skipped", message),
      ...(reason ? { skipReason: reason } : {}),
    });
    const passing = test("ERR-001 y", "passed");
    expect(buildConformance(summary([skipped("not-applicable", "capability x is off"), passing]), info()).verdict).toBe("CONFORMANT");
    expect(buildConformance(summary([skipped("precondition", "not applicable: but not recorded as such"), passing]), info()).verdict).toBe(
      "INCOMPLETE",
    );
    expect(
      buildConformance(summary([skipped(undefined, "not applicable: capability x is off in the profile"), passing]), info()).verdict,
    ).toBe("CONFORMANT");
  });

  it("a summary written before typed failures is judged by its messages, as it was then", () => {
    const old = buildConformance(summary([test(ECHO, "failed", ECHO_FAILS)]), info());
    expect(old.tests[0]).toMatchObject({ blamed: ["HDR-003"], kind: "defect" });
  });
});

describe("conformance.json and .md", () => {
  it("the results hash is the SHA-256 of the canonical tests array, independent of order and timing", () => {
    const a = test("HDR-008 x", "passed");
    const b = test("HDR-001 y", "failed", "HDR-001: GET …: expected a 4XX status, got 200");
    const one = buildConformance(summary([a, b]), info());
    const two = buildConformance(summary([{ ...b, durationMs: 99 }, a]), info());
    expect(one.resultsSha256).toBe(two.resultsSha256);
    expect(one.resultsSha256).toBe(sha256(JSON.stringify(JSON.parse(JSON.stringify(one)).tests)));
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
  });

  it("the Markdown has a verdict line, the failures with their messages, a section per part and passes folded away", () => {
    const md = renderMarkdown(
      buildConformance(
        summary([test(ECHO, "failed", ECHO_FAILS), test("HDR-008 requests without Cache-Control are served", "passed")]),
        info([], { suites: ["headers"] }),
      ),
    );
    expect(md.split("\n")[0]).toBe("## Banking API conformance: ❌ NOT CONFORMANT");
    expect(md).toContain("### Failures");
    expect(md).toContain(ECHO_FAILS);
    expect(md).toMatch(/### Endpoints: \d+ passed, 1 failed/);
    expect(md).toMatch(/<details><summary>\d+ passed<\/summary>/);
    expect(md).toContain("Partial run (suites headers)");
  });

  it("a message holding backticks cannot break out of its code block", () => {
    const md = renderMarkdown(buildConformance(summary([test("HDR-008 x", "failed", "HDR-008: got ```\n# injected")]), info()));
    expect(md).toContain("  ````\n  HDR-008: got ```\n  # injected\n  ````");
  });
});

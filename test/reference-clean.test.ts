// The whole conformance suite against the clean embedded reference: zero failures, every report written, and every
// list walked past its first page, the fixture-backed ones included.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../harness/endpoints.js";
import { spawnConformance, type SpawnedRun } from "./support/spawn-run.js";
import { SWEEPS } from "../catalogue/sweeps.js";
import { sweepMatrix } from "../cli/sweep-matrix.js";

let run: SpawnedRun;
beforeAll(async () => {
  run = await spawnConformance(["run"]);
}, 600_000);

interface HarEntry {
  request: { method: string; url: string };
  response: { status: number; content: { text?: string } };
}

/** How many items an answer's Response holds (1 where the text is cut short and no longer parses). */
function parsedItems(text: string | undefined): number {
  try {
    return (JSON.parse(text ?? "{}") as { Response?: unknown[] }).Response?.length ?? 0;
  } catch {
    return 1;
  }
}

/** The list path templates a page reached by a cursor (older_id or newer_id) was read from with at least one item, by user. */
function walkedPastFirstPage(reportsDir: string): Map<string, Set<string>> {
  const har = JSON.parse(readFileSync(join(reportsDir, "exchanges.har"), "utf8")) as { log: { entries: HarEntry[] } };
  const lists = ENDPOINTS.filter((e) => e.method === "GET" && !e.path.includes("{itemId}")).map((e) => ({
    template: e.path,
    pattern: new RegExp(`^/v1${e.path.replace(/\{[^}]+\}/g, "(\\d+)")}$`),
  }));
  const walked = new Map<string, Set<string>>();
  for (const { request, response } of har.log.entries) {
    const url = new URL(request.url);
    if (request.method !== "GET" || response.status !== 200) continue;
    if (!url.searchParams.has("older_id") && !url.searchParams.has("newer_id")) continue;
    const list = lists.find((l) => l.pattern.test(url.pathname));
    // The HAR keeps at most 64 KB of a body: a longer answer's text is cut, and counts as a page of items.
    const items = parsedItems(response.content.text);
    if (!list || items === 0) continue;
    const user = list.pattern.exec(url.pathname)![1]!;
    walked.set(list.template, (walked.get(list.template) ?? new Set()).add(user));
  }
  return walked;
}

describe("the conformance suite against the clean reference", () => {
  it("passes with zero failures and writes allure-results, junit.xml and summary.json", () => {
    expect(run.summary, `no summary.json; stderr: ${run.stderr.slice(-2000)}`).toBeDefined();
    const failures = run.summary!.tests.filter((t) => t.status === "failed").map((t) => `${t.name}: ${t.message}`);
    expect(failures).toEqual([]);
    expect(run.summary!.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.summary!.totals.passed).toBeGreaterThan(0);
    expect(run.summary!.tests.every((t) => t.requirements.length > 0)).toBe(true);
    expect(readdirSync(join(run.reportsDir, "allure-results")).some((f) => f.endsWith("-result.json"))).toBe(true);
    expect(readFileSync(join(run.reportsDir, "junit.xml"), "utf8")).toContain("<testsuites");
    expect(existsSync(join(run.reportsDir, "summary.json"))).toBe(true);
    expect(run.stdout).toMatch(/conformance: \d+ passed, 0 failed/);
  });

  // A rule broken only on a long list passes unseen unless some walk reaches a second page of it. Lists the API gives no
  // way to add to (cards, share invites) must be walked on the primary's fixture data too, not only on a fresh user's short
  // list. The reference numbers users in order of creation, so the primary (made first) has the smallest user id.
  it("walks every list the target serves past its first page, and the primary's fixture-backed lists too", () => {
    const walked = walkedPastFirstPage(run.reportsDir);
    const lists = ENDPOINTS.filter((e) => e.method === "GET" && !e.path.includes("{itemId}"));
    expect(
      lists.filter((l) => !walked.has(l.path)).map((l) => l.path),
      "lists never walked past a first page",
    ).toEqual([]);
    const users = [...walked.values()].flatMap((u) => [...u]).map(Number);
    const primary = String(Math.min(...users));
    const fixtureBacked = lists.filter((l) => !ENDPOINTS.some((e) => e.method === "POST" && e.path === l.path));
    expect(fixtureBacked.length, "lists without a create endpoint").toBeGreaterThan(0);
    expect(
      fixtureBacked.filter((l) => !walked.get(l.path)?.has(primary)).map((l) => l.path),
      `fixture-backed lists not walked past a first page on the primary user ${primary}`,
    ).toEqual([]);
  });

  // The sweeps try one shape of bug everywhere it applies: the object-level ones reach every endpoint and method.
  it("reaches every endpoint with a sweep, and every endpoint and method with the userID sweeps (coverage --sweeps)", () => {
    const table = sweepMatrix(run.reportsDir);
    expect(table).toContain("Every endpoint was reached by a sweep.");
    const columns = SWEEPS.map((s, i) => [s.requirement, i] as const);
    for (const [requirement, i] of columns.filter(([r]) => r === "AUTH-015" || r === "AUTH-022")) {
      const rows = table.split("\n").filter((l) => /^(GET|POST|PUT|DELETE) /.test(l));
      const missed = rows.filter((l) => l.split(/\s+/).slice(2, 2 + SWEEPS.length)[i] !== "x").map((l) => l.split("  ")[0]);
      expect(missed, `endpoints the ${requirement} sweep did not reach`).toEqual([]);
    }
  });
});

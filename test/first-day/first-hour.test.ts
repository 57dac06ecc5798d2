// A vendor's first hour: a typo in the profile reads as a typo (exit 2, a few lines naming the field), a dead
// target as INCOMPLETE in a few lines, a selection that matches nothing exits 2, every failure says how to
// replay it alone (and the replay does), the exchanges land in a valid HAR without secrets, and the shipped
// `local` profile against a standalone reference skips nothing the embedded run does not.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml, stringify } from "yaml";
import { PROJECT_ROOT, spawnConformance } from "../support/spawn-run.js";
import { NOT_RUN_NOTE } from "../../harness/http/transport-limit.js";
import { startReferenceServer, type RunningReference } from "../../reference/server.js";
import { runReference } from "../chaos/support.js";

let server: RunningReference;
let dir: string;

/** A targets file holding the shipped `local` profile, aimed at this test's standalone server, plus `extra` profiles. */
function targetsFile(extra: Record<string, unknown> = {}): string {
  const shipped = parseYaml(readFileSync(join(PROJECT_ROOT, "targets.yaml"), "utf8")) as {
    targets: Record<string, Record<string, unknown>>;
  };
  const local = { ...shipped.targets.local, baseUrl: server.baseUrl, apiKey: server.apiKey };
  const file = join(dir, `targets-${Object.keys(extra).join("-") || "local"}.yaml`);
  writeFileSync(file, stringify({ default: "local", targets: { local, ...extra } }));
  return file;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The words of a POSIX shell command line made of plain words and single-quoted ones. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g))
    words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!);
  return words;
}

const outputLines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");

beforeAll(async () => {
  server = await startReferenceServer({ apiKey: "reference-primary-key" });
  dir = mkdtempSync(join(tmpdir(), "first-hour-"));
});
afterAll(async () => server?.close());

describe("a vendor's first hour", () => {
  it("a wrong apiKey ends within 5 s with exit 2 and at most 5 lines that name the key", async () => {
    const file = targetsFile({
      typo: { baseUrl: server.baseUrl, apiKey: "not-the-key", provisioning: "sandbox-user", sourceAddresses: ["127.0.0.1"] },
    });
    const run = await spawnConformance(["run", "--targets", file, "--target", "typo"], { timeoutMs: 30_000 });
    const lines = outputLines(`${run.stdout}${run.stderr}`);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(5);
    expect(lines.join("\n")).toMatch(/apiKey/);
    expect(lines.join("\n")).not.toContain("not-the-key");
    expect(run.durationMs).toBeLessThan(5_000);
  });

  it("a port with nothing listening ends within 10 s, INCOMPLETE, in at most 10 lines", async () => {
    const port = await freePort();
    const file = targetsFile({ dead: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "any-key-at-all" } });
    const run = await spawnConformance(["run", "--targets", file, "--target", "dead"], { timeoutMs: 30_000 });
    const lines = outputLines(`${run.stdout}${run.stderr}`);
    expect(run.code).toBe(1);
    expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(10);
    expect(run.stdout).toMatch(/verdict: INCOMPLETE: target unreachable/);
    const verdict = JSON.parse(readFileSync(join(run.reportsDir, "conformance.json"), "utf8")) as { verdict: string };
    expect(verdict.verdict).toBe("INCOMPLETE");
    expect(run.durationMs).toBeLessThan(10_000);
  });

  it("a target going silent mid-run: after maxTransportErrors unanswered requests the rest is not run, said once, INCOMPLETE", async () => {
    // Every request after the first 400 is dropped on arrival: the target died while the suite was running.
    let seen = 0;
    const { run, proxy } = await runReference({
      chaos: { rate: 0, seed: 1, persistent: () => (++seen > 400 ? "drop" : undefined) },
      // concurrency 4: at most 4 tests of a file at once and 16 connections a worker, so what can be in flight when the
      // target dies (4 workers × 16) plus what each worker counts before giving up (4 × 5) stays under the bound below.
      profile: { maxTransportErrors: 5, concurrency: 4 },
      timeoutMs: 120_000,
    });
    const summary = run.summary!;
    const notRun = summary.tests.filter((t) => t.notRun === "target-stopped-answering");
    expect(notRun.length, run.stdout.slice(-3000)).toBeGreaterThan(0);
    expect(summary.tests.filter((t) => t.status === "passed").length).toBeGreaterThan(0);
    for (const test of notRun) expect(test).toMatchObject({ status: "skipped", message: NOT_RUN_NOTE });
    // No rule is blamed for the silence: nothing failed but tests broken by transport.
    expect(summary.tests.filter((t) => t.status === "failed" && !t.broken).map((t) => t.name)).toEqual([]);
    const verdict = JSON.parse(readFileSync(join(run.reportsDir, "conformance.json"), "utf8")) as { verdict: string; reason: string };
    expect(verdict).toMatchObject({
      verdict: "INCOMPLETE",
      reason: expect.stringMatching(/stopped answering during the run: \d+ tests? not run .*maxTransportErrors/) as unknown,
    });
    // Said once in the closing summary: one grouped skip line with its count, not a line per test.
    const grouped = run.stdout.split("\n").filter((l) => /^\s+\d+ × /.test(l) && l.includes(NOT_RUN_NOTE));
    expect(grouped, run.stdout.slice(-3000)).toEqual([`  ${String(notRun.length).padStart(3)} × ${NOT_RUN_NOTE}`]);
    // Nothing more was sent once every worker had given up: what was in flight and a handful of drops per worker, not one
    // per test (a run sends some 5,000 requests; a resend after a drop is not sent to a target given up on).
    expect(proxy!.injected.persistent, JSON.stringify(proxy)).toBeLessThan(100);
  });

  it("--grep that matches nothing exits 2 with one line saying so", async () => {
    const run = await spawnConformance(["run", "headers", "--grep", "nothing-matches-this-pattern"], { timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--grep "nothing-matches-this-pattern" selects no test/);
  });

  it("every failure prints a rerun command that replays it alone; the exchanges are a HAR 1.2 without secrets", async () => {
    const run = await spawnConformance(["run", "authentication", "--fault", "ip-binding-ignored"], { timeoutMs: 120_000 });
    expect(run.code).toBe(1);
    const failures = run.stdout.split("\n").filter((l) => l.startsWith("  ✗ "));
    const reruns = run.stdout
      .split("\n")
      .filter((l) => l.trim().startsWith("rerun: "))
      .map((l) => l.trim().slice("rerun: ".length));
    expect(failures.length).toBeGreaterThan(0);
    expect(reruns.length, run.stdout).toBe(failures.length);
    for (const rerun of reruns)
      expect(rerun).toMatch(/^npx conformance run authentication --target reference --seed \d+ --fault ip-binding-ignored --test /);
    expect(run.stdout).toMatch(/curl: {2}curl -sS -i -X GET .* "X-Service-Client-Authentication: \$CONFORMANCE_SESSION_TOKEN"/);
    expect(readFileSync(join(run.reportsDir, "conformance.md"), "utf8")).toContain(reruns[0]!);
    expect(readFileSync(join(run.reportsDir, "junit.xml"), "utf8")).toContain("rerun: npx conformance run authentication");

    const words = shellWords(reruns[0]!);
    expect(words.slice(0, 2)).toEqual(["npx", "conformance"]);
    const again = await spawnConformance(words.slice(2), { timeoutMs: 120_000 });
    expect(again.code, again.stdout.slice(-2000)).toBe(1);
    expect(again.summary!.tests.filter((t) => t.status === "failed").length).toBe(1);
    expect(again.summary!.tests.filter((t) => !t.notSelected).length).toBe(1);

    const har = JSON.parse(readFileSync(join(run.reportsDir, "exchanges.har"), "utf8")) as {
      log: { version: string; creator: unknown; entries: Record<string, unknown>[] };
    };
    const logged = readFileSync(join(run.reportsDir, "exchanges.ndjson"), "utf8").split("\n").filter(Boolean).length;
    expect(har.log.version).toBe("1.2");
    expect(har.log.creator).toBeDefined();
    expect(har.log.entries.length).toBe(logged);
    expect(har.log.entries.length).toBeGreaterThan(50);
    for (const entry of har.log.entries.slice(0, 20)) {
      expect(Object.keys(entry)).toEqual(expect.arrayContaining(["startedDateTime", "time", "request", "response", "cache", "timings"]));
    }
    const text = JSON.stringify(har);
    expect(text).not.toContain("reference-primary-key");
    expect(text).not.toMatch(/"(?:token|secret|api_key)":"(?!«)[^"]+"/);
    expect(text).not.toMatch(/Client-Authentication","value":"(?!«)/);
  });

  it("the shipped local profile against a standalone reference skips nothing the embedded run does not", async () => {
    const [local, embedded] = await Promise.all([
      spawnConformance(["run", "--targets", targetsFile(), "--target", "local"], { timeoutMs: 240_000 }),
      spawnConformance(["run"], { timeoutMs: 240_000 }),
    ]);
    expect(local.summary, local.stderr.slice(-2000)).toBeDefined();
    expect(embedded.summary, embedded.stderr.slice(-2000)).toBeDefined();
    const skippedIn = (s: NonNullable<typeof local.summary>) =>
      new Set(s.tests.filter((t) => t.status === "skipped").map((t) => t.fullName));
    const embeddedSkips = skippedIn(embedded.summary!);
    const extra = [...skippedIn(local.summary!)].filter((name) => !embeddedSkips.has(name));
    expect(extra, "skipped against the local profile only").toEqual([]);
    expect(local.summary!.tests.filter((t) => t.status === "failed").map((t) => `${t.name}: ${t.message}`)).toEqual([]);
    // Each test counts once in the Allure behaviours tree (one story), and titles are unique.
    const names = embedded.summary!.tests.map((t) => t.fullName);
    expect(
      names.filter((n, i) => names.indexOf(n) !== i),
      "test titles given twice",
    ).toEqual([]);
    const results = readdirSync(join(embedded.reportsDir, "allure-results")).filter((f) => f.endsWith("-result.json"));
    const stories = results.map(
      (f) =>
        (JSON.parse(readFileSync(join(embedded.reportsDir, "allure-results", f), "utf8")) as { labels: { name: string }[] }).labels.filter(
          (l) => l.name === "story",
        ).length,
    );
    expect(stories.filter((n) => n !== 1).length, "Allure results with other than one story").toBe(0);
  });
});

// `conformance list` and requirement-level selection: `run --requirement`, `--exclude-destructive`.
import { describe, expect, it } from "vitest";
import type { Listing } from "../cli/commands/list.js";
import { requirementIdsIn, requirements } from "../catalogue/requirements.js";
import { destructiveRequirements, expandRequirements, testNamePattern } from "../catalogue/selection.js";
import { spawnConformance } from "./support/spawn-run.js";
import { suiteFileNames, suiteTitles, titlesIn } from "../catalogue/test-titles.js";

async function configError(args: string[], pattern: RegExp): Promise<void> {
  const run = await spawnConformance(args, { timeoutMs: 60_000 });
  expect(run.code, run.stderr).toBe(2);
  const lines = run.stderr.trim().split("\n");
  expect(lines, "exactly one line on stderr").toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe("test titles from the suite sources", () => {
  it("reads test, test.for, it and describe titles, joined literals and template parts, the leading ID and the tags", () => {
    const source = [
      'describe("reading cards", () => {',
      '  test("CARD-001 the list answers", { tags: ["ERR-001", "PAGE-001"] }, async () => {});',
      "  it(`CARD-002 a read of ${id} answers`, async () => {});",
      '  test.for(rows.map((r) => [r.id, r]))("%s a PUT with %s is refused", { tags: ["ERR-001"] }, async () => {});',
      "  test.skipIf(!ok)(",
      '    "PAGE-003 a multi-line " +',
      '      "call",',
      '    { timeout: 5, tags: "ERR-002" },',
      "    async () => {},",
      "  );",
      '  const x = latest("not a title");',
      "});",
    ].join("\n");
    const titles = titlesIn("demo", source);
    expect(titles.map((t) => [t.kind, t.title, t.requirements, t.tags, t.dynamic])).toEqual([
      ["describe", "reading cards", [], [], false],
      ["test", "CARD-001 the list answers", ["CARD-001", "ERR-001", "PAGE-001"], ["ERR-001", "PAGE-001"], false],
      ["test", "CARD-002 a read of ${id} answers", ["CARD-002"], [], false],
      ["test", "%s a PUT with %s is refused", ["ERR-001"], ["ERR-001"], true],
      ["test", "PAGE-003 a multi-line call", ["PAGE-003", "ERR-002"], ["ERR-002"], false],
    ]);
  });

  // The requirement pattern matches the leading ID as a whole word anywhere in "<file> <describe…> <title>":
  // exact only while no describe or title names an ID anywhere else. The others a test proves go in its tags.
  it("a test title names one requirement ID, at its start, and a describe names none", () => {
    const strays = suiteTitles().flatMap((t) => {
      const ids = requirementIdsIn(t.kind === "test" && !t.dynamic ? t.title.slice(t.requirements[0]?.length ?? 0) : t.title);
      const lead = t.kind === "test" && !t.dynamic && t.requirements.length === 0 ? ["(none at its start)"] : [];
      return ids.length + lead.length > 0 ? [`${t.suite}:${t.line} ${t.kind} "${t.title}" names ${[...lead, ...ids].join(", ")}`] : [];
    });
    expect(strays, "lead the title with the ID it proves first, and name the others in its tags").toEqual([]);
  });
});

describe("requirement selection", () => {
  it("expands IDs and wildcards against the catalogue, case-insensitively and comma-separated", () => {
    const pageIds = [...requirements().keys()].filter((id) => id.startsWith("PAGE-"));
    expect(expandRequirements(["PAGE-*"], "run")).toEqual(pageIds);
    expect(expandRequirements(["card-004,HDR-001", "CARD-004"], "run")).toEqual(["HDR-001", "CARD-004"]);
    expect(expandRequirements(["HDR-00?"], "run").every((id) => /^HDR-00\d$/.test(id))).toBe(true);
    expect(() => expandRequirements(["CARD-999"], "run")).toThrow(/unknown requirement "CARD-999"/);
    expect(() => expandRequirements(["NOPE-*"], "run")).toThrow(/no requirement matches "NOPE-\*"/);
    expect(() => expandRequirements(["/.*/"], "run")).toThrow(/is not a requirement ID or wildcard/);
  });

  it("builds one test-name pattern from --requirement, --exclude-destructive and --grep, tags included", () => {
    const titles = titlesIn(
      "cards",
      [
        'test("CARD-001 the list pages", { tags: ["PAGE-001"] }, async () => {});',
        'test("CARD-013 a permanent state (strict: exactly 400)", { tags: ["CARD-014"] }, async () => {});',
        'test.for(rows)("CARD-036 card id %s is refused", { tags: ["ERR-001"] }, async () => {});',
      ].join("\n"),
    );
    const name = (title: string) => `suites/cards.test.ts the card state table ${title}`;
    const only = new RegExp(testNamePattern({ requirementIds: ["CARD-004", "PAGE-001"] }, titles)!);
    expect(only.test(name("CARD-004 every card field has its type"))).toBe(true);
    expect(only.test(name("CARD-001 the list pages"))).toBe(true);
    expect(only.test(name("CARD-001 the list pages twice"))).toBe(false);
    expect(only.test(name("CARD-0045 not an ID"))).toBe(false);
    expect(only.test(name("CARD-005 every status is known"))).toBe(false);
    const rows = new RegExp(testNamePattern({ requirementIds: ["ERR-001"] }, titles)!);
    expect(rows.test(name("CARD-036 card id abc is refused"))).toBe(true);
    expect(rows.test(name("CARD-036 card id abc is accepted"))).toBe(false);
    const safe = new RegExp(testNamePattern({ excludeIds: ["CARD-014", "AUTH-012"] }, titles)!);
    expect(safe.test(name("CARD-013 activation"))).toBe(true);
    expect(safe.test(name("CARD-014 a permanent state"))).toBe(false);
    expect(safe.test(name("CARD-013 a permanent state (strict: exactly 400)"))).toBe(false);
    const both = new RegExp(
      testNamePattern({ requirementIds: ["CARD-013", "CARD-014"], excludeIds: ["CARD-014"], grep: "activat" }, titles)!,
    );
    expect(both.test(name("CARD-013 activation works"))).toBe(true);
    expect(both.test(name("CARD-013 something else"))).toBe(false);
    expect(both.test(name("CARD-014 activation then LOST"))).toBe(false);
    expect(testNamePattern({ grep: "a|b" }, titles)).toBe("a|b");
    expect(testNamePattern({}, titles)).toBeUndefined();
  });

  it("the destructive requirements are the catalogue's destructive: true entries", () => {
    const destructive = destructiveRequirements();
    expect(destructive.length).toBeGreaterThan(0);
    for (const id of destructive) expect(requirements().get(id)?.destructive).toBe(true);
  });
});

describe("conformance list", () => {
  it("prints every suite with its tests, levels and destructive marks, and the requirements they prove", async () => {
    const run = await spawnConformance(["list", "--json"], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const listing = JSON.parse(run.stdout) as Listing;
    expect(listing.suites.map((s) => s.name)).toEqual(suiteFileNames().filter((s) => listing.suites.some((l) => l.name === s)));
    // Real titles, as a run reports them: a test.for row's values are filled in, none keeps a placeholder.
    const listed = listing.suites.flatMap((s) => s.tests);
    const written = suiteTitles().filter((t) => t.kind === "test" && (t.requirements.length > 0 || t.dynamic));
    expect(listed.length).toBeGreaterThan(written.length);
    expect(listed.filter((t) => /%[sdifjo]|\$\{/.test(t.title)).map((t) => t.title)).toEqual([]);
    expect(listed.filter((t) => t.dynamic || t.requirements.length === 0 || t.line < 1).map((t) => t.title)).toEqual([]);
    expect(listed.map((t) => t.title)).toContain(
      "ATT-001 a 1x1 PNG uploaded with its MIME type and a description is accepted with an integer Id",
    );
    for (const r of listing.requirements) expect(requirements().get(r.id)?.level).toBe(r.level);
    // Selection by requirement (--requirement, the kill matrix's fault runs) reads the tags from the sources:
    // for every ID, its pattern picks exactly the tests the run collects as proving it.
    const titles = suiteTitles();
    const wrong = [...new Set(listed.flatMap((t) => t.requirements))].flatMap((id) => {
      const pattern = new RegExp(testNamePattern({ requirementIds: [id] }, titles)!);
      return listing.suites.flatMap((s) =>
        s.tests
          .filter((t) => pattern.test(`suites/${s.name}.test.ts ${t.title}`) !== t.requirements.includes(id))
          .map((t) => `${id}: ${s.name} > ${t.title} (proves ${t.requirements.join(", ")})`),
      );
    });
    expect(wrong).toEqual([]);
    const marked = listing.suites.flatMap((s) => s.tests).filter((t) => t.destructive);
    for (const t of marked) expect(t.requirements.some((id) => requirements().get(id)?.destructive)).toBe(true);

    const text = await spawnConformance(["list", "--suite", "headers"], { timeoutMs: 60_000 });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^headers: \d+ tests/m);
    expect(text.stdout).toMatch(/HDR-001 MUST/);
    expect(text.stdout).not.toMatch(/^authentication:/m);
  });

  it("--requirement lists exactly the tests naming those requirements", async () => {
    const run = await spawnConformance(["list", "--requirement", "HDR-00*", "--json"], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const listing = JSON.parse(run.stdout) as Listing;
    const listed = listing.suites.flatMap((s) => s.tests);
    expect(listed.length).toBeGreaterThan(0);
    for (const t of listed) expect(t.dynamic || t.requirements.some((id) => id.startsWith("HDR-00")), t.title).toBe(true);
    expect(listing.requirements.every((r) => r.id.startsWith("HDR-00"))).toBe(true);
  });

  it("refuses unknown requirements, suites and arguments with one line and exit 2", async () => {
    await configError(["list", "--requirement", "CARD-999"], /^conformance list: unknown requirement "CARD-999"/);
    await configError(["list", "--suite", "nope"], /^conformance list: unknown suite "nope"/);
    await configError(["run", "--requirement", "ZZZ-*"], /^conformance run: no requirement matches "ZZZ-\*"/);
    await configError(["run", "--requirement", "CARD-999"], /^conformance run: unknown requirement "CARD-999"/);
  });
});

describe("conformance run --requirement / --exclude-destructive", () => {
  it("runs exactly the tests proving the requirements, and skips those with a destructive requirement", async () => {
    const destructive = "AUTH-012";
    expect(requirements().get(destructive)?.destructive).toBe(true);
    const run = await spawnConformance(["run", "--requirement", "AUTH-011", "--requirement", destructive, "--exclude-destructive"], {
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr + run.stdout.slice(-2000)).toBe(0);
    const ran = run.summary!.tests.filter((t) => t.status !== "skipped");
    expect(ran.length).toBeGreaterThan(0);
    for (const t of ran) {
      expect(t.requirements, t.name).toContain("AUTH-011");
      expect(t.requirements, t.name).not.toContain(destructive);
    }
    const excluded = run.summary!.tests.filter((t) => t.requirements.includes(destructive));
    expect(excluded.length).toBeGreaterThan(0);
    expect(excluded.every((t) => t.status === "skipped")).toBe(true);
    // Only the suites naming the IDs are loaded.
    expect(new Set(run.summary!.tests.map((t) => t.suite)).size).toBe(1);
  });
});

// Selecting tests by requirement: `--requirement CARD-004 --requirement PAGE-*`, `--exclude-destructive`
// and each of the kill matrix's faults become one vitest test-name pattern, matched against
// "<file> <describe…> <title>". A test proves the ID its title leads with and the IDs its `tags` option
// names (docs/architecture.md). The first is in the name: the ID as a whole word (exact as long as no
// title or describe mentions an ID elsewhere, which test/list.test.ts checks). Tags are not in the name:
// the titles of the tests that tag the ID are, read from the suite sources (catalogue/test-titles.ts), and
// test/list.test.ts checks that these patterns pick exactly the tests a run collects with each ID.
import { ConfigError } from "../harness/profile/config-error.js";
import { escapeRegExp } from "../harness/escape-reg-exp.js";
import { requirements, type Requirement } from "./requirements.js";
import type { SuiteTitle } from "./test-titles.js";

const WILDCARD = /^[A-Z*?]+(?:-[0-9*?]*)?$/;

/**
 * IDs and wildcards (PAGE-*, CARD-00?) → catalogue IDs, in catalogue order. An ID or a wildcard that
 * names no catalogue entry is a configuration error.
 */
export function expandRequirements(patterns: string[], command: string, catalogue: Map<string, Requirement> = requirements()): string[] {
  const chosen = new Set<string>();
  for (const raw of patterns
    .flatMap((p) => p.split(","))
    .map((p) => p.trim())
    .filter(Boolean)) {
    const pattern = raw.toUpperCase();
    if (!pattern.includes("*") && !pattern.includes("?")) {
      if (!catalogue.has(pattern)) throw new ConfigError(`conformance ${command}: unknown requirement "${raw}" (see: conformance list)`);
      chosen.add(pattern);
      continue;
    }
    if (!WILDCARD.test(pattern))
      throw new ConfigError(`conformance ${command}: "${raw}" is not a requirement ID or wildcard like CARD-004 or PAGE-*`);
    const regex = new RegExp(`^${pattern.replace(/\*/g, "[A-Z0-9-]*").replace(/\?/g, "[A-Z0-9]")}$`);
    const matched = [...catalogue.keys()].filter((id) => regex.test(id));
    if (matched.length === 0) throw new ConfigError(`conformance ${command}: no requirement matches "${raw}" (see: conformance list)`);
    for (const id of matched) chosen.add(id);
  }
  return [...catalogue.keys()].filter((id) => chosen.has(id));
}

/** Requirements whose check sets permanent states or uses up a key, an IP or a free replacement. */
export function destructiveRequirements(catalogue: Map<string, Requirement> = requirements()): string[] {
  return [...catalogue.values()].filter((r) => r.destructive === true).map((r) => r.id);
}

/**
 * A title as written (catalogue/test-titles.ts), as a pattern for the name vitest gives the test: regex characters
 * escaped, a space any white space, a test.for placeholder (%s, %j …) or template part (${…}) any text.
 */
function titlePattern(title: string): string {
  return title
    .split(/(%%|%[sdifjoO#$]|\$\{[^}]*\})/)
    .map((part, i) => (i % 2 === 1 ? (part === "%%" ? "%" : "[\\s\\S]*?") : escapeRegExp(part).replace(/ /g, "\\s+")))
    .join("");
}

/** A pattern that matches the name of a test proving one of the IDs: its title leads with one, or its tags name one. */
function provesAnyOf(ids: string[], titles: readonly SuiteTitle[]): string {
  const led = `(?:^|\\s)(?:${ids.join("|")})(?=\\s|$)`;
  const tagged = titles.filter((t) => t.kind === "test" && t.tags.some((id) => ids.includes(id)));
  if (tagged.length === 0) return led;
  return `(?:${led}|(?:^|\\s)(?:${[...new Set(tagged.map((t) => titlePattern(t.title)))].join("|")})$)`;
}

/**
 * One vitest testNamePattern from --grep, --requirement and --exclude-destructive (undefined: run all); `titles`
 * are the suites' test titles, for the tests that prove an ID through their tags. Each part is a lookahead, so the
 * test name must satisfy all of them.
 */
export function testNamePattern(
  options: { grep?: string; requirementIds?: string[]; excludeIds?: string[] },
  titles: readonly SuiteTitle[],
): string | undefined {
  const { grep, requirementIds = [], excludeIds = [] } = options;
  if (requirementIds.length === 0 && excludeIds.length === 0) return grep;
  const parts: string[] = [];
  if (requirementIds.length > 0) parts.push(`(?=.*${provesAnyOf(requirementIds, titles)})`);
  if (excludeIds.length > 0) parts.push(`(?!.*${provesAnyOf(excludeIds, titles)})`);
  if (grep !== undefined) parts.push(`(?=.*(?:${grep}))`);
  return `^${parts.join("")}`;
}

// Selecting tests by requirement: `--requirement CARD-004 --requirement PAGE-*` and
// `--exclude-destructive` become one vitest test-name pattern. A test's title starts with the IDs it
// proves, and vitest matches the pattern against "<file> <describe…> <title>"; so "the title names ID"
// is ID as a whole word. That is exact as long as no title or describe mentions an ID outside its
// leading run, which test/list.test.ts checks.
import { ConfigError } from "../harness/profile/config-error.js";
import { requirements, type Requirement } from "./requirements.js";

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

/** A pattern that matches a test name in which one of the IDs stands as a whole word. */
function namesAnyOf(ids: string[]): string {
  return `(?:^|\\s)(?:${ids.join("|")})(?=\\s|$)`;
}

/**
 * One vitest testNamePattern from --grep, --requirement and --exclude-destructive (undefined: run all).
 * Each part is a lookahead, so the test name must satisfy all of them.
 */
export function testNamePattern(options: { grep?: string; requirementIds?: string[]; excludeIds?: string[] }): string | undefined {
  const { grep, requirementIds = [], excludeIds = [] } = options;
  if (requirementIds.length === 0 && excludeIds.length === 0) return grep;
  const parts: string[] = [];
  if (requirementIds.length > 0) parts.push(`(?=.*${namesAnyOf(requirementIds)})`);
  if (excludeIds.length > 0) parts.push(`(?!.*${namesAnyOf(excludeIds)})`);
  if (grep !== undefined) parts.push(`(?=.*(?:${grep}))`);
  return `^${parts.join("")}`;
}

import { parsedYaml } from "./parsed-yaml.js";
import { processWide } from "../harness/run/process-wide.js";
import type { Ruling } from "./ruling.js";

export type Level = "MUST" | "CONVENTION" | "LENIENT";

export interface Requirement {
  id: string;
  statement: string;
  part: string;
  resource: string;
  section: string;
  /** The verbatim sentences of spec/banking-api.md or spec/wire-conventions.md the requirement rests on. */
  source?: { in: "banking-api.md" | "wire-conventions.md"; quote: string }[];
  level: Level;
  status: "planned" | "covered" | "not-testable" | "withdrawn";
  reason?: string;
  destructive?: boolean;
  /** The blind ruling its level follows (catalogue/ruling.ts, spec/rulings.md). */
  ruling?: Ruling;
}

const CATALOGUE_FILE = new URL("../spec/requirements.yaml", import.meta.url);
/** A requirement ID's shape, the one spelling of it: the catalogue's prefixes and three digits. */
const ID = "(?:AUTH|HDR|ERR|COMP|CARD|REPL|ATT|CERT|OCB|SHARE|CAT|CHAL|FEAT|IDEAL|PAGE|VER)-\\d{3}";

/** Every requirement ID a text mentions, as whole words, in order. */
export function requirementIdsIn(text: string): string[] {
  return text.match(new RegExp(`\\b${ID}\\b`, "g")) ?? [];
}

/** The ID a check's failure message leads with ("CARD-004: …"), if it leads with one. */
export function leadingRequirementId(message: string | undefined): string | undefined {
  return new RegExp(`^(${ID}):`).exec(message ?? "")?.[1];
}

/** The requirement catalogue, spec/requirements.yaml, by ID (parsed once per thread: harness/run/process-wide.ts). */
export function requirements(): Map<string, Requirement> {
  return processWide(`requirements:${CATALOGUE_FILE.href}`, () => {
    const parsed = parsedYaml(CATALOGUE_FILE) as { requirements: Requirement[] };
    return new Map(parsed.requirements.map((r) => [r.id, r]));
  });
}

/** The requirement ID a test title leads with: the one the test proves first ("CARD-004 a card update …" → "CARD-004"). */
export function primaryRequirementId(title: string): string | undefined {
  return new RegExp(`^(${ID})(?=\\s|$)`).exec(title)?.[1];
}

/**
 * The requirement IDs a test proves: the one its title leads with, then those its `tags` option names
 * (`test("CARD-004 a card update …", { tags: ["ERR-001"] }, …)` → ["CARD-004", "ERR-001"]; docs/architecture.md).
 */
export function requirementIdsOf(title: string, tags: readonly string[] = []): string[] {
  const primary = primaryRequirementId(title);
  return [...new Set([...(primary === undefined ? [] : [primary]), ...tags])];
}

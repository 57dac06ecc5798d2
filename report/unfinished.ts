// Two sections of conformance.md that tell a vendor how the run touched its data and how to finish: what the run used
// up of the target's own data, and the requirements left unchecked grouped by the profile field that would check them.
import type { ConsumedKind } from "../harness/consumption.js";
import type { TestSummary } from "./reporters/summary-reporter.js";

/** What the run used up, by kind: each item once (a card id, a key's last digits, an invite id). */
export interface ConsumedFromTarget {
  kind: ConsumedKind;
  items: string[];
}

export function consumedFrom(tests: readonly TestSummary[]): ConsumedFromTarget[] {
  const byKind = new Map<ConsumedKind, Set<string>>();
  for (const c of tests.flatMap((t) => t.consumed ?? [])) byKind.set(c.kind, (byKind.get(c.kind) ?? new Set()).add(c.what));
  return [...byKind].map(([kind, items]) => ({ kind, items: [...items] }));
}

/** The profile field a skip names ("set provisioning: …", "capability ideal is off", a read-only mode), else "other". */
function fieldOfSkip(message: string | undefined): string {
  const text = message ?? "";
  const set = /\bset ([A-Za-z][\w.]*)/.exec(text);
  if (set) return set[1]!;
  const capability = /capability (\w+) is off/.exec(text);
  if (capability) return `capabilities.${capability[1]}`;
  if (/signing is off/.test(text)) return "signing";
  if (/read-only/.test(text)) return "mode";
  const fixture = /fixtures\.(\w+)/.exec(text);
  if (fixture) return `fixtures.${fixture[1]}`;
  return "other";
}

/** Unchecked requirements by the profile field whose setting would check them (the fields each requirement's skips named). */
export function uncheckedByField(unchecked: readonly string[], tests: readonly TestSummary[]): { field: string; requirements: string[] }[] {
  const byField = new Map<string, Set<string>>();
  for (const id of unchecked) {
    const skips = tests.filter((t) => t.status === "skipped" && !t.notSelected && t.requirements.includes(id));
    const fields = new Set(skips.map((t) => fieldOfSkip(t.message)));
    if (fields.size === 0) fields.add("other");
    for (const field of fields) byField.set(field, (byField.get(field) ?? new Set()).add(id));
  }
  return [...byField]
    .map(([field, ids]) => ({ field, requirements: [...ids].sort() }))
    .sort((a, b) => b.requirements.length - a.requirements.length || a.field.localeCompare(b.field));
}

export function consumedMarkdown(consumed: readonly ConsumedFromTarget[]): string[] {
  if (consumed.length === 0) return [];
  return [
    "### Consumed from the target",
    "",
    "What this run used up of the target's own data (no fresh users: the profile's users, `allowDestructive: true`, `spareApiKeys`).",
    "",
    "| what | count | which |",
    "| --- | ---: | --- |",
    ...consumed.map((c) => `| ${c.kind} | ${c.items.length} | ${c.items.slice(0, 20).join(", ")}${c.items.length > 20 ? ", …" : ""} |`),
    "",
  ];
}

export function uncheckedMarkdown(groups: readonly { field: string; requirements: string[] }[]): string[] {
  if (groups.length === 0) return [];
  return [
    "### How to check what this run did not",
    "",
    "Requirements every test of which skipped, by the profile field that would check them (docs/target-contract.md, per field).",
    "",
    "| profile field | requirements |",
    "| --- | --- |",
    ...groups.map((g) => `| \`${g.field}\` | ${g.requirements.join(", ")} |`),
    "",
  ];
}

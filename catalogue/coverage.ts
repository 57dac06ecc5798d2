import { suiteTitles } from "./test-titles.js";

/** Requirement ID → the suites with a test that proves it (its title leads with it, or its tags name it; read from the sources). */
export function coverageBySuite(): Map<string, string[]> {
  const coverage = new Map<string, Set<string>>();
  for (const title of suiteTitles()) {
    if (title.kind !== "test") continue;
    for (const id of title.requirements) {
      if (!coverage.has(id)) coverage.set(id, new Set());
      coverage.get(id)!.add(title.suite);
    }
  }
  return new Map([...coverage].map(([id, suites]) => [id, [...suites].sort()]));
}

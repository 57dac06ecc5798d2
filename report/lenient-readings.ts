// The LENIENT readings a target took over the run's tests, and the clause they add to the verdict's reason.
import type { TestSummary } from "./reporters/summary-reporter.js";
import type { LenientReading } from "./conformance-types.js";
import { plural } from "./plural.js";
import { fullNameOf } from "./test-result.js";

/** The LENIENT readings of the run's tests: one per requirement and strict expectation, with what was seen where. */
export function lenientReadings(tests: TestSummary[]): LenientReading[] {
  const readings = new Map<string, LenientReading>();
  for (const test of tests) {
    for (const o of test.lenient ?? []) {
      const key = `${o.requirement}\u0000${o.strict ?? ""}`;
      const reading = readings.get(key) ?? {
        requirement: o.requirement,
        ...(o.strict ? { strict: o.strict } : {}),
        observed: [],
        tests: [],
      };
      if (!reading.observed.includes(o.observed)) reading.observed.push(o.observed);
      const name = fullNameOf(test);
      if (!reading.tests.includes(name)) reading.tests.push(name);
      readings.set(key, reading);
    }
  }
  return [...readings.values()].sort(
    (a, b) => a.requirement.localeCompare(b.requirement) || (a.strict ?? "").localeCompare(b.strict ?? ""),
  );
}

/** "; 3 LENIENT readings observed (strict would require otherwise: PAGE-006, PAGE-019; recorded only: CARD-020)", or nothing. */
export function lenientClause(readings: LenientReading[]): string {
  if (readings.length === 0) return "";
  const ids = (strict: boolean) => [...new Set(readings.filter((r) => Boolean(r.strict) === strict).map((r) => r.requirement))];
  const parts = [
    ids(true).length > 0 ? `strict would require otherwise: ${ids(true).join(", ")}` : "",
    ids(false).length > 0 ? `recorded only: ${ids(false).join(", ")}` : "",
  ];
  return `; ${plural(readings.length, "LENIENT reading")} observed (${parts.filter(Boolean).join("; ")})`;
}

// conformance run --plan: what a run would use up of the target's own data, from the selection and the profile alone,
// before anything is sent (harness/consumption.ts declares what each consuming check may use up).
import { PLANNED_CONSUMPTION, type ConsumedKind } from "../harness/consumption.js";
import { provisionsUsers, type TargetProfile } from "../harness/profile/profile.js";
import type { SuiteTitle } from "../catalogue/test-titles.js";

interface PlannedLine {
  kind: ConsumedKind;
  upTo: number;
  checks: string[];
}

/** The consuming checks of the selection, added up by kind. */
export function plannedConsumption(titles: readonly SuiteTitle[]): PlannedLine[] {
  const byKind = new Map<ConsumedKind, PlannedLine>();
  // Each requirement once, however many of the selected tests it leads: the plan gives its checks' total.
  const ids = new Set(titles.filter((t) => t.kind === "test").flatMap((t) => t.requirements.slice(0, 1)));
  for (const id of ids) {
    const planned = PLANNED_CONSUMPTION[id];
    if (!planned) continue;
    const line = byKind.get(planned.kind) ?? { kind: planned.kind, upTo: 0, checks: [] };
    line.upTo += planned.upTo;
    line.checks.push(id);
    byKind.set(planned.kind, line);
  }
  return [...byKind.values()];
}

/** The plan as the console shows it: where consumption comes from under this profile, then what, by kind. */
export function renderPlan(profile: TargetProfile, lines: readonly PlannedLine[]): string {
  const out = [`conformance run --plan: target "${profile.name}" (nothing is sent)`];
  if (profile.mode === "read-only") out.push("mode read-only: no check writes, nothing is used up.");
  else if (provisionsUsers(profile)) out.push("provisioning sandbox-user: checks use up fresh users' data only, none of the target's own.");
  else if (!profile.allowDestructive)
    out.push("allowDestructive is false: checks that use things up are skipped (set allowDestructive: true to run them).");
  else {
    // An embedded target without provisioning makes two spare keys itself (harness/run/bootstrap-run.ts).
    const spare = profile.spareApiKeys.length > 0 || !profile.embedded ? profile.spareApiKeys.length : 2;
    out.push(
      `no provisioning, allowDestructive: true: checks use up the primary and second users' own data` +
        ` and ${spare} spare key(s) (spareApiKeys), at most:`,
    );
    if (lines.length === 0) out.push("  nothing (no selected check uses anything up)");
    for (const line of lines) {
      const keys = line.kind === "spare key used up" ? ` (as many spare keys as there are: ${spare})` : "";
      out.push(`  ${line.kind}: up to ${line.upTo}${keys}, by the checks of ${line.checks.join(", ")}`);
    }
  }
  return `${out.join("\n")}\n`;
}

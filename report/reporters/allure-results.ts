import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ConformanceReport } from "../conformance-types.js";
import { BOOTSTRAP_SOURCE, UNREACHABLE_SOURCE } from "../failure-blame.js";
import { isSwitchedOff } from "../verdict-rule.js";
import { leadingRequirementId } from "../../catalogue/requirements.js";

/**
 * Finishing touches on reports/allure-results after a run (or a merge), so the Allure report tells a
 * target's defects from the suite's own trouble:
 * - allure-vitest marks any error that is not an assertion as "broken"; a CheckFailure (its message
 *   starts with the requirement ID the test names) is a failed requirement check, so it becomes "failed".
 * - skipped tests get their reason ("needs fresh users: …"), which allure-vitest leaves out.
 * - categories.json: the rules below, also handed to Allure 3 by `conformance report`.
 */

interface AllureResult {
  name: string;
  description?: string;
  status?: string;
  statusDetails?: { message?: string; trace?: string };
  labels?: { name: string; value: string }[];
  titlePath?: string[];
}

export interface CategoryRule {
  name: string;
  matchedStatuses: string[];
  messageRegex?: string;
}

/** Category rules, first match wins (Allure 2 categories.json form; Allure 3 reads the same keys). */
export function categoryRules(conventionsOff: string[]): CategoryRule[] {
  const off = conventionsOff.filter((id) => isSwitchedOff(id, conventionsOff));
  return [
    ...(off.length > 0
      ? [
          {
            name: "Deviations: conventions the profile switched off",
            matchedStatuses: ["failed", "broken"],
            messageRegex: `^(${off.join("|")}):[\\s\\S]*`,
          },
        ]
      : []),
    { name: "Target defects: a requirement check failed", matchedStatuses: ["failed"], messageRegex: "^[A-Z]+-[0-9]{3}:[\\s\\S]*" },
    {
      name: "Target unreachable or session bootstrap failed",
      matchedStatuses: ["failed", "broken"],
      messageRegex: `[\\s\\S]*(${UNREACHABLE_SOURCE}|${BOOTSTRAP_SOURCE})[\\s\\S]*`,
    },
    { name: "Broken checks: the test itself failed (suite or harness error, timeout)", matchedStatuses: ["broken", "failed"] },
    { name: "Skipped: a precondition the profile does not meet", matchedStatuses: ["skipped"] },
  ];
}

/** "<suite> > <describe…> > <title>" from an Allure result (the summary's fullName). */
function fullNameOf(result: AllureResult): string | undefined {
  const path = result.titlePath ?? [];
  const file = path.findIndex((p) => p.endsWith(".test.ts"));
  if (file < 0) return undefined;
  return [path[file]!.slice(0, -".test.ts".length), ...path.slice(file + 1), result.name].join(" > ");
}

export function finishAllureResults(dir: string, report: ConformanceReport): void {
  if (!existsSync(dir)) return;
  const skipReasons = new Map(report.tests.filter((t) => t.outcome === "skipped" && t.message).map((t) => [t.name, t.message!]));
  for (const file of readdirSync(dir).filter((f) => f.endsWith("-result.json"))) {
    const path = join(dir, file);
    const result = JSON.parse(readFileSync(path, "utf8")) as AllureResult;
    let changed = false;
    const message = result.statusDetails?.message ?? "";
    const id = leadingRequirementId(message);
    const named = (result.labels ?? []).filter((l) => l.name === "requirement").map((l) => l.value);
    if (result.status === "broken" && id !== undefined && named.includes(id)) {
      result.status = "failed";
      changed = true;
    }
    const reason = result.status === "skipped" && !message ? skipReasons.get(fullNameOf(result) ?? "") : undefined;
    if (reason) {
      result.statusDetails = { ...result.statusDetails, message: reason };
      changed = true;
    }
    const again = report.reproduce?.[fullNameOf(result) ?? ""];
    if (again && !(result.description ?? "").includes(again.rerun)) {
      const lines = [
        "Replay this test alone:",
        "",
        "```sh",
        again.rerun,
        ...(again.curl ? ["", "# its last exchange", again.curl] : []),
        "```",
      ];
      result.description = `${result.description ? `${result.description}\n\n` : ""}${lines.join("\n")}`;
      changed = true;
    }
    if (changed) writeFileSync(path, JSON.stringify(result));
  }
  writeFileSync(join(dir, "categories.json"), `${JSON.stringify(categoryRules(report.run.conventionsOff), null, 2)}\n`);
}

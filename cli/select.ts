import { ConfigError } from "../harness/profile/config-error.js";
import { requirements } from "../catalogue/requirements.js";
import { destructiveRequirements, expandRequirements, testNamePattern } from "../catalogue/selection.js";
import { idsMentionedIn, suiteFileNames, suiteSource, suiteTitles } from "../catalogue/test-titles.js";

export interface Selection {
  /** Suite names to load (empty: all). */
  suites: string[];
  /** vitest testNamePattern (undefined: every test). */
  grep?: string;
}

/**
 * `run [suite…] [--grep P] [--requirement ID…] [--exclude-destructive]` → the suite files to load and
 * one test-name pattern. With --requirement only the suites that name one of the IDs are loaded.
 */
export function selectTests(options: { suites: string[]; grep?: string; requirement?: string[]; excludeDestructive?: boolean }): Selection {
  const ids = expandRequirements(options.requirement ?? [], "run");
  const excludeIds = options.excludeDestructive ? destructiveRequirements() : [];
  let suites = options.suites;
  if (ids.length > 0) {
    const candidates = suites.length > 0 ? suites : suiteFileNames();
    const mentions = new Map(candidates.map((s) => [s, idsMentionedIn(suiteSource(s))]));
    const untested = ids.filter((id) => ![...mentions.values()].some((m) => m.has(id)));
    const where = options.suites.length > 0 ? ` in suite${options.suites.length > 1 ? "s" : ""} ${options.suites.join(", ")}` : "";
    if (untested.length === ids.length) {
      const named = untested.map((id) => `${id} (${requirements().get(id)?.status ?? "unknown"})`).join(", ");
      throw new ConfigError(`conformance run: no test${where} proves ${named}`);
    }
    if (untested.length > 0) process.stderr.write(`conformance run: no test${where} proves ${untested.join(", ")}; running the others\n`);
    suites = candidates.filter((s) => ids.some((id) => mentions.get(s)!.has(id)));
  }
  const selecting = ids.length > 0 || excludeIds.length > 0;
  const grep = testNamePattern(
    { ...(options.grep === undefined ? {} : { grep: options.grep }), requirementIds: ids, excludeIds },
    selecting ? suiteTitles() : [],
  );
  return { suites, ...(grep === undefined ? {} : { grep }) };
}

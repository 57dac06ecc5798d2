import { ConfigError } from "../../harness/profile/config-error.js";
import { requirements, type Requirement } from "../../catalogue/requirements.js";
import { expandRequirements } from "../../catalogue/selection.js";
import { idsMentionedIn, suiteFileNames, suiteSource, suiteTitles, type SuiteTitle } from "../../catalogue/test-titles.js";
import { parseFlags } from "../args.js";
import { collectTitles } from "./list-collect.js";
import { writeOut } from "../output.js";

export interface ListedTest {
  title: string;
  requirements: string[];
  /** The title's leading ID is filled in per row at run time (test.for); `requirements` holds its tags. */
  dynamic: boolean;
  destructive: boolean;
  line: number;
}

export interface Listing {
  suites: { name: string; tests: ListedTest[] }[];
  requirements: (Pick<Requirement, "id" | "level" | "status" | "statement" | "section"> & { destructive: boolean; suites: string[] })[];
}

/** The suite files and requirement IDs a `list` call names, checked: an unknown one is a ConfigError. */
function listSelection(options: { suites?: string[]; requirements?: string[] }): { suites: string[]; wanted?: Set<string> } {
  const known = suiteFileNames();
  const unknown = (options.suites ?? []).find((s) => !known.includes(s));
  if (unknown) throw new ConfigError(`conformance list: unknown suite "${unknown}" (have: ${known.join(", ")})`);
  const suites = options.suites?.length ? known.filter((s) => options.suites!.includes(s)) : known;
  return { suites, ...(options.requirements?.length ? { wanted: new Set(expandRequirements(options.requirements, "list")) } : {}) };
}

/**
 * The suites, tests and requirements a `list` call selects (also the --json output). `collected` holds the titles
 * as the runner makes them (test.for rows filled in); without it, titles are read from the sources as written.
 */
export function listing(options: { suites?: string[]; requirements?: string[] } = {}, collected?: SuiteTitle[]): Listing {
  const catalogue = requirements();
  const { suites, wanted } = listSelection(options);
  const mentions = new Map(suites.map((s) => [s, idsMentionedIn(suiteSource(s))]));
  const isDestructive = (ids: string[]) => ids.some((id) => catalogue.get(id)?.destructive === true);
  // A dynamic title may prove any ID its suite names; with a filter it is listed when the suite names one.
  const proves = (t: SuiteTitle, ids: Iterable<string>) =>
    [...ids].some((id) => t.requirements.includes(id) || (t.dynamic && mentions.get(t.suite)!.has(id)));

  const titles = (collected ?? suiteTitles()).filter(
    (t) => t.kind === "test" && suites.includes(t.suite) && (t.requirements.length > 0 || t.dynamic),
  );
  const selected = wanted ? titles.filter((t) => proves(t, wanted)) : titles;
  const bySuite = suites
    .map((name) => ({
      name,
      tests: selected
        .filter((t) => t.suite === name)
        .map((t) => ({
          title: t.title,
          requirements: t.requirements,
          dynamic: t.dynamic,
          destructive: isDestructive(t.requirements),
          line: t.line,
        })),
    }))
    .filter((s) => s.tests.length > 0);

  const ids = wanted ? [...wanted] : [...new Set(selected.flatMap((t) => t.requirements))];
  const rows = [...catalogue.values()]
    .filter((r) => ids.includes(r.id))
    .map((r) => ({
      id: r.id,
      level: r.level,
      status: r.status,
      destructive: r.destructive === true,
      statement: r.statement,
      section: r.section,
      suites: [...new Set(titles.filter((t) => proves(t, [r.id])).map((t) => t.suite))],
    }));
  return { suites: bySuite, requirements: rows };
}

/** conformance list [--suite S…] [--requirement ID…] [--json] */
export async function listCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("list", args, {
    suite: { type: "string", short: "s", multiple: true },
    requirement: { type: "string", short: "r", multiple: true },
    json: { type: "boolean" },
  });
  if (positionals.length > 0) throw new ConfigError(`conformance list: unexpected argument "${positionals[0]}" (suites go after --suite)`);
  const selection = { suites: values.suite ?? [], requirements: values.requirement ?? [] };
  listSelection(selection); // a bad suite or requirement is refused before vitest loads anything
  const result = listing(selection, await collectTitles(selection.suites));
  if (values.json) {
    await writeOut(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  await writeOut(render(result));
  return 0;
}

function render({ suites, requirements: rows }: Listing): string {
  const catalogue = requirements();
  const lines: string[] = [];
  const tag = (id: string) => {
    const r = catalogue.get(id);
    return r ? `${id} ${r.level}${r.destructive ? " destructive" : ""}` : id;
  };
  for (const suite of suites) {
    lines.push(`${suite.name}: ${suite.tests.length} test${suite.tests.length === 1 ? "" : "s"}   (conformance run ${suite.name})`);
    for (const test of suite.tests) {
      lines.push(`  ${test.title}`);
      const about = test.requirements.map(tag);
      if (test.dynamic) about.unshift("leading ID filled in per row at run time");
      lines.push(`      ${about.join(" · ")}`);
    }
    lines.push("");
  }
  if (suites.length === 0) lines.push("No test matches.", "");
  lines.push(`Requirements: ${rows.length}   (conformance run --requirement ID)`);
  const width = Math.max(0, ...rows.map((r) => r.level.length));
  for (const r of rows) {
    const where = r.suites.length > 0 ? r.suites.join(", ") : `no test (${r.status})`;
    lines.push(`  ${r.id.padEnd(9)} ${r.level.padEnd(width)}${r.destructive ? "  destructive" : ""}  [${where}]  ${r.statement}`);
  }
  return `${lines.join("\n")}\n`;
}

// Writes the two blind readers' answers into spec/requirements.yaml as each requirement's `ruling`
// (spec/rulings.md), and prints every level the ruling moves. It does not move levels itself: a level that
// moves changes what a check may fail, so the check and the catalogue change together, by hand.
// Run: npx tsx scripts/apply-rulings.ts DATE DIR   (DIR holds batch-N.md, certifier-N.txt and vendor-N.txt)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isMap, isSeq, parseDocument, type YAMLMap } from "yaml";
import { levelOfRuling, type Verdict } from "../catalogue/ruling.js";

const [date, dir] = process.argv.slice(2);
if (!date || !dir) throw new Error("usage: apply-rulings DATE DIR");
const lines = (prefix: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n"))
    .filter((l) => /^-?\s*[A-Z]+-\d{3}\b/.test(l.trim()));

/** "- CARD-001: Server: …. Suite wants: …." → the case put to the readers. */
const asked = new Map(
  lines("batch-")
    .map((l) => /^- ([A-Z]+-\d{3}): (.*)$/.exec(l)!)
    .map((m) => [m[1], m[2]] as const),
);

/** "CARD-001 | STATED | banking-api.md | "quote"" → the verdict. */
function verdicts(prefix: string): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  for (const line of lines(prefix)) {
    // The quote may hold table pipes: only the first three separate fields.
    const match = /^-?\s*([A-Z]+-\d{3})\s*\|\s*(STATED|OPEN)\s*\|\s*([^|]*?)\s*\|\s*(.*)$/.exec(line.trim());
    if (!match) throw new Error(`${prefix}: cannot read "${line}"`);
    const [, id, verdict, file, rest] = match as unknown as [string, string, "STATED" | "OPEN", string, string];
    const quote = rest.trim().replace(/^"|"$/g, "") || "-";
    const inFile = file === "banking-api.md" || file === "wire-conventions.md" ? file : undefined;
    out.set(id, { verdict, ...(inFile ? { in: inFile } : {}), quote });
  }
  return out;
}
const certifier = verdicts("certifier-");
const vendor = verdicts("vendor-");

const file = fileURLToPath(new URL("../spec/requirements.yaml", import.meta.url));
const doc = parseDocument(readFileSync(file, "utf8"));
const list = doc.get("requirements");
if (!isSeq(list)) throw new Error("requirements is not a list");
for (const item of list.items) {
  if (!isMap(item)) continue;
  const entry = item as YAMLMap<string, unknown>;
  const id = String(entry.get("id"));
  const c = certifier.get(id);
  const v = vendor.get(id);
  if (!c || !v || !asked.has(id)) continue;
  const ruling = { date, asked: asked.get(id)!, statement: String(entry.get("statement")), certifier: c, vendor: v };
  entry.set("ruling", doc.createNode(ruling));
  const level = levelOfRuling(ruling);
  if (level !== entry.get("level"))
    process.stdout.write(`${id}: ${String(entry.get("level"))} -> ${level} (certifier ${c.verdict}, vendor ${v.verdict})\n`);
}
writeFileSync(file, doc.toString({ lineWidth: 0 }));

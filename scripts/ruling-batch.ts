// Writes the batch the two blind readers rule (spec/rulings.md says how): one line per requirement whose check
// demands something, in the form "Server: <behaviour>. Suite wants: <demand>." The behaviour is what a fault of
// the requirement does (faults/), else the demand's negation. Levels, sources, gaps and suites are left out on
// purpose: the readers see only this batch and the two spec files.
// Run: npx tsx scripts/ruling-batch.ts [ID-or-prefix…] > batch.md
import { faultCatalogue } from "../faults/catalogue.js";
import { requirements } from "../catalogue/requirements.js";

const wanted = process.argv.slice(2);
const faults = faultCatalogue();
const lines: string[] = [];
for (const r of requirements().values()) {
  if (r.status !== "covered") continue;
  if (wanted.length > 0 && !wanted.some((w) => r.id === w || r.id.startsWith(`${w}-`))) continue;
  const fault = faults.find((f) => f.requirement === r.id);
  const behaviour = fault ? fault.description.replace(/\.$/, "") : "does not do what the suite wants below";
  lines.push(`- ${r.id}: Server: ${behaviour}. Suite wants: ${r.statement.replace(/\.$/, "")}.`);
}
process.stdout.write(`${lines.join("\n")}\n`);

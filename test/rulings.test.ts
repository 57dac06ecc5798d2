// The blind rulings (spec/rulings.md): a check may FAIL a server only where two readers who saw only the two
// spec files, a certifier and the vendor's lawyer, both found a sentence stating the constraint. Every covered
// requirement carries its ruling; its level is the one the two verdicts give (catalogue/ruling.ts); the
// deciding sentences are verbatim; and a statement changed since its ruling must be ruled again.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Requirement } from "../catalogue/requirements.js";
import { levelOfRuling } from "../catalogue/ruling.js";
import { variantCatalogue } from "../faults/catalogue.js";

const text = (name: string) => readFileSync(fileURLToPath(new URL(`../spec/${name}`, import.meta.url)), "utf8");
const squash = (s: string) => s.replace(/\s+/g, " ").trim();
const SPEC = { "banking-api.md": squash(text("banking-api.md")), "wire-conventions.md": squash(text("wire-conventions.md")) };
const catalogue = (parseYaml(text("requirements.yaml")) as { requirements: (Requirement & { noVariant?: string })[] }).requirements;
const ruled = catalogue.filter((r) => r.status === "covered");

describe("blind rulings", () => {
  it("every covered requirement carries a ruling by both readers", () => {
    expect(ruled.filter((r) => !r.ruling).map((r) => r.id)).toEqual([]);
  });

  it("every MUST and CONVENTION requirement has two concurring STATED verdicts", () => {
    const short = ruled
      .filter((r) => r.level !== "LENIENT")
      .filter((r) => r.ruling?.certifier.verdict !== "STATED" || r.ruling?.vendor.verdict !== "STATED")
      .map((r) => `${r.id} (${r.level}): certifier ${r.ruling?.certifier.verdict}, vendor ${r.ruling?.vendor.verdict}`);
    expect(short).toEqual([]);
  });

  it("every level is the one its ruling gives (both in banking-api.md: MUST; both stated: CONVENTION; else LENIENT)", () => {
    const wrong = ruled
      .filter((r) => r.ruling && levelOfRuling(r.ruling) !== r.level)
      .map((r) => `${r.id} is ${r.level}, its ruling gives ${levelOfRuling(r.ruling!)}`);
    expect(wrong).toEqual([]);
  });

  it("every deciding sentence occurs verbatim in the file it names", () => {
    const missing: string[] = [];
    for (const r of ruled) {
      for (const [who, v] of Object.entries({ certifier: r.ruling?.certifier, vendor: r.ruling?.vendor })) {
        if (!v || v.quote === "-") continue;
        const quote = squash(v.quote);
        if (!v.in || !SPEC[v.in].includes(quote)) missing.push(`${r.id} ${who}: "${v.quote}" not in ${v.in ?? "(no file)"}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("a STATED verdict names its sentence", () => {
    const bare = ruled.flatMap((r) =>
      [r.ruling?.certifier, r.ruling?.vendor].filter((v) => v?.verdict === "STATED" && (v.quote === "-" || !v.in)).map(() => r.id),
    );
    expect(bare).toEqual([]);
  });

  // A LENIENT statement may name the readings it accepts after its ruling: only a FAIL needs the readers' support.
  it("a MUST or CONVENTION statement changed since its ruling is ruled again (scripts/ruling-batch.ts)", () => {
    const stale = ruled.filter((r) => r.level !== "LENIENT" && r.ruling && r.ruling.statement !== r.statement).map((r) => r.id);
    expect(stale).toEqual([]);
  });

  it("every requirement the readers split on is LENIENT with a legal variant playing the other reading", () => {
    const variants = variantCatalogue();
    const bare = ruled
      .filter((r) => r.ruling && r.ruling.certifier.verdict !== r.ruling.vendor.verdict)
      .filter((r) => !r.noVariant && !variants.some((v) => v.requirements?.includes(r.id)))
      .map((r) => `${r.id} (certifier ${r.ruling!.certifier.verdict}, vendor ${r.ruling!.vendor.verdict})`);
    expect(bare).toEqual([]);
  });
});

// Self-test of the requirement catalogue (spec/requirements.yaml), its schema
// (schemas/requirements.schema.json) and the spec-gap register (spec/gaps.md).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";

// ajv and ajv-formats are CommonJS: under NodeNext the default import is module.exports, whose .default is the export.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

const CATALOGUE_PATH = fileURLToPath(new URL("../spec/requirements.yaml", import.meta.url));
const SCHEMA_PATH = fileURLToPath(new URL("../schemas/requirements.schema.json", import.meta.url));
const GAPS_PATH = fileURLToPath(new URL("../spec/gaps.md", import.meta.url));
const SPEC_TEXT: Record<string, string> = {
  "banking-api.md": readFileSync(fileURLToPath(new URL("../spec/banking-api.md", import.meta.url)), "utf8"),
  "wire-conventions.md": readFileSync(fileURLToPath(new URL("../spec/wire-conventions.md", import.meta.url)), "utf8"),
};
/** White space runs compare as one space, so a quote may be re-wrapped; every other character is verbatim. */
const squash = (text: string) => text.replace(/\s+/g, " ").trim();
const SPEC_SQUASHED = Object.fromEntries(Object.entries(SPEC_TEXT).map(([file, text]) => [file, squash(text)]));

const PREFIXES = [
  "AUTH",
  "HDR",
  "ERR",
  "COMP",
  "CARD",
  "REPL",
  "ATT",
  "CERT",
  "OCB",
  "SHARE",
  "CAT",
  "CHAL",
  "FEAT",
  "IDEAL",
  "PAGE",
  "VER",
];
const ID_PATTERN = /^(AUTH|HDR|ERR|COMP|CARD|REPL|ATT|CERT|OCB|SHARE|CAT|CHAL|FEAT|IDEAL|PAGE|VER)-\d{3}$/;
const ID_IN_TEXT = /\b(?:AUTH|HDR|ERR|COMP|CARD|REPL|ATT|CERT|OCB|SHARE|CAT|CHAL|FEAT|IDEAL|PAGE|VER)-\d{3}\b/g;
const NEEDS_REASON = new Set(["not-testable", "withdrawn"]);

interface Requirement {
  id: string;
  statement: string;
  part: string;
  resource: string;
  section: string;
  level: "MUST" | "CONVENTION" | "LENIENT";
  status: "planned" | "covered" | "not-testable" | "withdrawn";
  reason?: string;
  destructive?: true;
  source?: { in: "banking-api.md" | "wire-conventions.md"; quote: string }[];
}

interface Catalogue {
  specVersion: string;
  requirements: Requirement[];
}

function readText(path: string): string {
  return readFileSync(path, "utf8");
}

const rawCatalogue: unknown = parseYaml(readText(CATALOGUE_PATH));
const schema = JSON.parse(readText(SCHEMA_PATH)) as Record<string, unknown>;

function compileSchema() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** The catalogue after schema validation; the structural checks below rely on it. */
function catalogue(): Catalogue {
  const validate = compileSchema();
  if (!validate(rawCatalogue))
    throw new Error(`spec/requirements.yaml does not match its schema: ${JSON.stringify(validate.errors, null, 2)}`);
  return rawCatalogue as Catalogue;
}

function prefixOf(id: string): string {
  return id.slice(0, id.indexOf("-"));
}

function numberOf(id: string): number {
  return Number(id.slice(id.indexOf("-") + 1));
}

// ------------------------------------------------------------------ the schema

describe("requirements schema", () => {
  it("compiles with ajv in strict mode and its $id names the file", () => {
    expect(schema.$schema, "$schema").toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id, "$id").toBe("https://banking-conformance.test/schemas/requirements.schema.json");
    expect(() => compileSchema(), "compiling requirements.schema.json").not.toThrow();
  });

  const valid = {
    id: "CARD-001",
    statement: "GET /user/{userID}/card answers 200 with the user's cards.",
    part: "Endpoints",
    resource: "card",
    section: "Endpoints > Cards",
    source: [{ in: "banking-api.md", quote: "| GET | /user/{userID}/card | none | cards the user can access; 400 on error |" }],
    level: "MUST",
    status: "planned",
  };
  const cases: { description: string; entry: Record<string, unknown>; valid: boolean }[] = [
    { description: "a planned entry without reason", entry: valid, valid: true },
    { description: "a destructive entry", entry: { ...valid, destructive: true }, valid: true },
    {
      description: "a not-testable entry with a reason",
      entry: { ...valid, status: "not-testable", reason: "The endpoint is not shown." },
      valid: true,
    },
    {
      description: "a withdrawn entry with a reason",
      entry: { ...valid, status: "withdrawn", reason: "Merged into CARD-002." },
      valid: true,
    },
    { description: "a wire-conventions section", entry: { ...valid, section: "wire-conventions §5" }, valid: true },
    { description: "a not-testable entry without a reason", entry: { ...valid, status: "not-testable" }, valid: false },
    { description: "a planned entry with a reason", entry: { ...valid, reason: "No reason is wanted here." }, valid: false },
    { description: "an unknown property", entry: { ...valid, severity: "high" }, valid: false },
    { description: "an unknown prefix", entry: { ...valid, id: "CRD-001" }, valid: false },
    { description: "a two-digit number", entry: { ...valid, id: "CARD-01" }, valid: false },
    { description: "an unknown part", entry: { ...valid, part: "Cards" }, valid: false },
    { description: "an unknown resource", entry: { ...valid, resource: "cards" }, valid: false },
    { description: "an unknown level", entry: { ...valid, level: "SHOULD" }, valid: false },
    { description: "an unknown status", entry: { ...valid, status: "done" }, valid: false },
    { description: "destructive: false", entry: { ...valid, destructive: false }, valid: false },
    { description: "a section outside the specification's parts", entry: { ...valid, section: "Cards" }, valid: false },
    { description: "a statement over two lines", entry: { ...valid, statement: "GET /card answers 200\nwith the cards." }, valid: false },
    { description: "a missing section", entry: { ...valid, section: undefined }, valid: false },
    { description: "a missing source", entry: { ...valid, source: undefined }, valid: false },
    {
      description: "a source from another file",
      entry: { ...valid, source: [{ in: "README.md", quote: "a quoted sentence" }] },
      valid: false,
    },
  ];
  function schemaCase(c: (typeof cases)[number]): void {
    it(`${c.valid ? "accepts" : "rejects"} ${c.description}`, () => {
      const entry = JSON.parse(JSON.stringify(c.entry)) as Record<string, unknown>;
      const validate = compileSchema();
      expect(validate({ specVersion: "test", requirements: [entry] }), JSON.stringify(validate.errors)).toBe(c.valid);
    });
  }
  for (const c of cases) schemaCase(c);

  it("rejects a catalogue without specVersion or with an empty requirement list", () => {
    const validate = compileSchema();
    expect(validate({ requirements: [valid] }), "no specVersion").toBe(false);
    expect(validate({ specVersion: "test", requirements: [] }), "empty list").toBe(false);
  });
});

// ------------------------------------------------------------------ the catalogue

describe("requirement catalogue", () => {
  it("spec/requirements.yaml matches schemas/requirements.schema.json", () => {
    const validate = compileSchema();
    expect(validate(rawCatalogue), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it("every ID is unique and matches PREFIX-NNN with a known prefix", () => {
    const ids = catalogue().requirements.map((r) => r.id);
    for (const id of ids) expect(id, `ID ${id}`).toMatch(ID_PATTERN);
    const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(duplicates, "duplicate IDs").toEqual([]);
  });

  it("every prefix is numbered from 001 without gaps, in file order", () => {
    const byPrefix = new Map<string, number[]>();
    for (const r of catalogue().requirements) {
      const numbers = byPrefix.get(prefixOf(r.id)) ?? [];
      numbers.push(numberOf(r.id));
      byPrefix.set(prefixOf(r.id), numbers);
    }
    for (const prefix of PREFIXES) {
      const numbers = byPrefix.get(prefix) ?? [];
      expect(numbers.length, `${prefix} has requirements`).toBeGreaterThan(0);
      expect(numbers, `${prefix} numbers`).toEqual(numbers.map((_, i) => i + 1));
    }
  });

  it("not-testable and withdrawn entries give a reason, and no other entry does", () => {
    for (const r of catalogue().requirements) {
      if (NEEDS_REASON.has(r.status)) expect(r.reason?.trim(), `${r.id} (${r.status}) reason`).toBeTruthy();
      else expect(r.reason, `${r.id} (${r.status}) must not carry a reason`).toBeUndefined();
    }
  });

  it("a banking-api.md section starts with the requirement's part", () => {
    for (const r of catalogue().requirements) {
      if (r.section.startsWith("wire-conventions")) continue;
      expect(r.section.split(" > ")[0], `${r.id} section "${r.section}"`).toBe(r.part);
    }
  });

  it("a not-testable requirement is never marked destructive", () => {
    const both = catalogue().requirements.filter((r) => r.status === "not-testable" && r.destructive);
    expect(
      both.map((r) => r.id),
      "not-testable and destructive",
    ).toEqual([]);
  });

  it("statements are distinct", () => {
    const statements = catalogue().requirements.map((r) => r.statement.trim().toLowerCase());
    const duplicates = statements.filter((s, i) => statements.indexOf(s) !== i);
    expect(duplicates, "statements given twice").toEqual([]);
  });

  it("every source quote occurs verbatim in the file it names", () => {
    const missing: string[] = [];
    for (const r of catalogue().requirements) {
      for (const s of r.source ?? [])
        if (!SPEC_SQUASHED[s.in]!.includes(squash(s.quote))) missing.push(`${r.id}: not in ${s.in}: "${s.quote}"`);
    }
    expect(missing, "quotes not found verbatim").toEqual([]);
  });

  it("levels follow the sources: MUST quotes banking-api.md, CONVENTION quotes wire-conventions.md", () => {
    const wrong: string[] = [];
    for (const r of catalogue().requirements) {
      if (!r.source || r.status === "withdrawn") continue;
      if (r.level === "MUST" && !r.source.some((s) => s.in === "banking-api.md"))
        wrong.push(`${r.id} is MUST without a quote from banking-api.md`);
      if (r.level === "CONVENTION" && !r.source.some((s) => s.in === "wire-conventions.md"))
        wrong.push(`${r.id} is CONVENTION without a quote from wire-conventions.md`);
    }
    expect(wrong).toEqual([]);
  });

  // IDs other engineers write tests against: their status and destructive flag are fixed; their level is the blind
  // ruling's (spec/rulings.md), so a level moves here only when a ruling moves it.
  const FIXED: Record<string, { level: Requirement["level"]; status?: Requirement["status"]; destructive?: true }> = {
    "AUTH-001": { level: "CONVENTION" },
    "AUTH-002": { level: "CONVENTION" },
    "AUTH-003": { level: "CONVENTION" },
    "AUTH-004": { level: "MUST" },
    "AUTH-005": { level: "CONVENTION" },
    "AUTH-006": { level: "CONVENTION" },
    "AUTH-007": { level: "LENIENT" },
    "AUTH-008": { level: "CONVENTION" },
    "AUTH-009": { level: "LENIENT" },
    "AUTH-010": { level: "LENIENT" },
    "AUTH-011": { level: "MUST" },
    "AUTH-012": { level: "CONVENTION", destructive: true },
    "AUTH-013": { level: "MUST" },
    "AUTH-014": { level: "MUST" },
    "AUTH-015": { level: "CONVENTION" },
    "AUTH-016": { level: "MUST", status: "not-testable" },
    "AUTH-017": { level: "CONVENTION" },
    "AUTH-018": { level: "LENIENT" },
    "HDR-001": { level: "MUST" },
    "HDR-002": { level: "MUST" },
    "HDR-003": { level: "CONVENTION" },
    "HDR-004": { level: "MUST" },
    "HDR-005": { level: "MUST" },
    "HDR-006": { level: "MUST" },
    "HDR-007": { level: "MUST" },
    "HDR-008": { level: "MUST" },
    "HDR-009": { level: "LENIENT" },
    "ERR-001": { level: "MUST" },
    "ERR-002": { level: "CONVENTION" },
    "ERR-003": { level: "CONVENTION" },
    "ERR-004": { level: "CONVENTION" },
    "ERR-005": { level: "LENIENT" },
    "ERR-006": { level: "CONVENTION" },
    "ERR-007": { level: "CONVENTION" },
    "ERR-008": { level: "MUST" },
  };
  function fixedCase(id: string, expected: (typeof FIXED)[string]): void {
    const also = `${expected.status ? `, status ${expected.status}` : ""}${expected.destructive ? " and destructive flag" : ""}`;
    it(`${id} keeps its agreed level${also}`, () => {
      const r = catalogue().requirements.find((x) => x.id === id);
      expect(r, `${id} is in the catalogue`).toBeDefined();
      expect(r?.level, `${id} level`).toBe(expected.level);
      if (expected.status) expect(r?.status, `${id} status`).toBe(expected.status);
      else expect(r?.status, `${id} status`).not.toBe("not-testable");
      expect(r?.destructive, `${id} destructive`).toBe(expected.destructive);
    });
  }
  for (const [id, expected] of Object.entries(FIXED)) fixedCase(id, expected);
});

// ------------------------------------------------------------------ the gap register

describe("spec-gap register", () => {
  const gaps = readText(GAPS_PATH);

  it("gap IDs are unique and numbered GAP-01, GAP-02, ... without gaps", () => {
    const ids = [...gaps.matchAll(/^\|\s*(GAP-\d{2})\s*\|/gm)].map((m) => m[1]);
    expect(ids.length, "gap entries found").toBeGreaterThan(0);
    expect(ids, "gap IDs in order").toEqual(ids.map((_, i) => `GAP-${String(i + 1).padStart(2, "0")}`));
  });

  it("every requirement ID the register names is in the catalogue", () => {
    const known = new Set(catalogue().requirements.map((r) => r.id));
    const named = [...new Set(gaps.match(ID_IN_TEXT) ?? [])];
    expect(
      named.filter((id) => !known.has(id)),
      "unknown requirement IDs in spec/gaps.md",
    ).toEqual([]);
  });

  it("every not-testable requirement is named by a gap", () => {
    const named = new Set(gaps.match(ID_IN_TEXT) ?? []);
    const missing = catalogue()
      .requirements.filter((r) => r.status === "not-testable" && !named.has(r.id))
      .map((r) => r.id);
    expect(missing, "not-testable requirements without a gap entry").toEqual([]);
  });
});

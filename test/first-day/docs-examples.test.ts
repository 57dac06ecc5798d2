// The examples a vendor copies first must work as written: every targets file shown in README.md and docs/ loads
// (YAML, environment variables, schemas/targets.schema.json, the loader's own checks), and every cheap command shown
// for the embedded target runs and exits 0.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTargetsFile } from "../../harness/profile/profile.js";
import { PROJECT_ROOT } from "../support/spawn-run.js";

const DOCS = ["README.md", ...readdirSync(join(PROJECT_ROOT, "docs")).map((f) => `docs/${f}`)].filter((f) => f.endsWith(".md"));

/** The fenced blocks of a Markdown file whose info string is one of `languages`, with the line each starts on. */
function blocks(file: string, languages: string[]): { line: number; text: string }[] {
  const lines = readFileSync(join(PROJECT_ROOT, file), "utf8").split("\n");
  const out: { line: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)/.exec(lines[i]!);
    if (!open || !languages.includes(open[1]!)) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
    out.push({ line: i + 1, text: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return out;
}

/** A PEM-shaped file for each tls path an example names (the loader reads them). */
function tlsFiles(dir: string, text: string): void {
  for (const match of text.matchAll(/^\s*(ca|cert|key):\s*(\S+)/gm)) {
    const path = join(dir, match[2]!);
    mkdirSync(dirname(path), { recursive: true });
    const label = match[1] === "key" ? "PRIVATE KEY" : "CERTIFICATE";
    writeFileSync(path, `-----BEGIN ${label}-----\nAAAA\n-----END ${label}-----\n`);
  }
}

const targetsExamples = DOCS.flatMap((file) =>
  blocks(file, ["yaml", "yml"])
    .filter((b) => /^targets:/m.test(b.text))
    .map((b) => ({ where: `${file}:${b.line}`, text: b.text })),
);

describe("the targets files the docs show", () => {
  it("are found (README.md shows one)", () => {
    expect(targetsExamples.some((e) => e.where.startsWith("README.md"))).toBe(true);
  });

  for (const example of targetsExamples) {
    it(`${example.where} loads as a targets file`, () => {
      const dir = mkdtempSync(join(tmpdir(), "docs-example-"));
      const file = join(dir, "targets.yaml");
      writeFileSync(file, `${example.text}\n`);
      tlsFiles(dir, example.text);
      // Every ${VAR} the example names is set, as a vendor following it would.
      const env = Object.fromEntries([...example.text.matchAll(/\$\{(\w+)/g)].map((m) => [m[1]!, `example-value-of-${m[1]!}`]));
      const loaded = loadTargetsFile(file, env);
      expect(Object.keys(loaded.profiles).length).toBeGreaterThan(0);
    });
  }
});

/** Commands that read only the package (no target, no run): cheap enough to run every one the docs show. */
const CHEAP = new Set(["list", "faults", "variants", "coverage", "targets", "openapi"]);

const commands = DOCS.flatMap((file) =>
  blocks(file, ["sh", "bash", "shell"]).flatMap((b) =>
    b.text
      .split("\n")
      .map((line) => line.replace(/\s+#.*$/, "").trim())
      .filter((line) => /^npx conformance \S/.test(line) && CHEAP.has(line.split(/\s+/)[2]!))
      .map((line) => ({ where: `${file}:${b.line}`, line })),
  ),
);

describe("the cheap commands the docs show for the embedded target", () => {
  it("are found", () => {
    expect(commands.length).toBeGreaterThan(0);
  });

  for (const { where, line } of commands) {
    it(`${where}: ${line}`, () => {
      // Quotes as a shell reads them (the examples use single quotes only).
      const args = [...line.slice("npx conformance ".length).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
      const cwd = mkdtempSync(join(tmpdir(), "docs-command-"));
      const run = spawnSync(process.execPath, [join(PROJECT_ROOT, "bin", "conformance.js"), ...args], {
        cwd,
        env: { ...process.env, CONFORMANCE_TARGETS: join(PROJECT_ROOT, "targets.yaml") },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(run.status, `${line}\n${run.stderr}`).toBe(0);
    }, 70_000);
  }
});

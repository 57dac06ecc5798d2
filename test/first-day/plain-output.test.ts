// A run piped to a file or a CI log is plain text: no colour escapes from the CLI, vitest's reporter or its workers,
// unless the caller asks for colour (FORCE_COLOR). bin/conformance.js decides before any module loads.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/spawn-run.js";

/** An SGR escape (colour, bold): ESC [ … m. */
const ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** `conformance run versioning`, its output piped, with the colour variables given (and no others inherited). */
function pipedRun(colour: NodeJS.ProcessEnv): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !["FORCE_COLOR", "NO_COLOR", "CI"].includes(k)));
  const reports = mkdtempSync(join(tmpdir(), "plain-output-"));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["bin/conformance.js", "run", "versioning", "--reports", reports], {
      cwd: PROJECT_ROOT,
      env: { ...env, ...colour },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", () => resolve(out));
  });
}

describe("output that is not a terminal", () => {
  it("holds no escape sequence, and keeps colour when FORCE_COLOR asks for it", async () => {
    const [plain, coloured] = await Promise.all([pipedRun({}), pipedRun({ FORCE_COLOR: "1" })]);
    expect(plain).toMatch(/conformance: \d+ passed/);
    expect(plain.match(ESCAPE) ?? [], "escape sequences in piped output").toEqual([]);
    expect(coloured.match(ESCAPE)?.length ?? 0, "escape sequences with FORCE_COLOR").toBeGreaterThan(0);
  }, 120_000);
});

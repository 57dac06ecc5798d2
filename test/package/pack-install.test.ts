// The package as a team gets it: `npm pack`, installed into an empty project, then `npx conformance …`
// there. Suites, schemas, templates and the vitest config must resolve from the installed package; targets,
// .env and reports from the caller's project.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../report/reporters/summary-reporter.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const NPX = process.platform === "win32" ? "npx.cmd" : "npx";

// The children get the machine's environment without this project's run settings or npm's script context.
const childEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("CONFORMANCE_") && !k.startsWith("npm_") && k !== "INIT_CWD"),
  ),
  FORCE_COLOR: "0",
  NO_COLOR: "1",
  ...extra,
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv, timeoutMs = 180_000): Result {
  const result = spawnSync(command, args, { cwd, env: childEnv(env), encoding: "utf8", timeout: timeoutMs });
  return { code: result.status, stdout: result.stdout ?? "", stderr: `${result.stderr ?? ""}${result.error ? String(result.error) : ""}` };
}

/** `npx --no conformance …` in the project: the installed bin, never a download. */
const conformance = (project: string, args: string[], env?: NodeJS.ProcessEnv) => run(NPX, ["--no", "conformance", ...args], project, env);

const work = mkdtempSync(join(tmpdir(), "pack-install-"));
const project = join(work, "project");
let packed: { filename: string; files: { path: string }[] };

beforeAll(() => {
  const pack = run(NPM, ["pack", "--json", "--pack-destination", work], ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "a-team-project", version: "1.0.0", private: true }, null, 2)}\n`);
  // The registry cache is warm from `npm ci`; fall back to the registry for what it lacks.
  const flags = ["--no-audit", "--no-fund", "--save-dev", join(work, packed.filename)];
  let install = run(NPM, ["install", "--offline", ...flags], project);
  if (install.code !== 0) install = run(NPM, ["install", "--prefer-offline", ...flags], project);
  expect(install.code, install.stderr.slice(-3000)).toBe(0);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe(`${PACKAGE.name}, packed and installed into an empty project`, () => {
  it("ships the runtime (bin, cli, harness, reference, suites, schemas, spec, templates, vitest config) and no tests or reports", () => {
    const files = packed.files.map((f) => f.path);
    for (const needed of [
      "bin/conformance.js",
      "cli/main.ts",
      "harness/run/global-setup.ts",
      "reference/server.ts",
      "faults/catalogue.ts",
      "suites/headers.test.ts",
      "schemas/targets.schema.json",
      "spec/requirements.yaml",
      "templates/targets.yaml",
      "templates/env.example",
      "templates/github-workflow.yml",
      "targets.yaml",
      "vitest.config.ts",
      "package.json",
    ]) {
      expect(files, needed).toContain(needed);
    }
    // No tests or reports; the only files under test/ are the certificates the pinned-chain checks send.
    const extra = files.filter(
      (f) =>
        (f.startsWith("test/") && !/^test\/fixtures\/certificates\/[\w-]+\.pem$/.test(f)) ||
        f.startsWith("reports/") ||
        f.startsWith("node_modules/"),
    );
    expect(extra).toEqual([]);
    expect(existsSync(join(project, "node_modules", PACKAGE.name, "suites", "headers.test.ts"))).toBe(true);
  });

  it("every relative import and every file a module reads next to itself is in the installed package", () => {
    const installed = join(project, "node_modules", PACKAGE.name);
    const missing: string[] = [];
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".ts") || e.name.endsWith(".js") ? [join(dir, e.name)] : [],
      );
    for (const file of walk(installed).filter((f) => !f.includes(`${sep}node_modules${sep}`))) {
      const source = readFileSync(file, "utf8");
      const here = dirname(file);
      const imports = [...source.matchAll(/(?:from|import\(|import)\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!);
      for (const spec of imports) {
        const target = resolve(here, spec);
        if (![target, target.replace(/\.js$/, ".ts")].some((t) => existsSync(t)))
          missing.push(`${relative(installed, file)} imports ${spec}`);
      }
      // new URL("../schemas/", import.meta.url), new URL(`../../test/fixtures/x/${file}`, import.meta.url): the static part.
      for (const m of source.matchAll(/new URL\(\s*["'`](\.{1,2}\/[^"'`$]*)/g)) {
        if (!existsSync(resolve(here, m[1]!))) missing.push(`${relative(installed, file)} reads ${m[1]!}`);
      }
    }
    expect(missing, 'files the package needs at run time but does not ship (package.json "files")').toEqual([]);
  });

  it("npx conformance run <suite> --target reference runs against the embedded reference, reports in the project", () => {
    const result = conformance(project, ["run", "headers", "--target", "reference"]);
    expect(result.code, `${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`).toBe(0);
    const summary = JSON.parse(readFileSync(join(project, "reports", "summary.json"), "utf8")) as RunSummary;
    expect(summary.target).toBe("reference");
    expect(summary.totals.passed).toBeGreaterThan(0);
    expect(summary.totals.failed).toBe(0);
    expect(existsSync(join(project, "reports", "junit.xml"))).toBe(true);
  });

  describe("against a server: npx conformance serve, init, then run --targets ./targets.yaml", () => {
    let server: ReturnType<typeof spawn> | undefined;
    let started: { baseUrl: string; apiKey: string };

    beforeAll(async () => {
      // The installed bin itself (not through npx), so stopping it stops the server.
      const bin = join(project, "node_modules", ".bin", "conformance");
      server = spawn(process.execPath, [bin, "serve", "--port", "0"], { cwd: project, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
      started = await new Promise((resolve, reject) => {
        let out = "";
        let err = "";
        const timer = setTimeout(() => reject(new Error(`serve printed no address in 60 s: ${out}${err}`)), 60_000);
        server!.stderr!.on("data", (d: Buffer) => (err += d.toString()));
        server!.stdout!.on("data", (d: Buffer) => {
          out += d.toString();
          const line = out.split("\n").find((l) => l.startsWith("{"));
          if (!line) return;
          clearTimeout(timer);
          resolve(JSON.parse(line) as { baseUrl: string; apiKey: string });
        });
        server!.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}${err}`)));
      });
    }, 90_000);

    afterAll(() => {
      server?.kill("SIGTERM");
    });

    it("init writes the project's targets.yaml, and the run passes against the served reference", () => {
      const init = conformance(project, ["init", "--base-url", started.baseUrl]);
      expect(init.code, init.stderr).toBe(0);
      expect(readFileSync(join(project, "targets.yaml"), "utf8").split("\n")[0]).toBe(
        `# yaml-language-server: $schema=./node_modules/${PACKAGE.name}/schemas/targets.schema.json`,
      );
      // The schema the first line points at is there.
      expect(existsSync(join(project, "node_modules", PACKAGE.name, "schemas", "targets.schema.json"))).toBe(true);
      // The secret comes from the project's .env, as .env.example says.
      writeFileSync(join(project, ".env"), `CONFORMANCE_API_KEY=${started.apiKey}\n`);
      const result = conformance(project, ["run", "headers", "--targets", "./targets.yaml", "--reports", "reports-server"]);
      expect(result.code, `${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`).toBe(0);
      const summary = JSON.parse(readFileSync(join(project, "reports-server", "summary.json"), "utf8")) as RunSummary;
      expect(summary.target).toBe("my-server");
      expect(summary.totals.passed).toBeGreaterThan(0);
      expect(summary.totals.failed).toBe(0);
    });
  });

  it("list and openapi work from the installed package", () => {
    const list = conformance(project, ["list", "--suite", "headers"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^headers: \d+ tests/m);
    const openapi = conformance(project, ["openapi", "--out", "api/openapi.json"]);
    expect(openapi.code, openapi.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(project, "api", "openapi.json"), "utf8")) as { openapi: string }).openapi).toBe("3.1.0");
  });
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ConfigError } from "../../harness/profile/config-error.js";
import { parseFlags } from "../args.js";
import { writeOut } from "../output.js";
import { PACKAGE_ROOT } from "../vitest-run.js";

const TEMPLATES = join(PACKAGE_ROOT, "templates");
const BASE_URL = /^https?:\/\/\S+\/v1$/;
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const PACKAGE_NAME: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { name: string }).name;

/** Fills {{name}} placeholders; a placeholder without a value is a bug in the template. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`template placeholder {{${name}}} has no value`);
    return value;
  });
}

/** conformance init [--dir DIR] [--profile NAME] [--base-url URL] [--ci github] [--force] */
export async function initCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("init", args, {
    dir: { type: "string" },
    profile: { type: "string" },
    "base-url": { type: "string" },
    ci: { type: "string" },
    force: { type: "boolean" },
  });
  if (positionals.length > 0) throw new ConfigError(`conformance init: unexpected argument "${positionals[0]}"`);
  const profile = values.profile ?? "my-server";
  if (!PROFILE_NAME.test(profile))
    throw new ConfigError(`conformance init: --profile may use letters, digits, ".", "_" and "-" only, got "${profile}"`);
  if (profile === "reference")
    throw new ConfigError(
      `conformance init: --profile reference is the suite's embedded reference server; name your server's profile differently`,
    );
  const baseUrl = values["base-url"] ?? "http://127.0.0.1:8080/v1";
  if (!BASE_URL.test(baseUrl)) throw new ConfigError(`conformance init: --base-url expects an http(s) URL ending in /v1, got "${baseUrl}"`);
  if (values.ci !== undefined && values.ci !== "github")
    throw new ConfigError(`conformance init: --ci supports "github" only, got "${values.ci}"`);

  const dir = resolve(values.dir ?? ".");
  const placeholders = { package: PACKAGE_NAME, profile, baseUrl, description: JSON.stringify(`The server under test (${baseUrl})`) };
  const files: { path: string; template: string }[] = [
    { path: join(dir, "targets.yaml"), template: "targets.yaml" },
    { path: join(dir, ".env.example"), template: "env.example" },
    ...(values.ci === "github" ? [{ path: join(dir, ".github", "workflows", "conformance.yml"), template: "github-workflow.yml" }] : []),
  ];
  const shown = (path: string) => relative(process.cwd(), path) || path;
  if (!values.force) {
    const existing = files.find((f) => existsSync(f.path));
    if (existing)
      throw new ConfigError(`conformance init: ${shown(existing.path)} exists already; nothing written (use --force to overwrite)`);
  }
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, fillTemplate(readFileSync(join(TEMPLATES, file.template), "utf8"), placeholders));
  }
  await writeOut(
    `Wrote ${files.map((f) => shown(f.path)).join(", ")}\n` +
      "Next:\n" +
      "  1. copy .env.example to .env (keep .env out of git) and set CONFORMANCE_API_KEY, or export it\n" +
      `  2. npx conformance run                      the suite against "${profile}" (${baseUrl})\n` +
      "     npx conformance run --target reference   the suite against its embedded reference server\n" +
      "     npx conformance list                     suites, requirements and tests\n",
  );
  return 0;
}

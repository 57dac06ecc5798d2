// `conformance init` writes a commented targets.yaml, .env.example and (--ci github) a workflow, and
// never overwrites without --force; `--target reference` always reaches the embedded reference profile.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { BUILTIN_TARGETS, resolveTarget } from "../../cli/targets-resolve.js";
import { ConfigError } from "../../harness/profile/config-error.js";
import { BODY_VALUE_DEFAULTS, loadTargetsFile } from "../../harness/profile/profile.js";
import { spawnConformance } from "../support/spawn-run.js";

const PACKAGE = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string }).name;
const SCHEMA = JSON.parse(readFileSync(new URL("../../schemas/targets.schema.json", import.meta.url), "utf8")) as {
  $defs: { profile: { properties: Record<string, unknown> } };
};

const made: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "init-"));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const init = (dir: string, ...args: string[]) => spawnConformance(["init", ...args], { cwd: dir, timeoutMs: 60_000 });
const secrets = {
  CONFORMANCE_API_KEY: "primary-key",
  CONFORMANCE_SECONDARY_API_KEY: "second-key",
  CONFORMANCE_SPARE_KEY_1: "spare-key-1",
  CONFORMANCE_SPARE_KEY_2: "spare-key-2",
};

/** The file with every "# name: value" example line switched on. */
function allOptionsOn(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/^(\s*)# (\s*[a-z][A-Za-z]*:.*)$/, "$1$2"))
    .join("\n");
}

describe("conformance init", () => {
  it("writes a commented targets.yaml that the schema accepts, and a .env.example naming its variables", async () => {
    const dir = freshDir();
    const run = await init(dir, "--base-url", "https://api.example.test/v1");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Wrote targets\.yaml, \.env\.example/);
    const text = readFileSync(join(dir, "targets.yaml"), "utf8");
    expect(text.split("\n")[0]).toBe(`# yaml-language-server: $schema=./node_modules/${PACKAGE}/schemas/targets.schema.json`);

    const file = loadTargetsFile(join(dir, "targets.yaml"), secrets);
    expect(file.defaultName).toBe("my-server");
    const profile = file.profiles["my-server"]!;
    expect(profile.baseUrl).toBe("https://api.example.test/v1");
    expect(profile.apiKey).toBe("primary-key");
    expect(
      loadTargetsFile(join(dir, "targets.yaml"), { ...secrets, CONFORMANCE_BASE_URL: "http://10.0.0.1:9/v1" }).profiles["my-server"]!
        .baseUrl,
    ).toBe("http://10.0.0.1:9/v1");
    expect(() => loadTargetsFile(join(dir, "targets.yaml"), {})).toThrow(/environment variable CONFORMANCE_API_KEY is not set/);

    // Every field of a profile is there, as a setting or an example; every setting has a comment above it.
    for (const field of Object.keys(SCHEMA.$defs.profile.properties)) {
      expect(text, `profile field "${field}" is missing from templates/targets.yaml: add it, commented`).toMatch(
        new RegExp(`\\b${field}\\b`),
      );
    }
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      if (/^\s{4}[a-zA-Z]+:/.test(line)) expect(lines[i - 1], `comment above "${line.trim()}"`).toMatch(/^\s*#/);
    });
    // Switching every example on still gives a valid profile.
    mkdirSync(join(dir, "certs"));
    const pem = (label: string) => `-----BEGIN ${label}-----\nAAAA\n-----END ${label}-----\n`;
    writeFileSync(join(dir, "certs", "ca.pem"), pem("CERTIFICATE"));
    writeFileSync(join(dir, "certs", "client.pem"), pem("CERTIFICATE"));
    writeFileSync(join(dir, "certs", "client-key.pem"), pem("PRIVATE KEY"));
    const on = join(dir, "all-on.yaml");
    writeFileSync(on, allOptionsOn(text));
    const full = loadTargetsFile(on, secrets).profiles["my-server"]!;
    expect(full.secondaryApiKey).toBe("second-key");
    expect(full.fixtures.challengeRequestIds).toEqual([1, 2]);
    expect(full.timeouts.requestMs).toBe(10_000);
    expect(full.rateLimit?.requestsPerSecond).toBe(20);
    expect(full.tls?.ca).toBe(join(dir, "certs", "ca.pem"));
    // The bodyValues example shows the defaults, so switching it on changes no value but marks them given.
    expect(full.bodyValues).toEqual(BODY_VALUE_DEFAULTS);
    expect([...full.bodyValuesGiven].sort()).toEqual(Object.keys(BODY_VALUE_DEFAULTS).sort());
    expect(profile.bodyValuesGiven).toEqual([]);

    // Secrets come from the environment only; .env.example names each variable targets.yaml reads.
    expect(text).not.toMatch(/apiKey:\s*[^$\s#]/);
    const env = readFileSync(join(dir, ".env.example"), "utf8");
    for (const [, name] of text.matchAll(/\$\{(\w+)/g)) expect(env, `variable ${name}`).toContain(name);
  });

  it("refuses to overwrite with one line naming the file, and overwrites with --force", async () => {
    const dir = freshDir();
    writeFileSync(join(dir, ".env.example"), "MINE=1\n");
    const refused = await init(dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/^conformance init: \.env\.example exists already.*--force/);
    expect(existsSync(join(dir, "targets.yaml")), "nothing is written when one file exists").toBe(false);
    expect(readFileSync(join(dir, ".env.example"), "utf8")).toBe("MINE=1\n");

    const forced = await init(dir, "--force", "--profile", "staging");
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, ".env.example"), "utf8")).toContain("CONFORMANCE_API_KEY=");
    expect(loadTargetsFile(join(dir, "targets.yaml"), secrets).defaultName).toBe("staging");
  });

  it("--ci github adds a workflow that runs the suite with the secrets from the CI", async () => {
    const dir = freshDir();
    const run = await init(dir, "--ci", "github");
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(join(dir, ".github", "workflows", "conformance.yml"), "utf8");
    const workflow = parseYaml(text) as { jobs: Record<string, { steps: { run?: string; env?: Record<string, string> }[] }> };
    const steps = Object.values(workflow.jobs)[0]!.steps;
    const suite = steps.find((s) => s.run?.includes("npx conformance run"));
    expect(suite?.env?.CONFORMANCE_API_KEY).toBe("${{ secrets.CONFORMANCE_API_KEY }}");
    expect(text).toMatch(/upload-artifact/);
    expect((await init(dir, "--ci", "github")).stderr).toMatch(/targets\.yaml exists already/);
  });

  it("refuses bad flags with exit 2 and one line", async () => {
    const dir = freshDir();
    for (const [args, pattern] of [
      [["--ci", "gitlab"], /--ci supports "github" only/],
      [["--base-url", "http://x.test"], /--base-url expects an http\(s\) URL ending in \/v1/],
      [["--profile", "reference"], /embedded reference server/],
      [["extra"], /unexpected argument "extra"/],
    ] as const) {
      const run = await init(dir, ...args);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(pattern);
    }
    expect(existsSync(join(dir, "targets.yaml"))).toBe(false);
  });
});

describe("bodyValues (values the target chooses)", () => {
  const profileWith = (bodyValues: string) => {
    const dir = freshDir();
    const file = join(dir, "targets.yaml");
    writeFileSync(file, `targets:\n  mine:\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: k\n${bodyValues}`);
    return () => loadTargetsFile(file, {}).profiles.mine!;
  };

  it("fills the values a profile leaves out with the defaults and records which it set", () => {
    expect(profileWith("")().bodyValues).toEqual(BODY_VALUE_DEFAULTS);
    const own = profileWith("    bodyValues: { categoryStatus: ENABLED, companyCountries: [DE, AT] }\n")();
    expect(own.bodyValues).toEqual({ ...BODY_VALUE_DEFAULTS, categoryStatus: "ENABLED", companyCountries: ["DE", "AT"] });
    expect([...own.bodyValuesGiven].sort()).toEqual(["categoryStatus", "companyCountries"]);
  });

  it("refuses an unknown value name, one country, the same country twice and an empty value, naming the field", () => {
    expect(profileWith("    bodyValues: { companyStatus: ACTIVE }\n")).toThrow(/field "bodyValues.companyStatus": unknown field/);
    expect(profileWith("    bodyValues: { companyCountries: [NL] }\n")).toThrow(/bodyValues\.companyCountries/);
    expect(profileWith("    bodyValues: { companyCountries: [NL, NL] }\n")).toThrow(/bodyValues\.companyCountries/);
    expect(profileWith('    bodyValues: { categoryStatus: "" }\n')).toThrow(/bodyValues\.categoryStatus/);
  });
});

describe("--target reference from a caller's project", () => {
  it("falls back to the package's embedded profile when the caller's file has none, or there is no file", () => {
    const dir = freshDir();
    const own = join(dir, "targets.yaml");
    writeFileSync(own, "default: mine\ntargets:\n  mine:\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: ${UNSET_SECRET_FOR_INIT_TEST}\n");
    const fallback = resolveTarget("run", { targets: own, target: "reference" }, {});
    expect(fallback.builtin).toBe(true);
    expect(fallback.targetsFile).toBe(BUILTIN_TARGETS);
    expect(fallback.profile.embedded).toBe(true);
    // An own profile named reference wins.
    const withOwn = join(dir, "with-own.yaml");
    writeFileSync(withOwn, "targets:\n  reference:\n    baseUrl: http://127.0.0.1:9/v1\n    apiKey: k\n");
    expect(resolveTarget("run", { targets: withOwn, target: "reference" }, {}).profile.baseUrl).toBe("http://127.0.0.1:9/v1");
    // No targets file in the working directory: reference still works, anything else says how to get one.
    const empty = freshDir();
    const cwd = process.cwd();
    try {
      process.chdir(empty);
      expect(resolveTarget("run", { target: "reference" }, {}).builtin).toBe(true);
      expect(() => resolveTarget("run", {}, {})).toThrow(ConfigError);
      expect(() => resolveTarget("run", {}, {})).toThrow(/conformance init/);
      // A file named explicitly must exist.
      expect(() => resolveTarget("run", { targets: "absent.yaml", target: "reference" }, {})).toThrow(/cannot read the targets file/);
    } finally {
      process.chdir(cwd);
    }
  });

  it("reads ${VAR}s from a .env beside the targets file, the environment first", () => {
    const dir = freshDir();
    mkdirSync(join(dir, "conf"));
    const file = join(dir, "conf", "targets.yaml");
    writeFileSync(file, "targets:\n  mine:\n    baseUrl: ${BASE_FROM_ENV_FILE}\n    apiKey: ${KEY_FROM_ENV_FILE}\n");
    writeFileSync(join(dir, "conf", ".env"), "BASE_FROM_ENV_FILE=http://127.0.0.1:9/v1\nKEY_FROM_ENV_FILE=from-dot-env\n");
    const env: NodeJS.ProcessEnv = { KEY_FROM_ENV_FILE: "from-environment" };
    const resolved = resolveTarget("run", { targets: file }, env);
    expect(resolved.profile.baseUrl).toBe("http://127.0.0.1:9/v1");
    expect(resolved.profile.apiKey).toBe("from-environment");
  });
});

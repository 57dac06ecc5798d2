// A property failure found while tests and property runs go side by side replays with the same --seed: the same
// failing run, the same path and the same shrunk counterexample, whether the profile runs them side by side
// (concurrency 8, the default) or one after another (concurrency 1). Ids the server handed out differ between
// runs and are left out of the comparison; everything fast-check reports is compared as it is.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, stringify } from "yaml";
import { PROJECT_ROOT, spawnConformance, type SpawnedRun } from "./support/spawn-run.js";

const SEED = "4242";
/** A fault the card state-machine property finds: a LOST card can be set ACTIVE again. */
const FAULT = "card-lost-reactivable";

/** The shipped embedded reference profile twice: as it is, and with every test and property run one at a time. */
function targetsFile(): string {
  const shipped = parseYaml(readFileSync(join(PROJECT_ROOT, "targets.yaml"), "utf8")) as {
    targets: Record<string, Record<string, unknown>>;
  };
  const reference = shipped.targets.reference!;
  const file = join(mkdtempSync(join(tmpdir(), "property-replay-")), "targets.yaml");
  writeFileSync(
    file,
    stringify({ default: "side-by-side", targets: { "side-by-side": reference, "one-at-a-time": { ...reference, concurrency: 1 } } }),
  );
  return file;
}

/** The state-machine property's failure, as fast-check reports it, with the server's ids folded. */
function propertyReport(run: SpawnedRun): string {
  const failed = run.summary?.tests.filter((t) => t.status === "failed") ?? [];
  const report = failed.find((t) => t.suite === "card-state-machine")?.message ?? "";
  const start = report.indexOf("Property failed");
  expect(start, run.stdout.slice(-3000)).toBeGreaterThanOrEqual(0);
  return report.slice(start).replace(/\/(card|user)\/\d+/g, "/$1/{id}");
}

describe("a property failure replays with its seed", () => {
  it("the same failing run, path and shrunk counterexample, side by side twice and one at a time", async () => {
    const file = targetsFile();
    // The cards file runs beside it, its tests side by side, so the property meets the load of a whole run.
    const run = (target: string) =>
      spawnConformance(["run", "card-state-machine", "cards", "--targets", file, "--target", target, "--seed", SEED, "--fault", FAULT], {
        timeoutMs: 240_000,
      });
    const [first, second, sequential] = await Promise.all([run("side-by-side"), run("side-by-side"), run("one-at-a-time")]);
    for (const r of [first, second, sequential]) expect(r.code, r.stdout.slice(-2000)).toBe(1);
    const report = propertyReport(first);
    expect(report).toMatch(new RegExp(`seed: ${SEED}, path: "[\\d:]+"`));
    expect(report).toMatch(/Counterexample: /);
    expect(propertyReport(second)).toBe(report);
    expect(propertyReport(sequential)).toBe(report);
  });
});

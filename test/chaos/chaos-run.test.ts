// "A bad day on staging is not a failed certification": the whole suite against the reference server, once
// directly and once through the chaos proxy (2 % of requests answered 429 with Retry-After: 1, a 503 HTML page,
// or a dropped connection; a fixed seed), must fail no test the direct run passes and give its verdict, or INCOMPLETE
// where a long check met weather in every run it was given, in at most twice the time. And the other way round: an
// endpoint that answers 503 every time still fails its rules.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "../../report/conformance-types.js";
import { failures, runReference } from "./support.js";

const SEED = 20261125;
const report = (reportsDir: string) => JSON.parse(readFileSync(join(reportsDir, "conformance.json"), "utf8")) as ConformanceReport;
/** Tests a check failed (tests broken by transport are weather, counted apart). */
const names = (run: Parameters<typeof failures>[0]) =>
  (run.summary?.tests ?? [])
    .filter((t) => t.status === "failed" && !t.broken)
    .map((t) => `[${t.suite}] ${t.name}`)
    .sort();

describe("weather is told apart from defects", () => {
  it(
    "at 2 % chaos with a fixed seed the whole suite fails no test a direct run passes, and gives its verdict (CONFORMANT), or " +
      "INCOMPLETE where a long check met weather in every run it was given, in at most twice the time",
    { timeout: 1_200_000 },
    async () => {
      // Side by side, so both runs meet the same load on the machine (on CI the other self-tests come and go):
      // the time ratio then measures the weather, not what else the two cores were doing at the moment.
      // 10 property runs (as the kill matrix), not 25: fewer writes for weather to meet in the longest checks.
      const profile = { propertyRuns: 10 };
      const [direct, chaos] = await Promise.all([
        runReference({ profile }),
        runReference({ profile, chaos: { rate: 0.02, seed: SEED, retryAfter: "1" } }),
      ]);
      const context =
        `direct:\n${failures(direct.run).join("\n")}\n` + `chaos:\n${failures(chaos.run).join("\n")}\n${chaos.run.stdout.slice(-2000)}`;
      // Weather never fails a rule.
      expect(names(chaos.run), context).toEqual(names(direct.run));
      // A check that met weather runs again, up to twice (harness/setup/weather-setup.ts). The longest checks (CARD-010's
      // scripts, the sweeps over every endpoint, list-sizes' lists) send hundreds of writes that are never resent: at 2 %
      // one of them met weather in all three of its runs about one whole-suite run in ten (at 3b472c8 as since), and
      // left its requirements unchecked. That is the product's promise: INCOMPLETE, said to be weather, never a failed
      // rule. Such checks stay few (0 to 4 seen over CI runs: which write meets the proxy's draw depends on the order
      // requests reach it, which the seed cannot fix); every other check recovers, so the verdict is otherwise the direct
      // run's.
      const brokenByWeather = (chaos.run.summary?.tests ?? []).filter((t) => t.broken);
      expect(brokenByWeather.length, context).toBeLessThanOrEqual(5);
      const verdict = report(chaos.run.reportsDir).verdict;
      if (brokenByWeather.length === 0 || verdict === report(direct.run.reportsDir).verdict) {
        expect(verdict, context).toBe(report(direct.run.reportsDir).verdict);
        expect(chaos.run.code, context).toBe(direct.run.code);
      } else {
        expect(verdict, context).toBe("INCOMPLETE");
        expect(chaos.run.stdout, context).toMatch(/broken by transport/);
      }
      // The proxy did its part: every kind of fault, and the second source address reached the target as itself.
      const injected = chaos.proxy!.injected;
      expect(Math.min(injected["429"], injected["503"], injected.drop), JSON.stringify(injected)).toBeGreaterThan(0);
      expect([...chaos.proxy!.sources].sort()).toEqual(["127.0.0.1", "127.0.0.2"]);
      expect(chaos.run.summary!.totals.retries).toBeGreaterThan(0);
      expect(chaos.run.summary!.tests.some((t) => (t.retries ?? 0) > 0)).toBe(true);
      expect(chaos.run.durationMs, `direct ${direct.run.durationMs} ms, chaos ${chaos.run.durationMs} ms`).toBeLessThanOrEqual(
        2 * direct.run.durationMs,
      );
    },
  );

  it(
    "an endpoint that answers 503 to every request fails its rules (a 5XX is never a pass, retries hide nothing); none is broken",
    { timeout: 600_000 },
    async () => {
      const { run } = await runReference({
        suites: ["categories"],
        chaos: {
          rate: 0,
          seed: SEED,
          persistent: (_method, path) => (/\/v1\/user\/\d+\/additional-transaction-information-category/.test(path) ? "503" : undefined),
        },
      });
      const summary = run.summary!;
      const failed = summary.tests.filter((t) => t.status === "failed");
      expect(failed.length, run.stdout.slice(-3000)).toBeGreaterThan(0);
      expect(failed.filter((t) => t.broken)).toEqual([]);
      expect(failed.some((t) => /got 503/.test(t.message ?? ""))).toBe(true);
      const verdict = report(run.reportsDir);
      expect(verdict.verdict).toBe("NOT CONFORMANT");
      expect(verdict.requirements.filter((r) => r.status === "failed").length).toBeGreaterThan(0);
      expect(run.code).toBe(1);
    },
  );

  it(
    "a write endpoint whose connection always drops leaves its tests broken: transport, and the verdict INCOMPLETE, not NOT CONFORMANT",
    { timeout: 600_000 },
    async () => {
      const { run } = await runReference({
        suites: ["categories"],
        chaos: {
          rate: 0,
          seed: SEED,
          persistent: (method, path) =>
            method === "POST" && /\/v1\/user\/\d+\/additional-transaction-information-category/.test(path) ? "drop" : undefined,
        },
      });
      const summary = run.summary!;
      expect(summary.totals.broken, run.stdout.slice(-3000)).toBeGreaterThan(0);
      expect(summary.totals.failed, failures(run).join("\n")).toBe(0);
      for (const test of summary.tests.filter((t) => t.broken))
        expect(test).toMatchObject({ status: "failed", broken: "transport", transport: "connection" });
      const verdict = report(run.reportsDir);
      expect(verdict.verdict).toBe("INCOMPLETE");
      // Every test of this suite writes there, so none passed: the verdict says the target could not be reached.
      expect(verdict.reason).toMatch(/could not be reached|ended broken by transport .*rerun, lower the load .*retries/);
      const markdown = readFileSync(join(run.reportsDir, "conformance.md"), "utf8");
      expect(markdown).toMatch(/broken by transport/);
    },
  );
});

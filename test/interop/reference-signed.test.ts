// The whole conformance suite against the embedded reference in the provider's dialect (targets.yaml
// profile reference-signed: X-Bunq- headers, every request body signed by the harness and checked by the
// server, every answer signed): zero failures, and the signature checks really ran. This proves that no
// suite or reference module hard-codes the X-Service- prefix, and that the harness signs what it sends.
import { describe, expect, it } from "vitest";
import { spawnConformance } from "../support/spawn-run.js";

describe("the conformance suite against the reference with signing on both ways (reference-signed)", () => {
  it("passes with zero failures, and the signatures suite's checks ran instead of skipping", async () => {
    const run = await spawnConformance(["run", "--target", "reference-signed"], { timeoutMs: 240_000 });
    expect(run.summary, `no summary.json; stderr: ${run.stderr.slice(-2000)}`).toBeDefined();
    const failures = run.summary!.tests.filter((t) => t.status === "failed").map((t) => `${t.name}: ${t.message}`);
    expect(failures).toEqual([]);
    expect(run.summary!.errors).toEqual([]);
    expect(run.code).toBe(0);
    const signatures = run.summary!.tests.filter((t) => t.suite === "signatures");
    expect(signatures.length).toBeGreaterThan(0);
    expect(signatures.filter((t) => t.status !== "passed").map((t) => `${t.name}: ${t.status}`)).toEqual([]);
  }, 300_000);
});

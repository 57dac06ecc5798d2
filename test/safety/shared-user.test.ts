// A profile without provisioning (the template `conformance init` writes) puts every write of the run on the primary
// user's data. Against a conformant server 50 ms away the whole suite must pass: files that count the primary's
// lists around a refused write (CERT-007, COMP-015, …) never run beside a file that adds to them (cli/file-concurrency.ts).
// With files side by side this run (this seed) failed CERT-007 in every try: pagination grew the pinned-chain list
// while certificate-pinned read it. And no check may open a session on the run's own device: a server may end a device's
// earlier sessions when it opens another (legal variant new-session-ends-previous).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReferenceServer, type RunningReference } from "../../reference/server.js";
import { startChaosProxy, type ChaosProxy } from "../chaos/chaos-proxy.js";
import { expectReportsWritten, runAgainst, tempDir, writeTargets } from "../hostile/support.js";
import { sandboxApiKey } from "../support/sandbox-key.js";

let reference: RunningReference;
let proxy: ChaosProxy;
let secondaryApiKey: string;

beforeAll(async () => {
  reference = await startReferenceServer({ apiKey: "reference-primary-key" });
  proxy = await startChaosProxy(reference.baseUrl, { rate: 0, seed: 1, delayMs: 50 });
  secondaryApiKey = await sandboxApiKey(reference.baseUrl);
});

afterAll(async () => {
  await proxy?.close();
  await reference?.close();
});

/** A targets file for `reference` (or the proxy in front of it) without provisioning, with a second user's key. */
function sharedProfile(name: string, baseUrl: string, apiKey: string, secondaryApiKey: string): string {
  return writeTargets(tempDir(name), {
    [name]: {
      baseUrl,
      apiKey,
      secondaryApiKey,
      provisioning: "none",
      fixtures: "discover",
      sourceAddresses: ["127.0.0.1", "127.0.0.2"],
      capabilities: { ideal: true, pdfAttachments: true },
      allowDestructive: true,
      encryption: true,
      seed: 20261122,
    },
  });
}

describe("a profile without provisioning", () => {
  it("runs the whole suite against a conformant server 50 ms away without a failure: the files take turns", async () => {
    const targets = sharedProfile("shared", proxy.baseUrl, reference.apiKey, secondaryApiKey);
    const run = await runAgainst(targets, "shared", [], { timeoutMs: 240_000 });
    expectReportsWritten(run);
    const failed = run.summary!.tests.filter((t) => t.status === "failed").map((t) => `${t.fullName}: ${t.message}`);
    expect(failed, "checks that failed against the conformant reference").toEqual([]);
    expect(run.stderr).toMatch(/note: profile "shared" provisions no users, .* the suite files run one at a time/);
  }, 300_000);

  it("breaks no check against a server that ends a device's earlier sessions when it opens another (a legal variant)", async () => {
    const ending = await startReferenceServer({ apiKey: "reference-primary-key", variants: ["new-session-ends-previous"] });
    try {
      const targets = sharedProfile("ending", ending.baseUrl, ending.apiKey, await sandboxApiKey(ending.baseUrl));
      const run = await runAgainst(targets, "ending", [], { timeoutMs: 240_000 });
      expectReportsWritten(run);
      const notPassed = run.summary!.tests.filter((t) => t.status === "failed");
      expect(notPassed.map((t) => `${t.fullName}: ${t.message}`)).toEqual([]);
    } finally {
      await ending.close();
    }
  }, 300_000);
});

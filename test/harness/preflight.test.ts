// The preflight's steps after the primary session go out side by side, but are judged in their order: the step
// that stops the run is the first that would have stopped it one step at a time, and a stop ends the list.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { runPreflight } from "../../cli/preflight.js";
import { loadTargetsFile, selectProfile } from "../../harness/profile/profile.js";
import { startReferenceServer, type RunningReference } from "../../reference/server.js";
import { sandboxApiKey } from "../support/sandbox-key.js";

let server: RunningReference;
let secondKey: string;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer({ apiKey: "reference-primary-key" });
  dir = mkdtempSync(join(tmpdir(), "preflight-"));
  secondKey = await sandboxApiKey(server.baseUrl);
});

afterAll(async () => {
  await server?.close();
});

/** The preflight against the reference with these profile fields (beside a working primary key). */
function preflightWith(fields: Record<string, unknown>) {
  const file = join(dir, `targets-${Math.random().toString(36).slice(2)}.yaml`);
  const profile = { baseUrl: server.baseUrl, apiKey: server.apiKey, provisioning: "sandbox-user", ...fields };
  writeFileSync(file, stringify({ default: "t", targets: { t: profile } }));
  return runPreflight({ ...selectProfile(loadTargetsFile(file, {}), undefined), baseUrl: server.baseUrl });
}

describe("preflight", () => {
  it("a working profile passes every step, in order, and measures a round trip", async () => {
    const result = await preflightWith({ secondaryApiKey: secondKey, fixtures: { oauthClientId: server.fixtures.oauthClientId } });
    expect(result.blocking).toBeUndefined();
    expect(result.steps.every((s) => s.ok)).toBe(true);
    expect(result.steps.map((s) => s.check.replace(/: .*/, ""))).toEqual([
      `reach ${server.baseUrl} and install a key`,
      "primary key",
      "secondary key",
      "fixtures exist and belong to the primary user",
      "provisioning",
    ]);
    expect(result.roundTripMs).toBeGreaterThan(0);
  });

  it("a secondary key of the primary user stops the run there, though the later steps went out beside it", async () => {
    const result = await preflightWith({ secondaryApiKey: server.apiKey, fixtures: { oauthClientId: 987_654 } });
    expect(result.blocking).toMatchObject({ check: "secondary key", kind: "config" });
    expect(result.blocking?.problem).toMatch(/secondaryApiKey opens the same user/);
    expect(result.steps.at(-1)).toBe(result.blocking);
  });

  it("a fixture nobody has stops the run before provisioning is judged, naming the field", async () => {
    const result = await preflightWith({ fixtures: { oauthClientId: 987_654 } });
    expect(result.blocking).toMatchObject({ check: "fixtures", kind: "config" });
    expect(result.blocking?.problem).toMatch(/fixtures\.oauthClientId = 987654/);
    expect(result.steps.some((s) => s.check.startsWith("provisioning"))).toBe(false);
  });
});

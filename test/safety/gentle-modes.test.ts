// Issue 7 part 2: safety modes. `mode: read-only` sends nothing but GET after the session bootstrap, and the
// client itself refuses a write a suite forgot to skip; `allowDestructive: false` leaves the primary user's
// cards and key as they were. Proved on the wire: a recording proxy in front of the embedded reference.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARD_TYPES } from "../../suites/support/cards.js";
import { HttpClient } from "../../harness/http/client.js";
import { objectsOfType } from "../../harness/envelope.js";
import { ReadOnlyViolation } from "../../harness/http/read-only.js";
import { openSession, type Session } from "../../harness/session/session.js";
import type { SpawnedRun } from "../support/spawn-run.js";
import { SKIP } from "../../harness/run/target.js";
import { startReferenceServer, type RunningReference } from "../../reference/server.js";
import { runAgainst, tempDir, writeTargets } from "../hostile/support.js";
import { startRecordingProxy, type Recorded, type RecordingProxy } from "./recording-proxy.js";

const BOOTSTRAP = new Set(["POST /v1/installation", "POST /v1/device-server", "POST /v1/session-server"]);

describe("the client in read-only mode", () => {
  it("sends GET and the bootstrap POSTs, and refuses every other request with a clear error before sending it", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"Response":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = new HttpClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      headerPrefix: "X-Service-",
      userAgent: "t",
      requestMs: 2000,
      maxResponseBytes: 1 << 16,
      mode: "read-only",
    });
    try {
      const allowed: [string, string][] = [
        ["GET", "/user/7/card"],
        ["POST", "/installation"],
        ["POST", "/device-server"],
        ["POST", "/session-server"],
        ["GET", "/v1/user/7/card?count=5"],
      ];
      for (const [method, path] of allowed) {
        expect((await client.request({ method, path, json: method === "GET" ? undefined : {} })).status).toBe(200);
      }
      const refused: [string, string][] = [
        ["PUT", "/user/7/card/1"],
        ["DELETE", "/user/7/card/1"],
        ["POST", "/sandbox-user-person"],
        ["POST", "/user/7/card/1/replace"],
        ["PATCH", "/user/7"],
        ["HEAD", "/user/7/card"],
        ["POST", "/installation/3"],
        ["POST", "/v1/user/7/attachment"],
      ];
      for (const [method, path] of refused) {
        const attempt = client.request({ method, path, json: {} });
        await expect(attempt).rejects.toBeInstanceOf(ReadOnlyViolation);
        await expect(attempt).rejects.toThrow(
          new RegExp(`^${method} /v1${path.replace(/^\/v1/, "")}: not sent: the profile is read-only \\(mode: read-only\\)`),
        );
      }
      expect(seen.map((s) => s.split(" ")[0])).toEqual(["GET", "POST", "POST", "POST", "GET"]);
    } finally {
      await client.close();
      server.close();
    }
  });
});

/** Cards of the primary user: id → status and order_status, straight from the reference. */
async function primaryCards(client: HttpClient, session: Session): Promise<Map<number, string>> {
  const exchange = await client.request({ path: `/user/${session.userId}/card`, query: { count: 200 }, token: session.sessionToken });
  expect(exchange.status).toBe(200);
  return new Map(objectsOfType(exchange.json, ...CARD_TYPES).map((c) => [Number(c.id), `${String(c.status)}/${String(c.order_status)}`]));
}

const written = (records: Recorded[]) => records.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path.split("?")[0]}`);
const failedBy = (run: SpawnedRun, pattern: RegExp) =>
  (run.summary?.tests ?? [])
    .filter((t) => t.status === "failed" && pattern.test(t.message ?? ""))
    .map((t) => `[${t.suite}] ${t.name}: ${t.message}`);

describe.concurrent("whole-suite runs against the reference, recorded by a proxy", () => {
  let reference: RunningReference;
  let direct: HttpClient;
  let before: Map<number, string>;
  let primary: Session;
  const proxies: RecordingProxy[] = [];

  beforeAll(async () => {
    reference = await startReferenceServer();
    direct = new HttpClient({
      baseUrl: reference.baseUrl,
      headerPrefix: "X-Service-",
      userAgent: "safety-test",
      requestMs: 10_000,
      maxResponseBytes: 5 << 20,
    });
    primary = await openSession(direct, { apiKey: reference.apiKey, from: "127.0.0.1" });
    before = await primaryCards(direct, primary);
  });

  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await direct?.close();
    await reference?.close();
  });

  async function recordedRun(name: string, profile: Record<string, unknown>): Promise<{ run: SpawnedRun; proxy: RecordingProxy }> {
    const proxy = await startRecordingProxy(reference.baseUrl);
    proxies.push(proxy);
    const targets = writeTargets(tempDir(name), {
      [name]: {
        baseUrl: proxy.baseUrl,
        apiKey: reference.apiKey,
        fixtures: reference.fixtures,
        sourceAddresses: ["127.0.0.1", "127.0.0.2"],
        capabilities: { ideal: true, pdfAttachments: true },
        ...profile,
      },
    });
    const run = await runAgainst(targets, name, [], { timeoutMs: 240_000 });
    expect(run.summary, run.stderr.slice(-2000)).toBeDefined();
    return { run, proxy };
  }

  it("mode: read-only: the whole suite sends nothing but GET after the bootstrap, and no suite trips the client's guard", async () => {
    const { run, proxy } = await recordedRun("readonly", { mode: "read-only", provisioning: "sandbox-user", allowDestructive: true });
    expect(proxy.records.length, "the run reached the target").toBeGreaterThan(3);
    const writes = written(proxy.records).filter((w) => !BOOTSTRAP.has(w));
    expect(writes, "requests other than GET outside the session bootstrap").toEqual([]);
    // A suite that forgot SKIP.readOnly fails loudly on the guard instead of writing: name it.
    expect(failedBy(run, /not sent: the profile is read-only/), "checks that tried to write in read-only mode").toEqual([]);
    expect(run.summary!.tests.some((t) => t.status === "skipped" && t.message === SKIP.readOnly)).toBe(true);
  });

  it("allowDestructive false, no provisioning: no permanent card state, replacement, used fixture or lock-out; skips say why", async () => {
    const { run, proxy } = await recordedRun("gentle", { mode: "full", provisioning: "none", allowDestructive: false });
    const ok = (r: Recorded) => r.status >= 200 && r.status < 300;
    const harmful = proxy.records.filter((r) => {
      const path = r.path.split("?")[0]!;
      if (r.method === "PUT" && /\/card\/\d+$/.test(path) && ok(r))
        return /"status"\s*:\s*"(LOST|STOLEN|CANCELLED)"|"order_status"/.test(r.requestBody);
      if (r.method === "POST" && /\/card(-batch-replace|\/\d+\/replace)$/.test(path)) return ok(r);
      if (r.method === "PUT" && /\/challenge-request\/\d+$/.test(path)) return ok(r);
      return false;
    });
    expect(
      harmful.map((r) => `${r.method} ${r.path} ${r.requestBody} → ${r.status}`),
      "destructive writes that succeeded",
    ).toEqual([]);
    // The end state: no card of the primary user went into a permanent state or changed its order, none was added by a replacement.
    const after = await primaryCards(direct, primary);
    const changed = [...after]
      .filter(([id, state]) => before.get(id) !== state)
      .map(([id, state]) => `card ${id}: ${before.get(id) ?? "new"} → ${state}`);
    expect(changed, "primary user's cards changed").toEqual([]);
    // Not locked out: the primary key still opens a session from the address it is bound to.
    await openSession(direct, { apiKey: reference.apiKey, from: "127.0.0.1" });
    const skippedWhy = run.summary!.tests.filter((t) => t.status === "skipped").map((t) => t.message);
    expect(skippedWhy).toContain(SKIP.destructive);
    expect(
      skippedWhy.every((m) => m !== undefined && m !== "skipped" && m.length > 10),
      "every skip says why",
    ).toBe(true);
  });
});

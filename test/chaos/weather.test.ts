// Weather, not defects: the client retries transient faults on safe requests only, within bounds, and says
// so on the exchange; a write is never resent; a fast-check property that meets a TransportError ends with it
// (no counterexample); the verdict counts tests broken by transport apart and says INCOMPLETE for them.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { HttpClient, type ClientOptions } from "../../harness/http/client.js";
import { buildConformance } from "../../report/conformance-summary.js";
import type { RunInfo } from "../../report/conformance-types.js";
import type { Exchange } from "../../harness/http/exchange.js";
import type { RunSummary, TestSummary } from "../../report/reporters/summary-reporter.js";
import { TransportError } from "../../harness/http/transport-error.js";
import { weatherPlugin } from "../../harness/run/weather.js";

interface Arrival {
  method: string;
  path: string;
  requestId: string;
}

/** A local server answering the n-th request (0-based) with `answer`; "drop" closes the connection instead. */
async function scriptedServer(
  answer: (n: number, req: IncomingMessage) => number | "drop" | { status: number; headers: Record<string, string> },
) {
  const arrivals: Arrival[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    arrivals.push({ method: req.method ?? "", path: req.url ?? "", requestId: String(req.headers["x-service-client-request-id"]) });
    req.resume();
    const what = answer(arrivals.length - 1, req);
    if (what === "drop") return req.socket.destroy();
    const { status, headers } = typeof what === "number" ? { status: what, headers: {} } : what;
    const body = status === 200 ? '{"Response":[{"Id":{"id":1}}]}' : "<html>maintenance</html>";
    res.writeHead(status, { "content-type": status === 200 ? "application/json" : "text/html", ...headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { arrivals, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

const servers: ReturnType<typeof createServer>[] = [];
const clients: HttpClient[] = [];
function client(baseUrl: string, extra: Partial<ClientOptions> = {}): { client: HttpClient; recorded: Exchange[] } {
  const recorded: Exchange[] = [];
  const made = new HttpClient({
    baseUrl,
    headerPrefix: "X-Service-",
    userAgent: "weather-test",
    requestMs: 3000,
    maxResponseBytes: 1 << 16,
    onExchange: (e) => void recorded.push(e),
    ...extra,
  });
  clients.push(made);
  return { client: made, recorded };
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function rejection(attempt: Promise<unknown>): Promise<TransportError> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe("the client retries transient faults on safe requests", () => {
  it("a GET answered 503 once is resent with a fresh request id; the final answer carries the attempt, and both are recorded", async () => {
    const server = await scriptedServer((n) => (n === 0 ? 503 : 200));
    const { client: c, recorded } = client(server.baseUrl);
    const exchange = await c.request({ path: "/user/1/card" });
    expect(exchange.status).toBe(200);
    expect(server.arrivals).toHaveLength(2);
    expect(server.arrivals[0]!.requestId).not.toBe(server.arrivals[1]!.requestId);
    expect(exchange.attempts).toEqual([{ status: 503, requestId: server.arrivals[0]!.requestId, waitedMs: 100 }]);
    expect(recorded.map((e) => [e.status, e.retrying?.reason])).toEqual([
      [503, "503 (transient)"],
      [200, undefined],
    ]);
  });

  it("a GET whose connection is dropped is resent; the bootstrap POSTs too, with a fresh id even where the caller set one", async () => {
    const server = await scriptedServer((n) => (n % 2 === 0 ? "drop" : 200));
    const { client: c } = client(server.baseUrl);
    expect((await c.request({ path: "/user/1/card" })).attempts?.[0]?.transport).toMatch(/^connection (UND_ERR_SOCKET|ECONNRESET|EPIPE)$/);
    const device = await c.request({
      method: "POST",
      path: "/device-server",
      json: {},
      headers: { "X-Service-Client-Request-Id": "mine" },
    });
    expect(device.status).toBe(200);
    expect(server.arrivals.slice(2).map((a) => [a.method, a.path])).toEqual([
      ["POST", "/v1/device-server"],
      ["POST", "/v1/device-server"],
    ]);
    expect(server.arrivals[2]!.requestId).toBe("mine");
    expect(server.arrivals[3]!.requestId).not.toBe("mine");
    expect(device.request.headers["X-Service-Client-Request-Id"]).toBe(server.arrivals[3]!.requestId);
  });

  it("a write is never resent: a dropped POST on a resource is a TransportError after one arrival, a 503 to it is the answer", async () => {
    const server = await scriptedServer((n) => (n === 0 ? "drop" : 503));
    const { client: c } = client(server.baseUrl);
    const error = await rejection(c.request({ method: "POST", path: "/user/1/card", json: {} }));
    expect(error.kind).toBe("connection");
    expect(error.retries).toBeUndefined();
    expect(server.arrivals).toHaveLength(1);
    const put = await c.request({ method: "PUT", path: "/user/1/card/2", json: {} });
    expect(put.status).toBe(503);
    expect(put.attempts).toBeUndefined();
    expect(server.arrivals).toHaveLength(2);
  });

  it("a fault that persists is not hidden: after `retries` retries the last 503 is the answer, and a last drop the error", async () => {
    const always503 = await scriptedServer(() => 503);
    const exchange = await client(always503.baseUrl).client.request({ path: "/user/1/card" });
    expect(exchange.status).toBe(503);
    expect(exchange.attempts).toHaveLength(2);
    expect(always503.arrivals).toHaveLength(3);
    const alwaysDrop = await scriptedServer(() => "drop");
    const error = await rejection(client(alwaysDrop.baseUrl, { retries: 1 }).client.request({ path: "/user/1/card" }));
    expect(error.retries).toBe(1);
    expect(error.message).toMatch(/\(after 1 retry\)$/);
    expect(alwaysDrop.arrivals).toHaveLength(2);
  });

  it("retries: 0 sends once; a Retry-After over maxRetryAfterMs is not waited for (the 503 stands); a short one is honoured", async () => {
    const server = await scriptedServer((n) => (n < 2 ? { status: 503, headers: { "retry-after": n === 0 ? "5" : "1" } } : 200));
    expect((await client(server.baseUrl, { retries: 0 }).client.request({ path: "/a" })).status).toBe(503);
    const { client: c } = client(server.baseUrl, { rateLimit: { maxRetryAfterMs: 2000 } });
    const started = performance.now();
    const exchange = await c.request({ path: "/b" });
    expect(exchange.status).toBe(200);
    expect(exchange.attempts).toEqual([expect.objectContaining({ status: 503, waitedMs: 1000 })]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.arrivals).toHaveLength(3);
  });

  it("a request that is not retried carries no weather fields", async () => {
    const server = await scriptedServer(() => 200);
    const exchange = await client(server.baseUrl).client.request({ path: "/user/1/card" });
    expect(Object.keys(exchange)).not.toContain("attempts");
    expect(Object.keys(exchange)).not.toContain("retrying");
  });
});

describe("a fast-check property that meets a TransportError", () => {
  it("ends with that TransportError, not a shrunk counterexample, and shrinking sends nothing", async () => {
    fc.installGlobalPlugin(weatherPlugin);
    let calls = 0;
    const weather = new TransportError(
      "GET /v1/user/1/card: the server closed the connection (UND_ERR_SOCKET)",
      "connection",
      "UND_ERR_SOCKET",
    );
    const run = fc.assert(
      fc.asyncProperty(fc.array(fc.integer(), { minLength: 5 }), async () => {
        calls++;
        if (calls === 3) throw weather;
      }),
      { seed: 1, numRuns: 20 },
    );
    await expect(run).rejects.toBe(weather);
    expect(calls).toBe(3);
  });

  it("a property failing a check still reports its counterexample", async () => {
    const run = fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 100 }), async (n) => {
        if (n > 10) throw new Error("CARD-001: too big");
      }),
      { seed: 1, numRuns: 50 },
    );
    await expect(run).rejects.toThrow(/Property failed after \d+ tests[\s\S]*Counterexample: \[11\]/);
  });
});

describe("the verdict tells weather from defects", () => {
  const test = (name: string, status: TestSummary["status"], extra: Partial<TestSummary> = {}): TestSummary => ({
    project: "conformance",
    suite: "cards",
    name,
    fullName: `cards > ${name}`,
    status,
    requirements: name.split(" ").filter((w) => /^[A-Z]+-\d{3}$/.test(w)),
    durationMs: 1,
    ...extra,
  });
  const summary = (tests: TestSummary[]): RunSummary => ({
    target: "t",
    suiteVersion: "0",
    startedAt: "2026-11-25T00:00:00.000Z",
    durationMs: 1,
    seed: 1,
    totals: { passed: 0, failed: 0, skipped: 0 },
    errors: [],
    tests,
  });
  const info: RunInfo = {
    target: "t",
    suiteVersion: "0",
    specVersion: "s",
    profileSha256: "0",
    conventionsOff: [],
    faults: [],
    seed: 1,
    startedAt: "",
    finishedAt: "",
    node: "v20",
    scope: { suites: "all", grep: null, shards: null },
  };
  const broken = {
    message: "GET /v1/user/1154/card/1167: the server closed the connection (UND_ERR_SOCKET) (after 2 retries)",
    broken: "transport" as const,
    transport: "connection",
  };

  it("a requirement unchecked only because its test broke by transport makes the run INCOMPLETE, with the count and a hint", () => {
    const report = buildConformance(
      summary([test("CARD-014 a card is read back", "failed", broken), test("CARD-001 cards are listed", "passed")]),
      info,
    );
    expect(report.verdict).toBe("INCOMPLETE");
    expect(report.reason).toMatch(
      new RegExp(
        /^1 requirement not checked because 1 test ended broken by transport .*CARD-014; /.source +
          /rerun, lower the load .* raise the profile's retries$/.source,
      ),
    );
    const card014 = report.requirements.find((r) => r.id === "CARD-014")!;
    expect(card014).toMatchObject({ status: "skipped", brokenByTransport: 1 });
    expect(report.tests.find((t) => t.name.includes("CARD-014"))).toMatchObject({ kind: "transport", blamed: [] });
    expect(report.totals.tests).toMatchObject({ failed: 0, brokenByTransport: 1 });
  });

  it("a defect elsewhere is still NOT CONFORMANT, and the broken test's requirement is not among the failed", () => {
    const report = buildConformance(
      summary([
        test("CARD-014 a card is read back", "failed", broken),
        test("CARD-007 a card is updated", "failed", { message: "CARD-007: PUT /v1/user/1/card/2: expected HTTP 200, got 500" }),
      ]),
      info,
    );
    expect(report.verdict).toBe("NOT CONFORMANT");
    expect(report.requirements.filter((r) => r.status === "failed").map((r) => r.id)).toEqual(["CARD-007"]);
  });

  it("a 5XX page is a failure of the rule, whatever it says (classified by type, never by text)", () => {
    const report = buildConformance(
      summary([
        test("CARD-007 a card is updated", "failed", {
          message: "CARD-007: GET /v1/user/1/card: expected HTTP 200, got 503 <html>maintenance</html>",
        }),
      ]),
      info,
    );
    expect(report.verdict).toBe("NOT CONFORMANT");
  });
});

describe("a write its caller vouches for (resend: same-request-id)", () => {
  it("is resent after a 503 or a drop with its first request id; a 4XX to a resend after a drop is a lost answer", async () => {
    const server = await scriptedServer((n) => [503, 200, "drop", 200, "drop", 400][n] as number | "drop");
    const { client: c } = client(server.baseUrl);
    const first = await c.request({ method: "POST", path: "/user/1/company", json: {}, resend: "same-request-id" });
    expect(first.status).toBe(200);
    expect(server.arrivals[0]!.requestId).toBe(server.arrivals[1]!.requestId);
    expect((await c.request({ method: "POST", path: "/user/1/company", json: {}, resend: "same-request-id" })).status).toBe(200);
    const error = await rejection(c.request({ method: "POST", path: "/user/1/company", json: {}, resend: "same-request-id" }));
    expect(error.kind).toBe("lost-answer");
    expect(server.arrivals[4]!.requestId).toBe(server.arrivals[5]!.requestId);
  });
});

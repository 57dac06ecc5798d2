// Issue 7 part 2: a profile rate limit (rateLimit.requestsPerSecond) applied in the client, and 429 with
// Retry-After (seconds or HTTP date) waited out up to rateLimit.maxRetryAfterMs, at most rateLimit.maxRetries times.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { HttpClient, type ClientOptions } from "../../harness/http/client.js";
import { parseRetryAfter } from "../../harness/http/rate-limit.js";
import { TransportError } from "../../harness/http/transport-error.js";
import { startReferenceServer } from "../../reference/server.js";
import { runAgainst, tempDir, writeTargets } from "../hostile/support.js";
import { startRecordingProxy } from "./recording-proxy.js";

interface Arrival {
  at: number;
  requestId: string;
}

/** A local server that records arrivals and answers with `answer(n)` for the n-th request (0-based). */
async function countingServer(answer: (n: number, req: IncomingMessage, res: ServerResponse) => void) {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    arrivals.push({ at: performance.now(), requestId: String(req.headers["x-service-client-request-id"]) });
    req.resume();
    answer(arrivals.length - 1, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { arrivals, baseUrl, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const ok = (res: ServerResponse) => res.writeHead(200, { "Content-Type": "application/json" }).end('{"Response":[]}');
const tooMany = (res: ServerResponse, retryAfter?: string) =>
  res
    .writeHead(429, { "Content-Type": "application/json", ...(retryAfter === undefined ? {} : { "Retry-After": retryAfter }) })
    .end('{"Error":[{"error_description":"Too many requests.","error_description_translated":"Too many requests."}]}');

const clients: HttpClient[] = [];
function client(baseUrl: string, extra: Partial<ClientOptions> = {}): HttpClient {
  const made = new HttpClient({
    baseUrl,
    headerPrefix: "X-Service-",
    userAgent: "rate-test",
    requestMs: 5000,
    maxResponseBytes: 1 << 16,
    ...extra,
  });
  clients.push(made);
  return made;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

/**
 * Most arrivals in any window of `ms`. 150 ms under a second absorbs the jitter between a paced send and the
 * server's arrival event when the self-tests load both cores (50 ms did not, once in a full npm test); a client
 * that does not pace still puts all its requests in one window.
 */
function busiestWindow(times: number[], ms = 850): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("Retry-After", () => {
  it("reads delay-seconds and HTTP dates; a past date means now; anything else is unreadable", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("1", now)).toBe(1000);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    for (const bad of [undefined, "", "soon", "1.5", "-3"]) expect(parseRetryAfter(bad, now)).toBeUndefined();
  });
});

// Concurrent: most of these tests wait (pacing, Retry-After), and the CLI run's start-up overlaps the waits.
describe.concurrent("the client's rate limit and 429 handling; a rate-limited run", () => {
  it("requestsPerSecond: 10 concurrent-fired requests arrive no more than 10 in any second", async () => {
    const server = await countingServer((_n, _req, res) => ok(res));
    const paced = client(server.baseUrl, { rateLimit: { requestsPerSecond: 10 } });
    const started = performance.now();
    await Promise.all(Array.from({ length: 15 }, () => paced.request({ path: "/user/1/card" })));
    const took = performance.now() - started;
    await server.close();
    expect(server.arrivals).toHaveLength(15);
    expect(busiestWindow(server.arrivals.map((a) => a.at))).toBeLessThanOrEqual(10);
    expect(took, "15 requests at 10 per second take at least 1.4 s").toBeGreaterThanOrEqual(1350);
  });

  it("429 with Retry-After: 1 once, then 200: the client waits a second, retries with a new request id, and returns the 200", async () => {
    const server = await countingServer((n, _req, res) => (n === 0 ? tooMany(res, "1") : ok(res)));
    const exchange = await client(server.baseUrl).request({ path: "/user/1/card" });
    await server.close();
    expect(exchange.status).toBe(200);
    expect(server.arrivals).toHaveLength(2);
    expect(server.arrivals[1]!.at - server.arrivals[0]!.at).toBeGreaterThanOrEqual(950);
    expect(server.arrivals[1]!.requestId).not.toBe(server.arrivals[0]!.requestId);
  });

  it("429 with Retry-After as an HTTP date is waited out until that date", async () => {
    const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000); // a whole second, 1.5–2.5 s ahead
    const server = await countingServer((n, _req, res) => (n === 0 ? tooMany(res, at.toUTCString()) : ok(res)));
    const exchange = await client(server.baseUrl).request({ path: "/user/1/card" });
    await server.close();
    expect(exchange.status).toBe(200);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 50);
  });

  it("a Retry-After longer than rateLimit.maxRetryAfterMs is not waited for: a TransportError names the wait and the limit", async () => {
    const server = await countingServer((_n, _req, res) => tooMany(res, "120"));
    const started = performance.now();
    const attempt = client(server.baseUrl, { rateLimit: { maxRetryAfterMs: 10_000 } }).request({ path: "/user/1/card" });
    await expect(attempt).rejects.toBeInstanceOf(TransportError);
    await expect(attempt).rejects.toThrow(
      "GET /v1/user/1/card: 429 Too Many Requests asks to wait 120 s (Retry-After: 120), longer than rateLimit.maxRetryAfterMs " +
        "(10000 ms); not retried",
    );
    await server.close();
    expect(server.arrivals).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("a target that keeps answering 429 is retried rateLimit.maxRetries times, then the request fails saying so", async () => {
    const server = await countingServer((_n, _req, res) => tooMany(res, "0"));
    const attempt = client(server.baseUrl, { rateLimit: { maxRetries: 2 } }).request({ method: "GET", path: "/user/1/card" });
    await expect(attempt).rejects.toThrow(/still 429 Too Many Requests \(Retry-After: 0\) after 2 retries \(rateLimit\.maxRetries = 2\)/);
    await server.close();
    expect(server.arrivals).toHaveLength(3);
  });

  it("a CLI run with a profile rateLimit stays under requestsPerSecond throughout, waits out an injected 429, and passes", async () => {
    const reference = await startReferenceServer();
    let injected = false;
    const proxy = await startRecordingProxy(reference.baseUrl, (method, path) => {
      if (injected || method !== "GET" || !/\/card$/.test(path.split("?")[0]!)) return undefined;
      injected = true;
      return {
        status: 429,
        headers: { "Retry-After": "1" },
        body: '{"Error":[{"error_description":"Slow down.","error_description_translated":"Slow down."}]}',
      };
    });
    try {
      const targets = writeTargets(tempDir("rate"), {
        gentle: {
          baseUrl: proxy.baseUrl,
          apiKey: reference.apiKey,
          provisioning: "sandbox-user",
          rateLimit: { requestsPerSecond: 12, maxRetryAfterMs: 5000 },
        },
      });
      const run = await runAgainst(targets, "gentle", ["headers"]);
      expect(run.summary?.totals.failed, run.stdout.slice(-3000)).toBe(0);
      expect(run.code).toBe(0);
      expect(injected).toBe(true);
      expect(proxy.records.length).toBeGreaterThan(15);
      expect(busiestWindow(proxy.records.map((r) => r.at))).toBeLessThanOrEqual(12);
    } finally {
      await proxy.close();
      await reference.close();
    }
  });
});

// A loopback chaos proxy: a bad day on staging, made repeatable. It forwards to a target and, for a given
// share of requests chosen by a seeded generator, answers itself instead: 429 with Retry-After, a 503 HTML
// maintenance page, or a dropped connection (before forwarding, or after the target answered: the answer lost).
// Upstream connections leave from the caller's own address (127.0.0.2 stays 127.0.0.2), so the target's
// IP-binding rules still see who called.
import { Agent, createServer, request as forward, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type ChaosFault = "429" | "503" | "drop" | "drop-after";

export interface ChaosOptions {
  /** Share of requests that meet a fault (0.02: 2 %). */
  rate: number;
  seed: number;
  /** Faults drawn from, evenly (default the three of a bad day: 429, 503, a connection dropped on arrival). */
  faults?: ChaosFault[];
  /** Retry-After of the 429s (default "1"). */
  retryAfter?: string;
  /** Requests answered 503 or dropped every time (a persistent fault, not weather), e.g. one endpoint. */
  persistent?: (method: string, path: string) => "503" | "drop" | undefined;
  /** Added before each forwarded request (a server this many ms away; npm run bench's latency scenario). */
  delayMs?: number;
}

export interface ChaosProxy {
  baseUrl: string;
  /** Requests seen, and faults injected by kind (the persistent ones counted apart). */
  stats: { requests: number; injected: Record<ChaosFault | "persistent", number>; sources: Set<string> };
  close(): Promise<void>;
}

/** mulberry32: a small seeded generator, so a seed gives the same fault sequence (in arrival order). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);

export async function startChaosProxy(targetBaseUrl: string, options: ChaosOptions): Promise<ChaosProxy> {
  const target = new URL(targetBaseUrl);
  const next = random(options.seed);
  const faults = options.faults ?? ["429", "503", "drop"];
  const stats: ChaosProxy["stats"] = {
    requests: 0,
    injected: { "429": 0, "503": 0, drop: 0, "drop-after": 0, persistent: 0 },
    sources: new Set(),
  };
  const agents = new Map<string, Agent>();
  const agentFor = (address: string) => {
    let agent = agents.get(address);
    if (!agent) agents.set(address, (agent = new Agent({ keepAlive: true, localAddress: address })));
    return agent;
  };

  const answer = (res: ServerResponse, status: number, headers: Record<string, string>, body: string) => {
    res.writeHead(status, { "content-type": "text/html", "content-length": String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    stats.requests++;
    const source = req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "127.0.0.1";
    stats.sources.add(source);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const fault = next() < options.rate ? faults[Math.floor(next() * faults.length)]! : undefined;
    const always = options.persistent?.(method, path);
    if (always) {
      stats.injected.persistent++;
      if (always === "drop") return req.socket.destroy();
      req.resume();
      return answer(res, 503, {}, "<html>maintenance</html>");
    }
    if (fault === "429" || fault === "503" || fault === "drop") {
      stats.injected[fault]++;
      if (fault === "drop") return req.socket.destroy();
      req.resume();
      return fault === "429"
        ? answer(res, 429, { "retry-after": options.retryAfter ?? "1" }, "<html>slow down</html>")
        : answer(res, 503, {}, "<html>maintenance</html>");
    }
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: target.host };
    for (const name of HOP_BY_HOP) delete headers[name];
    if (options.delayMs) {
      // Hold the request body until the delay is over, then forward as usual.
      req.pause();
      setTimeout(() => send(), options.delayMs);
      return;
    }
    send();
    function send(): void {
      const upstream = forward({ host: target.hostname, port: target.port, method, path, headers, agent: agentFor(source) }, (reply) => {
        if (fault === "drop-after") {
          // The target did the work; its answer is lost on the way back.
          stats.injected["drop-after"]++;
          reply.resume();
          reply.on("end", () => req.socket.destroy());
          return;
        }
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(reply.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
        res.writeHead(reply.statusCode ?? 502, out);
        reply.pipe(res);
      });
      upstream.on("error", () => req.socket.destroy());
      req.pipe(upstream);
    }
  });
  // Keep-alive from the suite's client; a dropped connection is one socket, never the server.
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    stats,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const agent of agents.values()) agent.destroy();
    },
  };
}

// A recording reverse proxy for the safety self-tests: it forwards every request to the target unchanged
// and keeps what went over the wire (methods, paths, headers, bodies, arrival times), so a test can say
// what the suite really sent, not what the suite believes it sent.
import { Agent, createServer, request as forward, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  /** Path and query, as the target saw it ("/v1/user/7/card?count=5"). */
  path: string;
  requestHeaders: IncomingHttpHeaders;
  requestBody: string;
  status: number;
  responseBody: string;
  /** Arrival time (performance.now() in the test process). */
  at: number;
}

export interface RecordingProxy {
  baseUrl: string;
  records: Recorded[];
  close(): Promise<void>;
}

/**
 * A proxy in front of `targetBaseUrl` (http://host:port/v1). Upstream connections leave from the caller's own loopback address, so
 * IP-binding checks still see 127.0.0.2.
 */
/** An answer the proxy gives itself instead of forwarding (e.g. a 429), recorded like any other. */
export type Interfere = (method: string, path: string) => { status: number; headers?: Record<string, string>; body?: string } | undefined;

export async function startRecordingProxy(targetBaseUrl: string, interfere?: Interfere): Promise<RecordingProxy> {
  const target = new URL(targetBaseUrl);
  const records: Recorded[] = [];
  const agents = new Map<string, Agent>();
  const agentFor = (address: string) => {
    let agent = agents.get(address);
    if (!agent) agents.set(address, (agent = new Agent({ keepAlive: true, localAddress: address })));
    return agent;
  };
  const server = createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const requestBody = Buffer.concat(chunks);
      const record: Recorded = {
        method: req.method ?? "",
        path: req.url ?? "",
        requestHeaders: req.headers,
        requestBody: requestBody.toString("utf8"),
        status: 0,
        responseBody: "",
        at,
      };
      records.push(record);
      const own = interfere?.(record.method, record.path);
      if (own) {
        record.status = own.status;
        record.responseBody = own.body ?? "";
        res.writeHead(own.status, { "content-type": "application/json", ...own.headers });
        res.end(own.body ?? "");
        return;
      }
      const upstream = forward(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
          agent: agentFor((req.socket.remoteAddress ?? "127.0.0.1").replace(/^::ffff:/, "")),
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (c: Buffer) => body.push(c));
          answer.on("end", () => {
            const bytes = Buffer.concat(body);
            record.status = answer.statusCode ?? 0;
            record.responseBody = bytes.toString("utf8");
            const headers = { ...answer.headers };
            delete headers["transfer-encoding"];
            res.writeHead(record.status, { ...headers, "content-length": bytes.length });
            res.end(bytes);
          });
        },
      );
      upstream.on("error", (error) => {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`recording proxy: ${error.message}`);
      });
      upstream.end(requestBody);
    });
  });
  server.on("connection", (socket) => socket.on("error", () => undefined));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    records,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const agent of agents.values()) agent.destroy();
    },
  };
}

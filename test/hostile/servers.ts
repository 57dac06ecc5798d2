// Small misbehaving servers on 127.0.0.1 (port 0), for the hostile-server self-tests.
import { randomBytes } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";

/** What a hostile server does with a request it misbehaves on. */
export type Misbehaviour = (request: IncomingMessage, response: ServerResponse) => void;

export interface HostileServer {
  baseUrl: string;
  /** "METHOD /path" of every request that arrived. */
  seen: string[];
  close(): Promise<void>;
}

export interface HostileOptions {
  /** Answer installation / device-server / session-server correctly, misbehave only on resource calls. */
  goodBootstrap?: boolean;
  /** Serve HTTPS with this key and certificate. */
  https?: { key: string; cert: string };
}

export const FAKE_USER_ID = 7;

const json = (response: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  response.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  response.end(text);
};

/** Just enough of the session bootstrap (spec "Authentication") for harness/session/session.ts to open a session. */
function answerBootstrap(request: IncomingMessage, response: ServerResponse): boolean {
  const path = (request.url ?? "").split("?")[0];
  if (request.method !== "POST") return false;
  const now = "2026-01-01 00:00:00.000000";
  const token = () => ({ Token: { id: 1, created: now, updated: now, token: randomBytes(32).toString("hex") } });
  switch (path) {
    case "/v1/installation":
      json(response, 200, {
        Response: [
          { Id: { id: 1 } },
          token(),
          { ServerPublicKey: { server_public_key: "-----BEGIN PUBLIC KEY-----\nfake\n-----END PUBLIC KEY-----" } },
        ],
      });
      return true;
    case "/v1/device-server":
      json(response, 200, { Response: [{ Id: { id: 2 } }] });
      return true;
    case "/v1/session-server":
      json(response, 200, { Response: [{ Id: { id: 3 } }, token(), { UserPerson: { id: FAKE_USER_ID, display_name: "Hostile" } }] });
      return true;
    default:
      return false;
  }
}

export async function startHostile(misbehave: Misbehaviour, options: HostileOptions = {}): Promise<HostileServer> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    seen.push(`${request.method} ${request.url}`);
    // Writes to a client that gave up must not crash the test process.
    response.on("error", () => undefined);
    request.socket.on("error", () => undefined);
    request.resume();
    if (options.goodBootstrap && answerBootstrap(request, response)) return;
    misbehave(request, response);
  };
  const server = options.https
    ? createHttpsServer({ key: options.https.key, cert: options.https.cert }, handler)
    : createHttpServer(handler);
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  server.on("tlsClientError", () => undefined);
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `${options.https ? "https" : "http"}://127.0.0.1:${port}/v1`,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// A timer a misbehaviour starts (dripping, endless bodies): it stops when the connection closes.
function every(response: ServerResponse, ms: number, tick: () => boolean): void {
  const timer = setInterval(() => {
    if (response.destroyed || !tick()) clearInterval(timer);
  }, ms);
  response.on("close", () => clearInterval(timer));
}

const HTML_500 =
  "<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1><p>Something " +
  "went wrong.</p></body></html>";

/** The misbehaviours of issue 7, by name. */
export const MISBEHAVIOURS = {
  /** Accepts the request and never answers. */
  hangBeforeHeaders: (): Misbehaviour => () => undefined,
  /** Status and headers, part of the body, then nothing. */
  stallMidBody: (): Misbehaviour => (_request, response) => {
    response.writeHead(200, { "Content-Type": "application/json", "Content-Length": 200 });
    response.write('{"Response":[{"Token":');
  },
  /** A valid answer sent one byte a second. */
  dripOneByteASecond: (): Misbehaviour => (_request, response) => {
    const body = Buffer.from('{"Response":[{"Id":{"id":1}}]}');
    response.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
    let at = 0;
    response.write(body.subarray(at, ++at));
    every(response, 1000, () => {
      response.write(body.subarray(at, ++at));
      if (at >= body.length) response.end();
      return at < body.length;
    });
  },
  /** TCP reset as soon as the request arrives. */
  resetConnection: (): Misbehaviour => (request) => {
    request.socket.resetAndDestroy();
  },
  /** Broken JSON under Content-Type application/json. */
  invalidJson: (): Misbehaviour => (_request, response) => {
    const text = '{"Response":[{"Token":{"token":"abc",}]';
    response.writeHead(200, { "Content-Type": "application/json", "Content-Length": text.length });
    response.end(text);
  },
  /** A well-formed JSON answer labelled text/html. */
  wrongContentType: (): Misbehaviour => (_request, response) => {
    const text = JSON.stringify({ Response: [{ Card: { id: 1, status: "ACTIVE" } }] });
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": text.length });
    response.end(text);
  },
  /** 50 MB of JSON-ish padding, announced with Content-Length. */
  fiftyMegabytes: (): Misbehaviour => (_request, response) => {
    const size = 50 * 1024 * 1024;
    response.writeHead(200, { "Content-Type": "application/json", "Content-Length": size });
    const block = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size && !response.destroyed) {
        sent += block.length;
        if (!response.write(block)) return void response.once("drain", pump);
      }
      if (!response.destroyed) response.end();
    };
    pump();
  },
  /** Chunked, never ending: a chunk every 10 ms. */
  endlessChunked: (): Misbehaviour => (_request, response) => {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.write('{"Response":[');
    const chunk = `${'{"Id":{"id":1}},'.repeat(256)}`;
    every(response, 10, () => response.write(chunk) || true);
  },
  /** 302 back to the same URL, forever. */
  redirectLoop: (): Misbehaviour => (request, response) => {
    response.writeHead(302, { Location: request.url ?? "/", "Content-Length": 0 });
    response.end();
  },
  /** A proxy's or framework's error page. */
  html500: (): Misbehaviour => (_request, response) => {
    response.writeHead(500, { "Content-Type": "text/html", "Content-Length": HTML_500.length });
    response.end(HTML_500);
  },
  /** Status and headers announcing a body, then the connection closes. */
  closeAfterHeaders: (): Misbehaviour => (_request, response) => {
    response.writeHead(200, { "Content-Type": "application/json", "Content-Length": 500 });
    response.flushHeaders();
    setTimeout(() => response.socket?.destroy(), 20);
  },
  /** A correct, quick answer: for the TLS scenario, where the certificate is the problem. */
  fine: (): Misbehaviour => (_request, response) => json(response, 200, { Response: [{ Id: { id: 1 } }] }),
} as const;

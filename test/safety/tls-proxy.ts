// Test plumbing for the transport self-tests: a TLS front for the embedded reference (optionally demanding a
// client certificate), and a CONNECT proxy that records which tunnels it opened and knows a private host name.
import { createServer as createHttpServer } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";

export interface Running {
  port: number;
  close(): Promise<void>;
}

function tracked(server: { close(cb: () => void): unknown }, sockets: Set<Socket>, port: number): Running {
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** HTTPS in front of a plain-HTTP server on 127.0.0.1:upstreamPort. */
export async function startTlsFront(upstreamPort: number, tls: { key: string; cert: string; clientCa?: string }): Promise<Running> {
  const sockets = new Set<Socket>();
  const server = createTlsServer(
    { key: tls.key, cert: tls.cert, ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}) },
    (secure) => {
      const upstream = connect(upstreamPort, "127.0.0.1");
      for (const s of [secure, upstream]) {
        sockets.add(s);
        s.on("error", () => undefined);
        s.on("close", () => sockets.delete(s));
      }
      secure.pipe(upstream).pipe(secure);
    },
  );
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return tracked(server, sockets, (server.address() as AddressInfo).port);
}

export interface ConnectProxy extends Running {
  /** host:port of every CONNECT request. */
  tunnels: string[];
  /** The client address each tunnel came from. */
  sources: string[];
}

/** A forward proxy (CONNECT only) that resolves `names` itself: the client cannot reach those hosts without it. */
export async function startConnectProxy(names: Record<string, string>): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const sources: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((_req, res) => res.writeHead(405).end("CONNECT only"));
  server.on("connect", (req, client: Socket) => {
    tunnels.push(req.url ?? "");
    sources.push((client.remoteAddress ?? "").replace(/^::ffff:/, ""));
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), names[host!] ?? host!, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.pipe(client).pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => client.destroy());
      s.on("close", () => sockets.delete(s));
    }
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { ...tracked(server, sockets, (server.address() as AddressInfo).port), tunnels, sources };
}

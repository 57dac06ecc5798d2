// Issue 7 part 4: TLS towards staging servers (profile tls: a private CA, mutual TLS, or no verification) and
// HTTPS_PROXY / NO_PROXY, against the embedded reference served over HTTPS with a CA made in the test
// (openssl), behind a CONNECT proxy that records it was used and alone knows the host name conformance.test.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, type ClientOptions } from "../../harness/http/client.js";
import { openSession } from "../../harness/session/session.js";
import { tlsConnectOptions, type TlsFiles } from "../../harness/http/tls.js";
import { TransportError } from "../../harness/http/transport-error.js";
import { startReferenceServer, type RunningReference } from "../../reference/server.js";
import { makeTestPki, type TestPki } from "../hostile/pki.js";
import { runAgainst, tempDir } from "../hostile/support.js";
import { startConnectProxy, startTlsFront, type ConnectProxy, type Running } from "./tls-proxy.js";

let pki: TestPki;
let reference: RunningReference;
let https: Running; // server certificate from the test CA
let mutual: Running; // the same, and it demands a client certificate from the test CA
let proxy: ConnectProxy;
const clients: HttpClient[] = [];

beforeAll(async () => {
  pki = makeTestPki(tempDir("pki"));
  reference = await startReferenceServer();
  const port = Number(new URL(reference.baseUrl).port);
  https = await startTlsFront(port, { key: pki.read(pki.serverKey), cert: pki.read(pki.serverCert) });
  mutual = await startTlsFront(port, { key: pki.read(pki.serverKey), cert: pki.read(pki.serverCert), clientCa: pki.read(pki.caCert) });
  proxy = await startConnectProxy({ "conformance.test": "127.0.0.1" });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([https, mutual, proxy].map((s) => s?.close()));
  await reference?.close();
});

function client(baseUrl: string, tls: TlsFiles | undefined, extra: Partial<ClientOptions> = {}): HttpClient {
  const options = tlsConnectOptions(tls);
  const made = new HttpClient({
    baseUrl,
    headerPrefix: "X-Service-",
    userAgent: "tls-test",
    requestMs: 4000,
    maxResponseBytes: 1 << 20,
    ...(options ? { tls: options } : {}),
    ...extra,
  });
  clients.push(made);
  return made;
}

/** Opens a session (the three bootstrap calls) over the client: the proof that the transport works. */
const bootstrap = (c: HttpClient) => openSession(c, { apiKey: reference.apiKey });

async function transportError(attempt: Promise<unknown>): Promise<TransportError> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

/** Runs `fn` with proxy variables set (EnvHttpProxyAgent reads them when the client makes its agent). */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

const CLEAR = { HTTP_PROXY: "", http_proxy: "", HTTPS_PROXY: "", https_proxy: "", NO_PROXY: "", no_proxy: "" };

describe("TLS towards the target", () => {
  it("tls.ca: a server certificate from a private CA is trusted, and the session opens over HTTPS", async () => {
    const session = await bootstrap(client(`https://127.0.0.1:${https.port}/v1`, { ca: pki.caCert }));
    expect(session.sessionToken).toMatch(/\S{16,}/);
  });

  it("without tls.ca the same server fails with a TLS message that says what to set", async () => {
    const error = await transportError(bootstrap(client(`https://127.0.0.1:${https.port}/v1`, undefined)));
    expect(error.kind).toBe("tls");
    expect(error.message).toMatch(
      new RegExp(
        /^POST \/v1\/installation: TLS: the server's certificate was issued by a CA that is not trusted /.source +
          /\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\); to trust a private CA set tls\.ca/.source,
      ),
    );
  });

  it("tls.rejectUnauthorized: false accepts the untrusted certificate (test servers)", async () => {
    await bootstrap(client(`https://127.0.0.1:${https.port}/v1`, { rejectUnauthorized: false }));
  });

  it("mutual TLS: without a client certificate the handshake fails plainly; with tls.cert and tls.key the session opens", async () => {
    const error = await transportError(bootstrap(client(`https://127.0.0.1:${mutual.port}/v1`, { ca: pki.caCert })));
    expect(error.message).toMatch(
      /^POST \/v1\/installation: .*(certificate required|closed the connection|reset).*set tls\.cert and tls\.key/,
    );
    await bootstrap(client(`https://127.0.0.1:${mutual.port}/v1`, { ca: pki.caCert, cert: pki.clientCert, key: pki.clientKey }));
  });
});

describe("HTTPS_PROXY and NO_PROXY", () => {
  it("HTTPS_PROXY: the client tunnels through the proxy (which alone resolves conformance.test), TLS checked end to end", async () => {
    const before = proxy.tunnels.length;
    await withEnv({ ...CLEAR, HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` }, () =>
      bootstrap(client(`https://conformance.test:${https.port}/v1`, { ca: pki.caCert })),
    );
    expect(proxy.tunnels.slice(before)).toContain(`conformance.test:${https.port}`);
  });

  it("the tunnel leaves from the request's source address (sourceAddresses), one proxy connection per address", async () => {
    const before = proxy.sources.length;
    await withEnv({ ...CLEAR, HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` }, () =>
      openSession(client(`https://conformance.test:${https.port}/v1`, { ca: pki.caCert }), { apiKey: reference.apiKey, from: "127.0.0.2" }),
    );
    expect(proxy.sources.slice(before)).toContain("127.0.0.2");
    expect(proxy.sources.slice(before)).not.toContain("127.0.0.1");
  });

  it("NO_PROXY naming the host: the client goes direct (and cannot resolve conformance.test), the proxy sees nothing", async () => {
    const before = proxy.tunnels.length;
    const error = await withEnv({ ...CLEAR, HTTPS_PROXY: `http://127.0.0.1:${proxy.port}`, NO_PROXY: "conformance.test" }, () =>
      transportError(bootstrap(client(`https://conformance.test:${https.port}/v1`, { ca: pki.caCert }))),
    );
    expect(error.message).toMatch(/^POST \/v1\/installation: host name (not found|lookup failed)/);
    expect(proxy.tunnels.length).toBe(before);
  });

  it("a proxy setting undici cannot read ends the request as a transport failure that names it, not as a crash", async () => {
    const error = await withEnv({ ...CLEAR, HTTPS_PROXY: "http://[not-a-host" }, () =>
      transportError(client(`https://conformance.test:${https.port}/v1`, { ca: pki.caCert }).request({ path: "/user/1/card" })),
    );
    expect(error.message).toMatch(/^GET \/v1\/user\/1\/card: Invalid URL/);
  });

  it("a loopback target never goes through the proxy", async () => {
    const before = proxy.tunnels.length;
    await withEnv({ ...CLEAR, HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` }, () =>
      bootstrap(client(`https://127.0.0.1:${https.port}/v1`, { ca: pki.caCert })),
    );
    expect(proxy.tunnels.length).toBe(before);
  });
});

describe("a run through the CLI over mutual TLS and a proxy", () => {
  it("profile tls (paths relative to the targets file) and HTTPS_PROXY from the environment: the headers suite passes", async () => {
    // The targets file sits next to the PEM files and names them relatively.
    const targets = join(pki.dir, "targets.yaml");
    writeFileSync(
      targets,
      [
        "targets:",
        "  staging:",
        `    baseUrl: https://conformance.test:${mutual.port}/v1`,
        `    apiKey: ${reference.apiKey}`,
        "    provisioning: sandbox-user",
        "    tls: { ca: ca.pem, cert: client.pem, key: client.key }",
        "",
      ].join("\n"),
    );
    const before = proxy.tunnels.length;
    const run = await runAgainst(targets, "staging", ["headers"], { env: { HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` } });
    expect(run.summary?.totals.failed, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-1000)}`).toBe(0);
    expect(run.summary!.totals.passed).toBeGreaterThan(0);
    expect(run.code).toBe(0);
    expect(proxy.tunnels.slice(before).every((t) => t === `conformance.test:${mutual.port}`)).toBe(true);
    expect(proxy.tunnels.length).toBeGreaterThan(before);
  });
});

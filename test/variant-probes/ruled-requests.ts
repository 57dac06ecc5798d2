// Probes of the variants that play readings a blind ruling made legal (spec/rulings.md, 2026-11-28) in the request
// layers and authentication (faults/auth.ts, faults/versioning.ts).
import type { Exchange } from "../../harness/http/exchange.js";
import { postDeviceServer, postInstallation } from "../../harness/session/session.js";
import { startReferenceServer } from "../../reference/server.js";
import { probeClient, type Probe, type ProbeFn } from "./support.js";

/** An item id far beyond any the probe server hands out. */
const ABSENT = 900_000_000_000_017;

const companies = (p: Probe, token: string | null, headers: Record<string, string | null> = {}): Promise<Exchange> =>
  p.client.request({ path: `/user/${p.session.userId}/company`, token, headers });
const sessionServer = (p: Probe, token: string, secret: string): Promise<Exchange> =>
  p.client.request({ method: "POST", path: "/session-server", token, json: { secret } });
/** A new installation of the probe's client key: no device registered on it yet. */
const newInstallation = async (p: Probe): Promise<string> => (await postInstallation(p.client)).token!;

/**
 * POST /session-server on a twin of the probe's server (same variants) that requires client signatures there, from
 * a registered device, with `signature` (null: none). Its status: 200 shows the variant's mark.
 */
async function signedSessionServer(p: Probe, signature: string | null): Promise<number> {
  const server = await startReferenceServer({ variants: p.server.options.variants ?? [], requireSignatures: "session-server" });
  const client = probeClient(server.baseUrl);
  try {
    const token = (await postInstallation(client)).token!;
    await postDeviceServer(client, { token, apiKey: server.apiKey });
    const exchange = await client.request({
      method: "POST",
      path: "/session-server",
      token,
      json: { secret: server.apiKey },
      headers: { [client.header("Client-Signature")]: signature },
    });
    return exchange.status;
  } finally {
    await client.close();
    await server.close();
  }
}

/** Per variant: true when the answer shows the variant's mark. */
export const PROBES: Record<string, ProbeFn> = {
  "session-opens-without-device": async (p) => (await sessionServer(p, await newInstallation(p), p.session.apiKey)).status === 200,
  "installation-token-on-resources": async (p) => (await companies(p, p.session.installationToken)).status === 200,
  "device-server-provisions-unknown-key": async (p) =>
    (await postDeviceServer(p.client, { token: await newInstallation(p), apiKey: `probe-unknown-${crypto.randomUUID()}` })).status === 200,
  "session-secret-ignored": async (p) => (await sessionServer(p, p.session.installationToken, "probe-not-the-key")).status === 200,
  "device-description-optional": async (p) =>
    (
      await p.client.request({
        method: "POST",
        path: "/device-server",
        token: await newInstallation(p),
        json: { secret: p.session.apiKey },
      })
    ).status === 200,
  "session-server-takes-session-token": async (p) => (await sessionServer(p, p.session.sessionToken, p.session.apiKey)).status === 200,
  "geolocation-unsigned-only": async (p) =>
    (await companies(p, p.session.sessionToken, { [p.client.header("Geolocation")]: "-122.4194 37.7749 16 25 US" })).status === 400,
  "device-server-takes-session-token": async (p) =>
    (await postDeviceServer(p.client, { token: p.session.sessionToken, apiKey: p.session.apiKey })).status === 200,
  "geolocation-header-required": async (p) => {
    const status = (await companies(p, p.session.sessionToken, { [p.client.header("Geolocation")]: null })).status;
    return status >= 400 && status < 500;
  },
  "auth-header-canonical-case-only": async (p) =>
    (await companies(p, null, { [p.client.header("Client-Authentication").toLowerCase()]: p.session.sessionToken })).status >= 400,
  "client-signature-optional": async (p) => (await signedSessionServer(p, null)) === 200,
  "client-signature-presence-only": async (p) => (await signedSessionServer(p, "AAAA")) === 200,
  "unknown-item-read-empty": async (p) => (await p.get(`/user/${p.session.userId}/company/${ABSENT}`)).status === 200,
  "deprecated-share-invites-gone": async (p) =>
    (await p.get(`/user/${p.session.userId}/share-invite-monetary-account-response`)).status === 410,
};

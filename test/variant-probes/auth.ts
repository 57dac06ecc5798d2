// Probes of the authentication and header variants (faults/auth.ts: AUTHENTICATION_VARIANTS).
import type { Exchange } from "../../harness/http/exchange.js";
import type { Probe, ProbeFn } from "./support.js";

/** A userID no user of the probe server has. */
const NOBODY = 1_999_999_937;

const withoutToken = (p: Probe): Promise<Exchange> => p.client.request({ path: `/user/${p.session.userId}/company` });
const withRequestId = (p: Probe, id: string): Promise<Exchange> =>
  p.client.request({
    path: `/user/${p.session.userId}/company`,
    token: p.session.sessionToken,
    headers: { [p.client.header("Client-Request-Id")]: id },
  });

/** Per variant: true when the answer shows the variant's mark. */
export const PROBES: Record<string, ProbeFn> = {
  "auth-refusals-403": async (p) => (await withoutToken(p)).status === 403,
  "auth-token-refusals-400": async (p) => (await withoutToken(p)).status === 400,
  // Card routes answer every other failure 400: only the variant makes another user's id a 404 there.
  "path-user-refusals-404": async (p) => (await p.get(`/user/${NOBODY}/card`)).status === 404,
  "request-id-reuse-409": async (p) => {
    const id = `probe-${crypto.randomUUID()}`;
    await withRequestId(p, id);
    return (await withRequestId(p, id)).status === 409;
  },
  "auth-body-refusals-422": async (p) =>
    (await p.client.request({ method: "POST", path: "/installation", json: { client_public_key: "not a key" } })).status === 422,
  "client-signature-checked-when-sent": async (p) =>
    (
      await p.client.request({
        path: `/user/${p.session.userId}/company`,
        token: p.session.sessionToken,
        headers: { [p.client.header("Client-Signature")]: "AAAA" },
      })
    ).status === 400,
};

/** Two sessions opened on the probe session's installation and device. */
async function twoSessions(p: Probe): Promise<[Exchange, Exchange]> {
  const open = () =>
    p.client.request({ method: "POST", path: "/session-server", token: p.session.installationToken, json: { secret: p.session.apiKey } });
  return [await open(), await open()];
}
const tokenOf = (e: Exchange) => JSON.stringify(e.json).match(/"token":"([^"]+)"/)?.[1];

PROBES["session-token-per-device"] = async (p) => {
  const [first, second] = await twoSessions(p);
  return tokenOf(first) !== undefined && tokenOf(first) === tokenOf(second);
};
PROBES["new-session-ends-previous"] = async (p) => {
  const [first] = await twoSessions(p);
  const exchange = await p.client.request({ path: `/user/${p.session.userId}/company`, token: tokenOf(first) ?? null });
  return exchange.status >= 400;
};

// What a variant probe works with: a client and session against a reference server started with the
// variants under test. Probe files in this folder each export PROBES (variant name → probe); a probe
// answers true when the answer shows the variant's mark. test/variants.test.ts loads every file here.
import { HttpClient } from "../../harness/http/client.js";
import { responseItems, typeKeyOf } from "../../harness/envelope.js";
import type { Exchange } from "../../harness/http/exchange.js";
import type { Session } from "../../harness/session/session.js";
import type { RunningReference } from "../../reference/server.js";

export interface Probe {
  client: HttpClient;
  session: Session;
  server: RunningReference;
  /** Every exchange of this probe's client, the session bootstrap included. */
  seen: Exchange[];
  get(path: string): Promise<Exchange>;
  send(method: string, path: string, json?: unknown): Promise<Exchange>;
}

export const inner = (exchange: Exchange, at = 0): [string | undefined, Record<string, unknown>] => {
  const item = responseItems(exchange.json)?.[at];
  const key = typeKeyOf(item);
  return [key, (key === undefined ? {} : item![key]) as Record<string, unknown>];
};
export const ids = (exchange: Exchange) =>
  (responseItems(exchange.json) ?? []).map((item) => (Object.values(item)[0] as { id: number }).id);
export const callbackPath = (p: Probe) => `/user/${p.session.userId}/oauth-client/${p.server.fixtures.oauthClientId}/callback-url`;
export async function newCallbackUrl(p: Probe): Promise<number> {
  const created = await p.send("POST", callbackPath(p), { url: `https://app.example/variant/${Date.now()}` });
  return ids(created)[0]!;
}

export type ProbeFn = (p: Probe) => Promise<boolean>;

// Companies, as the company probes make and read them.
export const ADDRESS = { street: "Naritaweg", house_number: "131", postal_code: "1043 BS", city: "Amsterdam", country: "NL" };
/** The provider's body (variant company-provider-body-rules refuses one without the addresses). */
export const COMPANY_BODY = {
  name: "Probe BV",
  country: "NL",
  legal_form: "BV",
  subscription_type: "COMPANY_V2",
  address_main: ADDRESS,
  address_postal: ADDRESS,
};
export const companies = (p: Probe) => `/user/${p.session.userId}/company`;
/** The alias name: raw where the read form may leave out or upper-case name (company-read-form-sparse, company-names-upper-cased). */
export const aliasName = (company: Record<string, unknown>) => (company.alias as { name?: unknown }[] | undefined)?.[0]?.name;
export const readCompany = async (p: Probe, id: number) => inner(await p.get(`${companies(p)}/${id}`))[1];

/** The client every probe talks through: the plain X-Service- prefix, short limits, each exchange to `onExchange`. */
export function probeClient(baseUrl: string, onExchange?: (exchange: Exchange) => void): HttpClient {
  return new HttpClient({
    baseUrl,
    headerPrefix: "X-Service-",
    userAgent: "variant-probe",
    requestMs: 10_000,
    maxResponseBytes: 5 << 20,
    ...(onExchange ? { onExchange } : {}),
  });
}

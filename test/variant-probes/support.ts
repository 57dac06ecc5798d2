// What a variant probe works with: a client and session against a reference server started with the
// variants under test. Probe files in this folder each export PROBES (variant name → probe); a probe
// answers true when the answer shows the variant's mark. test/variants.test.ts loads every file here.
import { HttpClient } from "../../harness/http/client.js";
import { responseItems, typeKeyOf } from "../../harness/envelope.js";
import type { Exchange } from "../../harness/http/exchange.js";
import { openSession, provisionUser, type Session } from "../../harness/session/session.js";
import { png1x1 } from "../../harness/test-data/images.js";
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

export const refused = (e: Exchange) => e.status >= 400 && e.status < 500;

/** The probe's server and client, as a fresh sandbox user: data of its own, which no other probe has changed. */
export async function freshUser(p: Probe): Promise<Probe> {
  const session = await openSession(p.client, { apiKey: await provisionUser(p.client) });
  const send = (method: string, path: string, json?: unknown) =>
    p.client.request({ method, path, token: session.sessionToken, ...(json === undefined ? {} : { json }) });
  return { ...p, session, get: (path) => send("GET", path), send };
}

/** An attachment the probe's user uploads to the fixture account: a 1x1 PNG described "variant probe" unless told otherwise. */
export function uploadAttachment(p: Probe, options: { contentType?: string; description?: string; bytes?: Buffer } = {}) {
  return p.client.request({
    method: "POST",
    path: `/user/${p.session.userId}/monetary-account/${p.server.fixtures.monetaryAccountId}/attachment`,
    token: p.session.sessionToken,
    headers: {
      "Content-Type": options.contentType ?? "image/png",
      [p.client.header("Attachment-Description")]: options.description ?? "variant probe",
    },
    body: options.bytes ?? png1x1(),
  });
}

// Companies, as the company probes make and read them.
// ---- Cards ----

export type Card = Record<string, unknown> & { id: number };
export const cardPath = (p: Probe, id?: number) => `/user/${p.session.userId}/card${id === undefined ? "" : `/${id}`}`;

/** The card as GET card/{id} shows it (undefined where the read is refused). */
export async function readCard(p: Probe, id: number): Promise<Card | undefined> {
  const read = await p.get(cardPath(p, id));
  return read.status === 200 ? (inner(read)[1] as Card) : undefined;
}

/** Every listed card of the user as its read shows it (the list may leave the fallback out: r3-card-list-fallback-omitted). */
export async function cardsAsRead(p: Probe): Promise<Card[]> {
  const reads = await Promise.all(ids(await p.get(`${cardPath(p)}?count=200`)).map((id) => readCard(p, id)));
  return reads.filter((card): card is Card => card !== undefined);
}

export const deliveredActive = (c: Card) => c.order_status === "DELIVERED_TO_CUSTOMER" && c.status === "ACTIVE";

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

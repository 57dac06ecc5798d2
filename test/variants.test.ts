// Each legal variant of the reference really changes what the server answers: a variant that changes
// nothing would let the kill matrix's "every variant passes" prove nothing. One probe per variant, each
// looking for the variant's own mark, and the same probe against the plain reference must not find it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../harness/client.js";
import { responseItems, typeKeyOf } from "../harness/envelope.js";
import type { Exchange } from "../harness/exchange.js";
import { openSession, type Session } from "../harness/session.js";
import { png1x1 } from "../harness/test-data/images.js";
import { faultCatalogue, startReferenceServer, variantCatalogue, type RunningReference } from "../reference/server.js";

interface Probe {
  client: HttpClient;
  session: Session;
  server: RunningReference;
  /** Every exchange of this probe's client, the session bootstrap included. */
  seen: Exchange[];
  get(path: string): Promise<Exchange>;
  send(method: string, path: string, json?: unknown): Promise<Exchange>;
}

const inner = (exchange: Exchange, at = 0): [string | undefined, Record<string, unknown>] => {
  const item = responseItems(exchange.json)?.[at];
  const key = typeKeyOf(item);
  return [key, (key === undefined ? {} : item![key]) as Record<string, unknown>];
};
const ids = (exchange: Exchange) => (responseItems(exchange.json) ?? []).map((item) => (Object.values(item)[0] as { id: number }).id);
const callbackPath = (p: Probe) => `/user/${p.session.userId}/oauth-client/${p.server.fixtures.oauthClientId}/callback-url`;
async function newCallbackUrl(p: Probe): Promise<number> {
  const created = await p.send("POST", callbackPath(p), { url: `https://app.example/variant/${Date.now()}` });
  return ids(created)[0]!;
}

/** Per variant: true when the answer shows the variant's mark. */
const PROBES: Record<string, (p: Probe) => Promise<boolean>> = {
  "ids-large": async (p) => ids(await p.get(`/user/${p.session.userId}/card`)).every((id) => id > 2 ** 31 - 600),
  "ids-per-user": async (p) => ids(await p.get(`/user/${p.session.userId}/card`)).some((id) => id < 100),
  "tokens-base64url": async (p) => !/^[0-9a-f]{64}$/.test(p.session.sessionToken),
  "session-user-api-key": async (p) => p.seen.some((e) => e.request.path.endsWith("/session-server") && e.bodyText.includes('"UserApiKey"')),
  "other-4xx-statuses": async (p) => (await p.get(`/user/${p.session.userId}/company/999999999`)).status === 410,
  "errors-two-elements": async (p) => ((await p.get(`/user/${p.session.userId}/company/999999999`)).json as { Error?: unknown[] }).Error?.length === 2,
  "extra-fields": async (p) => {
    const cards = await p.get(`/user/${p.session.userId}/card`);
    return "vendor_extension" in inner(cards)[1] && cards.headers["x-vendor-trace"] !== undefined;
  },
  "card-type-key-debit": async (p) => inner(await p.get(`/user/${p.session.userId}/card`))[0] === "CardDebit",
  "timestamps-iso-8601": async (p) => /^\d{4}-\d{2}-\d{2}T.*Z$/.test(String(inner(await p.get(`/user/${p.session.userId}/card`))[1].created)),
  "pages-descending": async (p) => {
    const list = ids(await p.get(`/user/${p.session.userId}/card`));
    return list.length >= 2 && list[0]! > list[1]!;
  },
  "count-over-200-clamped": async (p) => (await p.get(`/user/${p.session.userId}/card?count=201`)).status === 200,
  "future-url-null": async (p) => {
    const page = (await p.get(`/user/${p.session.userId}/card`)).json as { Pagination?: { future_url: unknown } };
    return page.Pagination !== undefined && page.Pagination.future_url === null;
  },
  "future-url-every-page": async (p) => {
    // The second page from the top: it has newer items, so only the variant gives it a future_url.
    const first = (await p.get(`/user/${p.session.userId}/card?count=1`)).json as { Pagination: { older_url: string } };
    const page = (await p.get(first.Pagination.older_url)).json as { Pagination?: { future_url: unknown; newer_url: unknown } };
    return page.Pagination !== undefined && typeof page.Pagination.future_url === "string" && typeof page.Pagination.newer_url === "string";
  },
  "share-answered-moves-refused": async (p) => {
    const path = `/user/${p.session.userId}/share-invite-monetary-account-response`;
    const id = ids(await p.get(path))[0]!;
    // ACTIVE → REVOKED must be applied either way; out of REVOKED is the variant's refusal.
    await p.send("PUT", `${path}/${id}`, { status: "REVOKED" });
    return (await p.send("PUT", `${path}/${id}`, { status: "ACTIVE" })).status === 400;
  },
  "sparse-optional-fields": async (p) => {
    const announcement = inner(await p.get(`/user/${p.session.userId}/feature-announcement/${p.server.fixtures.featureAnnouncementIds![0]}`))[1];
    return typeof announcement.title === "string" && !("sub_title" in announcement);
  },
  "put-answers-object": async (p) => {
    const id = await newCallbackUrl(p);
    return inner(await p.send("PUT", `${callbackPath(p)}/${id}`, { url: "https://app.example/variant/changed" }))[0] === "OauthCallbackUrl";
  },
  "delete-answers-empty-object": async (p) => (await p.send("DELETE", `${callbackPath(p)}/${await newCallbackUrl(p)}`)).bodyText === "{}",
  "delete-answers-typed-element": async (p) => inner(await p.send("DELETE", `${callbackPath(p)}/${await newCallbackUrl(p)}`))[0] === "OauthCallbackUrlDelete",
  "attachment-read-typed": async (p) => {
    const upload = await p.client.request({
      method: "POST",
      path: `/user/${p.session.userId}/monetary-account/${p.server.fixtures.monetaryAccountId}/attachment`,
      token: p.session.sessionToken,
      headers: { "Content-Type": "image/png", [p.client.header("Attachment-Description")]: "variant probe" },
      body: png1x1(),
    });
    return (await p.get(`/user/${p.session.userId}/attachment/${ids(upload)[0]}`)).headers["content-type"] === "image/png";
  },
  "auth-elements-reordered": async (p) => {
    const answer = p.seen.find((e) => e.request.path.endsWith("/installation"));
    return answer !== undefined && typeKeyOf(responseItems(answer.json)?.[0]) !== "Id";
  },
  "page-links-always-count": async (p) => /[?&]count=10/.test(String(((await p.get(`/user/${p.session.userId}/card`)).json as { Pagination: { older_url: unknown } }).Pagination.older_url)),
  "page-links-params-swapped": async (p) =>
    /\?older_id=\d+&count=3$/.test(String(((await p.get(`/user/${p.session.userId}/card?count=3`)).json as { Pagination: { older_url: unknown } }).Pagination.older_url)),
  "json-pretty": async (p) => (await p.get(`/user/${p.session.userId}/card`)).bodyText.includes('\n  "Response"'),
  "json-charset": async (p) => /charset=utf-8/i.test((await p.get(`/user/${p.session.userId}/card`)).headers["content-type"] ?? ""),
  "chunked-answers": async (p) => {
    const answer = await p.get(`/user/${p.session.userId}/card`);
    return answer.headers["transfer-encoding"] === "chunked" && answer.headers["content-length"] === undefined;
  },
  "connection-close": async (p) => (await p.get(`/user/${p.session.userId}/card`)).headers.connection === "close",
  "primary-without-cards": async (p) => ids(await p.get(`/user/${p.session.userId}/card`)).length === 0,
  "error-text-names-request": async (p) => {
    const refused = (await p.get(`/user/${p.session.userId}/company/999999999`)).json as { Error?: { error_description?: string }[] };
    return /\(request [^)]+\)$/.test(refused.Error?.[0]?.error_description ?? "");
  },
  "card-read-arrays-sorted": async (p) => {
    const countries = (e: Exchange) => ((inner(e)[1].country_permission ?? []) as { country: string }[]).map((c) => c.country).join();
    const listed = await p.get(`/user/${p.session.userId}/card`);
    return countries(listed) !== countries(await p.get(`/user/${p.session.userId}/card/${ids(listed)[0]}`));
  },
  "replace-issues-new-card": async (p) => {
    const id = ids(await p.get(`/user/${p.session.userId}/card`)).at(-1)!;
    return ids(await p.send("POST", `/user/${p.session.userId}/card/${id}/replace`, {}))[0] !== id;
  },
  "card-country-permission-merged": async (p) => {
    const listed = await p.get(`/user/${p.session.userId}/card`);
    const card = (responseItems(listed.json) ?? []).map((item) => Object.values(item)[0] as { id: number; status: string }).find((c) => c.status === "ACTIVE")!;
    await p.send("PUT", `/user/${p.session.userId}/card/${card.id}`, { country_permission: [{ country: "DE" }] });
    const after = inner(await p.get(`/user/${p.session.userId}/card/${card.id}`))[1].country_permission as { country: string }[];
    return after.length > 1;
  },
  "company-provider-body-rules": async (p) => {
    const body = { name: "Probe BV", country: "NL", legal_form: "BV", subscription_type: "COMPANY_V2" };
    const address = { street: "Naritaweg", house_number: "131", postal_code: "1043 BW", city: "Amsterdam", country: "NL" };
    const post = async (json: Record<string, unknown>) => (await p.send("POST", `/user/${p.session.userId}/company`, json)).status;
    const full = { ...body, address_main: address, address_postal: address };
    return (await post(body)) === 400 && (await post({ ...full, subscription_type: "BUSINESS" })) === 400 && (await post(full)) === 200;
  },
  "ids-per-user-per-resource": async (p) => {
    const cards = ids(await p.get(`/user/${p.session.userId}/card?count=200`));
    const companies = ids(await p.get(`/user/${p.session.userId}/company?count=200`));
    return cards.includes(1) && companies.includes(1);
  },
  "sandbox-data-varies": async (p) => {
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const made = await p.client.request({ method: "POST", path: "/sandbox-user-person", json: {} });
      keys.push(String(inner(made)[1].api_key));
    }
    const counts: number[] = [];
    for (const apiKey of keys) {
      const session = await openSession(p.client, { apiKey });
      counts.push(ids(await p.client.request({ path: `/user/${session.userId}/company?count=200`, token: session.sessionToken })).length);
    }
    return counts[0] !== counts[1];
  },
  "challenge-fields-minimal": async (p) => {
    const [, shown] = inner(await p.get(`/user/${p.session.userId}/challenge-request/${p.server.fixtures.challengeRequestIds![0]}`));
    return Object.keys(shown).sort().join() === "id,status";
  },
  "announcements-same-for-everyone": async (p) => {
    // The shared announcements carry fixed uuids (the same for every user) instead of random ones.
    const [, shown] = inner(await p.get(`/user/${p.session.userId}/feature-announcement/${p.server.fixtures.featureAnnouncementIds![0]}`));
    return String((shown.avatar as { uuid?: string } | undefined)?.uuid).startsWith("00000000-0000-4000-8000-");
  },
  "card-fallback-null": async (p) =>
    (responseItems((await p.get(`/user/${p.session.userId}/card`)).json) ?? []).some((item) => (Object.values(item)[0] as Record<string, unknown>).monetary_account_id_fallback === null),
};

async function probeWith(variants: string[]): Promise<Probe & { close(): Promise<void> }> {
  const server = await startReferenceServer({ variants });
  const seen: Exchange[] = [];
  const client = new HttpClient({ baseUrl: server.baseUrl, headerPrefix: "X-Service-", userAgent: "variant-probe", requestMs: 10_000, maxResponseBytes: 5 << 20, onExchange: (e) => void seen.push(e) });
  const session = await openSession(client, { apiKey: server.apiKey });
  const send = (method: string, path: string, json?: unknown) => client.request({ method, path, token: session.sessionToken, ...(json === undefined ? {} : { json }) });
  return {
    client,
    session,
    server,
    seen,
    get: (path) => send("GET", path),
    send,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

describe("legal variants of the reference", () => {
  let plain: Awaited<ReturnType<typeof probeWith>>;
  beforeAll(async () => {
    plain = await probeWith([]);
  });
  afterAll(async () => plain?.close());

  it("every variant has a probe, a description and where it is allowed; no name is also a fault's", () => {
    const faults = new Set(faultCatalogue().map((f) => f.name));
    for (const v of variantCatalogue()) {
      expect(PROBES[v.name], `no probe for variant ${v.name}`).toBeDefined();
      expect(v.description.length, v.name).toBeGreaterThan(10);
      expect(v.allowedBy.length, v.name).toBeGreaterThan(3);
      expect(faults.has(v.name), `${v.name} is also a fault's name`).toBe(false);
    }
    expect(Object.keys(PROBES).sort()).toEqual(variantCatalogue().map((v) => v.name).sort());
  });

  for (const variant of variantCatalogue()) {
    it(`${variant.name}: ${variant.description}`, async () => {
      const probe = PROBES[variant.name]!;
      expect(await probe(plain), `the plain reference already shows the mark of ${variant.name}`).toBe(false);
      const on = await probeWith([variant.name]);
      try {
        expect(await probe(on), `the reference with ${variant.name} on does not show it`).toBe(true);
      } finally {
        await on.close();
      }
    });
  }
});

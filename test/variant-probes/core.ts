// Probes of the variants declared before probes moved into per-area files.
import { responseItems, typeKeyOf } from "../../harness/envelope.js";
import type { Exchange } from "../../harness/http/exchange.js";
import { openSession } from "../../harness/session/session.js";
import { callbackPath, ids, inner, newCallbackUrl, type ProbeFn, uploadAttachment } from "./support.js";

/** Per variant: true when the answer shows the variant's mark. */
export const PROBES: Record<string, ProbeFn> = {
  "ids-large": async (p) => ids(await p.get(`/user/${p.session.userId}/card`)).every((id) => id > 2 ** 31 - 600),
  "ids-per-user": async (p) => ids(await p.get(`/user/${p.session.userId}/card`)).some((id) => id < 100),
  "tokens-base64url": async (p) => !/^[0-9a-f]{64}$/.test(p.session.sessionToken),
  "session-user-api-key": async (p) =>
    p.seen.some((e) => e.request.path.endsWith("/session-server") && e.bodyText.includes('"UserApiKey"')),
  "other-4xx-statuses": async (p) => (await p.get(`/user/${p.session.userId}/company/999999999`)).status === 410,
  "errors-two-elements": async (p) =>
    ((await p.get(`/user/${p.session.userId}/company/999999999`)).json as { Error?: unknown[] }).Error?.length === 2,
  "extra-fields": async (p) => {
    const cards = await p.get(`/user/${p.session.userId}/card`);
    return "vendor_extension" in inner(cards)[1] && cards.headers["x-vendor-trace"] !== undefined;
  },
  "card-type-key-debit": async (p) => inner(await p.get(`/user/${p.session.userId}/card`))[0] === "CardDebit",
  "timestamps-iso-8601": async (p) =>
    /^\d{4}-\d{2}-\d{2}T.*Z$/.test(String(inner(await p.get(`/user/${p.session.userId}/card`))[1].created)),
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
    const announcement = inner(
      await p.get(`/user/${p.session.userId}/feature-announcement/${p.server.fixtures.featureAnnouncementIds![0]}`),
    )[1];
    return typeof announcement.title === "string" && !("sub_title" in announcement);
  },
  "put-answers-object": async (p) => {
    const id = await newCallbackUrl(p);
    return inner(await p.send("PUT", `${callbackPath(p)}/${id}`, { url: "https://app.example/variant/changed" }))[0] === "OauthCallbackUrl";
  },
  "delete-answers-empty-object": async (p) => (await p.send("DELETE", `${callbackPath(p)}/${await newCallbackUrl(p)}`)).bodyText === "{}",
  "delete-answers-typed-element": async (p) =>
    inner(await p.send("DELETE", `${callbackPath(p)}/${await newCallbackUrl(p)}`))[0] === "OauthCallbackUrlDelete",
  "attachment-read-typed": async (p) => {
    const upload = await uploadAttachment(p);
    return (await p.get(`/user/${p.session.userId}/attachment/${ids(upload)[0]}`)).headers["content-type"] === "image/png";
  },
  "auth-elements-reordered": async (p) => {
    const answer = p.seen.find((e) => e.request.path.endsWith("/installation"));
    return answer !== undefined && typeKeyOf(responseItems(answer.json)?.[0]) !== "Id";
  },
  "page-links-always-count": async (p) =>
    /[?&]count=10/.test(
      String(((await p.get(`/user/${p.session.userId}/card`)).json as { Pagination: { older_url: unknown } }).Pagination.older_url),
    ),
  "page-links-params-swapped": async (p) =>
    /\?older_id=\d+&count=3$/.test(
      String(((await p.get(`/user/${p.session.userId}/card?count=3`)).json as { Pagination: { older_url: unknown } }).Pagination.older_url),
    ),
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
    const card = (responseItems(listed.json) ?? [])
      .map((item) => Object.values(item)[0] as { id: number; status: string })
      .find((c) => c.status === "ACTIVE")!;
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
    (responseItems((await p.get(`/user/${p.session.userId}/card`)).json) ?? []).some(
      (item) => (Object.values(item)[0] as Record<string, unknown>).monetary_account_id_fallback === null,
    ),
};

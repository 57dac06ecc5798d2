// Probes of the variants blind round 6 made legal (faults/blind/round6/*.ts: the BLIND6_*_VARIANTS lists). Each answers
// true when the answer shows the variant's mark. Where a probe changes state others read (announcements seen, companies,
// callback URLs, cards) it works on a fresh sandbox user of its own.
import { randomUUID } from "node:crypto";
import { responseItems } from "../../../harness/envelope.js";
import type { Exchange } from "../../../harness/http/exchange.js";
import { discoverFixtures } from "../../../harness/session/fixtures-discovery.js";
import {
  ADDRESS,
  callbackPath,
  COMPANY_BODY,
  companies,
  freshUser,
  ids,
  inner,
  readCompany,
  refused,
  type Probe,
  type ProbeFn,
  cardPath,
  cardsAsRead,
  deliveredActive,
  readCard,
} from "../support.js";

/** The objects of a list answer, each without its type key. */
const listed = (e: Exchange) => (responseItems(e.json) ?? []).map((item) => Object.values(item)[0] as Record<string, unknown>);

/** A short random token that makes a name, a text or a url the probe's own. */
const token = () => randomUUID().slice(0, 8);

// ---- Accounts: share invites, feature announcements ----

const sharePath = (p: Probe) => `/user/${p.session.userId}/share-invite-monetary-account-response`;

// ---- Companies ----

/**
 * A fresh user's new company (undefined where the create is refused): its id as the list shows it beside its name, so a
 * create that answers another id (r6-company-create-answers-previous-id) does not send the probe to another company.
 */
async function newCompany(user: Probe, extra: Record<string, unknown> = {}): Promise<number | undefined> {
  const name = `Probe ${token()} BV`;
  const created = await user.send("POST", companies(user), { ...COMPANY_BODY, name, ...extra });
  if (created.status !== 200) return undefined;
  const sent = String(extra.name ?? name).toLowerCase();
  const shown = listed(await user.get(`${companies(user)}?count=200`)).find((c) => JSON.stringify(c).toLowerCase().includes(sent));
  return typeof shown?.id === "number" ? shown.id : ids(created)[0];
}

/** A company's read form as text in lower case, so a name shows whichever case the read gives it in. */
const readText = async (p: Probe, id: number) => JSON.stringify(await readCompany(p, id)).toLowerCase();

// ---- Callback URLs ----

/** The callback URL of that id as its read and the client's list show it (either may leave a new URL out). */
async function callbackUrlShown(p: Probe, id: number): Promise<Record<string, unknown>[]> {
  const read = await p.get(`${callbackPath(p)}/${id}`);
  const list = listed(await p.get(`${callbackPath(p)}?count=200`)).filter((u) => u.id === id);
  return read.status === 200 && inner(read)[1].id === id ? [inner(read)[1], ...list] : list;
}

/** A fresh user's callback URL list path (its own OAuth client), or undefined where it has none. */
async function freshCallbackPath(p: Probe): Promise<[Probe, string] | undefined> {
  const user = await freshUser(p);
  const client = (await discoverFixtures(user.client, user.session)).fixtures.oauthClientId;
  return client === undefined ? undefined : [user, `/user/${user.session.userId}/oauth-client/${client}/callback-url`];
}

// ---- Cards ----

export const PROBES: Record<string, ProbeFn> = {
  // ---- Accounts (round6/accounts.ts) ----
  // A share of the user read by its id: answered without share_type.
  "r6-share-read-without-share-type": async (p) => {
    const [id] = ids(await p.get(sharePath(p)));
    if (id === undefined) return false;
    const read = await p.get(`${sharePath(p)}/${id}`);
    return read.status === 200 && inner(read)[0] !== undefined && !("share_type" in inner(read)[1]);
  },
  // A fresh user's announcement read twice: the first read answered 200, the second 404.
  "r6-feature-announcement-gone-after-first-read": async (p) => {
    const user = await freshUser(p);
    const announcements = (await discoverFixtures(user.client, user.session)).fixtures.featureAnnouncementIds ?? [];
    for (const id of announcements) {
      const path = `/user/${user.session.userId}/feature-announcement/${id}`;
      if ((await user.get(path)).status !== 200) continue;
      return (await user.get(path)).status === 404;
    }
    return false;
  },

  // ---- Authentication and headers (round6/auth.ts) ----
  // A company list asked with X-Service-Region de_DE: refused.
  "r6-region-limited-to-supported-languages": async (p) =>
    refused(
      await p.client.request({ path: companies(p), token: p.session.sessionToken, headers: { [p.client.header("Region")]: "de_DE" } }),
    ),
  // A request id sent twice under the header's lower-case name: not echoed, and its reuse served.
  "r6-request-id-header-exact-case-only": async (p) => {
    const name = p.client.header("Client-Request-Id").toLowerCase();
    const requestId = `probe-case-${randomUUID()}`;
    const send = () => p.client.request({ path: companies(p), token: p.session.sessionToken, headers: { [name]: requestId } });
    const first = await send();
    return first.status === 200 && first.headers[name] === undefined && (await send()).status === 200;
  },

  // ---- Companies (round6/companies.ts) ----
  // A fresh user's new company: the create answers an id its list already held before.
  "r6-company-create-answers-previous-id": async (p) => {
    const user = await freshUser(p);
    const before = ids(await user.get(`${companies(user)}?count=200`));
    const created = await user.send("POST", companies(user), { ...COMPANY_BODY, name: `Probe ${token()} BV` });
    const id = ids(created)[0];
    return created.status === 200 && id !== undefined && before.includes(id);
  },
  // A fresh user's company made with a po_box and two UBOs, then PUT without the po_box and with one UBO: either kept.
  "r6-company-put-deep-merged": async (p) => {
    const user = await freshUser(p);
    const ubo = (name: string) => ({ name, date_of_birth: "1980-01-01", nationality: "NL" });
    const id = await newCompany(user, { address_main: { ...ADDRESS, po_box: "PB 606" }, ubo: [ubo("First UBO"), ubo("Second UBO")] });
    if (id === undefined) return false;
    const put = await user.send("PUT", `${companies(user)}/${id}`, { ...COMPANY_BODY, address_main: ADDRESS, ubo: [ubo("Only UBO")] });
    const company = await readCompany(user, id);
    const poBox = (company.address_main as { po_box?: unknown } | undefined)?.po_box;
    return put.status === 200 && (poBox === "PB 606" || (Array.isArray(company.ubo) && company.ubo.length > 1));
  },
  // A seeded company of the user: a UBO's date_of_birth reads as a timestamp ("1980-01-01 00:00:00.000000").
  "r6-company-ubo-birth-date-as-timestamp": async (p) => {
    const [id] = ids(await p.get(companies(p)));
    if (id === undefined) return false;
    const ubo = (await readCompany(p, id)).ubo as { date_of_birth?: unknown }[] | undefined;
    return Array.isArray(ubo) && ubo.some((u) => /^\d{4}-\d\d-\d\d \d\d:\d\d/.test(String(u.date_of_birth)));
  },
  // A fresh user's company made with an avatar_uuid: its avatar reads with another uuid.
  "r6-company-avatar-uuid-ignored": async (p) => {
    const user = await freshUser(p);
    const avatar = randomUUID();
    const id = await newCompany(user, { avatar_uuid: avatar });
    if (id === undefined) return false;
    const shown = (await readCompany(user, id)).avatar as { uuid?: unknown } | undefined;
    return shown !== undefined && shown.uuid !== avatar;
  },
  // A fresh user's company updated: the PUT answers the userID as its Id.
  "r6-company-put-answers-user-id": async (p) => {
    const user = await freshUser(p);
    const id = await newCompany(user);
    if (id === undefined) return false;
    const put = await user.send("PUT", `${companies(user)}/${id}`, { ...COMPANY_BODY, name: `Probe ${token()} BV` });
    return put.status === 200 && ids(put)[0] === user.session.userId && user.session.userId !== id;
  },
  // A fresh user's company read, renamed, read again: the second read still shows the first name, not the new one.
  "r6-company-read-cached-before-put": async (p) => {
    const user = await freshUser(p);
    const [first, renamed] = [`Probe ${token()} BV`, `Probe ${token()} BV`];
    const id = await newCompany(user, { name: first });
    if (id === undefined || !(await readText(user, id)).includes(first.toLowerCase())) return false;
    const put = await user.send("PUT", `${companies(user)}/${id}`, { ...COMPANY_BODY, name: renamed });
    const after = await readText(user, id);
    return put.status === 200 && after.includes(first.toLowerCase()) && !after.includes(renamed.toLowerCase());
  },

  // ---- Callback URLs (round6/security.ts) ----
  // A new callback URL of 300 characters: it reads back (item or list) as its first 255.
  "r6-callback-url-long-url-truncated": async (p) => {
    const url = `https://app.example/probe/long/${token()}/${"x".repeat(300)}`.slice(0, 300);
    const id = ids(await p.send("POST", callbackPath(p), { url }))[0];
    if (id === undefined) return false;
    return (await callbackUrlShown(p, id)).some((u) => typeof u.url === "string" && u.url.length === 255 && url.startsWith(u.url));
  },
  // A new callback URL with & in its path and query: its item read shows &amp;.
  "r6-callback-url-read-html-escaped": async (p) => {
    const url = `https://app.example/probe/a&b/${token()}?c=1&d=2`;
    const id = ids(await p.send("POST", callbackPath(p), { url }))[0];
    if (id === undefined) return false;
    const read = await p.get(`${callbackPath(p)}/${id}`);
    return read.status === 200 && String(inner(read)[1].url).includes("&amp;");
  },
  // A fresh user's two new callback URLs, the second deleted: it still reads, or is still listed.
  "r6-callback-url-delete-removes-oldest": async (p) => {
    const fresh = await freshCallbackPath(p);
    if (!fresh) return false;
    const [user, path] = fresh;
    const create = async (what: string) => ids(await user.send("POST", path, { url: `https://app.example/probe/${what}/${token()}` }))[0];
    const [first, second] = [await create("first"), await create("second")];
    if (first === undefined || second === undefined || (await user.send("DELETE", `${path}/${second}`)).status !== 200) return false;
    if ((await user.get(`${path}/${second}`)).status === 200) return true;
    return ids(await user.get(`${path}?count=200`)).includes(second);
  },

  // ---- Cards (round6/cards.ts) ----
  // A fresh user's card sent card_limit alone: it reads with card_limit_atm null.
  "r6-card-limit-put-nulls-atm-limit": async (p) => {
    const user = await freshUser(p);
    const card = (await cardsAsRead(user)).find(deliveredActive);
    if (!card) return false;
    const put = await user.send("PUT", cardPath(user, card.id), { card_limit: { value: "50.00", currency: "EUR" } });
    return put.status === 200 && (await readCard(user, card.id))?.card_limit_atm === null;
  },
  // A fresh user's two cards batch-replaced, each with a second_line of its own: two cards read the last entry's.
  "r6-batch-replace-texts-shared": async (p) => {
    const user = await freshUser(p);
    const [a, b] = (await cardsAsRead(user)).filter(deliveredActive);
    if (!a || !b) return false;
    const [lineA, lineB] = [`PROBE A ${token()}`, `PROBE B ${token()}`];
    const batch = await user.send("POST", `/user/${user.session.userId}/card-batch-replace`, {
      cards: [
        { id: a.id, second_line: lineA },
        { id: b.id, second_line: lineB },
      ],
    });
    return batch.status === 200 && (await cardsAsRead(user)).filter((c) => c.second_line === lineB).length > 1;
  },
};

// Probes of the variants blind round 5 made legal (faults/blind/round5/*.ts: the BLIND5_*_VARIANTS lists). Each answers
// true when the answer shows the variant's mark. Where a probe changes state others read (cards, challenge requests, pinned
// chains) it works on a fresh sandbox user of its own. The one-minute answer window of challenge requests is reached without
// waiting: no call makes a challenge request older than a minute, so that probe backdates one in the reference's own state.
import { randomInt, randomUUID } from "node:crypto";
import { errorEntries, responseItems } from "../../../harness/envelope.js";
import type { Exchange } from "../../../harness/http/exchange.js";
import { discoverFixtures } from "../../../harness/session/fixtures-discovery.js";
import { newKeyPair } from "../../../harness/session/keys.js";
import { postDeviceServer, postInstallation, postSessionServer, provisionUser } from "../../../harness/session/session.js";
import { INTERMEDIATE_CA_PEM, LEAF_PEM } from "../../../harness/test-data/certificates.js";
import { png1x1 } from "../../../harness/test-data/images.js";
import { timestamp } from "../../../reference/time.js";
import {
  callbackPath,
  COMPANY_BODY,
  companies,
  freshUser,
  ids,
  inner,
  newCallbackUrl,
  readCompany,
  refused,
  type Probe,
  type ProbeFn,
  uploadAttachment,
  cardPath,
  cardsAsRead,
  deliveredActive,
  readCard,
  type Card,
} from "../support.js";

/** An id no object of any kind has (ids-large starts just below 2^31). */
const NOBODYS_ID = 999_999_999_999;

/** The objects of a list answer, each without its type key. */
const listed = (e: Exchange) => (responseItems(e.json) ?? []).map((item) => Object.values(item)[0] as Record<string, unknown>);

/** A timestamp as an instant: the provider's form read as UTC, or the ISO form (variant timestamps-iso-8601). */
const instant = (shown: unknown) => (typeof shown === "string" ? Date.parse(`${shown.slice(0, 23).replace(" ", "T")}Z`) : NaN);

// ---- Cards ----

const fallbackOf = (card: Card | undefined) => card?.monetary_account_id_fallback;
/** A fresh user and its delivered, active cards that show a fallback account, as read. */
async function cardsWithFallback(p: Probe): Promise<[Probe, Card[], Card[]]> {
  const user = await freshUser(p);
  const all = await cardsAsRead(user);
  return [user, all.filter((c) => deliveredActive(c) && typeof fallbackOf(c) === "number"), all];
}

// ---- Challenge requests, request ids, callback URLs, pinned chains, categories ----

const challengePath = (p: Probe, id: number | string) => `/user/${p.session.userId}/challenge-request/${id}`;
/** A fresh user and the challenge requests seeded for it. */
async function freshChallenges(p: Probe): Promise<[Probe, number[]]> {
  const user = await freshUser(p);
  return [user, (await discoverFixtures(user.client, user.session)).fixtures.challengeRequestIds ?? []];
}

function withRequestId(p: Probe, requestId: string, path: string): Promise<Exchange> {
  return p.client.request({ path, token: p.session.sessionToken, headers: { [p.client.header("Client-Request-Id")]: requestId } });
}

/** The callback URL of that id as its read and the client's list show it (either may leave a new URL out). */
async function callbackUrlShown(p: Probe, id: number): Promise<Record<string, unknown>[]> {
  const read = await p.get(`${callbackPath(p)}/${id}`);
  const list = listed(await p.get(`${callbackPath(p)}?count=200`)).filter((u) => u.id === id);
  return read.status === 200 && inner(read)[1].id === id ? [inner(read)[1], ...list] : list;
}

const pinPath = (p: Probe, id?: number) => `/user/${p.session.userId}/certificate-pinned${id === undefined ? "" : `/${id}`}`;
const pin = async (p: Probe, certificates: string[]) =>
  ids(await p.send("POST", pinPath(p), { certificate_chain: certificates.map((certificate) => ({ certificate })) }))[0];

const categories = (p: Probe) => `/user/${p.session.userId}/additional-transaction-information-category-user-defined`;
const newCategory = (p: Probe, status: string, extra: Record<string, string> = {}) =>
  p.send("POST", categories(p), { status, category: `Probe ${randomUUID().slice(0, 8)}`, ...extra });

const ideal = (p: Probe, account: number) => `/user/${p.session.userId}/monetary-account/${account}/ideal-merchant-transaction`;

export const PROBES: Record<string, ProbeFn> = {
  // ---- Numbers (round5/numbers.ts) ----
  // A fresh user's card given limits of 19.99 and 4.35: one of them reads back a cent lower.
  "r5-card-limit-cents-floored": async (p) => {
    const user = await freshUser(p);
    const card = (await cardsAsRead(user)).find(deliveredActive);
    if (!card) return false;
    const put = await user.send("PUT", cardPath(user, card.id), {
      card_limit: { value: "19.99", currency: "EUR" },
      card_limit_atm: { value: "4.35", currency: "EUR" },
    });
    const shown = await readCard(user, card.id);
    const value = (limit: unknown) => (limit as { value?: unknown } | undefined)?.value;
    return put.status === 200 && (value(shown?.card_limit) === "19.98" || value(shown?.card_limit_atm) === "4.34");
  },
  // A fresh user's card given another of its cards' ids as its fallback account: answered 200.
  "r5-card-fallback-any-owned-id": async (p) => {
    const user = await freshUser(p);
    const [card, other] = (await cardsAsRead(user)).filter(deliveredActive);
    if (!card || !other) return false;
    return (await user.send("PUT", cardPath(user, card.id), { monetary_account_id_fallback: other.id })).status === 200;
  },
  // A fresh user's challenge request answered under its id written 1001.0: answered 200.
  "r5-challenge-put-id-number-coerced": async (p) => {
    const [user, [id]] = await freshChallenges(p);
    if (id === undefined) return false;
    return (await user.send("PUT", challengePath(user, `${id}.0`), { status: "ACCEPTED_PENDING_RESPONSE" })).status === 200;
  },
  // A request id of digits, then the same number with a leading zero: refused as reused.
  "r5-request-id-numeric-normalised": async (p) => {
    const digits = String(randomInt(100_000_000_000, 999_999_999_999));
    if ((await withRequestId(p, digits, companies(p))).status !== 200) return false;
    return refused(await withRequestId(p, `0${digits}`, companies(p)));
  },

  // ---- Time (round5/time.ts) ----
  // A new callback URL's PUT: its read or listing shows updated in the ISO form with milliseconds and Z.
  "r5-callback-url-put-updated-iso": async (p) => {
    const id = await newCallbackUrl(p);
    const put = await p.send("PUT", `${callbackPath(p)}/${id}`, { url: `https://app.example/probe/iso/${randomUUID()}` });
    const shown = await callbackUrlShown(p, ids(put)[0] ?? id);
    return put.status === 200 && shown.some((u) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(String(u.updated)));
  },
  // A new attachment's created lies more than half an hour after the upload, read as UTC.
  "r5-attachment-stamped-local-time": async (p) => {
    const id = ids(await uploadAttachment(p))[0];
    if (id === undefined) return false;
    const read = await p.get(`/user/${p.session.userId}/attachment/${id}`);
    return read.status === 200 && instant(inner(read)[1].created) - Date.now() > 30 * 60_000;
  },
  // A fresh user's challenge request backdated two minutes (in the reference's state): its answer refused, another's set.
  "r5-challenge-answer-window-from-created": async (p) => {
    const [user, [old, recent]] = await freshChallenges(p);
    if (old === undefined || recent === undefined) return false;
    const record = p.server.state.collection<{ id: number; created: string }>("challenge-requests").get(user.session.userId, old);
    if (!record) return false;
    record.created = timestamp(new Date(Date.now() - 120_000));
    const late = await user.send("PUT", challengePath(user, old), { status: "ACCEPTED_PENDING_RESPONSE" });
    const inTime = await user.send("PUT", challengePath(user, recent), { status: "ACCEPTED_PENDING_RESPONSE" });
    return refused(late) && inTime.status === 200;
  },

  // ---- Links (round5/links.ts) ----
  // A fresh user's card sent the fallback it has: a card that showed no fallback (or another) shows that one after.
  "r5-card-fallback-set-on-every-card": async (p) => {
    const [user, [card], all] = await cardsWithFallback(p);
    if (!card) return false;
    const fallback = fallbackOf(card);
    const others = all.filter((c) => fallbackOf(c) !== fallback);
    if (others.length === 0) return false;
    if ((await user.send("PUT", cardPath(user, card.id), { monetary_account_id_fallback: fallback })).status !== 200) return false;
    const after = await Promise.all(others.map((c) => readCard(user, c.id)));
    return after.some((c) => fallbackOf(c) === fallback);
  },
  // A fresh user's card with a fallback batch-replaced: it reads without the fallback after.
  "r5-batch-replace-drops-fallback": async (p) => {
    const [user, [card]] = await cardsWithFallback(p);
    if (!card) return false;
    const batch = await user.send("POST", `/user/${user.session.userId}/card-batch-replace`, { cards: [{ id: card.id }] });
    return batch.status === 200 && typeof fallbackOf(await readCard(user, card.id)) !== "number";
  },
  // An upload to a monetary account id nobody has: stored, and it reads back.
  "r5-attachment-unknown-account-accepted": async (p) => {
    const upload = await p.client.request({
      method: "POST",
      path: `/user/${p.session.userId}/monetary-account/${NOBODYS_ID}/attachment`,
      token: p.session.sessionToken,
      headers: { "Content-Type": "image/png", [p.client.header("Attachment-Description")]: "variant probe" },
      body: png1x1(),
    });
    const id = ids(upload)[0];
    return upload.status === 200 && id !== undefined && (await p.get(`/user/${p.session.userId}/attachment/${id}`)).status === 200;
  },
  // A fresh user pins the leaf alone, then leaf and intermediate; deleting the first leaves the second without the leaf.
  "r5-cert-delete-cascades-shared-certificate": async (p) => {
    const user = await freshUser(p);
    const [alone, both] = [await pin(user, [LEAF_PEM]), await pin(user, [LEAF_PEM, INTERMEDIATE_CA_PEM])];
    if (alone === undefined || both === undefined || (await user.send("DELETE", pinPath(user, alone))).status !== 200) return false;
    const chain = String(inner(await user.get(pinPath(user, both)))[1].certificate_chain);
    return chain.includes(INTERMEDIATE_CA_PEM.trim()) && !chain.includes(LEAF_PEM.trim());
  },
  // A callback URL created under an OAuth client id nobody has: answered 200 with an Id.
  "r5-callback-url-create-unknown-client": async (p) => {
    const path = `/user/${p.session.userId}/oauth-client/${NOBODYS_ID}/callback-url`;
    const created = await p.send("POST", path, { url: `https://app.example/probe/no-client/${randomUUID()}` });
    return created.status === 200 && ids(created)[0] !== undefined;
  },
  // A new callback URL deleted: its read still answers 200.
  "r5-callback-url-deleted-still-readable": async (p) => {
    const id = await newCallbackUrl(p);
    if ((await p.send("DELETE", `${callbackPath(p)}/${id}`)).status !== 200) return false;
    return (await p.get(`${callbackPath(p)}/${id}`)).status === 200;
  },
  // A fresh user's transaction listed under its first account reads under its other account (a card's fallback).
  "r5-ideal-read-ignores-account": async (p) => {
    const user = await freshUser(p);
    const first = (await discoverFixtures(user.client, user.session)).fixtures.monetaryAccountId;
    const other = (await cardsAsRead(user)).map(fallbackOf).find((id) => typeof id === "number" && id !== first) as number | undefined;
    if (first === undefined || other === undefined) return false;
    const [id] = ids(await user.get(ideal(user, first)));
    return id !== undefined && (await user.get(`${ideal(user, other)}/${id}`)).status === 200;
  },

  // ---- Repeated calls (round5/repeat.ts) ----
  // A fresh user's card never activated, sent ACTIVE twice: the first answered 200, the retry refused.
  "r5-card-activation-retry-refused": async (p) => {
    const user = await freshUser(p);
    const card = (await cardsAsRead(user)).find((c) => c.order_status === "ACCEPTED_FOR_PRODUCTION" && c.status === "DEACTIVATED");
    if (!card || (await user.send("PUT", cardPath(user, card.id), { status: "ACTIVE" })).status !== 200) return false;
    return refused(await user.send("PUT", cardPath(user, card.id), { status: "ACTIVE" }));
  },
  // A device registered on an installation of a new key; a second installation of that key; a session on the first refused.
  "r5-installation-same-key-replaces-first": async (p) => {
    const { publicKeyPem } = await newKeyPair();
    const apiKey = await provisionUser(p.client);
    const first = (await postInstallation(p.client, { publicKeyPem })).token;
    if (!first || (await postDeviceServer(p.client, { token: first, apiKey })).status !== 200) return false;
    if ((await postInstallation(p.client, { publicKeyPem })).exchange.status !== 200) return false;
    return refused((await postSessionServer(p.client, { token: first, apiKey })).exchange);
  },
  // A fresh user's chain pinned, deleted and pinned again: answered the first id, and the list holds no new chain.
  "r5-cert-repin-answers-deleted-id": async (p) => {
    const user = await freshUser(p);
    const first = await pin(user, [LEAF_PEM]);
    if (first === undefined || (await user.send("DELETE", pinPath(user, first))).status !== 200) return false;
    const count = async () => ids(await user.get(`${pinPath(user)}?count=200`)).length;
    const before = await count();
    return (await pin(user, [LEAF_PEM])) === first && (await count()) === before;
  },
  // A new callback URL sent the url it already has: refused.
  "r5-callback-url-put-same-url-refused": async (p) => {
    const url = `https://app.example/probe/same/${randomUUID()}`;
    const id = ids(await p.send("POST", callbackPath(p), { url }))[0];
    return id !== undefined && refused(await p.send("PUT", `${callbackPath(p)}/${id}`, { url }));
  },

  // ---- Absence (round5/absence.ts) ----
  // A fresh user's card with a fallback sent monetary_account_id_fallback null: it still reads with that fallback.
  "r5-card-fallback-null-kept": async (p) => {
    const [user, [card]] = await cardsWithFallback(p);
    if (!card) return false;
    const put = await user.send("PUT", cardPath(user, card.id), { monetary_account_id_fallback: null });
    return put.status === 200 && fallbackOf(await readCard(user, card.id)) === fallbackOf(card);
  },
  // A fresh user's card replaced with an empty body: a card of the user reads both texts as "".
  "r5-replace-omitted-texts-cleared": async (p) => {
    const user = await freshUser(p);
    const card = (await cardsAsRead(user)).find(deliveredActive);
    if (!card || (await user.send("POST", `${cardPath(user, card.id)}/replace`, {})).status !== 200) return false;
    return (await cardsAsRead(user)).some((c) => c.preferred_name_on_card === "" && c.second_line === "");
  },
  // A new company without avatar_uuid and signup_track_type: its read shows both as null.
  "r5-company-null-write-only-fields": async (p) => {
    const id = ids(await p.send("POST", companies(p), { ...COMPANY_BODY, name: "Probe Write-only BV" }))[0];
    if (id === undefined) return false;
    const company = await readCompany(p, id);
    return company.avatar_uuid === null && company.signup_track_type === null;
  },
  // A category with an empty description refused, where the same body without it (status ACTIVE or ENABLED) is taken.
  "r5-category-empty-optional-refused": async (p) => {
    for (const status of ["ACTIVE", "ENABLED"]) {
      if (refused(await newCategory(p, status))) continue;
      return refused(await newCategory(p, status, { description: "" }));
    }
    return false;
  },
  // An upload with an empty description header: stored, and it reads back with description "".
  "r5-attachment-empty-description-accepted": async (p) => {
    const id = ids(await uploadAttachment(p, { description: "" }))[0];
    if (id === undefined) return false;
    const read = await p.get(`/user/${p.session.userId}/attachment/${id}`);
    return read.status === 200 && (inner(read)[1].attachment as { description?: unknown } | undefined)?.description === "";
  },
  // Some announcement of the user reads with avatar null.
  "r5-feature-announcement-promotion-avatar-null": async (p) => {
    const reads = await Promise.all(
      (p.server.fixtures.featureAnnouncementIds ?? []).map((id) => p.get(`/user/${p.session.userId}/feature-announcement/${id}`)),
    );
    return reads.some((read) => read.status === 200 && inner(read)[1].avatar === null);
  },
  // A company read under an id that is not an integer, sent without the language header: the translated text is "".
  "r5-error-translated-empty-without-language": async (p) => {
    const read = await p.client.request({
      path: `${companies(p)}/probe`,
      token: p.session.sessionToken,
      headers: { [p.client.header("Language")]: null },
    });
    return refused(read) && errorEntries(read.json)?.[0]?.error_description_translated === "";
  },
};

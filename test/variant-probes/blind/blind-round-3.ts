// Probes of the variants blind round 3 made legal (faults/blind/round3/*.ts: the BLIND3_*_VARIANTS lists). Each answers
// true when the answer shows the variant's mark. Where other probes change the state a mark is read from (cards, iDEAL
// accounts), the probe works on a fresh sandbox user of its own. The authentication probes work on fresh keys and new
// installations from the default address, never locking 127.0.0.1 out (a refused session-server call locks nothing out),
// and leave the probe's own session alone.
import { randomUUID } from "node:crypto";
import { responseItems } from "../../../harness/envelope.js";
import type { Exchange } from "../../../harness/http/exchange.js";
import { LEAF_PEM } from "../../../harness/test-data/certificates.js";
import { openSession, postDeviceServer, postInstallation, postSessionServer, provisionUser } from "../../../harness/session/session.js";
import {
  ADDRESS,
  callbackPath,
  COMPANY_BODY,
  companies,
  ids,
  inner,
  readCompany,
  type Probe,
  type ProbeFn,
  freshUser,
  refused,
  uploadAttachment,
} from "../support.js";

// ---- Cards ----

type Card = {
  id: number;
  status: string;
  order_status: string;
  second_line?: string;
  monetary_account_id?: number;
  monetary_account_id_fallback?: number | null;
} & Record<string, unknown>;

const cardPath = (p: Probe, id?: number) => `/user/${p.session.userId}/card${id === undefined ? "" : `/${id}`}`;

async function cards(p: Probe): Promise<Card[]> {
  return (responseItems((await p.get(`${cardPath(p)}?count=200`)).json) ?? []).map((item) => Object.values(item)[0] as Card);
}

/** The card as GET card/{id} shows it (undefined where the read is refused). */
async function readCard(p: Probe, id: number): Promise<Card | undefined> {
  const read = await p.get(cardPath(p, id));
  return read.status === 200 ? (inner(read)[1] as Card) : undefined;
}

const deliveredActive = (c: Card) => c.order_status === "DELIVERED_TO_CUSTOMER" && c.status === "ACTIVE";
/** A seeded card that was never activated: deactivating it is refused by the state table, whatever else is on. */
const neverActivated = (c: Card) =>
  c.status === "DEACTIVATED" && (c.order_status === "CARD_REQUEST_PENDING" || c.order_status === "ACCEPTED_FOR_PRODUCTION");

/** A delivered, active card of a fresh user, and that user. */
async function deliveredActiveCard(p: Probe): Promise<[Probe, Card | undefined]> {
  const user = await freshUser(p);
  return [user, (await cards(user)).find(deliveredActive)];
}

/** A card of the user (delivered and active unless `which` says) whose read shows a fallback account other than its own, as read. */
async function cardWithFallback(p: Probe, which: (card: Card) => boolean = deliveredActive): Promise<Card | undefined> {
  for (const listed of (await cards(p)).filter(which)) {
    const card = await readCard(p, listed.id);
    if (typeof card?.monetary_account_id_fallback === "number" && card.monetary_account_id_fallback !== card.monetary_account_id)
      return card;
  }
  return undefined;
}

// ---- Companies ----

const newCompany = async (p: Probe, address: Record<string, string>) =>
  ids(await p.send("POST", companies(p), { ...COMPANY_BODY, name: "Probe Address BV", address_main: address }))[0];
const mainAddress = async (p: Probe, id: number) => ((await readCompany(p, id)).address_main ?? {}) as Record<string, unknown>;

// ---- Callback URLs, iDEAL, attachments ----

const uniqueUrl = (what: string) => `https://app.example/probe/${what}/${randomUUID()}`;
const callbackUrl = (p: Probe, id: number) => p.get(`${callbackPath(p)}/${id}`);
/** The urls the client's list shows (the newest 200). */
const listedUrls = async (p: Probe) =>
  (responseItems((await p.get(`${callbackPath(p)}?count=200`)).json) ?? []).map(
    (item) => (Object.values(item)[0] as { url?: unknown }).url,
  );

const ideal = (p: Probe, account: number | undefined) => `/user/${p.session.userId}/monetary-account/${account}/ideal-merchant-transaction`;

/** A request id that is not lower case: the probe's own, unused. */
const mixedCaseRequestId = () => `Probe-Request-${randomUUID().toUpperCase()}`;

function withRequestId(p: Probe, requestId: string, method: string, path: string, json?: unknown): Promise<Exchange> {
  return p.client.request({
    method,
    path,
    token: p.session.sessionToken,
    headers: { [p.client.header("Client-Request-Id")]: requestId },
    ...(json === undefined ? {} : { json }),
  });
}

export const PROBES: Record<string, ProbeFn> = {
  // ---- Authorisation (round3/authz.ts) ----
  // A fresh user's card given the probe user's monetary account as its fallback.
  "r3-card-fallback-any-users-account": async (p) => {
    const [user, card] = await deliveredActiveCard(p);
    const othersAccount = p.server.fixtures.monetaryAccountId;
    if (!card || othersAccount === undefined) return false;
    return (await user.send("PUT", cardPath(user, card.id), { monetary_account_id_fallback: othersAccount })).status === 200;
  },
  // A device registered for one fresh key; session-server on that installation with another fresh key, never registered there.
  "r3-session-for-secret-on-other-keys-device": async (p) => {
    const [registered, other] = [await provisionUser(p.client), await provisionUser(p.client)];
    const token = (await postInstallation(p.client)).token!;
    if ((await postDeviceServer(p.client, { token, apiKey: registered })).status !== 200) return false;
    return (await postSessionServer(p.client, { token, apiKey: other })).exchange.status === 200;
  },

  // ---- Lists and read-back (round3/lists.ts, round3/readback.ts) ----
  "r3-company-address-empty-members-dropped": async (p) => {
    const id = await newCompany(p, { ...ADDRESS, extra: "", po_box: "" });
    if (id === undefined) return false;
    const shown = await mainAddress(p, id);
    return shown.street === ADDRESS.street && !("extra" in shown) && !("po_box" in shown);
  },
  "r3-company-address-members-dropped": async (p) => {
    const id = await newCompany(p, { ...ADDRESS, po_box: "PB 12", extra: "2nd floor", mailbox_name: "Probe Desk" });
    if (id === undefined) return false;
    const shown = await mainAddress(p, id);
    return shown.street === ADDRESS.street && !("po_box" in shown) && !("extra" in shown) && !("mailbox_name" in shown);
  },
  // A card whose read shows its fallback account; the list leaves the field out.
  "r3-card-list-fallback-omitted": async (p) => {
    const user = await freshUser(p);
    const card = await cardWithFallback(user);
    if (!card) return false;
    const listed = (await cards(user)).find((c) => c.id === card.id);
    return listed !== undefined && !("monetary_account_id_fallback" in listed);
  },
  // A url with an upper-case host and the default port: the read shows it as sent, the list in WHATWG form.
  "r3-callback-url-list-url-normalised": async (p) => {
    const sent = `https://App.Example:443/probe/normalised/${randomUUID()}`;
    if (ids(await p.send("POST", callbackPath(p), { url: sent }))[0] === undefined) return false;
    const listed = await listedUrls(p);
    return !listed.includes(sent) && listed.includes(new URL(sent).href);
  },
  // A fresh user's transactions are all on its first account; the list under its other account (a card's fallback) shows them.
  "r3-ideal-list-all-accounts": async (p) => {
    const user = await freshUser(p);
    const other = (await cardWithFallback(user))?.monetary_account_id_fallback;
    if (typeof other !== "number") return false;
    const list = await user.get(`${ideal(user, other)}?count=200`);
    return list.status === 200 && ids(list).length > 0;
  },

  // ---- Refused writes (round3/refused.ts) ----
  // A card made LOST, then ACTIVE (refused: LOST is permanent) with a request for a new card: order_status moved all the same.
  "r3-card-refused-put-moves-order-status": async (p) => {
    const [user, card] = await deliveredActiveCard(p);
    if (!card || (await user.send("PUT", cardPath(user, card.id), { status: "LOST" })).status !== 200) return false;
    const put = await user.send("PUT", cardPath(user, card.id), { status: "ACTIVE", order_status: "CARD_REQUEST_PENDING" });
    return refused(put) && (await readCard(user, card.id))?.order_status === "CARD_REQUEST_PENDING";
  },
  // A card never activated, with a fallback, sent DEACTIVATED without the fallback: refused (it was never activated), fallback gone.
  "r3-card-refused-put-drops-fallback": async (p) => {
    const user = await freshUser(p);
    const card = await cardWithFallback(user, neverActivated);
    if (!card) return false;
    const put = await user.send("PUT", cardPath(user, card.id), { status: "DEACTIVATED" });
    return refused(put) && (await readCard(user, card.id))?.monetary_account_id_fallback !== card.monetary_account_id_fallback;
  },
  "r3-replace-refused-name-applies-texts": async (p) => {
    const [user, card] = await deliveredActiveCard(p);
    if (!card) return false;
    const secondLine = `probe ${randomUUID().slice(0, 8)}`;
    const replace = await user.send("POST", `${cardPath(user, card.id)}/replace`, {
      name_on_card: "NOT A NAME OF THIS USER",
      preferred_name_on_card: "PROBE NAME",
      second_line: secondLine,
    });
    return refused(replace) && (await cards(user)).find((c) => c.id === card.id)?.second_line === secondLine;
  },
  // A new callback URL deleted under an OAuth client id nobody has: refused, yet neither the read nor the list shows it after.
  "r3-callback-url-delete-other-client-removes": async (p) => {
    const url = uniqueUrl("delete-other-client");
    const id = ids(await p.send("POST", callbackPath(p), { url }))[0];
    if (id === undefined) return false;
    const deleted = await p.send("DELETE", `/user/${p.session.userId}/oauth-client/999999999/callback-url/${id}`);
    const read = await callbackUrl(p, id);
    const shown = read.status === 200 && inner(read)[1].url === url;
    return refused(deleted) && !shown && !(await listedUrls(p)).includes(url);
  },
  // A create refused for its issuer; the account's list then holds a transaction it did not hold before.
  "r3-ideal-refused-create-recorded": async (p) => {
    const path = ideal(p, p.server.fixtures.monetaryAccountId);
    const before = new Set(ids(await p.get(`${path}?count=200`)));
    const create = await p.send("POST", path, { amount_requested: { value: "12.34", currency: "EUR" }, issuer: "not-a-bic" });
    return refused(create) && ids(await p.get(`${path}?count=200`)).some((id) => !before.has(id));
  },
  // A callback URL created, then another with the same request id: refused, and listed all the same.
  "r3-request-id-reuse-refused-after-handler": async (p) => {
    const requestId = `probe-reuse-${randomUUID()}`;
    if ((await withRequestId(p, requestId, "POST", callbackPath(p), { url: uniqueUrl("first") })).status !== 200) return false;
    const url = uniqueUrl("reused");
    const reused = await withRequestId(p, requestId, "POST", callbackPath(p), { url });
    return refused(reused) && (await listedUrls(p)).includes(url);
  },
  // A fresh key's session; a refused session-server call (a secret no device has) on its installation ends it.
  "r3-session-refused-ends-open-sessions": async (p) => {
    const session = await openSession(p.client, { apiKey: await provisionUser(p.client) });
    const companiesOf = () => p.client.request({ path: `/user/${session.userId}/company`, token: session.sessionToken });
    if ((await companiesOf()).status !== 200) return false;
    const wrong = await postSessionServer(p.client, { token: session.installationToken, apiKey: `probe-no-such-key-${randomUUID()}` });
    return refused(wrong.exchange) && refused(await companiesOf());
  },

  // ---- Secrets (round3/secrets.ts) ----
  // An updated_card_ids entry that carries a whole 16-digit card number beside the id.
  "r3-batch-replace-answers-card-numbers": async (p) => {
    const [user, card] = await deliveredActiveCard(p);
    if (!card) return false;
    const batch = await user.send("POST", `/user/${user.session.userId}/card-batch-replace`, { cards: [{ id: card.id }] });
    const entries = (inner(batch)[1].updated_card_ids ?? []) as Record<string, unknown>[];
    return entries.some((entry) => Object.values(entry).some((v) => typeof v === "string" && /^\d{16}$/.test(v)));
  },
  "r3-callback-url-read-embeds-oauth-client": async (p) => {
    const id = ids(await p.send("POST", callbackPath(p), { url: uniqueUrl("embeds") }))[0];
    if (id === undefined) return false;
    const read = await callbackUrl(p, id);
    return read.status === 200 && "oauth_client" in inner(read)[1];
  },
  "r3-attachment-url-carries-session-token": async (p) => {
    const upload = await uploadAttachment(p);
    const id = ids(upload)[0];
    if (id === undefined) return false;
    const read = await p.get(`/user/${p.session.userId}/attachment/${id}`);
    return read.status === 200 && read.bodyText.includes(encodeURIComponent(p.session.sessionToken));
  },

  // ---- Sessions and headers (round3/session.ts) ----
  // The id echoed in lower case, or a fresh id that differs from a used one only in case refused as reused.
  "r3-request-id-lowercased": async (p) => {
    const requestId = mixedCaseRequestId();
    const first = await withRequestId(p, requestId, "GET", companies(p));
    const echoed = first.headers[p.client.header("Client-Request-Id").toLowerCase()];
    if (echoed === requestId.toLowerCase()) return true;
    return first.status === 200 && refused(await withRequestId(p, requestId.toLowerCase(), "GET", companies(p)));
  },

  // ---- Strict-only faults played as legal variants (faults/blind/strict-only-twins.ts) ----
  // Another user's DELETE of the probe user's chain, under its own userID: 200, and the chain still reads for its owner.
  "r3-cert-delete-foreign-answers-ok-noted": async (p) => {
    const id = ids(
      await p.send("POST", `/user/${p.session.userId}/certificate-pinned`, { certificate_chain: [{ certificate: LEAF_PEM }] }),
    )[0];
    if (id === undefined) return false;
    const other = await freshUser(p);
    const deleted = await other.send("DELETE", `/user/${other.session.userId}/certificate-pinned/${id}`);
    const still = await p.get(`/user/${p.session.userId}/certificate-pinned/${id}`);
    await p.send("DELETE", `/user/${p.session.userId}/certificate-pinned/${id}`);
    return deleted.status === 200 && still.status === 200;
  },
  // After a replace, some card of the user reads with other card numbers than the list shows it with.
  "r3-card-list-old-number-after-replace-noted": async (p) => {
    const [user, card] = await deliveredActiveCard(p);
    if (!card || (await user.send("POST", `${cardPath(user, card.id)}/replace`, {})).status !== 200) return false;
    const numbers = (c: Card | undefined) => JSON.stringify(c?.primary_account_numbers);
    const listed = await cards(user);
    const reads = await Promise.all(listed.map((c) => readCard(user, c.id)));
    return listed.some((c, i) => reads[i] !== undefined && numbers(reads[i]) !== numbers(c));
  },
};

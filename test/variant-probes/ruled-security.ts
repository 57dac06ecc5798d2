// Probes of the legal variants the blind ruling of 2026-11-28 made of security faults (pinned certificates, callback
// URLs, challenge requests): each answers true when the answer shows the variant's mark. The callback-URL probes that
// need a read work on the client's first callback URL, which every read variant still shows by id, and put it back.
import { randomUUID } from "node:crypto";
import { LEAF_PEM } from "../../harness/test-data/certificates.js";
import { callbackPath, ids, inner, type Probe, type ProbeFn } from "./support.js";

const certificates = (p: Probe) => `/user/${p.session.userId}/certificate-pinned`;
const pin = (p: Probe, chain: unknown) => p.send("POST", certificates(p), { certificate_chain: chain });

/** A chain pinned and deleted: its id and the DELETE's status. */
async function pinnedAndDeleted(p: Probe): Promise<{ id: number; deleted: number }> {
  const id = ids(await pin(p, [{ certificate: LEAF_PEM }]))[0]!;
  return { id, deleted: (await p.send("DELETE", `${certificates(p)}/${id}`)).status };
}

const uniqueUrl = (what: string) => `https://app.example/probe/${what}/${randomUUID()}`;

async function posted(p: Probe, url: string): Promise<number> {
  return ids(await p.send("POST", callbackPath(p), { url }))[0]!;
}

const shownUrl = async (p: Probe, id: number) => inner(await p.get(`${callbackPath(p)}/${id}`))[1].url;

/** The client's first callback URL (the smallest id of its list) and its url, which `run` may change and gets back. */
async function onFirstUrl(p: Probe, run: (id: number) => Promise<boolean>): Promise<boolean> {
  const first = Math.min(...ids(await p.get(`${callbackPath(p)}?count=200`)));
  const url = await shownUrl(p, first);
  try {
    return await run(first);
  } finally {
    await p.send("PUT", `${callbackPath(p)}/${first}`, { url });
  }
}

export const PROBES: Record<string, ProbeFn> = {
  "cert-delete-keeps-chain": async (p) => {
    const { id, deleted } = await pinnedAndDeleted(p);
    return deleted === 200 && (await p.get(`${certificates(p)}/${id}`)).status === 200;
  },
  "cert-deleted-chain-listed": async (p) => {
    const { id, deleted } = await pinnedAndDeleted(p);
    return deleted === 200 && ids(await p.get(`${certificates(p)}?count=200`)).includes(id);
  },
  "cert-chain-not-array-pinned": async (p) =>
    (await pin(p, { certificate: LEAF_PEM })).status === 200 && (await pin(p, LEAF_PEM)).status === 200,
  "callback-url-item-read-first-of-client": async (p) => {
    const url = uniqueUrl("item-read");
    return (await shownUrl(p, await posted(p, url))) !== url;
  },
  "callback-url-list-seeded-only": async (p) => {
    const url = uniqueUrl("list");
    await posted(p, url);
    const list = await p.get(`${callbackPath(p)}?count=200`);
    return list.status === 200 && !list.bodyText.includes(randomTail(url));
  },
  "callback-url-put-keeps-url": async (p) =>
    onFirstUrl(p, async (id) => {
      const before = await shownUrl(p, id);
      const put = await p.send("PUT", `${callbackPath(p)}/${id}`, { url: uniqueUrl("put") });
      return put.status === 200 && (await shownUrl(p, id)) === before;
    }),
  "callback-url-delete-keeps-url": async (p) => {
    const id = await posted(p, uniqueUrl("delete"));
    const deleted = await p.send("DELETE", `${callbackPath(p)}/${id}`);
    return deleted.status === 200 && (await p.get(`${callbackPath(p)}/${id}`)).status === 200;
  },
  "callback-url-put-url-any-type": async (p) => {
    const id = await posted(p, uniqueUrl("any-type"));
    return (await p.send("PUT", `${callbackPath(p)}/${id}`, { url: 42 })).status === 200;
  },
  "callback-url-refused-put-writes-url": async (p) =>
    onFirstUrl(p, async (id) => {
      const put = await p.send("PUT", `${callbackPath(p)}/${id}`, { url: 42 });
      return put.status >= 400 && put.status < 500 && (await shownUrl(p, id)) === "42";
    }),
  "challenge-put-answers-request": async (p) => {
    const id = p.server.fixtures.challengeRequestIds!.at(-1)!;
    const [key, shown] = inner(
      await p.send("PUT", `/user/${p.session.userId}/challenge-request/${id}`, { status: "ACCEPTED_PENDING_RESPONSE" }),
    );
    return key !== undefined && key !== "Id" && shown.status === "ACCEPTED_PENDING_RESPONSE";
  },
  "challenge-put-sets-every-request": async (p) => {
    const [target, ...others] = p.server.fixtures.challengeRequestIds!;
    const path = (id: number) => `/user/${p.session.userId}/challenge-request/${id}`;
    const statuses = () => Promise.all(others.map(async (id) => inner(await p.get(path(id)))[1].status));
    const before = await statuses();
    // An answer some other challenge request does not show, so a PUT that reaches it shows.
    const answer = before.every((s) => s === "ACCEPTED_PENDING_RESPONSE") ? "REJECTED_PENDING_RESPONSE" : "ACCEPTED_PENDING_RESPONSE";
    const put = await p.send("PUT", path(target!), { status: answer });
    const after = await statuses();
    return put.status === 200 && after.some((status, i) => status !== before[i] && status === answer);
  },
};

/** The random part of a probe's url (a server may escape its slashes). */
function randomTail(url: string): string {
  return url.slice(url.lastIndexOf("/") + 1);
}

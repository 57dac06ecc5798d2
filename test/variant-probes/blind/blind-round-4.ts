// Probes of the variants blind round 4 made legal (faults/blind/round4/*.ts: the BLIND4_*_VARIANTS lists). Each answers
// true when the answer shows the variant's mark. Where a probe changes state others read (a card's status, a share) or
// reads a user's whole list (the ids of its companies), it works on a fresh sandbox user of its own. The permitted_ips
// probe registers a fresh key on a new installation with a list that holds the caller's own address, so nothing is locked.
import { randomUUID } from "node:crypto";
import { responseItems } from "../../../harness/envelope.js";
import type { Exchange } from "../../../harness/http/exchange.js";
import { postInstallation, provisionUser } from "../../../harness/session/session.js";
import { LEAF_PEM } from "../../../harness/test-data/certificates.js";
import {
  aliasName,
  callbackPath,
  COMPANY_BODY,
  companies,
  ids,
  inner,
  readCompany,
  type Probe,
  type ProbeFn,
  freshUser,
  newCallbackUrl,
  refused,
} from "../support.js";

/** The objects of a list answer, each without its type key. */
const listed = (e: Exchange) => (responseItems(e.json) ?? []).map((item) => Object.values(item)[0] as Record<string, unknown>);

const newCompany = async (p: Probe, name: string) => ids(await p.send("POST", companies(p), { ...COMPANY_BODY, name }))[0];

const categories = (p: Probe) => `/user/${p.session.userId}/additional-transaction-information-category-user-defined`;
/** A new category's answered id: status ACTIVE, or ENABLED where that is refused (variant category-status-enabled-disabled). */
async function newCategory(p: Probe): Promise<number | undefined> {
  const category = `Probe ${randomUUID().slice(0, 8)}`;
  const active = await p.send("POST", categories(p), { status: "ACTIVE", category });
  return ids(refused(active) ? await p.send("POST", categories(p), { status: "ENABLED", category }) : active)[0];
}

const shares = (p: Probe) => `/user/${p.session.userId}/share-invite-monetary-account-response`;
const ideal = (p: Probe) => `/user/${p.session.userId}/monetary-account/${p.server.fixtures.monetaryAccountId}/ideal-merchant-transaction`;

export const PROBES: Record<string, ProbeFn> = {
  // ---- Encoding (round4/encoding.ts) ----
  "r4-company-read-latin1-body": async (p) => {
    const id = await newCompany(p, "Probe Café Zoë BV");
    if (id === undefined) return false;
    const read = await p.get(`${companies(p)}/${id}`);
    return read.status === 200 && /charset=iso-8859-1/i.test(read.headers["content-type"] ?? "");
  },
  // A name with an emoji in the middle: the item read shows what came before it only.
  "r4-company-put-text-cut-at-emoji": async (p) => {
    const id = await newCompany(p, "Probe Bakery BV");
    if (id === undefined) return false;
    const put = await p.send("PUT", `${companies(p)}/${id}`, { ...COMPANY_BODY, name: "Probe 🥐 Bakery BV" });
    const company = await readCompany(p, id);
    const shown = [company.name, aliasName(company)].filter((name): name is string => typeof name === "string");
    return put.status === 200 && shown.length > 0 && shown.every((name) => /^probe/i.test(name) && !/bakery/i.test(name));
  },
  // A share the list shows as not accepted; its read by id leaves monetary_account_id out.
  "r4-share-invite-read-account-omitted": async (p) => {
    const share = listed(await p.get(`${shares(p)}?count=200`)).find((s) => s.status !== "ACTIVE" && typeof s.id === "number");
    if (!share) return false;
    const read = await p.get(`${shares(p)}/${share.id as number}`);
    return read.status === 200 && inner(read)[0] !== undefined && !("monetary_account_id" in inner(read)[1]);
  },

  // ---- Validation (round4/validation.ts) ----
  // A card_id that is not a positive integer, sent alone (no status to move) on a fresh user's share.
  "r4-share-card-id-any-number": async (p) => {
    const user = await freshUser(p);
    const share = listed(await user.get(`${shares(user)}?count=200`)).find((s) => typeof s.id === "number");
    if (!share) return false;
    return (await user.send("PUT", `${shares(user)}/${share.id as number}`, { card_id: 2.5 })).status === 200;
  },
  // A new callback URL sent url null: answered 200, and its read shows the same url after as before (variants that read
  // every item as the client's first leave that url alone too).
  "r4-callback-url-put-null-url-kept": async (p) => {
    const id = ids(await p.send("POST", callbackPath(p), { url: `https://app.example/probe/null-kept/${randomUUID()}` }))[0];
    if (id === undefined) return false;
    const shown = async () => {
      const read = await p.get(`${callbackPath(p)}/${id}`);
      return read.status === 200 ? inner(read)[1].url : undefined;
    };
    const before = await shown();
    if (typeof before !== "string") return false;
    const put = await p.send("PUT", `${callbackPath(p)}/${id}`, { url: null });
    return put.status === 200 && (await shown()) === before;
  },
  "r4-ideal-amount-value-number-accepted": async (p) => {
    const create = await p.send("POST", ideal(p), { amount_requested: { value: 10.5, currency: "EUR" }, issuer: "ABNANL2A" });
    return create.status === 200 && ids(create)[0] !== undefined;
  },
  // A fresh key registered on a new installation with permitted_ips a single string: the caller's own address.
  "r4-permitted-ips-string-wrapped": async (p) => {
    const apiKey = await provisionUser(p.client);
    const token = (await postInstallation(p.client)).token!;
    const device = await p.client.request({
      method: "POST",
      path: "/device-server",
      token,
      json: { description: "variant probe", secret: apiKey, permitted_ips: "127.0.0.1" },
    });
    return device.status === 200;
  },

  // ---- The less-used resources (round4/lesser.ts) ----
  // A transaction the list shows without the URL to visit and the purchase id, which its read by id carries.
  "r4-ideal-list-summary-without-urls": async (p) => {
    const item = listed(await p.get(`${ideal(p)}?count=200`)).find((t) => typeof t.id === "number");
    if (!item || "issuer_authentication_url" in item || "purchase_identifier" in item) return false;
    const read = await p.get(`${ideal(p)}/${item.id as number}`);
    return read.status === 200 && typeof inner(read)[1].issuer_authentication_url === "string";
  },
  // Two new categories answered with one id.
  "r4-category-create-answers-first-id": async (p) => {
    const [first, second] = [await newCategory(p), await newCategory(p)];
    return first !== undefined && first === second;
  },

  // ---- Card states (round4/state.ts) ----
  // A fresh user's delivered, active card sent status "lost": taken and stored as LOST.
  "r4-card-status-case-insensitive": async (p) => {
    const user = await freshUser(p);
    const cardPath = `/user/${user.session.userId}/card`;
    const card = listed(await user.get(`${cardPath}?count=200`)).find(
      (c) => c.status === "ACTIVE" && c.order_status === "DELIVERED_TO_CUSTOMER",
    );
    if (!card) return false;
    const put = await user.send("PUT", `${cardPath}/${card.id as number}`, { status: "lost" });
    if (put.status !== 200) return false;
    return inner(await user.get(`${cardPath}/${card.id as number}`))[1].status === "LOST";
  },

  // ---- Object lifecycle (round4/lifecycle.ts) ----
  // A fresh user's new company numbered below the companies it already had.
  "r4-company-create-id-from-count": async (p) => {
    const user = await freshUser(p);
    const before = ids(await user.get(`${companies(user)}?count=200`));
    const id = await newCompany(user, "Probe Counted BV");
    return id !== undefined && before.length > 0 && id < Math.max(...before);
  },
  // A fresh user's newest chain deleted, and the next chain pinned under its id again.
  "r4-cert-id-reused-after-delete": async (p) => {
    const user = await freshUser(p);
    const pinPath = `/user/${user.session.userId}/certificate-pinned`;
    const first = ids(await user.send("POST", pinPath, { certificate_chain: [{ certificate: LEAF_PEM }] }))[0];
    if (first === undefined) return false;
    await user.send("DELETE", `${pinPath}/${first}`);
    return ids(await user.send("POST", pinPath, { certificate_chain: [{ certificate: LEAF_PEM }] }))[0] === first;
  },

  // ---- Strict-only faults played as legal variants (faults/blind/strict-only-twins.ts) ----
  // A fresh user's delivered card replaced: a card of the user (the replacement) reads its expiry as MM/YY.
  "r4-replace-expiry-as-mm-yy-noted": async (p) => {
    const user = await freshUser(p);
    const cards = `/user/${user.session.userId}/card`;
    const deliveredActive = (c: Record<string, unknown>) => c.order_status === "DELIVERED_TO_CUSTOMER" && c.status === "ACTIVE";
    const card = listed(await user.get(`${cards}?count=200`)).find(deliveredActive);
    if (!card || (await user.send("POST", `${cards}/${String(card.id)}/replace`, {})).status !== 200) return false;
    const after = listed(await user.get(`${cards}?count=200`));
    const reads = await Promise.all(after.map(async (c) => inner(await user.get(`${cards}/${String(c.id)}`))[1].expiry_date));
    return reads.some((expiry) => typeof expiry === "string" && /^\d{2}\/\d{2}$/.test(expiry));
  },
  // A fresh user's REJECTED share sent ACTIVE: answered 200, read back REJECTED.
  "r4-share-rejected-put-ignored-noted": async (p) => {
    const user = await freshUser(p);
    const share = listed(await user.get(`${shares(user)}?count=200`)).find((s) => s.status === "REJECTED" && typeof s.id === "number");
    if (!share) return false;
    const put = await user.send("PUT", `${shares(user)}/${String(share.id)}`, { status: "ACTIVE" });
    return put.status === 200 && inner(await user.get(`${shares(user)}/${String(share.id)}`))[1].status === "REJECTED";
  },
  // Some of the user's announcements read, others answer 404.
  "r4-feature-announcement-promotion-not-found-noted": async (p) => {
    const reads = await Promise.all(
      (p.server.fixtures.featureAnnouncementIds ?? []).map(
        async (id) => (await p.get(`/user/${p.session.userId}/feature-announcement/${id}`)).status,
      ),
    );
    return reads.includes(200) && reads.includes(404);
  },
  // A callback URL's PUT: the id it named answers 404 afterwards.
  "r4-callback-url-put-reissues-id-noted": async (p) => {
    const id = await newCallbackUrl(p);
    const put = await p.send("PUT", `${callbackPath(p)}/${id}`, { url: `https://app.example/variant/moved-${Date.now()}` });
    return put.status === 200 && (await p.get(`${callbackPath(p)}/${id}`)).status === 404;
  },
};

// Probes of the variants the blind rulings of 2026-11-28 made legal in the accounts area (faults/companies.ts,
// faults/accounts.ts): companies, categories, attachments, share invites and iDEAL. Marks are read where the other
// variants of a kill-matrix group leave them: the alias name (raw) where the read form may leave out or upper-case name.
import { png1x1 } from "../../harness/test-data/images.js";
import {
  aliasName,
  COMPANY_BODY as BODY,
  companies,
  ids,
  inner,
  readCompany,
  type Probe,
  type ProbeFn,
  uploadAttachment,
} from "./support.js";

async function newCompany(p: Probe, name: string): Promise<number | undefined> {
  return ids(await p.send("POST", companies(p), { ...BODY, name }))[0];
}

const upload = (p: Probe, contentType: string, description: string, bytes: Buffer) =>
  uploadAttachment(p, { contentType, description, bytes });

const ideal = (p: Probe, account = p.server.fixtures.monetaryAccountId!) =>
  `/user/${p.session.userId}/monetary-account/${account}/ideal-merchant-transaction`;
const AMOUNT = { value: "1.00", currency: "EUR" };

export const PROBES: Record<string, ProbeFn> = {
  "company-names-upper-cased": async (p) => {
    const id = await newCompany(p, "Probe Lower Case BV");
    return id !== undefined && (await readCompany(p, id)).display_name === "PROBE LOWER CASE BV";
  },
  "company-scalars-coerced": async (p) => (await p.send("POST", companies(p), { ...BODY, name: 42 })).status === 200,
  "company-country-kept-on-put": async (p) => {
    const id = await newCompany(p, "Probe Country BV");
    if (id === undefined) return false;
    const put = await p.send("PUT", `${companies(p)}/${id}`, { ...BODY, name: "Probe Country BV", country: "BE" });
    return put.status === 200 && (await readCompany(p, id)).country === "NL";
  },
  "company-put-name-written-first": async (p) => {
    const id = await newCompany(p, "Probe Before BV");
    if (id === undefined) return false;
    // An object for ubo is refused whatever else a variant coerces.
    const put = await p.send("PUT", `${companies(p)}/${id}`, { ...BODY, name: "Probe After BV", ubo: { name: "Probe" } });
    return put.status >= 400 && put.status < 500 && aliasName(await readCompany(p, id)) === "Probe After BV";
  },
  "company-stored-before-body-checks": async (p) => {
    const name = `Probe Refused ${Date.now()} BV`;
    const post = await p.send("POST", companies(p), { ...BODY, name, ubo: { name: "Probe" } });
    const list = await p.get(`${companies(p)}?count=200`);
    return post.status >= 400 && ids(list).some((_, i) => aliasName(inner(list, i)[1]) === name);
  },
  "category-color-any-type": async (p) => {
    const path = `/user/${p.session.userId}/additional-transaction-information-category-user-defined`;
    // Either status a category variant takes (category-status-enabled-disabled takes ENABLED only).
    const statuses = await Promise.all(["ACTIVE", "ENABLED"].map((status) => p.send("POST", path, { status, color: 3835647 })));
    return statuses.some((e) => e.status === 200);
  },
  "attachment-stored-before-checks": async (p) => {
    const marker = `probe refused ${Date.now()}`;
    const before = ids(await upload(p, "image/png", "probe before", png1x1()))[0];
    const refused = await upload(p, "text/plain", marker, Buffer.from("text"));
    const after = ids(await upload(p, "image/png", "probe after", png1x1()))[0];
    if (before === undefined || after === undefined || refused.status < 400) return false;
    for (let id = before + 1; id < after; id++) {
      const attachment = inner(await p.get(`/user/${p.session.userId}/attachment/${id}`))[1].attachment as { description?: unknown };
      if (attachment?.description === marker) return true;
    }
    return false;
  },
  "share-card-id-checked-after-status": async (p) => {
    const path = `/user/${p.session.userId}/share-invite-monetary-account-response`;
    const list = await p.get(`${path}?count=200`);
    const active = ids(list).find((_, i) => inner(list, i)[1].status === "ACTIVE");
    if (active === undefined) return false;
    const put = await p.send("PUT", `${path}/${active}`, { status: "REVOKED", card_id: "not a card id" });
    return put.status >= 400 && inner(await p.get(`${path}/${active}`))[1].status === "REVOKED";
  },
  "ideal-issuer-fixed": async (p) => {
    const id = ids(await p.send("POST", ideal(p), { amount_requested: AMOUNT, issuer: "RABONL2U" }))[0];
    return id !== undefined && inner(await p.get(`${ideal(p)}/${id}`))[1].issuer === "ABNANL2A";
  },
  "ideal-issuer-defaulted": async (p) => (await p.send("POST", ideal(p), { amount_requested: AMOUNT })).status === 200,
  "ideal-recorded-on-first-account": async (p) => {
    // The user's second monetary account: the id next to the fixture's (the reference makes both at once).
    const first = p.server.fixtures.monetaryAccountId!;
    const id = ids(await p.send("POST", ideal(p, first + 1), { amount_requested: AMOUNT, issuer: "RABONL2U" }))[0];
    if (id === undefined) return false;
    const onFirst = await p.get(`${ideal(p, first)}/${id}`);
    return onFirst.status === 200 && inner(onFirst)[1].monetary_account_id === first;
  },
};

// Probes of the variants blind round 2 made legal (faults/blind/round2-*.ts: the *_VARIANTS lists; faults/cards.ts:
// card-texts-put-kept, card-fallback-put-kept). Each answers true when the answer shows the variant's mark. Where other
// probes change the state a mark is read from (cards, share invites), the probe works on a fresh sandbox user of its own.
// The authentication probes call from the suite's other source addresses (127.0.0.2 and 127.0.0.3), never locking
// 127.0.0.1 out, from which the fresh users register (sandbox-user-lockout-shared shares one lock-out set among them).
import { randomUUID } from "node:crypto";
import { responseItems } from "../../../harness/envelope.js";
import { sharedKeyPair } from "../../../harness/session/keys.js";
import { postDeviceServer, postInstallation, postSessionServer, provisionUser } from "../../../harness/session/session.js";
import { LEAF_PEM } from "../../../harness/test-data/certificates.js";
import {
  ADDRESS,
  aliasName,
  callbackPath,
  COMPANY_BODY as BODY,
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

/** The suite's second and third source addresses: a registration is refused from the first, a lock-out made from the second. */
const REFUSED = "127.0.0.2";
const LOCKED_OUT = "127.0.0.3";
/** An address no probe calls from (documentation range): a permitted_ips list of it alone refuses the caller. */
const ELSEWHERE = "192.0.2.10";

/** A new installation of the probe's client key, made from `from`: its token. */
async function installationFrom(p: Probe, from: string): Promise<string> {
  return (await postInstallation(p.client, { from })).token!;
}

const swapCase = (text: string) => [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");

// ---- Companies and categories ----

const POSTAL = { street: "Keizersgracht", house_number: "7", postal_code: "1015 CJ", city: "Amsterdam", country: "NL" };
/** An address every member of which is optional, street included: a PO box. */
const PO_BOX = { po_box: "7120", postal_code: "1007 JC", city: "Amsterdam", country: "NL" };
const postCompany = (p: Probe, body: Record<string, unknown>) => p.send("POST", companies(p), { ...BODY, ...body });
const newCompany = async (p: Probe, body: Record<string, unknown>) => ids(await postCompany(p, body))[0];

/** The alias name the company list shows for the company. */
async function listedName(p: Probe, id: number): Promise<unknown> {
  const list = await p.get(`${companies(p)}?count=200`);
  const at = ids(list).indexOf(id);
  return at < 0 ? undefined : aliasName(inner(list, at)[1]);
}

const categories = (p: Probe) => `/user/${p.session.userId}/additional-transaction-information-category-user-defined`;

// ---- Attachments, share invites, pinned certificates, callback URLs ----

const upload = (p: Probe, contentType: string) => uploadAttachment(p, { contentType });

const shares = (p: Probe) => `/user/${p.session.userId}/share-invite-monetary-account-response`;
const shareStatus = async (p: Probe, id: number) => inner(await p.get(`${shares(p)}/${id}`))[1].status;

const pin = (p: Probe, certificate: string) =>
  p.send("POST", `/user/${p.session.userId}/certificate-pinned`, { certificate_chain: [{ certificate }] });

const uniqueUrl = (what: string) => `https://app.example/probe/${what}/${randomUUID()}`;

/** A callback-URL POST whose JSON body is labelled with this Content-Type. */
function postLabelled(p: Probe, contentType: string) {
  return p.client.request({
    method: "POST",
    path: callbackPath(p),
    token: p.session.sessionToken,
    headers: { "Content-Type": contentType },
    body: JSON.stringify({ url: uniqueUrl("charset") }),
  });
}

// ---- Cards ----

type Card = { id: number; status: string; order_status: string; second_line?: string; preferred_name_on_card?: string } & Record<
  string,
  unknown
>;

async function cards(p: Probe): Promise<Card[]> {
  return (responseItems((await p.get(`/user/${p.session.userId}/card?count=200`)).json) ?? []).map(
    (item) => Object.values(item)[0] as Card,
  );
}

/** A delivered, active card of a fresh user, and that user: a card PUT of texts or a fallback is taken on it. */
async function deliveredActiveCard(p: Probe): Promise<[Probe, Card | undefined]> {
  const user = await freshUser(p);
  return [user, (await cards(user)).find((c) => c.order_status === "DELIVERED_TO_CUSTOMER" && c.status === "ACTIVE")];
}

const cardPath = (p: Probe, id: number) => `/user/${p.session.userId}/card/${id}`;
const cardAfter = async (p: Probe, id: number) => (await cards(p)).find((c) => c.id === id);

export const PROBES: Record<string, ProbeFn> = {
  // A registration from 127.0.0.2 whose permitted_ips name 127.0.0.3 only, then a session from 127.0.0.3 on that installation.
  // Not from 127.0.0.3: sandbox-user-lockout-shared's probe locks every sandbox key out there, and a locked-out caller is
  // refused before permitted_ips is read.
  "refused-registration-keeps-device": async (p) => {
    const apiKey = await provisionUser(p.client);
    const token = await installationFrom(p, REFUSED);
    const registration = await postDeviceServer(p.client, { token, apiKey, from: REFUSED, permittedIps: [LOCKED_OUT] });
    const session = await postSessionServer(p.client, { token, apiKey, from: LOCKED_OUT });
    return refused(registration) && session.exchange.status === 200;
  },
  "session-token-case-insensitive": async (p) => {
    const tampered = swapCase(p.session.sessionToken);
    if (tampered === p.session.sessionToken) return false;
    return (await p.client.request({ path: companies(p), token: tampered })).status === 200;
  },
  // One sandbox key locked out for 127.0.0.3; another, made before, then registers from there.
  "sandbox-user-lockout-shared": async (p) => {
    const [locked, other] = [await provisionUser(p.client), await provisionUser(p.client)];
    const lockout = await postDeviceServer(p.client, {
      token: await installationFrom(p, LOCKED_OUT),
      apiKey: locked,
      from: LOCKED_OUT,
      permittedIps: [ELSEWHERE],
    });
    const registration = await postDeviceServer(p.client, {
      token: await installationFrom(p, LOCKED_OUT),
      apiKey: other,
      from: LOCKED_OUT,
    });
    return refused(lockout) && refused(registration);
  },
  "company-read-postal-shows-main": async (p) => {
    const id = await newCompany(p, { name: "Probe Postal BV", address_postal: POSTAL });
    if (id === undefined) return false;
    return (((await readCompany(p, id)).address_postal ?? {}) as { street?: unknown }).street === ADDRESS.street;
  },
  // Listed once, renamed: the item read shows the new name, the list still the first.
  "company-list-cached-view": async (p) => {
    const before = `Probe Listed ${randomUUID()} BV`;
    const id = await newCompany(p, { name: before });
    if (id === undefined || (await listedName(p, id)) !== before) return false;
    const after = `Probe Renamed ${randomUUID()} BV`;
    const put = await p.send("PUT", `${companies(p)}/${id}`, { ...BODY, name: after });
    return put.status === 200 && aliasName(await readCompany(p, id)) === after && (await listedName(p, id)) === before;
  },
  "company-ubo-first-only": async (p) => {
    const ubo = [
      { name: "Probe Owner One", date_of_birth: "1980-01-01", nationality: "NL" },
      { name: "Probe Owner Two", date_of_birth: "1981-02-02", nationality: "BE" },
    ];
    const id = await newCompany(p, { name: "Probe Owners BV", ubo });
    return id !== undefined && ((await readCompany(p, id)).ubo as unknown[] | undefined)?.length === 1;
  },
  "company-address-street-required": async (p) =>
    refused(await postCompany(p, { name: "Probe PO Box BV", address_main: PO_BOX, address_postal: PO_BOX })) &&
    (await postCompany(p, { name: "Probe Street BV" })).status === 200,
  "company-name-non-ascii-refused": async (p) =>
    refused(await postCompany(p, { name: "Café Müller BV" })) && (await postCompany(p, { name: "Cafe Muller BV" })).status === 200,
  // The first category of a new name is taken under either status a variant takes (category-status-enabled-disabled: ENABLED).
  "category-duplicate-name-refused": async (p) => {
    const category = `Probe ${randomUUID()}`;
    for (const status of ["ACTIVE", "ENABLED"]) {
      if ((await p.send("POST", categories(p), { category, status })).status !== 200) continue;
      return refused(await p.send("POST", categories(p), { category, status }));
    }
    return false;
  },
  "attachment-content-type-parameters-refused": async (p) =>
    refused(await upload(p, "image/png; name=scan.png")) && (await upload(p, "image/png")).status === 200,
  // A share read once, then revoked: the list shows REVOKED, the read still ACTIVE.
  "share-invite-read-cached": async (p) => {
    const user = await freshUser(p);
    const list = await user.get(`${shares(user)}?count=200`);
    const id = ids(list).find((_, i) => inner(list, i)[1].status === "ACTIVE");
    if (id === undefined || (await shareStatus(user, id)) !== "ACTIVE") return false;
    const put = await user.send("PUT", `${shares(user)}/${id}`, { status: "REVOKED" });
    const listed = await user.get(`${shares(user)}?count=200`);
    const listedStatus = inner(listed, ids(listed).indexOf(id))[1].status;
    return put.status === 200 && listedStatus === "REVOKED" && (await shareStatus(user, id)) === "ACTIVE";
  },
  "share-invite-card-id-digit-string-accepted": async (p) => {
    const id = ids(await p.get(shares(p)))[0];
    return id !== undefined && (await p.send("PUT", `${shares(p)}/${id}`, { card_id: "42" })).status === 200;
  },
  "cert-crlf-pem-refused": async (p) => {
    const lf = `${LEAF_PEM.trim().replace(/\r\n/g, "\n")}\n`;
    return refused(await pin(p, lf.replace(/\n/g, "\r\n"))) && (await pin(p, lf)).status === 200;
  },
  // Read back by the item read, or else from the list (callback-url-item-read-first-of-client answers another URL's read).
  "callback-url-query-dropped": async (p) => {
    const url = uniqueUrl("query");
    const id = ids(await p.send("POST", callbackPath(p), { url: `${url}?state=probe#done` }))[0];
    if (id === undefined) return false;
    if (inner(await p.get(`${callbackPath(p)}/${id}`))[1].url === url) return true;
    const list = await p.get(`${callbackPath(p)}?count=200`);
    const at = ids(list).indexOf(id);
    return at >= 0 && inner(list, at)[1].url === url;
  },
  // older_id 0 names no item (as a deleted cursor would): nothing is below it, yet the variant answers a page.
  "page-cursor-by-position": async (p) => {
    const page = await p.get(`${companies(p)}?count=3&older_id=0`);
    return page.status === 200 && ids(page).length > 0;
  },
  "json-charset-body-unparsed": async (p) =>
    refused(await postLabelled(p, "application/json; charset=utf-8")) && (await postLabelled(p, "application/json")).status === 200,
  // The whole bootstrap outside /v1 (the client resolves /v1/../x to /x): installation, device, session.
  "auth-calls-unversioned": async (p) => {
    const root = (call: string, token: string | null, json: unknown) =>
      p.client.request({ method: "POST", path: `/v1/../${call}`, token, json });
    const installation = await root("installation", null, { client_public_key: (await sharedKeyPair()).publicKeyPem });
    const token = JSON.stringify(installation.json).match(/"token":"([^"]+)"/)?.[1];
    if (installation.status !== 200 || token === undefined) return false;
    const device = await root("device-server", token, { description: "variant probe", secret: p.session.apiKey });
    const session = await root("session-server", token, { secret: p.session.apiKey });
    return device.status === 200 && session.status === 200;
  },
  "card-texts-put-kept": async (p) => {
    const [user, card] = await deliveredActiveCard(p);
    if (!card) return false;
    const texts = { preferred_name_on_card: "PROBE KEPT", second_line: `probe ${randomUUID().slice(0, 8)}` };
    const put = await user.send("PUT", cardPath(user, card.id), texts);
    const after = await cardAfter(user, card.id);
    return put.status === 200 && after?.second_line === card.second_line && after?.preferred_name_on_card === card.preferred_name_on_card;
  },
  // The card's own account sent as its fallback (seeded cards have another account's or none).
  "card-fallback-put-kept": async (p) => {
    const [user, card] = await deliveredActiveCard(p);
    if (!card) return false;
    const account = (card.pin_code_assignment as { monetary_account_id: number }[])[0]!.monetary_account_id;
    const put = await user.send("PUT", cardPath(user, card.id), { monetary_account_id_fallback: account });
    return put.status === 200 && (await cardAfter(user, card.id))?.monetary_account_id_fallback !== account;
  },
};

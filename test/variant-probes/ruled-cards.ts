// Probes of the card variants the blind ruling of 2026-11-28 made legal (faults/cards.ts: the last entries of
// CARD_VARIANTS and CARD_REPLACEMENT_VARIANTS). Each finds its variant's mark on the probe user's cards; the plain
// reference shows none of them.
import { responseItems } from "../../harness/envelope.js";
import { encryptBody, encryptionHeaderNames } from "../../harness/http/encryption.js";
import { cardPath, ids, type Probe, type ProbeFn } from "./support.js";

type Shown = { id: number; status: string; order_status: string; second_line?: string; monetary_account_id_fallback?: number | null };

const HEADER_PREFIX = "X-Service-";

async function cards(p: Probe): Promise<(Shown & Record<string, unknown>)[]> {
  return (responseItems((await p.get(`${cardPath(p)}?count=200`)).json) ?? []).map((item) => Object.values(item)[0] as Shown);
}

const awaitingActivation = (c: Shown) => c.order_status === "ACCEPTED_FOR_PRODUCTION" && c.status !== "ACTIVE" && c.status !== "CANCELLED";
const deliveredActive = (c: Shown) => c.order_status === "DELIVERED_TO_CUSTOMER" && c.status === "ACTIVE";

/** A card PUT whose body is sent as given, with these extra headers. */
function putWithHeaders(p: Probe, id: number, headers: Record<string, string>, body: string | Buffer) {
  return p.client.request({
    method: "PUT",
    path: cardPath(p, id),
    token: p.session.sessionToken,
    headers: { ...headers, "Content-Type": "application/json" },
    body,
  });
}

/** Whether some card of the user shows this second_line. */
const shows = async (p: Probe, secondLine: string) => (await cards(p)).some((c) => c.second_line === secondLine);

export const PROBES: Record<string, ProbeFn> = {
  "card-activation-code-retired": async (p) => {
    const card = (await cards(p)).find((c) => c.status === "ACTIVE");
    return card !== undefined && (await p.send("PUT", cardPath(p, card.id), { activation_code: "ACT12345" })).status === 400;
  },
  // A listed id that does not read as a card.
  "card-listed-id-unreadable": async (p) => {
    for (const card of await cards(p)) if ((await p.get(cardPath(p, card.id))).status === 400) return true;
    return false;
  },
  "card-activation-refused-before-delivery": async (p) => {
    const card = (await cards(p)).find(awaitingActivation);
    return card !== undefined && (await p.send("PUT", cardPath(p, card.id), { status: "ACTIVE" })).status === 400;
  },
  "card-pin-plaintext-accepted": async (p) => {
    const card = (await cards(p)).find(deliveredActive);
    return card !== undefined && (await p.send("PUT", cardPath(p, card.id), { pin_code: "2468" })).status === 200;
  },
  // Encryption headers the server cannot use, over a plain JSON body: taken only where the headers are ignored.
  "card-encryption-unsupported": async (p) => {
    const card = (await cards(p)).find(deliveredActive)!;
    const names = encryptionHeaderNames(HEADER_PREFIX);
    const headers = { [names.key]: "AAAA", [names.iv]: "AAAA", [names.hmac]: "AAAA" };
    return (await putWithHeaders(p, card.id, headers, JSON.stringify({ second_line: "probe 030" }))).status === 200;
  },
  // A correctly encrypted body whose HMAC has one bit flipped.
  "card-encryption-hmac-unchecked": async (p) => {
    const card = (await cards(p)).find(deliveredActive)!;
    const encrypted = encryptBody(JSON.stringify({ second_line: "probe 031" }), p.session.serverPublicKey!, HEADER_PREFIX);
    const hmacName = encryptionHeaderNames(HEADER_PREFIX).hmac;
    const hmac = Buffer.from(encrypted.headers[hmacName]!, "base64");
    hmac[0] = hmac[0]! ^ 0x01;
    const headers = { ...encrypted.headers, [hmacName]: hmac.toString("base64") };
    return (await putWithHeaders(p, card.id, headers, encrypted.body)).status === 200;
  },
  // DEACTIVATED on a card never activated is refused; its second_line sent beside is kept all the same.
  "card-refused-move-keeps-texts": async (p) => {
    const card = (await cards(p)).find(awaitingActivation);
    if (!card) return false;
    const refused = await p.send("PUT", cardPath(p, card.id), { status: "DEACTIVATED", second_line: "probe 033" });
    return refused.status === 400 && (await shows(p, "probe 033"));
  },
  // The fallback sent with a status is dropped (and, not supplied, removed).
  "card-status-put-applies-status-only": async (p) => {
    const card = (await cards(p)).find(deliveredActive)!;
    const account = (card.pin_code_assignment as { monetary_account_id: number }[])[0]!.monetary_account_id;
    const put = await p.send("PUT", cardPath(p, card.id), { status: "ACTIVE", monetary_account_id_fallback: account });
    const after = (await cards(p)).find((c) => c.id === card.id);
    return put.status === 200 && after?.monetary_account_id_fallback !== account;
  },
  "replace-ignores-texts": async (p) => {
    const card = (await cards(p)).find(deliveredActive)!;
    const replaced = await p.send("POST", `${cardPath(p, card.id)}/replace`, { second_line: "probe 006" });
    return replaced.status === 200 && !(await shows(p, "probe 006"));
  },
  "replace-types-coerced": async (p) => {
    const card = (await cards(p)).find(deliveredActive)!;
    return (await p.send("POST", `${cardPath(p, card.id)}/replace`, { second_line: 42 })).status === 200;
  },
  "batch-replace-empty-without-cards": async (p) =>
    (await p.send("POST", `/user/${p.session.userId}/card-batch-replace`, {})).status === 200,
  // An id that names no card at all is answered with the id of a card replaced instead.
  "replace-unknown-id-replaces-first-card": async (p) => {
    const answered = await p.send("POST", `${cardPath(p, 999_999_999)}/replace`, {});
    return answered.status === 200 && ids(answered).length === 1;
  },
  "batch-replace-drops-second-line": async (p) => {
    const card = (await cards(p)).find(deliveredActive)!;
    const batch = await p.send("POST", `/user/${p.session.userId}/card-batch-replace`, {
      cards: [{ id: card.id, second_line: "probe 016" }],
    });
    return batch.status === 200 && !(await shows(p, "probe 016"));
  },
};

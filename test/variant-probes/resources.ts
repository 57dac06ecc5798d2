// Probes of the resource variants (attachments, pinned certificates, callback URLs, share invites, challenge
// requests): each answers true when the answer shows the variant's mark.
import { LEAF_PEM, INTERMEDIATE_CA_PEM } from "../../harness/test-data/certificates.js";
import { png1x1 } from "../../harness/test-data/images.js";
import { ids, inner, type Probe, type ProbeFn, uploadAttachment } from "./support.js";

const uploadPng = (p: Probe, bytes: Buffer) => uploadAttachment(p, { bytes });

const pin = (p: Probe, certificates: string[]) =>
  p.send("POST", `/user/${p.session.userId}/certificate-pinned`, {
    certificate_chain: certificates.map((certificate) => ({ certificate })),
  });

export const PROBES: Record<string, ProbeFn> = {
  "attachment-empty-upload-stored": async (p) => (await uploadPng(p, Buffer.alloc(0))).status === 200,
  "resource-refusal-codes": async (p) => {
    const text = await uploadAttachment(p, { contentType: "text/plain", bytes: Buffer.from("text") });
    const chain = await pin(p, ["not a certificate"]);
    const missing = await p.get(`/user/${p.session.userId}/certificate-pinned/999999999`);
    return text.status === 415 && chain.status === 422 && missing.status === 403 && (await uploadPng(p, png1x1())).status === 200;
  },
  "cert-pem-with-text-accepted": async (p) => (await pin(p, [`Subject: probe\n${LEAF_PEM.trim()}\nend of probe`])).status === 200,
  "cert-two-pems-per-entry-accepted": async (p) => {
    const created = await pin(p, [`${LEAF_PEM.trim()}\n${INTERMEDIATE_CA_PEM.trim()}`]);
    if (created.status !== 200) return false;
    const chain = String(inner(await p.get(`/user/${p.session.userId}/certificate-pinned/${ids(created)[0]}`))[1].certificate_chain);
    return chain.split("-----BEGIN CERTIFICATE-----").length === 3;
  },
  "cert-empty-chain-pinned": async (p) => (await pin(p, [])).status === 200,
  "share-pending-invites": async (p) => {
    const list = await p.get(`/user/${p.session.userId}/share-invite-monetary-account-response?count=200`);
    return ids(list).some((_, i) => inner(list, i)[1].status === "PENDING");
  },
};

// Real certificates for the pinned-chain checks (CERT-*): root CA → intermediate CA → leaf, made once with
// openssl (certificates/README.md says how; the private keys no longer exist).
import { readFileSync } from "node:fs";

function load(file: string): string {
  return readFileSync(new URL(`./certificates/${file}`, import.meta.url), "utf8");
}

export const ROOT_CA_PEM = load("root-ca.pem");
export const INTERMEDIATE_CA_PEM = load("intermediate-ca.pem");
export const LEAF_PEM = load("leaf.pem");

/** The chain as a TLS server presents it: leaf first, then the CAs that issued it. */
export const FULL_CHAIN = [LEAF_PEM, INTERMEDIATE_CA_PEM, ROOT_CA_PEM];

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** The base64 body of a PEM certificate without line breaks: the form two PEM texts are compared in. */
export function pemBody(pem: string): string {
  const match = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem);
  return (match?.[1] ?? "").replace(/\s+/g, "");
}

/** Every PEM certificate block of a text, with what stands between (and around) them. */
export function splitPemChain(text: string): { bodies: string[]; separators: string[] } {
  const bodies: string[] = [];
  const separators: string[] = [];
  let last = 0;
  for (const match of text.matchAll(PEM_BLOCK)) {
    separators.push(text.slice(last, match.index));
    bodies.push((match[1] ?? "").replace(/\s+/g, ""));
    last = match.index + match[0].length;
  }
  separators.push(text.slice(last));
  return { bodies, separators };
}

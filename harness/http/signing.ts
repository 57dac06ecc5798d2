// The provider's signing dialect (wire conventions §3): RSA PKCS#1 v1.5 with SHA-256 over the exact body
// bytes, base64. The client signs request bodies (<prefix>Client-Signature) with the key it installed; the
// server signs every answer (<prefix>Server-Signature) with the key POST /installation handed out.
import { createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import type { Exchange } from "./exchange.js";

function bytesOf(body: Buffer | string): Buffer {
  return typeof body === "string" ? Buffer.from(body, "utf8") : body;
}

/** base64 signature over the exact body bytes. */
export function signBody(body: Buffer | string, privateKey: KeyObject | string): string {
  return sign("sha256", bytesOf(body), privateKey).toString("base64");
}

/** Whether `signature` (base64) is a valid signature over `body` under `publicKey`; never throws. */
function verifyBody(body: Buffer | string, signature: string, publicKey: KeyObject | string): boolean {
  try {
    return verify(
      "sha256",
      bytesOf(body),
      typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey,
      Buffer.from(signature, "base64"),
    );
  } catch {
    return false;
  }
}

export type SignatureVerdict = { ok: true } | { ok: false; problem: string };

/**
 * Whether an answer carries a valid server signature over the bytes it delivered.
 * `headerName` is the full header name (<prefix>Server-Signature).
 */
export function serverSignatureVerdict(exchange: Exchange, headerName: string, serverPublicKeyPem: string): SignatureVerdict {
  const signature = exchange.headers[headerName.toLowerCase()];
  if (signature === undefined || signature.trim() === "") return { ok: false, problem: `no ${headerName} header` };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature.trim()))
    return { ok: false, problem: `${headerName} is not base64: "${signature.slice(0, 40)}…"` };
  if (!verifyBody(exchange.bodyBytes, signature.trim(), serverPublicKeyPem)) {
    return {
      ok: false,
      problem:
        `a ${headerName} that does not verify over the ${exchange.bodyBytes.length} body bytes received ` + `with the server's public key`,
    };
  }
  return { ok: true };
}

/** The signature with one bit of its middle byte flipped: well-formed, but wrong. */
export function flipBit(signature: string): string {
  const bytes = Buffer.from(signature, "base64");
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = bytes[middle]! ^ 0x01;
  return bytes.toString("base64");
}

// The provider's request encryption, as its public documentation describes it (basics/authentication/
// encryption.md of its documentation repository; its SDKs do the same): a random 32-byte AES key and 16-byte
// IV; the body encrypted with AES-256-CBC (PKCS#7 padding); the AES key sealed with the server's public key
// (RSA, PKCS#1 v1.5; the ServerPublicKey of POST /installation); an HMAC-SHA1 keyed with the AES key over the
// IV followed by the encrypted body. Key, IV and HMAC travel base64 in <prefix>Client-Encryption-Key, -Iv and
// -Hmac; the encrypted bytes are the body. The specification only says pin requests "require encryption to
// be enabled": a profile declares that its target speaks this scheme (`encryption: true`).
import { constants, createCipheriv, createHmac, publicEncrypt, randomBytes } from "node:crypto";
import type { Exchange } from "./exchange.js";
import { NOT_APPLICABLE } from "../not-applicable.js";
import type { Session } from "../session/session.js";
import type { Target } from "../run/target.js";

const AES_KEY_BYTES = 32;
const IV_BYTES = 16;

/** Skip reason where the profile does not declare the provider's scheme. */
export const ENCRYPTION_OFF =
  `${NOT_APPLICABLE} request encryption is off in the profile (encryption: false): the target's scheme is not known to be the ` +
  `provider's`;

/** The three header names under a profile's prefix. */
export function encryptionHeaderNames(prefix: string): { key: string; iv: string; hmac: string } {
  return { key: `${prefix}Client-Encryption-Key`, iv: `${prefix}Client-Encryption-Iv`, hmac: `${prefix}Client-Encryption-Hmac` };
}

export interface EncryptedBody {
  /** The three encryption headers (base64 values). */
  headers: Record<string, string>;
  /** The encrypted bytes: the request body. */
  body: Buffer;
  /** The AES key and IV used, for tests that tamper with one part. */
  key: Buffer;
  iv: Buffer;
}

/** HMAC-SHA1 keyed with the AES key over IV ‖ encrypted body (the documented input). */
export function encryptionHmac(key: Buffer, iv: Buffer, encrypted: Buffer): Buffer {
  return createHmac("sha1", key).update(iv).update(encrypted).digest();
}

/** AES-256-CBC with PKCS#7 padding (node's default); `pad: false` leaves a last block no padding check accepts. */
export function aesEncrypt(plain: Buffer, key: Buffer, iv: Buffer, pad = true): Buffer {
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  cipher.setAutoPadding(pad);
  return Buffer.concat([cipher.update(plain), cipher.final()]);
}

/** The AES key sealed with an RSA public key (PKCS#1 v1.5, as the provider's SDKs do). */
export function sealKey(key: Buffer, publicKeyPem: string): Buffer {
  return publicEncrypt({ key: publicKeyPem, padding: constants.RSA_PKCS1_PADDING }, key);
}

/** Encrypts a request body for the server whose public key is given; key and IV are random unless given. */
export function encryptBody(
  plain: Buffer | string,
  serverPublicKeyPem: string,
  prefix: string,
  given: { key?: Buffer; iv?: Buffer } = {},
): EncryptedBody {
  const key = given.key ?? randomBytes(AES_KEY_BYTES);
  const iv = given.iv ?? randomBytes(IV_BYTES);
  const body = aesEncrypt(typeof plain === "string" ? Buffer.from(plain, "utf8") : plain, key, iv);
  const names = encryptionHeaderNames(prefix);
  return {
    headers: {
      [names.key]: sealKey(key, serverPublicKeyPem).toString("base64"),
      [names.iv]: iv.toString("base64"),
      [names.hmac]: encryptionHmac(key, iv, body).toString("base64"),
    },
    body,
    key,
    iv,
  };
}

/** Sends an encrypted request as `session`; `tweak` may change headers or body first (tampering checks). */
export function sendEncrypted(
  t: Target,
  session: Session,
  request: { method: string; path: string; json: unknown },
  tweak: (encrypted: EncryptedBody) => EncryptedBody = (e) => e,
): Promise<Exchange> {
  const encrypted = tweak(encryptBody(JSON.stringify(request.json), session.serverPublicKey!, t.profile.headerPrefix));
  return t.client.request({
    method: request.method,
    path: request.path,
    token: session.sessionToken,
    from: session.from,
    // The body is JSON once decrypted; the provider's clients keep the JSON content type.
    headers: { ...encrypted.headers, "Content-Type": "application/json" },
    body: encrypted.body,
  });
}

// The harness's request encryption against an independent decryption written from the provider's
// documentation (raw RSA opened by hand, AES-256-CBC, HMAC-SHA1 over IV ‖ body), and against the reference
// server's decryption, with a generated RSA key.
import { constants, createDecipheriv, createHmac, generateKeyPairSync, privateDecrypt, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encryptBody, encryptionHeaderNames } from "../../harness/http/encryption.js";
import { decryptBody } from "../../reference/encryption.js";

const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
const names = encryptionHeaderNames("X-Bunq-");

/** Opens the sealed key without any code of the harness: raw RSA, then the PKCS#1 v1.5 type-2 block by hand. */
function independentOpen(sealed: Buffer, key: KeyObject): Buffer {
  const block = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, sealed);
  expect([block[0], block[1]], "PKCS#1 v1.5 block type 2").toEqual([0, 2]);
  const zero = block.indexOf(0, 2);
  expect(zero, "at least 8 bytes of padding").toBeGreaterThanOrEqual(10);
  return block.subarray(zero + 1);
}

describe("request encryption (the provider's scheme)", () => {
  const plain = JSON.stringify({ pin_code: "7391", second_line: "round trip é" });
  const sent = encryptBody(plain, publicPem, "X-Bunq-");

  it("names the three headers under the profile's prefix, values in base64", () => {
    expect(Object.keys(sent.headers).sort()).toEqual([names.hmac, names.iv, names.key].sort());
    for (const value of Object.values(sent.headers)) expect(value).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(sent.headers[names.iv]!, "base64")).toHaveLength(16);
  });

  it("decrypts with an independent implementation: sealed 32-byte key, HMAC-SHA1 over IV then body, AES-256-CBC", () => {
    const key = independentOpen(Buffer.from(sent.headers[names.key]!, "base64"), privateKey);
    expect(key).toHaveLength(32);
    const iv = Buffer.from(sent.headers[names.iv]!, "base64");
    const mac = createHmac("sha1", key)
      .update(Buffer.concat([iv, sent.body]))
      .digest("base64");
    expect(sent.headers[names.hmac]).toBe(mac);
    const decipher = createDecipheriv("aes-256-cbc", key, iv);
    expect(Buffer.concat([decipher.update(sent.body), decipher.final()]).toString("utf8")).toBe(plain);
    expect(sent.body.length % 16, "whole AES blocks").toBe(0);
  });

  it("is random per request: key, IV and body differ between two encryptions of the same text", () => {
    const again = encryptBody(plain, publicPem, "X-Bunq-");
    expect(again.iv.equals(sent.iv)).toBe(false);
    expect(again.key.equals(sent.key)).toBe(false);
    expect(again.body.equals(sent.body)).toBe(false);
  });

  it("round-trips through the reference server's decryption, which refuses a wrong HMAC, a foreign key and a bad IV", () => {
    const parts = { key: sent.headers[names.key]!, iv: sent.headers[names.iv]!, hmac: sent.headers[names.hmac], body: sent.body };
    expect(decryptBody(parts, privateKey).toString("utf8")).toBe(plain);
    const flipped = Buffer.from(parts.hmac!, "base64");
    flipped[3] = flipped[3]! ^ 1;
    expect(() => decryptBody({ ...parts, hmac: flipped.toString("base64") }, privateKey)).toThrow(/HMAC/);
    expect(() => decryptBody({ ...parts, hmac: undefined }, privateKey)).toThrow(/HMAC/);
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
    expect(() => decryptBody(parts, other.privateKey)).toThrow(/unsealed/);
    expect(() => decryptBody({ ...parts, iv: Buffer.alloc(8).toString("base64") }, privateKey)).toThrow(/IV/);
  });
});

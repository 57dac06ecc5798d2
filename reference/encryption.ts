// The provider's request encryption (its public documentation, basics/authentication/encryption.md; see
// harness/http/encryption.ts): a request carrying <prefix>Client-Encryption-Key, -Iv and -Hmac has an AES-256-CBC
// body whose key is sealed with the server's public key (RSA, PKCS#1 v1.5). The hook unseals the key with the
// server's private key, checks the HMAC-SHA1 over IV ‖ body, decrypts, and hands the plaintext JSON to the
// body parser, marking the request as encrypted. The card PUT takes pin_code only from such a request
// (banking-api.md: "plaintext pin; requests require encryption to be enabled").
import { constants, createDecipheriv, createHmac, privateDecrypt, timingSafeEqual, type KeyObject } from "node:crypto";
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { badRequest, HttpError } from "./http-error.js";
import type { ReferenceContext, Switchboard } from "./module.js";
import { serverKey } from "./server-key.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The body arrived encrypted and its HMAC matched. */
    encrypted?: boolean;
    /** The encrypted bytes as received (the client signs these). */
    encryptedBody?: Buffer;
  }
}

/** The AES key from a PKCS#1 v1.5 block (00 02 PS 00 M, PS at least 8 non-zero bytes); undefined when malformed. */
function unpadPkcs1(block: Buffer): Buffer | undefined {
  if (block[0] !== 0x00 || block[1] !== 0x02) return undefined;
  const end = block.indexOf(0x00, 2);
  if (end < 10) return undefined;
  return block.subarray(end + 1);
}

/**
 * Unseals an AES key sealed with the server's public key. Node refuses PKCS#1 v1.5 private decryption
 * (CVE-2023-46809), so the block is opened raw and unpadded here; a test server need not resist padding oracles.
 */
function unsealKey(sealed: Buffer, privateKey: KeyObject, ctx?: Switchboard): Buffer | undefined {
  // Fault encryption-key-unseal-500: the RSA step outside the try, so a sealed key longer than the RSA key throws out of the hook (500).
  if (ctx?.faults.on("encryption-key-unseal-500"))
    return unpadPkcs1(privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, sealed));
  try {
    return unpadPkcs1(privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, sealed));
  } catch {
    return undefined;
  }
}

/**
 * Whether the HMAC is checked (CARD-031). Fault encryption-hmac-not-checked and variant card-encryption-hmac-unchecked
 * (a legal reading since the blind ruling: CARD-031 is LENIENT) never check it; fault encryption-hmac-optional only when sent.
 */
function hmacChecked(hmac: string | undefined, ctx?: Switchboard): boolean {
  if (ctx?.faults.on("encryption-hmac-not-checked") || ctx?.variants.on("card-encryption-hmac-unchecked")) return false;
  return !(hmac === undefined && ctx?.faults.on("encryption-hmac-optional"));
}

/** Decrypts a request body; a refusal (HttpError 400) says which part failed. */
export function decryptBody(
  parts: { key: string; iv: string; hmac: string | undefined; body: Buffer },
  privateKey: KeyObject,
  ctx?: Switchboard,
): Buffer {
  const faults = ctx?.faults;
  const key = unsealKey(Buffer.from(parts.key, "base64"), privateKey, ctx);
  if (!key || key.length !== 32) throw badRequest("The encryption key cannot be unsealed with the server's key.");
  const iv = Buffer.from(parts.iv, "base64");
  if (iv.length !== 16) throw badRequest("The encryption IV must be 16 bytes.");
  if (hmacChecked(parts.hmac, ctx)) {
    const mac = createHmac("sha1", key);
    if (!faults?.on("encryption-hmac-without-iv")) mac.update(iv);
    const expected = mac.update(parts.body).digest();
    const sent = Buffer.from(parts.hmac ?? "", "base64");
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected))
      throw badRequest("The encryption HMAC does not match the IV and the body.");
  }
  try {
    const decipher = createDecipheriv("aes-256-cbc", key, iv);
    return Buffer.concat([decipher.update(parts.body), decipher.final()]);
  } catch {
    throw badRequest("The encrypted body does not decrypt.");
  }
}

async function readAll(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > limit) throw new HttpError(413, "The request body is too large.");
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/**
 * Whether the encryption headers are read (CARD-030). Fault encryption-not-supported and variant card-encryption-unsupported
 * (a legal reading since the blind ruling: CARD-030 is LENIENT) ignore them: the body is parsed as it came.
 */
function encryptionSupported(ctx: Switchboard): boolean {
  return !ctx.faults.on("encryption-not-supported") && !ctx.variants.on("card-encryption-unsupported");
}

export function registerEncryption(app: FastifyInstance, ctx: ReferenceContext): void {
  const { faults } = ctx;
  const names = {
    key: ctx.header("Client-Encryption-Key").toLowerCase(),
    iv: ctx.header("Client-Encryption-Iv").toLowerCase(),
    hmac: ctx.header("Client-Encryption-Hmac").toLowerCase(),
  };
  const value = (request: FastifyRequest, name: string) => {
    const v = request.headers[name];
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  app.decorateRequest("encrypted", false);
  app.decorateRequest("encryptedBody", undefined);

  // Before the body parser: the parser then sees the plaintext JSON.
  app.addHook("preParsing", async (request, _reply, payload) => {
    const [key, iv, hmac] = [value(request, names.key), value(request, names.iv), value(request, names.hmac)];
    if ((key === undefined && iv === undefined && hmac === undefined) || !encryptionSupported(ctx)) return payload;
    const hmacOptional = faults.on("encryption-hmac-optional") || ctx.variants.on("card-encryption-hmac-unchecked");
    if (key === undefined || iv === undefined || (hmac === undefined && !hmacOptional)) {
      throw badRequest(
        `An encrypted request needs all of ${ctx.header("Client-Encryption-Key")}, ${ctx.header("Client-Encryption-Iv")} ` +
          `and ${ctx.header("Client-Encryption-Hmac")}.`,
      );
    }
    const body = await readAll(payload, 10 * 1024 * 1024);
    const plain = decryptBody({ key, iv, hmac, body }, serverKey().privateKey, ctx);
    request.encrypted = true;
    request.encryptedBody = body;
    request.headers["content-type"] = "application/json";
    const stream = Readable.from([plain]) as Readable & { receivedEncodedLength?: number };
    // Fastify compares the bytes read with Content-Length, which counts the encrypted bytes.
    stream.receivedEncodedLength = body.length;
    return stream;
  });
  // The body parser kept the plaintext as rawBody; signatures are made over the bytes sent.
  app.addHook("preValidation", async (request) => {
    if (request.encryptedBody) request.rawBody = request.encryptedBody;
  });
}

/**
 * The card PUT's pin rule: pin_code only in an encrypted request (CARD-029). Called before the update is applied
 * (and, with fault pin-refusal-after-update, after it). Variant card-pin-plaintext-accepted (a legal reading since the
 * blind ruling: CARD-029 is LENIENT) stores a plaintext pin, as fault pin-code-plaintext-accepted does.
 */
export function checkPinEncryption(
  request: FastifyRequest,
  body: Record<string, unknown>,
  ctx: Switchboard,
  stage: "before" | "after",
): void {
  const { faults } = ctx;
  if (body.pin_code === undefined || request.encrypted) return;
  if (faults.on("pin-code-plaintext-accepted") || ctx.variants.on("card-pin-plaintext-accepted")) return;
  if ((stage === "after") !== faults.on("pin-refusal-after-update")) return;
  if (faults.on("pin-code-checked-when-alone") && Object.keys(body).length > 1) return;
  const quoted = faults.on("pin-code-in-error-body") ? ` (got pin_code ${String(body.pin_code)})` : "";
  throw badRequest(`pin_code can only be set in an encrypted request${quoted}.`);
}

import { generateKeyPairSync, type KeyObject } from "node:crypto";

export interface ServerKey {
  publicKeyPem: string;
  privateKey: KeyObject;
}

// Kept on globalThis, not in a module variable: vitest loads each project's global setup in a module
// graph of its own, and the kill matrix starts one server per fault in one process.
const holder = globalThis as { __referenceServerKey?: ServerKey };

/**
 * The server's RSA-2048 key, whose public half POST /installation hands out. One per process:
 * generating one costs up to a few hundred milliseconds on a small machine.
 */
export function serverKey(): ServerKey {
  if (!holder.__referenceServerKey) {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    holder.__referenceServerKey = { publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(), privateKey };
  }
  return holder.__referenceServerKey;
}

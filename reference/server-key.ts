import { generateKeyPair, generateKeyPairSync, type KeyObject } from "node:crypto";

export interface ServerKey {
  publicKeyPem: string;
  privateKey: KeyObject;
}

// Kept on globalThis, not in a module variable: vitest loads each project's global setup in a module
// graph of its own, and the kill matrix starts one server per fault in one process.
const holder = globalThis as { __referenceServerKey?: ServerKey; __referenceServerKeyMaking?: Promise<void> };

/**
 * The server's RSA-2048 key, whose public half POST /installation hands out. One per process:
 * generating one costs up to a few hundred milliseconds on a small machine.
 */
export function serverKey(): ServerKey {
  if (!holder.__referenceServerKey) {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    holder.__referenceServerKey = serverKeyOf(publicKey, privateKey);
  }
  return holder.__referenceServerKey;
}

/**
 * Makes the key on libuv's thread pool, ahead of the first server: the CLI starts it with the run when the target is
 * the embedded reference, so the key is ready when the global setup starts the server (made on the spot, it held the
 * CLI's thread for a few hundred milliseconds while vitest was starting).
 */
export function prepareServerKey(): Promise<void> {
  if (holder.__referenceServerKey) return Promise.resolve();
  holder.__referenceServerKeyMaking ??= new Promise<void>((resolve) => {
    generateKeyPair("rsa", { modulusLength: 2048 }, (error, publicKey, privateKey) => {
      // A failure leaves serverKey() to make one the synchronous way (and throw there, where it is needed).
      if (!error && !holder.__referenceServerKey) holder.__referenceServerKey = serverKeyOf(publicKey, privateKey);
      resolve();
    });
  });
  return holder.__referenceServerKeyMaking;
}

const serverKeyOf = (publicKey: KeyObject, privateKey: KeyObject): ServerKey => ({
  publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  privateKey,
});

import { generateKeyPairSync, type KeyObject } from "node:crypto";

export interface ServerKey {
  publicKeyPem: string;
  privateKey: KeyObject;
}

let shared: ServerKey | undefined;

/**
 * The server's RSA-2048 key, whose public half POST /installation hands out. One per process:
 * generating one costs tens of milliseconds, and the kill matrix starts a server per fault.
 */
export function serverKey(): ServerKey {
  if (!shared) {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    shared = { publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(), privateKey };
  }
  return shared;
}

import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import { registerSecret } from "../redact.js";

export interface KeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

const generate = promisify(generateKeyPair);
// On globalThis: vitest gives each project's global setup a module graph of its own (kill matrix: one per fault). The
// entry point may have started the pair already (bin/early-keys.js).
const holder = globalThis as {
  __conformanceClientKey?: Promise<KeyPair>;
  __conformanceEarlyClientKey?: Promise<{ publicKey: string; privateKey: string } | undefined>;
};

export async function newKeyPair(): Promise<KeyPair> {
  const { publicKey, privateKey } = await generate("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  registerSecret(privateKey, "private key");
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

/**
 * One RSA-2048 pair per run: generating one costs up to half a second on a small machine, and
 * installations may share it. The global setup makes it and hands it to the workers (useSharedKeyPair).
 */
export function sharedKeyPair(): Promise<KeyPair> {
  holder.__conformanceClientKey ??= earlyOrNewKeyPair();
  return holder.__conformanceClientKey;
}

/** The pair the entry point started, if it did and it worked; else one made now. */
async function earlyOrNewKeyPair(): Promise<KeyPair> {
  const early = await holder.__conformanceEarlyClientKey;
  if (!early) return newKeyPair();
  registerSecret(early.privateKey, "private key");
  return { publicKeyPem: early.publicKey, privateKeyPem: early.privateKey };
}

export function useSharedKeyPair(pair: KeyPair): void {
  registerSecret(pair.privateKeyPem, "private key");
  holder.__conformanceClientKey ??= Promise.resolve(pair);
}

/**
 * The key pair a new installation registers: the run's, or one of its own where the target keeps one installation per
 * client key (a second installation with the run's key makes the first one's token unknown: blind round 5, both readers
 * OPEN). The run's bootstrap asks the target (installationsPerKey) and sets its clients' keyPerInstallation.
 */
export function installationKeyPair(perInstallation: boolean): Promise<KeyPair> {
  return perInstallation ? newKeyPair() : sharedKeyPair();
}

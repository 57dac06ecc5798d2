import { createPrivateKey, createPublicKey, generateKeyPair, generateKeyPairSync, type KeyObject } from "node:crypto";

export interface ServerKey {
  publicKeyPem: string;
  privateKey: KeyObject;
}

// Kept on globalThis, not in a module variable: vitest loads each project's global setup in a module
// graph of its own, and the kill matrix starts one server per fault in one process.
const holder = globalThis as {
  __referenceServerKey?: ServerKey;
  __referenceServerKeyMaking?: Promise<void>;
  __referenceServerKeyStore?: KeyStore;
};

/**
 * Where a key is kept between runs: making one costs 65 to 450 ms of CPU on a 2-core machine (measured, 12 keys), a
 * run's largest single piece of work and the most variable. The CLI gives the store (cli/kept-server-key.ts); without
 * one, each process makes its own key.
 */
export interface KeyStore {
  /** The private key kept by an earlier run (PKCS#8 PEM), if any. */
  read(): string | undefined;
  write(privateKeyPem: string): void;
}

/** Keeps this process's key in `store`, and takes the one kept there. */
export function keepServerKeyIn(store: KeyStore): void {
  holder.__referenceServerKeyStore = store;
}

/**
 * The server's RSA-2048 key, whose public half POST /installation hands out. One per process, and kept between runs:
 * generating one costs up to a few hundred milliseconds on a small machine.
 */
export function serverKey(): ServerKey {
  if (!holder.__referenceServerKey) {
    holder.__referenceServerKey = keptKey();
    if (!holder.__referenceServerKey) {
      const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      holder.__referenceServerKey = keep(publicKey, privateKey);
    }
  }
  return holder.__referenceServerKey;
}

/**
 * Takes the kept key, or makes one on libuv's thread pool, ahead of the first server: the CLI starts it with the run
 * when the target is the embedded reference, so the key is ready when the global setup starts the server (made on the
 * spot, it held the CLI's thread for a few hundred milliseconds while vitest was starting).
 */
export function prepareServerKey(): Promise<void> {
  holder.__referenceServerKey ??= keptKey();
  if (holder.__referenceServerKey) return Promise.resolve();
  holder.__referenceServerKeyMaking ??= new Promise<void>((resolve) => {
    generateKeyPair("rsa", { modulusLength: 2048 }, (error, publicKey, privateKey) => {
      // A failure leaves serverKey() to make one the synchronous way (and throw there, where it is needed).
      if (!error && !holder.__referenceServerKey) holder.__referenceServerKey = keep(publicKey, privateKey);
      resolve();
    });
  });
  return holder.__referenceServerKeyMaking;
}

/** The key kept by an earlier run, if there is one that loads. */
function keptKey(): ServerKey | undefined {
  const pem = holder.__referenceServerKeyStore?.read();
  if (pem === undefined) return undefined;
  try {
    const privateKey = createPrivateKey(pem);
    return serverKeyOf(createPublicKey(privateKey), privateKey);
  } catch {
    return undefined; // a damaged copy: a new key is made and kept over it
  }
}

function keep(publicKey: KeyObject, privateKey: KeyObject): ServerKey {
  holder.__referenceServerKeyStore?.write(privateKey.export({ type: "pkcs8", format: "pem" }).toString());
  return serverKeyOf(publicKey, privateKey);
}

const serverKeyOf = (publicKey: KeyObject, privateKey: KeyObject): ServerKey => ({
  publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  privateKey,
});

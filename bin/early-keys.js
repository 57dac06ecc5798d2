// A run's client key pair (RSA-2048: 0.1-0.5 s of one core) is needed before its first request: by the preflight of
// a remote target, by the sessions the run opens on the embedded reference. Started here, on libuv's thread pool, it
// is made while the entry point loads the modules on its own thread (about a second); harness/session/keys.ts takes
// it from globalThis when first asked, and makes one itself where this one failed. (The embedded reference's own key
// is left to the CLI, once it knows the target: made here as well, it slowed a remote run's start by as much.)
import { generateKeyPair } from "node:crypto";

/** Commands that open sessions before their first check. */
const OPENS_SESSIONS = new Set(["run", "rerun", "kill-matrix"]);

export function startClientKeyPair(command) {
  if (!OPENS_SESSIONS.has(command)) return;
  globalThis.__conformanceEarlyClientKey = new Promise((resolve) => {
    // The options of newKeyPair (harness/session/keys.ts): PEM text, as POST /installation sends it.
    const options = {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    };
    generateKeyPair("rsa", options, (error, publicKey, privateKey) => resolve(error ? undefined : { publicKey, privateKey }));
  });
}

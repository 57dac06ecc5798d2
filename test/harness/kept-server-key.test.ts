// The embedded reference's RSA key is kept between runs (cli/kept-server-key.ts): a new process takes the kept key
// instead of making one (65-450 ms of CPU), and a damaged copy is replaced, never a failed start.
import { describe, expect, it } from "vitest";
import { keepText, keptText } from "../../harness/disk-cache.js";
import { KEPT_SERVER_KEY, keepReferenceKeyOnDisk } from "../../cli/kept-server-key.js";
import { prepareServerKey, serverKey } from "../../reference/server-key.js";

const holder = globalThis as { __referenceServerKey?: unknown; __referenceServerKeyMaking?: unknown };
const KEPT_AS = KEPT_SERVER_KEY;
keepReferenceKeyOnDisk();

/** As a new process starts: nothing made yet in this one. */
function newProcess(): void {
  delete holder.__referenceServerKey;
  delete holder.__referenceServerKeyMaking;
}

describe("the reference server's kept key", () => {
  it("a second process serves the key the first one made and kept", async () => {
    newProcess();
    await prepareServerKey();
    const first = serverKey().publicKeyPem;
    expect(keptText(KEPT_AS, ".pem")).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    newProcess();
    await prepareServerKey();
    expect(serverKey().publicKeyPem).toBe(first);
  });

  it("a damaged copy gives way to a new key, kept over it", () => {
    const kept = keptText(KEPT_AS, ".pem");
    try {
      keepText(KEPT_AS, ".pem", "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
      newProcess();
      expect(serverKey().publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
      expect(keptText(KEPT_AS, ".pem")).not.toContain("not a key");
    } finally {
      if (kept !== undefined) keepText(KEPT_AS, ".pem", kept);
      newProcess();
    }
  });
});

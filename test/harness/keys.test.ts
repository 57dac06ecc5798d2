// The run's client key pair: the one the entry point starts while it loads (bin/early-keys.js) is the pair the run
// uses, its private key is a known secret, and a pair that could not be made there is made when first asked.
import { createPrivateKey, createPublicKey } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { redactText } from "../../harness/redact.js";
import { sharedKeyPair } from "../../harness/session/keys.js";

type Holder = {
  __conformanceClientKey?: unknown;
  __conformanceEarlyClientKey?: Promise<{ publicKey: string; privateKey: string } | undefined>;
};
const holder = globalThis as Holder;
// The entry point is plain JavaScript (no types): imported by URL.
const { startClientKeyPair } = (await import(new URL("../../bin/early-keys.js", import.meta.url).href)) as {
  startClientKeyPair: (command: string) => void;
};

afterEach(() => {
  delete holder.__conformanceClientKey;
  delete holder.__conformanceEarlyClientKey;
});

describe("the run's client key pair", () => {
  it("is started by the entry point for the commands that open sessions, and for no other", () => {
    for (const command of ["list", "serve", "faults", "report", ""]) {
      startClientKeyPair(command);
      expect(holder.__conformanceEarlyClientKey, command).toBeUndefined();
    }
    for (const command of ["run", "rerun", "kill-matrix"]) {
      startClientKeyPair(command);
      expect(holder.__conformanceEarlyClientKey, command).toBeInstanceOf(Promise);
      delete holder.__conformanceEarlyClientKey;
    }
  });

  it("is the pair the entry point made: a working RSA-2048 pair in PEM, its private key redacted in reports", async () => {
    startClientKeyPair("run");
    const early = (await holder.__conformanceEarlyClientKey)!;
    const pair = await sharedKeyPair();
    expect(pair).toEqual({ publicKeyPem: early.publicKey, privateKeyPem: early.privateKey });
    expect(createPublicKey(pair.publicKeyPem).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(createPrivateKey(pair.privateKeyPem).asymmetricKeyType).toBe("rsa");
    const body = pair.privateKeyPem.split("\n")[1]!;
    expect(redactText(`signed with ${pair.privateKeyPem}`)).not.toContain(body);
    expect(await sharedKeyPair()).toBe(pair);
  });

  it("is made when first asked where the entry point's attempt failed", async () => {
    holder.__conformanceEarlyClientKey = Promise.resolve(undefined);
    const pair = await sharedKeyPair();
    expect(createPublicKey(pair.publicKeyPem).asymmetricKeyDetails?.modulusLength).toBe(2048);
  });
});

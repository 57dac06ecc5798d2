import { keepText, keptText } from "../harness/disk-cache.js";
import { keepServerKeyIn } from "../reference/server-key.js";

/**
 * The embedded reference's RSA key, kept between runs in the package's own cache (harness/disk-cache.ts): it is the key
 * of a test double on this machine, never a target's, nor the suite's own client key (that one is made for each run).
 */
export const KEPT_SERVER_KEY = ["reference-server-key", "rsa-2048", "pkcs8-pem"] as const;

export function keepReferenceKeyOnDisk(): void {
  keepServerKeyIn({
    read: () => keptText(KEPT_SERVER_KEY, ".pem"),
    write: (pem) => keepText(KEPT_SERVER_KEY, ".pem", pem),
  });
}

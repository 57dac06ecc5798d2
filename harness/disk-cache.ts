// Work every thread of every run would otherwise repeat (parsing the requirement catalogue, compiling the schemas),
// kept on disk under a key made from everything it depends on. Only a cache: a copy that cannot be read or written
// means the work is done again, never a failed run.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * In the package's own node_modules, beside vitest's module cache: the kept validators are code the harness runs, so
 * they live where only whoever installed the package can write (a shared temporary folder would let another user of
 * the machine plant code), and `npm ci` clears them with the dependencies they were made by.
 */
const CACHE_DIR = fileURLToPath(new URL("../node_modules/.cache/banking-api-conformance/", import.meta.url));

/** The file that holds what `parts` (texts) make, with the given extension. */
function cacheFile(parts: readonly string[], extension: string): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return join(CACHE_DIR, `${hash.digest("hex").slice(0, 32)}${extension}`);
}

/** The text kept for `parts`, if any. */
export function keptText(parts: readonly string[], extension: string): string | undefined {
  try {
    return readFileSync(cacheFile(parts, extension), "utf8");
  } catch {
    return undefined;
  }
}

/** Keeps `text` for `parts` (written whole or not at all, for the other threads reading it; a failure keeps nothing). */
export function keepText(parts: readonly string[], extension: string, text: string): void {
  const file = cacheFile(parts, extension);
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, text, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // no cache this time
  }
}

/** The text kept for `parts`, else `make()`'s, kept for the next thread. */
export function cachedText(parts: readonly string[], extension: string, make: () => string): string {
  const kept = keptText(parts, extension);
  if (kept !== undefined) return kept;
  const text = make();
  keepText(parts, extension, text);
  return text;
}

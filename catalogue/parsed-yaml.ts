import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";

const CACHE_DIR = join(tmpdir(), "banking-api-conformance-cache");

/**
 * A YAML file of the package, parsed: from a JSON copy keyed by the text's hash where one exists. Each vitest
 * project starts its own worker threads (the kill matrix: hundreds), and parsing the 140 KB requirement catalogue
 * with the yaml library costs each of them about half a second; JSON.parse costs a few milliseconds.
 * The copy is only a cache: any problem writing or reading it falls back to parsing the YAML.
 */
export function parsedYaml(file: URL): unknown {
  const text = readFileSync(file, "utf8");
  const copy = join(CACHE_DIR, `${createHash("sha256").update(text).digest("hex").slice(0, 32)}.json`);
  try {
    return JSON.parse(readFileSync(copy, "utf8")) as unknown;
  } catch {
    // Loaded only when the copy is missing: most threads never need the yaml library.
    const { parse } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
    const parsed = parse(text) as unknown;
    try {
      mkdirSync(CACHE_DIR, { recursive: true });
      const partial = `${copy}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      writeFileSync(partial, JSON.stringify(parsed));
      renameSync(partial, copy); // whole or not at all, for the other threads reading it
    } catch {
      // no cache this time
    }
    return parsed;
  }
}

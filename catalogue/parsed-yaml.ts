import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cachedText } from "../harness/disk-cache.js";

/**
 * A YAML file of the package, parsed: from a JSON copy keyed by the text where one exists. Each vitest project starts
 * its own worker threads (the kill matrix: hundreds), and parsing the 140 KB requirement catalogue with the yaml
 * library costs each of them about half a second; JSON.parse costs a few milliseconds.
 */
export function parsedYaml(file: URL): unknown {
  const text = readFileSync(file, "utf8");
  // The yaml library is loaded only when the copy is missing: most threads never need it.
  const copy = cachedText([text], ".json", () => JSON.stringify(parsedYamlAfresh(text)));
  try {
    return JSON.parse(copy) as unknown;
  } catch {
    return parsedYamlAfresh(text);
  }
}

function parsedYamlAfresh(text: string): unknown {
  const { parse } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return parse(text) as unknown;
}

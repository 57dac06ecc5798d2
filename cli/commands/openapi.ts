import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { stringify } from "yaml";
import { ConfigError } from "../../harness/profile/config-error.js";
import { openApiDocument } from "../../report/openapi.js";
import { parseFlags } from "../args.js";
import { writeOut } from "../output.js";

/** conformance openapi [--out FILE] [--header-prefix P]: the API as the suite understands it (OpenAPI 3.1). */
export async function openapiCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("openapi", args, {
    out: { type: "string", short: "o" },
    "header-prefix": { type: "string" },
  });
  if (positionals.length > 0)
    throw new ConfigError(`conformance openapi: unexpected argument "${positionals[0]}" (write to a file with --out FILE)`);
  const prefix = values["header-prefix"];
  if (prefix !== undefined && !/^[A-Za-z][A-Za-z0-9-]*-$/.test(prefix)) {
    throw new ConfigError(`conformance openapi: --header-prefix must end in "-" (e.g. X-Bunq-), got "${prefix}"`);
  }
  const document = openApiDocument(prefix === undefined ? {} : { headerPrefix: prefix });
  // YAML for .yaml/.yml files, JSON otherwise (and on stdout).
  const yaml = values.out !== undefined && /\.ya?ml$/i.test(values.out);
  const text = yaml ? stringify(document, { aliasDuplicateObjects: false }) : `${JSON.stringify(document, null, 2)}\n`;
  if (values.out === undefined) {
    await writeOut(text);
    return 0;
  }
  const file = resolve(values.out);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (error) {
    throw new ConfigError(`conformance openapi: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  await writeOut(`OpenAPI 3.1 document written to ${file}\n`);
  return 0;
}

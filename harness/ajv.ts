import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import type Ajv2020Module from "ajv/dist/2020.js";
import type standaloneModule from "ajv/dist/standalone/index.js";
import type addFormatsModule from "ajv-formats";

// Required when first used, not imported: a test worker whose validators come from kept code (harness/schemas.ts) never
// loads ajv's compiler (about 60 modules, 0.1 s of each worker's start). ajv and ajv-formats are CommonJS: required,
// the module is module.exports, whose .default is the export.
const require = createRequire(import.meta.url);
const ajv2020 = () => require("ajv/dist/2020.js") as typeof Ajv2020Module;
export type Ajv = InstanceType<(typeof Ajv2020Module)["default"]>;

/** The code of every schema an ajv instance holds, as a CommonJS module exporting each validator under its key. */
export function standaloneCode(ajv: Ajv): string {
  return (require("ajv/dist/standalone/index.js") as typeof standaloneModule).default(ajv);
}

/**
 * A fresh ajv instance for draft 2020-12 with formats, strict, all errors. `standalone`: one whose code
 * `standaloneCode` can write out, the formats required from ajv-formats.
 */
export function createAjv(options: { verbose?: boolean; standalone?: boolean } = {}): Ajv {
  const { standalone, ...rest } = options;
  const { default: Ajv2020, _ } = ajv2020();
  const code = standalone ? { code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } } : {};
  const ajv = new Ajv2020({ strict: true, allErrors: true, ...rest, ...code });
  (require("ajv-formats") as typeof addFormatsModule).default(ajv);
  return ajv;
}

export type { ErrorObject, ValidateFunction };

import type { ErrorObject, ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import addFormatsModule from "ajv-formats";

// ajv and ajv-formats are CommonJS: under NodeNext the default import is module.exports, whose .default is the export.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
/** The code of every schema an ajv instance holds, as a CommonJS module exporting each validator under its key. */
export const standaloneCode = standaloneModule.default;
export type Ajv = InstanceType<typeof Ajv2020>;

/**
 * A fresh ajv instance for draft 2020-12 with formats, strict, all errors. `standalone`: one whose code
 * `standaloneCode` can write out, the formats required from ajv-formats.
 */
export function createAjv(options: { verbose?: boolean; standalone?: boolean } = {}): Ajv {
  const { standalone, ...rest } = options;
  const code = standalone ? { code: { source: true, formats: Ajv2020Module._`require("ajv-formats/dist/formats").fullFormats` } } : {};
  const ajv = new Ajv2020({ strict: true, allErrors: true, ...rest, ...code });
  addFormats(ajv);
  return ajv;
}

export type { ErrorObject, ValidateFunction };

import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ErrorObject } from "ajv";

// ajv and ajv-formats are CommonJS: under NodeNext the default import is module.exports, whose .default is the export.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
export type Ajv = InstanceType<typeof Ajv2020>;

/** A fresh ajv instance for draft 2020-12 with formats, strict, all errors. */
export function createAjv(options: { verbose?: boolean } = {}): Ajv {
  const ajv = new Ajv2020({ strict: true, allErrors: true, ...options });
  addFormats(ajv);
  return ajv;
}

export type { ErrorObject };

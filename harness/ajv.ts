import { createRequire } from "node:module";
import { cachedText } from "./disk-cache.js";
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

/**
 * A fresh ajv instance for draft 2020-12 with formats, strict, all errors. `standalone`: one whose code ajv's
 * standalone module can write out, the formats required from ajv-formats.
 */
export function createAjv(options: { verbose?: boolean; standalone?: boolean } = {}): Ajv {
  const { standalone, ...rest } = options;
  const { default: Ajv2020, _ } = ajv2020();
  const code = standalone ? { code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } } : {};
  const ajv = new Ajv2020({ strict: true, allErrors: true, ...rest, ...code });
  (require("ajv-formats") as typeof addFormatsModule).default(ajv);
  return ajv;
}

/**
 * The validators of `schemas` (each known by its key: its $id, or the name it is added under), from code ajv generated
 * for them once and kept on disk (harness/disk-cache.ts), keyed by the schemas, the options and the ajv versions. The
 * code is ajv's own (standalone), so the validators and their errors are the ones `createAjv(options)` compiles;
 * evaluating it costs a few milliseconds where compiling cost a tenth of a second or more. Undefined where the code
 * cannot be made or run: the caller compiles as before.
 */
export function keptValidators(
  schemas: { schema: Record<string, unknown>; key: string }[],
  options: { verbose?: boolean } = {},
): Map<string, ValidateFunction> | undefined {
  try {
    const versions = ["ajv", "ajv-formats"].map((name) => `${name}@${(require(`${name}/package.json`) as { version: string }).version}`);
    const texts = schemas.map(({ schema, key }) => `${key}\n${JSON.stringify(schema)}`);
    const text = cachedText(["ajv standalone 1", JSON.stringify(options), ...versions, ...texts], ".cjs", () => {
      const ajv = createAjv({ ...options, standalone: true });
      for (const { schema, key } of schemas) ajv.addSchema(schema, schema.$id === key ? undefined : key, undefined, false);
      return (require("ajv/dist/standalone/index.js") as typeof standaloneModule).default(ajv);
    });
    const module = { exports: {} as Record<string, ValidateFunction> };
    // The kept code is CommonJS that requires ajv's runtime helpers and ajv-formats: resolved from this package.
    new Function("require", "module", "exports", text)(require, module, module.exports);
    const validators = new Map<string, ValidateFunction>();
    for (const { key } of schemas) {
      const validate = module.exports[key];
      if (typeof validate !== "function") return undefined;
      validators.set(key, validate);
    }
    return validators;
  } catch {
    return undefined;
  }
}

export type { ErrorObject, ValidateFunction };

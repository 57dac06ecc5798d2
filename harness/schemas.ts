// Loader for the JSON Schemas in schemas/: validate a payload by schema name, list the names,
// and find properties a payload carries that its schema does not declare (for strict profiles).
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createAjv, keptValidators, type ErrorObject, type ValidateFunction } from "./ajv.js";
import { isObject } from "./json.js";
import { processWide } from "./run/process-wide.js";

export type SchemaName = string;

/** Outcome of one validation; each error is one readable line: "<instancePath or (root)> <message>". */
export interface SchemaResult {
  valid: boolean;
  errors: string[];
  /** With nullAsUnset: JSON pointers of the members sent as null that were read as unset. */
  nulls: string[];
}

export interface ValidateOptions {
  /**
   * Response payloads: the specification gives types, not presence, so a member sent as null reads as a
   * member left out. A member the schema requires stays required (null fails its type), and a member the
   * schema forbids (`false`, the write-only fields) stays forbidden even as null.
   */
  nullAsUnset?: boolean;
}

type JsonObject = Record<string, unknown>;

const SCHEMA_DIR = new URL("../schemas/", import.meta.url);
const SUFFIX = ".schema.json";

interface Registry {
  /** key → validator: from code kept on disk, else compiled by ajv when first used */
  validator: (key: string) => ValidateFunction | undefined;
  /** schema name → parsed file */
  files: Map<string, JsonObject>;
  /** schema name → key under which ajv knows it ($id, or the name when the file has none) */
  keys: Map<string, string>;
  /** absolute URI ($id) → parsed file, for resolving $ref in unknownProperties */
  byUri: Map<string, JsonObject>;
  /** schema name → error raised while reading or adding it; reported when that schema is used */
  addErrors: Map<string, Error>;
  /** whether `validator` answers from kept code */
  kept: boolean;
}

/** The schemas, read once per thread (harness/run/process-wide.ts): validators are made once. */
function load(): Registry {
  return processWide(`schemas:${SCHEMA_DIR.href}`, build);
}

function build(): Registry {
  const files = new Map<string, JsonObject>();
  const keys = new Map<string, string>();
  const byUri = new Map<string, JsonObject>();
  const addErrors = new Map<string, Error>();
  const fileNames = readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith(SUFFIX))
    .sort();
  for (const file of fileNames) {
    const name = file.slice(0, -SUFFIX.length);
    const path = fileURLToPath(new URL(file, SCHEMA_DIR));
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch (err) {
      addErrors.set(name, new Error(`schema "${name}": ${path} is not valid JSON: ${(err as Error).message}`));
      continue;
    }
    if (!isObject(parsed)) {
      addErrors.set(name, new Error(`schema "${name}": ${path} does not hold a JSON object`));
      continue;
    }
    files.set(name, parsed);
    const id = typeof parsed.$id === "string" ? parsed.$id : undefined;
    keys.set(name, id ?? name);
    byUri.set(id ?? new URL(file, SCHEMA_DIR).href, parsed);
  }
  // Compiling every schema cost each worker of each run 0.15-0.2 s of CPU, all workers starting at once: kept code ~15 ms.
  const kept = addErrors.size === 0 ? keptValidators([...files].map(([name, schema]) => ({ schema, key: keys.get(name)! }))) : undefined;
  if (kept) return { validator: (key) => kept.get(key), files, keys, byUri, addErrors, kept: true };
  const ajv = createAjv();
  for (const [name, schema] of files) {
    const key = keys.get(name)!;
    try {
      // Not checked against the meta-schema here (test/schemas.test.ts does, once): each worker thread adds them all.
      ajv.addSchema(schema, schema.$id === key ? undefined : key, undefined, false);
    } catch (err) {
      addErrors.set(name, new Error(`schema "${name}" could not be added: ${(err as Error).message}`));
    }
  }
  return { validator: (key) => ajv.getSchema(key), files, keys, byUri, addErrors, kept: false };
}

function requireKnown(name: string): Registry {
  const reg = load();
  const addError = reg.addErrors.get(name);
  if (addError) throw addError;
  if (!reg.files.has(name)) {
    throw new Error(`unknown schema "${name}": no ${fileURLToPath(new URL(name + SUFFIX, SCHEMA_DIR))}`);
  }
  return reg;
}

/** Names of all schemas/*.schema.json files (without the suffix), sorted. */
export function schemaNames(): string[] {
  const reg = load();
  return [...new Set([...reg.files.keys(), ...reg.addErrors.keys()])].sort();
}

/** Whether the validators come from code kept on disk (else ajv compiles each schema when first used). */
export function validatorsKept(): boolean {
  return load().kept;
}

/** Absolute path of schemas/<name>.schema.json (whether or not it exists). */
export function schemaPath(name: string): string {
  return fileURLToPath(new URL(name + SUFFIX, SCHEMA_DIR));
}

/** The parsed schema file. */
export function loadSchema(name: string): Record<string, unknown> {
  const reg = requireKnown(name);
  return reg.files.get(name) as JsonObject;
}

function formatError(e: ErrorObject): string {
  const where = e.instancePath === "" ? "(root)" : e.instancePath;
  const params = e.params as Record<string, unknown>;
  let message = e.message ?? e.keyword;
  if (e.keyword === "false schema") {
    message = "must not be present (the schema forbids this property)";
  } else if (e.keyword === "enum" && Array.isArray(params.allowedValues)) {
    message += ` (${params.allowedValues.map((v) => String(v)).join(", ")})`;
  } else if (e.keyword === "const") {
    message += ` (${JSON.stringify(params.allowedValue)})`;
  } else if (e.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    message += ` (${params.additionalProperty})`;
  }
  return `${where} ${message}`;
}

/** Validate data against the named schema (compiled on first use, then cached by ajv). */
export function validateSchema(name: SchemaName, data: unknown, options: ValidateOptions = {}): SchemaResult {
  const reg = requireKnown(name);
  const key = reg.keys.get(name) as string;
  const validate = reg.validator(key);
  if (!validate) throw new Error(`schema "${name}" is not registered under ${key}`);
  const errorsOf = (value: unknown): ErrorObject[] => (validate(value) ? [] : [...(validate.errors ?? [])]);
  const result = (errors: ErrorObject[], nulls: string[] = []): SchemaResult => ({
    valid: errors.length === 0,
    errors: [...new Set(errors.map(formatError))],
    nulls,
  });
  const errors = errorsOf(data);
  const nulls = options.nullAsUnset ? nullMembers(data, "") : [];
  if (nulls.length === 0) return result(errors);
  // Which null members the schema requires: with every null member left out, those are reported missing.
  const missing = new Set(
    errorsOf(without(data, new Set(nulls)))
      .filter((e) => e.keyword === "required")
      .map((e) => `${e.instancePath}/${pointerEscape(String((e.params as { missingProperty?: unknown }).missingProperty))}`),
  );
  // Only the nulls the schema does not take as they are (a member typed [T, null] is fine as it is).
  const refused = new Set(errors.map((e) => e.instancePath));
  const unset = new Set(nulls.filter((pointer) => !missing.has(pointer) && refused.has(pointer)));
  if (unset.size === 0) return result(errors);
  const forbidden = errors.filter((e) => e.keyword === "false schema" && unset.has(e.instancePath));
  return result([...errorsOf(without(data, unset)), ...forbidden], [...unset]);
}

/** JSON pointers of the object members whose value is null (array elements are values, never "unset"). */
function nullMembers(data: unknown, pointer: string): string[] {
  if (Array.isArray(data)) return data.flatMap((item, i) => nullMembers(item, `${pointer}/${i}`));
  if (!isObject(data)) return [];
  return Object.entries(data).flatMap(([key, value]) => {
    const child = `${pointer}/${pointerEscape(key)}`;
    return value === null ? [child] : nullMembers(value, child);
  });
}

/** A copy of data without the members at the given pointers. */
function without(data: unknown, pointers: Set<string>, pointer = ""): unknown {
  if (Array.isArray(data)) return data.map((item, i) => without(item, pointers, `${pointer}/${i}`));
  if (!isObject(data)) return data;
  const kept = Object.entries(data).filter(([key]) => !pointers.has(`${pointer}/${pointerEscape(key)}`));
  return Object.fromEntries(kept.map(([key, value]) => [key, without(value, pointers, `${pointer}/${pointerEscape(key)}`)]));
}

// ---------------------------------------------------------------- unknownProperties

interface Located {
  schema: unknown;
  base: string;
}

/** What a schema (with its $ref and allOf/anyOf/oneOf parts) declares for one instance location. */
interface Declared {
  properties: Map<string, Located[]>;
  patterns: { regex: RegExp; at: Located }[];
  /** additionalProperties given as a schema other than false: any name is declared */
  additional: Located[];
  items: Located[];
}

function pointerEscape(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

function pointerUnescape(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
}

function resolveRef(reg: Registry, ref: string, base: string): Located | undefined {
  const url = new URL(ref, base);
  const fragment = url.hash.slice(1);
  url.hash = "";
  const doc = reg.byUri.get(url.href);
  if (!doc) return undefined;
  let node: unknown = doc;
  if (fragment.startsWith("/")) {
    for (const token of fragment.slice(1).split("/").map(pointerUnescape)) {
      if (isObject(node)) node = node[token];
      else if (Array.isArray(node)) node = node[Number(token)];
      else return undefined;
    }
  } else if (fragment !== "") {
    return undefined; // plain-name anchors are not used by these schemas
  }
  const docBase = typeof doc.$id === "string" ? doc.$id : url.href;
  return { schema: node, base: docBase };
}

function collect(reg: Registry, at: Located, out: Declared, seen: Set<unknown>): void {
  const { schema } = at;
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  const base = typeof schema.$id === "string" ? new URL(schema.$id, at.base).href : at.base;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(reg, schema.$ref, base);
    if (target) collect(reg, target, out, seen);
  }
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const parts = schema[keyword];
    if (Array.isArray(parts)) for (const part of parts) collect(reg, { schema: part, base }, out, seen);
  }
  if (isObject(schema.properties)) {
    for (const [prop, sub] of Object.entries(schema.properties)) {
      const list = out.properties.get(prop) ?? [];
      list.push({ schema: sub, base });
      out.properties.set(prop, list);
    }
  }
  if (isObject(schema.patternProperties)) {
    for (const [pattern, sub] of Object.entries(schema.patternProperties)) {
      out.patterns.push({ regex: new RegExp(pattern, "u"), at: { schema: sub, base } });
    }
  }
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    out.additional.push({ schema: schema.additionalProperties, base });
  }
  if (schema.items !== undefined && schema.items !== false) out.items.push({ schema: schema.items, base });
}

function walk(reg: Registry, locs: Located[], data: unknown, pointer: string, found: string[]): void {
  const declared: Declared = { properties: new Map(), patterns: [], additional: [], items: [] };
  const seen = new Set<unknown>();
  for (const loc of locs) collect(reg, loc, declared, seen);
  if (Array.isArray(data)) {
    if (declared.items.length === 0) return;
    data.forEach((item, index) => walk(reg, declared.items, item, `${pointer}/${index}`, found));
    return;
  }
  if (!isObject(data)) return;
  // An object schema that declares no members at all is opaque ("any object"): nothing to report.
  const declaresMembers = declared.properties.size > 0 || declared.patterns.length > 0 || declared.additional.length > 0;
  if (!declaresMembers) return;
  for (const [prop, value] of Object.entries(data)) {
    const child = `${pointer}/${pointerEscape(prop)}`;
    const subs: Located[] = [...(declared.properties.get(prop) ?? [])];
    for (const p of declared.patterns) if (p.regex.test(prop)) subs.push(p.at);
    if (subs.length === 0) {
      if (declared.additional.length === 0) {
        found.push(child);
        continue;
      }
      subs.push(...declared.additional);
    }
    // A property declared as `false` is forbidden, not unknown: validation reports it.
    const live = subs.filter((s) => s.schema !== false && s.schema !== true);
    if (live.length > 0) walk(reg, live, value, child, found);
  }
}

/**
 * JSON pointers of properties present in data but not declared by the named schema, following
 * $ref, allOf/anyOf/oneOf, properties, patternProperties, additionalProperties and items.
 * Objects whose schema declares no members are treated as opaque.
 */
export function unknownProperties(name: string, data: unknown): string[] {
  const reg = requireKnown(name);
  const schema = reg.files.get(name) as JsonObject;
  const base = typeof schema.$id === "string" ? schema.$id : new URL(name + SUFFIX, SCHEMA_DIR).href;
  const found: string[] = [];
  walk(reg, [{ schema, base }], data, "", found);
  return found;
}

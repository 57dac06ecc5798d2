// What a request schema says about its top-level members (schemas/*.schema.json): which are required,
// their JSON types and enums. The invalid-body generators take these from the schema, so they cannot
// drift from what the self-test validates against.
import { loadSchema } from "../harness/schemas.js";

export type JsonType = "string" | "integer" | "number" | "boolean" | "array" | "object" | "null";

interface Field {
  type: JsonType;
  enum?: string[];
}

export interface SchemaFields {
  required: string[];
  fields: Record<string, Field>;
}

type Node = Record<string, unknown>;

/** The schema file a "$ref" names ("address-request.schema.json" → "address-request"). */
function refName(ref: string): string {
  return ref.replace(/^.*\//, "").replace(/\.schema\.json.*$/, "");
}

function fieldOf(node: Node): Field {
  if (typeof node.$ref === "string") return fieldOf(loadSchema(refName(node.$ref)));
  const type = Array.isArray(node.type) ? (node.type[0] as JsonType) : ((node.type as JsonType | undefined) ?? "object");
  return { type, ...(Array.isArray(node.enum) ? { enum: node.enum as string[] } : {}) };
}

/** Required members and member types of a request schema, following a top-level $ref (company-update). */
export function schemaFields(name: string): SchemaFields {
  let schema = loadSchema(name) as Node;
  if (!schema.properties && typeof schema.$ref === "string") schema = loadSchema(refName(schema.$ref)) as Node;
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  return {
    required: Array.isArray(schema.required) ? (schema.required as string[]) : [],
    fields: Object.fromEntries(Object.entries(properties).map(([key, node]) => [key, fieldOf(node)])),
  };
}

/** JSON values of every type but `type` (an integer is also a number, so neither stands in for the other). */
export function valuesNotOfType(type: JsonType): { type: JsonType; value: unknown }[] {
  const samples: { type: JsonType; value: unknown }[] = [
    { type: "string", value: "12" },
    { type: "integer", value: 42 },
    { type: "number", value: 4.5 },
    { type: "boolean", value: true },
    { type: "array", value: ["x"] },
    { type: "object", value: { value: "x" } },
  ];
  return samples.filter((s) => s.type !== type && !(type === "number" && s.type === "integer"));
}

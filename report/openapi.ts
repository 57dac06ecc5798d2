// The API as the suite understands it, as an OpenAPI 3.1 document (`conformance openapi`): every
// endpoint of harness/endpoints.ts plus the authentication calls, the payload schemas of schemas/
// (JSON Schema 2020-12 is OpenAPI 3.1's dialect, so they go into components/schemas with their $refs
// rewritten), the envelope of wire conventions §1 with the type keys of §2, Pagination on lists, the
// error body on 4XX, and the request headers of the specification's header table.
import { readFileSync } from "node:fs";
import { AUTH_ENDPOINTS, ENDPOINTS, type Answer, type Endpoint } from "../harness/endpoints.js";
import { PROFILE_DEFAULTS } from "../harness/profile/profile.js";
import { SPEC_VERSION, SUITE_VERSION } from "../harness/version.js";

type Json = Record<string, unknown>;

const SCHEMA_DIR = new URL("../schemas/", import.meta.url);
const SUFFIX = ".schema.json";
/** Envelope, list envelope and error body: used by every operation. */
const ALWAYS = ["envelope", "list-envelope", "error", "pagination"];

/** "card-batch-replace" → "CardBatchReplace": the component name of a schema file. */
export function componentName(schemaName: string): string {
  return schemaName
    .split("-")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
}
const ref = (schemaName: string) => ({ $ref: `#/components/schemas/${componentName(schemaName)}` });

/**
 * The schemas of schemas/ that the API uses (those the operations name, and what they $ref), as OpenAPI
 * components: no $id/$schema, file $refs pointing into components/schemas. Schemas of the suite's own
 * files (targets, requirements, …) are reached by no operation and stay out.
 */
function payloadSchemas(roots: string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  const todo = [...new Set([...ALWAYS, ...roots])];
  for (let name = todo.shift(); name !== undefined; name = todo.shift()) {
    if (out[componentName(name)]) continue;
    const schema = JSON.parse(readFileSync(new URL(`${name}${SUFFIX}`, SCHEMA_DIR), "utf8")) as Json;
    delete schema.$id;
    delete schema.$schema;
    for (const [, file] of JSON.stringify(schema).matchAll(/"\$ref":"([\w-]+)\.schema\.json/g)) todo.push(file!);
    out[componentName(name)] = rewriteRefs(schema, componentName(name)) as Json;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function rewriteRefs(node: unknown, self: string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, self));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key !== "$ref" || typeof value !== "string") return [key, rewriteRefs(value, self)];
      const file = /^([\w-]+)\.schema\.json(#.*)?$/.exec(value);
      if (file) return [key, `#/components/schemas/${componentName(file[1]!)}${(file[2] ?? "#").slice(1)}`];
      if (value.startsWith("#")) return [key, `#/components/schemas/${self}${value.slice(1)}`];
      return [key, value];
    }),
  );
}

/** Component name of a typed Response element: "UserCompanyElement", "CardElement" (Card, CardDebit or CardCredit). */
function elementName(elements: [string, string][]): string {
  return `${elements[0]![0]}Element`;
}

function element(elements: [string, string][]): Json {
  return {
    type: "object",
    description:
      `One Response element: ` +
      `${elements.length > 1 ? `exactly one of the type keys ${elements.map(([k]) => k).join(", ")}` : `the type key ${elements[0]![0]}`}` +
      ` (wire conventions §1, §2).`,
    minProperties: 1,
    maxProperties: 1,
    ...(elements.length === 1 ? { required: [elements[0]![0]] } : {}),
    properties: Object.fromEntries(elements.map(([key, schema]) => [key, ref(schema)])),
    additionalProperties: false,
  };
}

/** Groups of type keys that stand for one element (the card keys are one LENIENT element). */
function elementGroups(answer: Extract<Answer, { kind: "typed" }>): [string, string][][] {
  const groups: [string, string][][] = [];
  for (const entry of answer.elements) {
    const group = groups.find((g) => g[0]![1] === entry[1] && entry[1] !== "id");
    if (group) group.push(entry);
    else groups.push([entry]);
  }
  return groups;
}

function responseSchema(answer: Answer, elements: Record<string, Json>): Json {
  if (answer.kind === "envelope") return { $ref: "#/components/schemas/Envelope" };
  if (answer.kind === "delete") {
    return {
      description: 'An empty Response; LENIENT: also an empty object {} or a single "<Type>Delete" element (wire conventions §1).',
      anyOf: [
        {
          type: "object",
          required: ["Response"],
          properties: {
            Response: {
              type: "array",
              maxItems: 1,
              items: { type: "object", minProperties: 1, maxProperties: 1, propertyNames: { pattern: "Delete$" } },
            },
          },
        },
        { type: "object", maxProperties: 0 },
      ],
    };
  }
  if (answer.kind === "any-key") {
    return {
      allOf: [{ $ref: "#/components/schemas/Envelope" }],
      properties: {
        Response: {
          type: "array",
          minItems: 1,
          items: { type: "object", minProperties: 1, maxProperties: 1, additionalProperties: ref(answer.schema) },
        },
      },
      description: "Any single type key whose object has a string status (wire conventions §2).",
    };
  }
  const groups = elementGroups(answer);
  for (const group of groups) elements[elementName(group)] ??= element(group);
  const refs = groups.map((g) => ({ $ref: `#/components/schemas/${elementName(g)}` }));
  const items = refs.length === 1 ? refs[0] : { oneOf: refs };
  const schema: Json = {
    allOf: [{ $ref: `#/components/schemas/${answer.list ? "ListEnvelope" : "Envelope"}` }],
    properties: { Response: { type: "array", ...(answer.list ? {} : { minItems: 1 }), items } },
  };
  if (answer.contains) {
    (schema.allOf as Json[]).push(
      ...answer.contains.map((keys) => ({
        properties: { Response: { contains: { type: "object", anyOf: keys.map((k) => ({ required: [k] })) } } },
      })),
    );
  }
  return schema;
}

function operationId(endpoint: Endpoint, list: boolean): string {
  const words = endpoint.path.split("/").filter((s) => s && s !== "user" && !s.startsWith("{"));
  const verb = { GET: list ? "list" : "read", POST: "create", PUT: "update", DELETE: "delete" }[endpoint.method];
  return verb + words.map(componentName).join("");
}

const PATH_PARAMETERS: Record<string, string> = {
  userID: "The authenticated user's id (from the session-server answer); another user's id is refused with 4XX.",
  itemId: "Id of the item.",
  monetaryAccountId: "Id of one of the user's monetary accounts.",
  oauthClientId: "Id of one of the user's OAuth clients.",
};

/** The specification's header table (Common request rules), with the profile's prefix. */
function headerParameters(prefix: string): Record<string, Json> {
  const header = (name: string, description: string, required = false, schema: Json = { type: "string" }) => ({
    name,
    in: "header",
    required,
    description,
    schema,
  });
  return {
    UserAgent: header("User-Agent", "Describes the client; required on every call, no restriction on the value.", true, {
      type: "string",
      minLength: 1,
    }),
    CacheControl: header("Cache-Control", "Standard header; needed for signed requests."),
    Language: header(
      `${prefix}Language`,
      "ISO 639-1 language, underscore, ISO 3166-1 alpha-2 country. Only en_US and nl_NL are supported; anything else defaults to " +
        "en_US (no error).",
      false,
      { type: "string", examples: ["en_US", "nl_NL"] },
    ),
    Region: header(`${prefix}Region`, "Region of the client device, in the language header's format.", false, {
      type: "string",
      examples: ["nl_NL"],
    }),
    ClientRequestId: header(
      `${prefix}Client-Request-Id`,
      "Id unique for the logged-in user, free format; reusing one on the same registered device is refused with 4XX.",
    ),
    Geolocation: header(
      `${prefix}Geolocation`,
      "longitude latitude altitude radius country (ISO 3166-1 alpha-2); zero-valued when unknown (0 0 0 0 000).",
      false,
      { type: "string", examples: ["4.89 52.37 12 100 NL", "0 0 0 0 000"] },
    ),
  };
}

export interface OpenApiOptions {
  /** Prefix of the service's own headers (default X-Service-). */
  headerPrefix?: string;
}

/** The OpenAPI 3.1 document. */
export function openApiDocument(options: OpenApiOptions = {}): Json {
  const prefix = options.headerPrefix ?? PROFILE_DEFAULTS.headerPrefix;
  const elements: Record<string, Json> = {};
  const paths: Record<string, Json> = {};
  const headerRefs = Object.keys(headerParameters(prefix)).map((name) => ({ $ref: `#/components/parameters/${name}` }));

  for (const endpoint of [...AUTH_ENDPOINTS, ...ENDPOINTS]) {
    const op = endpoint;
    const isList = op.answer.kind === "typed" && op.answer.list === true;
    const pathItem = (paths[endpoint.path] ??= {
      parameters: [
        ...[...endpoint.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
          name,
          in: "path",
          required: true,
          description: PATH_PARAMETERS[name!] ?? "Integer id.",
          schema: { type: "integer" },
        })),
        ...headerRefs,
      ],
    });
    const notes = [
      `Spec section: ${endpoint.section}.`,
      endpoint.capability ? `Only on targets with capabilities.${endpoint.capability}.` : "",
      op.exactly400 ? "Failures answer exactly 400 (spec: Errors)." : "",
    ].filter(Boolean);
    const operation: Json = {
      operationId: operationId(endpoint, isList),
      summary: op.summary,
      description: notes.join(" "),
      tags: [endpoint.section],
      ...(endpoint.deprecated ? { deprecated: true } : {}),
      ...(endpoint.capability ? { "x-conformance-capability": endpoint.capability } : {}),
      ...(op.auth === "none" ? { security: [] } : {}),
      ...(isList ? { parameters: ["Count", "NewerId", "OlderId"].map((name) => ({ $ref: `#/components/parameters/${name}` })) } : {}),
      responses: {
        "200": {
          description: "Success: HTTP 200 with the JSON envelope.",
          headers: { [`${prefix}Client-Request-Id`]: { $ref: "#/components/headers/ClientRequestId" } },
          content: { "application/json": { schema: responseSchema(op.answer, elements) } },
        },
        ...(op.exactly400 ? { "400": { $ref: "#/components/responses/CardError" } } : {}),
        "4XX": { $ref: "#/components/responses/Error" },
      },
    };
    if (op.raw) {
      operation.parameters = [
        {
          name: `${prefix}Attachment-Description`,
          in: "header",
          required: true,
          description: "Description of the attachment (required).",
          schema: { type: "string" },
        },
      ];
      operation.requestBody = {
        required: true,
        description:
          "The raw file, not wrapped in JSON; Content-Type carries its MIME type. PNG, JPEG and GIF must be accepted, PDF may be " +
          "(LENIENT), others are refused.",
        content: Object.fromEntries(
          ["image/png", "image/jpeg", "image/gif", "application/pdf"].map((type) => [
            type,
            { schema: { type: "string", contentMediaType: type } },
          ]),
        ),
      };
    } else if (op.request) {
      operation.requestBody = { required: true, content: { "application/json": { schema: ref(op.request) } } };
    }
    pathItem[endpoint.method.toLowerCase()] = operation;
  }

  const used = [...AUTH_ENDPOINTS, ...ENDPOINTS].flatMap((op) => [
    ...(op.request ? [op.request] : []),
    ...(op.answer.kind === "typed"
      ? op.answer.elements.map(([, schema]) => schema)
      : op.answer.kind === "any-key"
        ? [op.answer.schema]
        : []),
  ]);
  const schemas = { ...payloadSchemas(used), ...elements };
  return {
    openapi: "3.1.0",
    info: {
      title: "Banking Account Management API",
      version: SUITE_VERSION,
      summary: "The API as the conformance suite understands it",
      description:
        `Generated by banking-api-conformance ${SUITE_VERSION} from its endpoint catalogue and JSON Schemas. ` +
        `The specification (${SPEC_VERSION}) governs; its gaps are filled by the suite's wire conventions ` +
        "(envelope, type keys, error body, status codes). Where a convention is LENIENT, the schemas accept every reading.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [
      {
        url: "{baseUrl}",
        description: "The target's base URL, ending in /v1",
        variables: { baseUrl: { default: "http://127.0.0.1:8080/v1" } },
      },
    ],
    security: [{ ClientAuthentication: [] }],
    tags: [...new Set([...AUTH_ENDPOINTS, ...ENDPOINTS].map((e) => e.section))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      parameters: {
        ...headerParameters(prefix),
        Count: {
          name: "count",
          in: "query",
          required: false,
          description: "Page size: default 10, at most 200.",
          schema: { type: "integer", minimum: 1, maximum: 200, default: 10 },
        },
        NewerId: {
          name: "newer_id",
          in: "query",
          required: false,
          description: "Page of items with ids greater than this (as in newer_url and future_url).",
          schema: { type: "integer" },
        },
        OlderId: {
          name: "older_id",
          in: "query",
          required: false,
          description: "Page of items with ids smaller than this (as in older_url).",
          schema: { type: "integer" },
        },
      },
      headers: {
        ClientRequestId: {
          description: `Echo of the request's ${prefix}Client-Request-Id (CONVENTION, wire conventions §3).`,
          schema: { type: "string" },
        },
      },
      responses: {
        Error: {
          description: "Any 4XX: the error body (wire conventions §1).",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        CardError: {
          description: "Card list, read and update failures: exactly 400 with the error body.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
      securitySchemes: {
        ClientAuthentication: {
          type: "apiKey",
          in: "header",
          name: `${prefix}Client-Authentication`,
          description:
            "The installation token on POST /device-server and /session-server; the session token on every other call but POST " +
            "/installation.",
        },
      },
    },
  };
}

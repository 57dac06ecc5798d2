// `conformance openapi`: a valid OpenAPI 3.1 document that names every endpoint the suite knows and
// calls, whose schemas are ours, and whose 200/4XX schemas describe what a conformant server (the clean
// reference) actually answers.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { HttpClient } from "../harness/http/client.js";
import { AUTH_ENDPOINTS, ENDPOINTS } from "../harness/endpoints.js";
import { componentName, openApiDocument } from "../report/openapi.js";
import { createSandboxUser, openSession, postInstallation, postSessionServer, type Session } from "../harness/session/session.js";
import { spawnConformance } from "./support/spawn-run.js";
import { startReferenceServer, type RunningReference } from "../reference/server.js";

type Json = Record<string, unknown>;
const doc = openApiDocument();
const paths = doc.paths as Record<string, Record<string, Json>>;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1, every $ref resolves", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("the validator is not a rubber stamp: a dangling $ref and a path without responses are refused", async () => {
    const broken = structuredClone(doc) as Json & { paths: Record<string, Record<string, Json>> };
    (broken.paths["/user/{userID}/card"]!.get!.responses as Json)["200"] = {
      description: "x",
      content: { "application/json": { schema: { $ref: "#/components/schemas/NoSuchSchema" } } },
    };
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
    const noResponses = structuredClone(doc) as Json & { paths: Record<string, Record<string, Json>> };
    noResponses.paths["/user/{userID}/card"]!.get = { summary: "x", responses: "none" };
    expect((await new Validator().validate(noResponses as never)).valid).toBe(false);
  });

  it("describes every endpoint of the catalogue and the authentication calls, each with its payloads", () => {
    for (const endpoint of [...ENDPOINTS, ...AUTH_ENDPOINTS]) {
      const operation = paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      const responses = operation!.responses as Json;
      expect(Object.keys(responses), `${endpoint.method} ${endpoint.path}`).toEqual(expect.arrayContaining(["200", "4XX"]));
      if (endpoint.body !== undefined || endpoint.raw)
        expect(operation!.requestBody, `${endpoint.method} ${endpoint.path} request body`).toBeDefined();
      if (endpoint.deprecated) expect(operation!.deprecated).toBe(true);
    }
    for (const path of ["/installation", "/sandbox-user-person"]) expect(paths[path]!.post!.security).toEqual([]);
    const ids = Object.values(paths).flatMap((item) =>
      Object.values(item)
        .filter((v) => !Array.isArray(v))
        .map((op) => op.operationId),
    );
    expect(new Set(ids).size, "operationIds are unique").toBe(ids.length);
  });

  it("carries our payload schemas in components/schemas, with no $id and no file $ref left, and none of the tool schemas", () => {
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    const used = readdirSync(join(ROOT, "schemas"))
      .filter((f) => f.endsWith(".schema.json"))
      .map((f) => f.slice(0, -".schema.json".length))
      .filter((name) => !["targets", "requirements", "expectations"].includes(name));
    // Every payload schema is reached from some operation; a new one that is not should be wired into report/openapi.ts.
    expect(
      used.filter((name) => !schemas[componentName(name)]),
      "payload schemas no operation reaches: wire them into report/openapi.ts (or, for a schema of the suite's own files, list it above)",
    ).toEqual([]);
    for (const tool of ["Targets", "Requirements", "Expectations"]) expect(schemas[tool]).toBeUndefined();
    const file = JSON.parse(readFileSync(join(ROOT, "schemas", "card.schema.json"), "utf8")) as Json;
    expect(schemas.Card!.description).toBe(file.description);
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"\$id"/);
    expect(text).not.toMatch(/"\$ref":"(?!#\/components\/)/);
  });

  it("names the service headers with the prefix asked for", async () => {
    const bunq = openApiDocument({ headerPrefix: "X-Bunq-" });
    const components = bunq.components as { parameters: Record<string, Json>; securitySchemes: Record<string, Json> };
    const names = Object.values(components.parameters)
      .filter((p) => p.in === "header")
      .map((p) => p.name as string);
    expect(names).toEqual(
      expect.arrayContaining(["User-Agent", "X-Bunq-Language", "X-Bunq-Region", "X-Bunq-Client-Request-Id", "X-Bunq-Geolocation"]),
    );
    expect(names.some((n) => n.startsWith("X-Service-"))).toBe(false);
    expect(components.securitySchemes.ClientAuthentication!.name).toBe("X-Bunq-Client-Authentication");
    expect(components.parameters.UserAgent!.required).toBe(true);
  });
});

/** Paths a suite requests on purpose although they are no endpoint, to see them refused. */
const DELIBERATE_NON_ENDPOINTS = [
  "/user/{x}/feature-announcement", // ERR-007: there is no list or create endpoint; POST on it must be refused
];

/**
 * Paths the suites send requests to, read from their sources: literals under `t.userPath(session, "…")`,
 * literals and templates starting with /user/, and the top-level authentication paths. `${NAME}` of a
 * string constant of the file is replaced by its value; any other `${…}` is one path segment, or, glued
 * to text (`callback-url${id}` with id "" or "/7"), an optional one. "no-such-…" paths are left out.
 */
function pathsTheSuitesCall(): { suite: string; path: string }[] {
  const found: { suite: string; path: string }[] = [];
  const dir = join(ROOT, "suites");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".test.ts"))) {
    const source = readFileSync(join(dir, file), "utf8");
    const constants = new Map([...source.matchAll(/const (\w+) = ["'`](\/[^"'`$]*)["'`]/g)].map((m) => [m[1]!, m[2]!]));
    const add = (raw: string) => {
      const path = raw
        .replace(/\$\{(\w+)\}/g, (whole, name: string) => constants.get(name) ?? whole)
        .replace(/\$\{[^}]*\}/g, "{x}")
        .replace(/\?.*$/, "");
      if (/no-such/.test(path)) return;
      const variants = /[^/]\{x\}/.test(path) ? [path.replace(/([^/])\{x\}/g, "$1"), path.replace(/([^/])\{x\}/g, "$1/{x}")] : [path];
      for (const variant of variants) found.push({ suite: file, path: variant });
    };
    for (const m of source.matchAll(/userPath\([^,()]+(?:\([^)]*\))?,\s*["'`](\/[^"'`]*)["'`]/g)) add(`/user/{x}${m[1]!}`);
    for (const m of source.matchAll(/["'`](\/user\/[^"'`\s]*)["'`]/g)) add(m[1]!);
    for (const m of source.matchAll(/["'`](\/(?:installation|device-server|session-server|sandbox-user-person))["'`]/g)) add(m[1]!);
  }
  return found;
}

function matchesTemplate(path: string, template: string): boolean {
  const a = path.split("/");
  const b = template.split("/");
  return a.length === b.length && b.every((seg, i) => seg.startsWith("{") || a[i] === seg || a[i] === "{x}");
}

describe("the suites call only endpoints the document describes", () => {
  it("every path a suite sends a request to matches a path of the document", () => {
    const called = pathsTheSuitesCall();
    expect(called.length).toBeGreaterThan(10);
    const templates = Object.keys(paths);
    const unknown = called.filter(
      ({ path }) => !DELIBERATE_NON_ENDPOINTS.includes(path) && !templates.some((t) => matchesTemplate(path, t)),
    );
    expect(unknown, "suite paths missing from the OpenAPI document").toEqual([]);
  });
});

describe("conformance openapi", () => {
  it("writes JSON or YAML to --out and refuses a bad --header-prefix", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-"));
    const json = await spawnConformance(["openapi", "--out", join(dir, "api.json")], { timeoutMs: 60_000 });
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, "api.json"), "utf8")) as Json).openapi).toBe("3.1.0");
    const yaml = await spawnConformance(["openapi", "--out", join(dir, "api.yaml"), "--header-prefix", "X-Bunq-"], { timeoutMs: 60_000 });
    expect(yaml.code, yaml.stderr).toBe(0);
    const parsed = parseYaml(readFileSync(join(dir, "api.yaml"), "utf8")) as Json;
    expect(((parsed.components as Json).securitySchemes as Record<string, Json>).ClientAuthentication!.name).toBe(
      "X-Bunq-Client-Authentication",
    );
    expect((await new Validator().validate(parsed as never)).valid).toBe(true);
    // On stdout the whole document arrives, though the CLI exits right after writing it.
    const piped = await spawnConformance(["openapi"], { timeoutMs: 60_000 });
    expect(piped.stdout.length).toBeGreaterThan(65_536);
    expect(JSON.parse(piped.stdout)).toEqual(JSON.parse(readFileSync(join(dir, "api.json"), "utf8")));
    rmSync(dir, { recursive: true, force: true });
    const bad = await spawnConformance(["openapi", "--header-prefix", "X-Bunq"], { timeoutMs: 60_000 });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  });
});

// What the clean reference answers must fit the document: it is the API "as the suite understands it".
describe("the document describes the clean reference's answers", () => {
  const Ajv2020 = Ajv2020Module.default;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormatsModule.default(ajv);
  ajv.addSchema({ $id: "https://openapi.test/doc", components: doc.components } as never);
  let server: RunningReference;
  let client: HttpClient;
  let session: Session;
  let checks = 0;

  beforeAll(async () => {
    server = await startReferenceServer({});
    client = new HttpClient({
      baseUrl: server.baseUrl,
      headerPrefix: "X-Service-",
      userAgent: "openapi-selftest",
      requestMs: 10_000,
      maxResponseBytes: 5 * 1024 * 1024,
    });
    session = await openSession(client, { apiKey: server.apiKey });
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  function check(method: string, template: string, status: string, body: unknown): void {
    const problem = mismatch(method, template, status, body);
    expect(problem, `${method} ${template} ${status}: ${problem}\n${JSON.stringify(body).slice(0, 500)}`).toBeUndefined();
  }
  /** Why the body does not fit the document's schema for that answer; undefined when it fits. */
  function mismatch(method: string, template: string, status: string, body: unknown): string | undefined {
    const responses = paths[template]![method.toLowerCase()]!.responses as Record<string, Json>;
    let response = responses[status]!;
    if (typeof response.$ref === "string")
      response = ((doc.components as Json).responses as Record<string, Json>)[response.$ref.split("/").pop()!]!;
    const schema = ((response.content as Json)["application/json"] as Json).schema as Json;
    const validate = ajv.compile({ $id: `https://openapi.test/check/${checks++}`, ...rewrite(schema) });
    return validate(body) ? undefined : ajv.errorsText(validate.errors);
  }
  // The operation schemas point at "#/components/…" of the document; here that document is https://openapi.test/doc.
  const rewrite = (node: Json): Json =>
    JSON.parse(JSON.stringify(node).replace(/"#\/components\//g, '"https://openapi.test/doc#/components/')) as Json;

  it("the schemas refuse answers of the wrong shape", () => {
    expect(
      mismatch("GET", "/user/{userID}/card", "200", {
        Response: [{ UserCompany: { id: 1 } }],
        Pagination: { future_url: null, newer_url: null, older_url: null },
      }),
    ).toBeDefined();
    expect(mismatch("GET", "/user/{userID}/card", "200", { Response: [] })).toBeDefined();
    expect(
      mismatch("GET", "/user/{userID}/card/{itemId}", "200", {
        Response: [{ Card: { id: "7", status: "ACTIVE", order_status: "DELIVERED_TO_CUSTOMER" } }],
      }),
    ).toBeDefined();
    expect(
      mismatch("PUT", "/user/{userID}/card/{itemId}", "200", {
        Response: [{ Card: { id: 7, status: "ACTIVE", order_status: "DELIVERED_TO_CUSTOMER", pin_code: "1234" } }],
      }),
    ).toBeDefined();
    expect(mismatch("GET", "/user/{userID}/card/{itemId}", "400", { message: "no" })).toBeDefined();
    expect(mismatch("POST", "/installation", "200", { Response: [{ Id: { id: 1 } }, { Token: { token: "t" } }] })).toBeDefined();
  });

  it("authentication answers and the test-user answer", async () => {
    const installation = await postInstallation(client);
    check("POST", "/installation", "200", installation.exchange.json);
    check("POST", "/sandbox-user-person", "200", (await createSandboxUser(client)).exchange.json);
    const sessionServer = await postSessionServer(client, { token: session.installationToken, apiKey: server.apiKey });
    check("POST", "/session-server", "200", sessionServer.exchange.json);
  });

  it("every list, every item read of a listed or fixture id, a create, and the 4XX error bodies", async () => {
    const fixtures = server.fixtures as {
      monetaryAccountId?: number;
      oauthClientId?: number;
      challengeRequestIds?: number[];
      featureAnnouncementIds?: number[];
    };
    const fill = (template: string, itemId?: number) =>
      template
        .replace("{userID}", String(session.userId))
        .replace("{monetaryAccountId}", String(fixtures.monetaryAccountId))
        .replace("{oauthClientId}", String(fixtures.oauthClientId))
        .replace("{itemId}", String(itemId));
    const get = (path: string) => client.request({ path, token: session.sessionToken });
    let checked = 0;
    const firstIds = new Map<string, number>();
    for (const endpoint of ENDPOINTS.filter((e) => e.method === "GET" && !e.path.endsWith("{itemId}"))) {
      const exchange = await get(fill(endpoint.path));
      expect(exchange.status, `GET ${endpoint.path}`).toBe(200);
      check("GET", endpoint.path, "200", exchange.json);
      checked++;
      const first = ((exchange.json as { Response: Record<string, { id?: number }>[] }).Response[0] ?? {}) as Record<
        string,
        { id?: number }
      >;
      const id = Object.values(first)[0]?.id;
      if (typeof id === "number") firstIds.set(`${endpoint.path}/{itemId}`, id);
    }
    firstIds.set("/user/{userID}/challenge-request/{itemId}", fixtures.challengeRequestIds![0]!);
    firstIds.set("/user/{userID}/feature-announcement/{itemId}", fixtures.featureAnnouncementIds![0]!);
    for (const [template, id] of firstIds) {
      const exchange = await get(fill(template, id));
      expect(exchange.status, `GET ${template}`).toBe(200);
      check("GET", template, "200", exchange.json);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(12);

    const company = ENDPOINTS.find((e) => e.method === "POST" && e.path === "/user/{userID}/company")!;
    const created = await client.request({ method: "POST", path: fill(company.path), token: session.sessionToken, json: company.body });
    check("POST", company.path, "200", created.json);
    const missing = await get(fill("/user/{userID}/card/{itemId}", 987654321));
    expect(missing.status).toBe(400);
    check("GET", "/user/{userID}/card/{itemId}", "400", missing.json);
    const refused = await client.request({ path: fill("/user/{userID}/company"), token: null });
    check("GET", "/user/{userID}/company", "4XX", refused.json);
  });
});

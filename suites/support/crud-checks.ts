// Checks shared by the callback-url, share-invite and iDEAL suites: the LENIENT update and delete
// answers of wire conventions §1, walking a whole list, and looking for a write-only field.
import { expect4xx, expectErrorBody, expectOk, expectSchema, fail, failPlain, type About } from "../../harness/checks.js";
import type { HttpClient } from "../../harness/http/client.js";
import { objectsOfType, paginationOf, responseItems, typeKeyOf } from "../../harness/envelope.js";
import type { LenientLog } from "../../harness/lenient.js";
import type { Exchange } from "../../harness/http/exchange.js";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Refused where the requirement says only "4XX": the status is the requirement's, the error body is
 * ERR-001's (spec: Errors), so each failure blames the rule it breaks.
 */
export function expect4xxAndErrorBody(exchange: Exchange, about: About): void {
  expect4xx(exchange, about);
  expectErrorBody(exchange, { ...about, req: "ERR-001" });
}

/**
 * A PUT answer (conventions §1, LENIENT): HTTP 200 with `Id`, or with the updated object under its
 * type key (valid against `schema`); strict requires `Id`. Returns the object when one was answered.
 */
export function expectUpdateAnswer(
  exchange: Exchange,
  typeKey: string,
  schema: string,
  about: About,
  strict: boolean,
): Record<string, unknown> | undefined {
  expectOk(exchange, about);
  const id = objectsOfType(exchange.json, "Id")[0];
  if (id) {
    expectSchema(id, "id", about, exchange);
    return undefined;
  }
  if (strict) fail(about, exchange, "an Id element (strict: the first reading of conventions §1)");
  const object = objectsOfType(exchange.json, typeKey)[0];
  if (!object) fail(about, exchange, `an Id element or the updated object under ${typeKey} (conventions §1)`);
  expectSchema(object, schema, about, exchange);
  return object;
}

/**
 * A DELETE answer (conventions §1, LENIENT): HTTP 200 with {"Response": []}; also accepted: an empty
 * object {} or a single {"<Type>Delete": {...}} element. Strict requires {"Response": []}.
 */
export function expectDeleteAnswer(exchange: Exchange, typeKey: string, about: About, strict: boolean): void {
  const readings = strict ? '{"Response": []} (strict)' : `{"Response": []}, {} or {"Response": [{"${typeKey}Delete": {}}]}`;
  if (exchange.status !== 200) fail(about, exchange, `HTTP 200 with ${readings}`);
  // "Successful responses are HTTP 200 with application/json": whichever body a DELETE answers, it is labelled JSON.
  const contentType = exchange.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(contentType)) fail(about, exchange, `Content-Type application/json`, `Content-Type "${contentType}"`);
  const body = exchange.json;
  const items = responseItems(body);
  const first = items?.[0];
  const accepted =
    (items !== undefined && items.length === 0) ||
    (!strict && isObject(body) && Object.keys(body).length === 0) ||
    (!strict &&
      items?.length === 1 &&
      typeKeyOf(first) === `${typeKey}Delete` &&
      isObject((first as Record<string, unknown>)[`${typeKey}Delete`]));
  if (!accepted) fail(about, exchange, readings);
}

export interface ListWalk {
  /** Inner objects of every element of every page, in the order the pages came. */
  objects: Record<string, unknown>[];
  pages: Exchange[];
}

/**
 * Every item of a list: the newest page with count 200, then older_url until it is null (conventions §5).
 * Every element must sit under one of `typeKeys`.
 */
export async function listAll(
  client: HttpClient,
  options: { path: string; token: string; from?: string | undefined; typeKeys: string[] },
  about: About,
  maxPages = 50,
): Promise<ListWalk> {
  const objects: Record<string, unknown>[] = [];
  const pages: Exchange[] = [];
  const seen = new Set<string>();
  let next: string | null = options.path;
  let query: Record<string, number> | undefined = { count: 200 };
  while (next !== null) {
    if (pages.length >= maxPages)
      failPlain(about, `GET ${options.path} and its older_url links: expected older_url null within ${maxPages} pages, got more`);
    if (seen.has(next))
      failPlain(about, `GET ${options.path} and its older_url links: expected each page once, got older_url ${next} a second time`);
    seen.add(next);
    const exchange = await client.request({
      path: next,
      token: options.token,
      ...(query ? { query } : {}),
      ...(options.from ? { from: options.from } : {}),
    });
    pages.push(exchange);
    const items = expectOk(exchange, about);
    for (const [index, item] of items.entries()) {
      const key = typeKeyOf(item)!;
      if (!options.typeKeys.includes(key))
        fail(about, exchange, `every element under ${options.typeKeys.join(" or ")}`, `element ${index} under ${key}`);
      objects.push(item[key] as Record<string, unknown>);
    }
    const older = paginationOf(exchange.json)?.older_url;
    next = typeof older === "string" ? older : null;
    query = undefined;
  }
  return { objects, pages };
}

/** Where a key occurs anywhere in a JSON value ("Response[0].Share.card_id"), or undefined. */
export function findKey(value: unknown, key: string, at = ""): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, entry] of value.entries()) {
      const found = findKey(entry, key, `${at}[${index}]`);
      if (found) return found;
    }
  } else if (isObject(value)) {
    for (const [name, entry] of Object.entries(value)) {
      const path = at === "" ? name : `${at}.${name}`;
      if (name === key) return path;
      const found = findKey(entry, key, path);
      if (found) return found;
    }
  }
  return undefined;
}

/** Item ids of a list or read answer, for "never the other user's data" checks. */
export function idsIn(body: unknown): number[] {
  return (responseItems(body) ?? [])
    .flatMap((item) => Object.values(item))
    .map((inner) => (isObject(inner) ? inner.id : undefined))
    .filter((id): id is number => typeof id === "number");
}

/**
 * A malformed JSON body answered 2XX: a reading no sentence forbids (blind round 4: both readers OPEN, ERR-005 LENIENT), noted;
 * strict requires a 4XX refusal. Whether it was noted (else the caller judges the refusal).
 */
export function notedMalformedTaken(exchange: Exchange, about: About, log: LenientLog): boolean {
  if (exchange.status < 200 || exchange.status >= 300) return false;
  log.note(about, "a malformed JSON body was answered 2XX", "a 4XX refusal with an error body");
  return true;
}

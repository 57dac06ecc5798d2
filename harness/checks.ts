import { responseItems, typeKeyOf, objectsOfType } from "./envelope.js";
import { describeRequest, describeResponse, type Exchange } from "./http/exchange.js";
import { redactText } from "./redact.js";
import { validateSchema } from "./schemas.js";

/**
 * Small named checks in the spirit of schemathesis: each throws a CheckFailure whose message says
 * the requirement, what was sent, what was expected and what came back, e.g.
 * "AUTH-004: GET /v1/user/1/card without X-Service-Client-Authentication: expected 4XX with an error body, got 200 {…}".
 */
export class CheckFailure extends Error {
  override readonly name = "CheckFailure";
}

export interface About {
  /** The requirement this check proves. */
  req: string;
  /** How the request was special, e.g. "without User-Agent". */
  what?: string;
}

export function fail(about: About, exchange: Exchange, expected: string, got?: string): never {
  const sent = `${describeRequest(exchange.request)}${about.what ? ` ${about.what}` : ""}`;
  throw new CheckFailure(redactText(`${about.req}: ${sent}: expected ${expected}, got ${got ?? describeResponse(exchange)}`));
}

/** A check on something other than one exchange (a sequence, a comparison of two answers). */
export function failPlain(about: About, message: string): never {
  throw new CheckFailure(redactText(`${about.req}: ${about.what ? `${about.what}: ` : ""}${message}`));
}

export function expectStatus(exchange: Exchange, status: number, about: About): void {
  if (exchange.status !== status) fail(about, exchange, `HTTP ${status}`);
}

export function expect4xx(exchange: Exchange, about: About): void {
  if (exchange.status < 400 || exchange.status > 499) fail(about, exchange, "a 4XX status");
}

export function expectNot5xx(exchange: Exchange, about: About): void {
  if (exchange.status >= 500) fail(about, exchange, "no 5XX (a server error is never a conformant answer)");
}

/** The body is the error envelope of wire conventions §1 (schemas/error.schema.json). */
export function expectErrorBody(exchange: Exchange, about: About): void {
  if (exchange.json === undefined) fail(about, exchange, 'an error body {"Error":[{"error_description", "error_description_translated"}]}');
  const result = validateSchema("error", exchange.json);
  if (!result.valid) fail(about, exchange, `an error body valid against error.schema.json (${result.errors.join("; ")})`);
}

/** Refused: a 4XX status with an error body (spec: Errors; conventions §1, §6). */
export function expectRefused(exchange: Exchange, about: About): void {
  if (exchange.status < 400 || exchange.status > 499) fail(about, exchange, "a 4XX status with an error body");
  expectErrorBody(exchange, about);
}

/** Success: HTTP 200, JSON, {"Response":[…]} whose elements each have exactly one type key (conventions §1). */
export function expectOk(exchange: Exchange, about: About): Record<string, unknown>[] {
  if (exchange.status !== 200) fail(about, exchange, "HTTP 200");
  const contentType = exchange.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(contentType)) fail(about, exchange, "Content-Type application/json", `Content-Type "${contentType}"`);
  const items = responseItems(exchange.json);
  if (!items) fail(about, exchange, 'a body {"Response":[…]}');
  const bad = items.findIndex((item) => typeKeyOf(item) === undefined);
  if (bad >= 0)
    fail(
      about,
      exchange,
      "every Response element to be an object with exactly one type key",
      `element ${bad}: ${JSON.stringify(items[bad])}`,
    );
  return items;
}

/** The inner objects under one of the type keys; at least `min` of them. */
export function expectObjects(exchange: Exchange, types: string[], about: About, min = 1): Record<string, unknown>[] {
  const found = objectsOfType(exchange.json, ...types);
  if (found.length < min)
    fail(about, exchange, `${min === 1 ? "a" : `at least ${min}`} Response element${min === 1 ? "" : "s"} of type ${types.join(" or ")}`);
  return found;
}

/** A value is valid against schemas/<schema>.schema.json. */
export function expectSchema(value: unknown, schema: string, about: About, exchange?: Exchange): void {
  // Answers: the specification gives types, not presence, so a member sent as null reads as one left out.
  const result = validateSchema(schema, value, { nullAsUnset: true });
  if (result.valid) return;
  const expected = `a value valid against ${schema}.schema.json`;
  const got = `${result.errors.slice(0, 5).join("; ")} in ${JSON.stringify(value).slice(0, 300)}`;
  if (exchange) fail(about, exchange, expected, got);
  failPlain(about, `expected ${expected}, got ${got}`);
}

/** A generic condition on one exchange. */
export function expectThat(condition: boolean, exchange: Exchange, expected: string, about: About, got?: string): asserts condition {
  if (!condition) fail(about, exchange, expected, got);
}

import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { VariantName } from "../faults/catalogue.js";
import { VARIANTS } from "../faults/variants.js";
import type { ReferenceContext } from "./module.js";

/** The type key of a DELETE answer, from the path: /user/1/certificate-pinned/5 → CertificatePinnedDelete. */
function deleteTypeKey(url: string): string {
  const parts = url.split("?")[0]!.split("/").filter(Boolean);
  const resource = parts[parts.length - 2] ?? "Item";
  const pascal = resource
    .split("-")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
  return `${pascal === "CallbackUrl" ? "OauthCallbackUrl" : pascal}Delete`;
}

function isJsonText(reply: FastifyReply, payload: unknown): payload is string {
  return typeof payload === "string" && /^application\/json/i.test(String(reply.getHeader("content-type") ?? ""));
}

/** Adds a vendor field to every object of an answer (never inside Pagination or an Id: those are fixed). */
function withExtraFields(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withExtraFields(v));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withExtraFields(v, k)]);
  const fixed = key === undefined || key === "Pagination" || key === "Id" || key === "Response" || key === "Error";
  return Object.fromEntries(fixed ? entries : [...entries, ["vendor_extension", { note: "a field the specification does not list" }]]);
}

/** GAP-72: fields the tables list but never promise present, left out. */
function sparse(body: { Response?: Record<string, Record<string, unknown>>[] }): unknown {
  for (const item of body.Response ?? []) {
    const announcement = item.FeatureAnnouncement;
    if (announcement) for (const field of ["sub_title", "type", "avatar"]) delete announcement[field];
    const attachment = item.AttachmentUser;
    if (attachment) {
      for (const field of ["created", "updated"]) delete attachment[field];
      delete (attachment.attachment as Record<string, unknown> | undefined)?.urls;
    }
  }
  return body;
}

/** A pagination link's query under the link variants: count always there, and/or the cursor first. */
function links(query: string, on: (name: VariantName) => boolean): string {
  const params = new URLSearchParams(query);
  if (on("page-links-always-count") && !params.has("count")) params.set("count", "10");
  const entries = [...params.entries()];
  if (on("page-links-params-swapped")) entries.sort(([a], [b]) => (a === "count" ? 1 : 0) - (b === "count" ? 1 : 0));
  return entries.map(([k, v]) => `${k}=${v}`).join("&");
}

const PROVIDER_TIME = /"(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}\.\d{6})"/g;
const PUT_AS_OBJECT = /^\/v1\/user\/\d+\/(company|share-invite-monetary-account-response|oauth-client\/\d+\/callback-url)\/\d+$/;

/** A route that reads one item: its path ends in an id parameter. The card's is left out (CARD-009: exactly 400). */
const ITEM_ROUTE = /\/:[A-Za-z]+$/;
const CARD_ITEM_ROUTE = /\/card\/:[A-Za-z]+$/;

/**
 * Variant unknown-item-read-empty (ERR-014, LENIENT): the caller's own GET of an item id nobody was ever handed
 * (below 1, or beyond every id issued) was refused as not found; it is answered 200 with an empty Response instead.
 * Refusals of the token, the address or another user's path come before a session is set, or name another user.
 */
function unknownItemRead(ctx: ReferenceContext, request: FastifyRequest, reply: FastifyReply): boolean {
  const route = request.routeOptions.url ?? "";
  if (request.method !== "GET" || reply.statusCode < 400 || reply.statusCode >= 500) return false;
  if (!ITEM_ROUTE.test(route) || CARD_ITEM_ROUTE.test(route)) return false;
  const segments = request.url.split("?")[0]!.split("/");
  if (request.session === undefined || segments[3] !== String(request.session.userId)) return false;
  const id = Number(segments[segments.length - 1]);
  return Number.isInteger(id) && (id < 1 || id > ctx.state.lastId);
}

/** Body rewrites, before signing (a signed answer is signed as sent). */
export function registerVariants(app: FastifyInstance, ctx: ReferenceContext): void {
  const on = (name: VariantName) => ctx.variants.on(name);
  if (on("unknown-item-read-empty")) {
    app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (!unknownItemRead(ctx, request, reply)) return payload;
      reply.code(200).type("application/json");
      return JSON.stringify({ Response: [] });
    });
  }
  if (!VARIANTS.some((v) => on(v.name))) return;
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!isJsonText(reply, payload)) return payload;
    let text = payload;
    const ok = reply.statusCode === 200;
    if (on("put-answers-object") && ok && request.method === "PUT" && PUT_AS_OBJECT.test(request.url.split("?")[0]!)) {
      // Read the item back as the caller would; a fresh request id, the caller's address and token.
      const headers = { ...request.headers };
      delete headers[ctx.header("Client-Request-Id").toLowerCase()];
      delete headers["content-type"];
      delete headers["content-length"];
      const read = await app.inject({ method: "GET", url: request.url, headers, remoteAddress: request.callerIp });
      if (read.statusCode === 200) text = read.payload;
    }
    if (ok && request.method === "DELETE" && text.replace(/\s/g, "") === '{"Response":[]}') {
      if (on("delete-answers-empty-object")) text = "{}";
      else if (on("delete-answers-typed-element")) text = JSON.stringify({ Response: [{ [deleteTypeKey(request.url)]: {} }] });
    }
    if (on("sparse-optional-fields") && ok && request.method === "GET") text = JSON.stringify(sparse(JSON.parse(text)));
    if (
      on("auth-elements-reordered") &&
      ok &&
      request.method === "POST" &&
      /\/(installation|session-server)$/.test(request.url.split("?")[0]!)
    ) {
      const body = JSON.parse(text) as { Response: Record<string, unknown>[] };
      const token = body.Response.findIndex((item) => "Token" in item);
      if (token > 0) body.Response.unshift(...body.Response.splice(token, 1));
      body.Response.reverse();
      text = JSON.stringify(body);
    }
    if (on("page-links-always-count") || on("page-links-params-swapped"))
      text = text.replace(/"(\/v1\/[^"?]+)\?([^"]*)"/g, (_m, path: string, query: string) => `"${path}?${links(query, on)}"`);
    if (on("card-type-key-debit")) text = text.replace(/\{"Card":/g, '{"CardDebit":');
    if (on("timestamps-iso-8601")) text = text.replace(PROVIDER_TIME, '"$1T$2Z"');
    if (on("extra-fields")) text = JSON.stringify(withExtraFields(JSON.parse(text)));
    if (on("json-pretty")) text = JSON.stringify(JSON.parse(text), null, 2);
    if (on("attachment-read-typed") && ok && request.method === "GET" && /\/attachment\/\d+$/.test(request.url.split("?")[0]!)) {
      const type = /"content_type":"([^"]+)"/.exec(text)?.[1];
      if (type) reply.header("content-type", type);
    }
    return text;
  });
}

/** Transport variants, after signing (they change how the bytes travel, not which bytes). */
export function registerTransportVariants(app: FastifyInstance, ctx: ReferenceContext): void {
  const on = (name: VariantName) => ctx.variants.on(name);
  if (!ctx.variants.any("extra-fields", "json-charset", "chunked-answers", "connection-close")) return;
  app.addHook("onSend", async (_request, reply, payload) => {
    if (on("extra-fields")) reply.header("x-vendor-trace", "0af7651916cd43dd8448eb211c80319c");
    if (on("json-charset") && /^application\/json$/i.test(String(reply.getHeader("content-type") ?? "")))
      reply.header("content-type", "application/json; charset=utf-8");
    if (on("connection-close")) reply.header("connection", "close");
    if (on("chunked-answers") && (typeof payload === "string" || Buffer.isBuffer(payload))) {
      reply.removeHeader("content-length");
      const bytes = Buffer.from(payload);
      const half = Math.floor(bytes.length / 2);
      return Readable.from([bytes.subarray(0, half), bytes.subarray(half)]);
    }
    return payload;
  });
}

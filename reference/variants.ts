import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { VariantName } from "./faults/catalogue.js";
import type { ReferenceContext } from "./module.js";
import type { VariantSpec } from "./faults/variant-spec.js";
import { VARIANT_SCOPE } from "./faults/variant-spec.js";

export type { VariantSpec } from "./faults/variant-spec.js";

/**
 * Cross-cutting legal variants (envelope, pagination, transport; what a variant is: variant-spec.ts). A resource
 * module declares its own `<RESOURCE>_VARIANTS` beside its faults; catalogue.ts joins the lists. They are
 * switched with ctx.variants.on(name).
 */
export const VARIANTS = [
  {
    name: "ids-large",
    description: "Ids start just below 2^31 and pass it during a run.",
    allowedBy: "Resources: ids are integers, no range is given",
  },
  {
    name: "ids-per-user",
    description: "Each user's items are numbered from 1, so two users hold items with the same id.",
    allowedBy: "GAP-70",
  },
  {
    name: "challenge-fields-minimal",
    suites: VARIANT_SCOPE.challenges,
    description: "A challenge request is answered as {id, status} only.",
    allowedBy: "GAP-06, conventions §2",
  },
  {
    name: "announcements-same-for-everyone",
    suites: VARIANT_SCOPE.announcements,
    description: "Every user gets the same announcements, identical to the byte (one shared avatar per announcement).",
    allowedBy: "GAP-70 (every user may get the same announcements)",
  },
  {
    name: "tokens-base64url",
    description: "Tokens are 43 base64url characters instead of 64 hex digits.",
    allowedBy: "conventions §4 (a token is a string)",
  },
  {
    name: "session-user-api-key",
    description: "POST /session-server answers the user as UserApiKey instead of UserPerson.",
    allowedBy: "conventions §4",
  },
  {
    name: "other-4xx-statuses",
    description: "Refusals whose status the specification does not fix use other 4XX codes (422, 403, 404, 410).",
    allowedBy: "conventions §6",
    requirements: ["ERR-005", "ERR-006", "ERR-007", "ERR-014"],
  },
  {
    name: "4xx-per-endpoint",
    description:
      "Refusal statuses differ per endpoint and reason: an unknown id is 404 on companies, 410 on certificates and callback URLs, 403 on share invites and announcements; a bad body 422 (409 on share invites); an unknown method on a known path 405 with Allow; a non-integer path id and another user's userID 404.",
    allowedBy: "conventions §6 (any 4XX where the specification fixes none)",
    requirements: ["ERR-005", "ERR-006", "ERR-007", "ERR-014"],
  },
  {
    name: "4xx-per-endpoint-mirror",
    description:
      "Other statuses per endpoint: an unknown id is 400 on companies, callback URLs and challenge requests, 410 on attachments; a bad callback-URL or iDEAL body 422; a non-integer path id 422; another user's userID 401; an unknown path 400 and an unknown method 404.",
    allowedBy: "conventions §6 (any 4XX where the specification fixes none)",
    requirements: ["ERR-005", "ERR-006", "ERR-007", "ERR-014"],
  },
  {
    name: "errors-two-elements",
    description: "Error bodies carry two elements, the second with more detail.",
    allowedBy: "conventions §1 (at least one element)",
  },
  {
    name: "extra-fields",
    description: "Every object in an answer carries an extra field, and answers carry an extra header.",
    allowedBy: "schemas: servers may add fields",
  },
  {
    name: "card-type-key-debit",
    suites: VARIANT_SCOPE.cards,
    description: "Cards are answered under the type key CardDebit.",
    allowedBy: "conventions §2",
    requirements: ["CARD-003"],
  },
  {
    name: "timestamps-iso-8601",
    description: "Timestamps are ISO 8601 (2026-11-22T07:38:35.106000Z) instead of the provider's form.",
    allowedBy: "conventions §2 (form checked only with strict)",
    requirements: ["ERR-013"],
  },
  {
    name: "pages-descending",
    description: "Items within a page descend by id (the provider's order).",
    allowedBy: "conventions §5 (LENIENT)",
    requirements: ["PAGE-019"],
  },
  {
    name: "count-over-200-clamped",
    description: "A count above 200 answers at most 200 items instead of a 4XX.",
    allowedBy: "conventions §5 (LENIENT)",
    requirements: ["PAGE-006"],
  },
  { name: "future-url-null", description: "future_url is always null.", allowedBy: "conventions §5 (LENIENT)", requirements: ["PAGE-017"] },
  {
    name: "future-url-every-page",
    description: "Every non-empty page carries future_url with newer_id = the page's greatest id.",
    allowedBy: "conventions §5 (LENIENT)",
    requirements: ["PAGE-017"],
  },
  {
    name: "share-answered-moves-refused",
    suites: VARIANT_SCOPE.shares,
    description: "A share already answered (REJECTED, REVOKED) cannot be moved again, nor an ACTIVE one rejected: 400.",
    allowedBy: "GAP-71",
  },
  {
    name: "sparse-optional-fields",
    suites: VARIANT_SCOPE.announcementsAndAttachments,
    description: "Announcements carry only their title; attachments leave out created, updated and urls.",
    allowedBy: "GAP-72",
  },
  {
    name: "put-answers-object",
    description: "PUT on a company, share invite or callback URL answers the updated object instead of its Id.",
    allowedBy: "conventions §1 (LENIENT)",
    requirements: ["ERR-011"],
  },
  {
    name: "delete-answers-empty-object",
    description: 'DELETE answers {} instead of {"Response": []}.',
    allowedBy: "conventions §1 (LENIENT)",
    requirements: ["ERR-010"],
  },
  {
    name: "delete-answers-typed-element",
    description: 'DELETE answers {"Response": [{"<Type>Delete": {}}]}.',
    allowedBy: "conventions §1 (LENIENT); spec: OauthCallbackUrlDelete",
    requirements: ["ERR-010"],
  },
  {
    name: "attachment-read-typed",
    suites: VARIANT_SCOPE.attachments,
    description: "GET of an attachment labels its JSON answer with the attachment's own content type.",
    allowedBy: "conventions §7 (LENIENT)",
    requirements: ["ATT-007"],
  },
  {
    name: "auth-elements-reordered",
    description: "POST /installation and /session-server list their Response elements in another order (Token first).",
    allowedBy: "conventions §4 (elements are found by type key)",
  },
  {
    name: "page-links-always-count",
    description: "Pagination links carry count=10 even when the request sent no count.",
    allowedBy: "conventions §5 (links keep count when sent; more is not forbidden)",
  },
  {
    name: "page-links-params-swapped",
    description: "Pagination links put the cursor before count (?older_id=5&count=3).",
    allowedBy: "RFC 3986 (query parameter order carries no meaning here)",
  },
  {
    name: "json-pretty",
    description: "JSON answers are pretty-printed (indented, one field per line).",
    allowedBy: "RFC 8259 (insignificant whitespace)",
  },
  {
    name: "json-charset",
    description: "JSON answers are labelled application/json; charset=utf-8.",
    allowedBy: "RFC 8259 (a media type parameter)",
  },
  { name: "chunked-answers", description: "Answers are streamed (Transfer-Encoding: chunked, no Content-Length).", allowedBy: "HTTP/1.1" },
  {
    name: "primary-without-cards",
    description: "The primary user holds no card (the target's fixtures give none).",
    allowedBy: "GAP-01 (fixture missing: not run, never failed)",
  },
  {
    name: "error-text-names-request",
    description: "Error texts end with the request's Client-Request-Id (a trace reference), in every language.",
    allowedBy: "conventions §1 (error_description is a string), §3 (translated equals the en_US text)",
  },
  {
    name: "card-read-arrays-sorted",
    suites: VARIANT_SCOPE.cards,
    description: "GET /card/{id} answers country_permission sorted by country; the list keeps insertion order (cards carry NL and BE).",
    allowedBy: "spec: country_permission is an array; no order is given",
  },
  {
    name: "replace-issues-new-card",
    suites: VARIANT_SCOPE.replacement,
    description:
      "A replacement is a new card (new id, new number, same expiry); replace answers the new card's Id, batch lists the ids sent.",
    allowedBy: "GAP-29 (old or new card's id is open); conventions §7",
  },
  {
    name: "card-country-permission-merged",
    suites: VARIANT_SCOPE.cards,
    description: "PUT country_permission grants the countries sent in addition to those the card has.",
    allowedBy: "GAP-26 (field semantics not listed)",
    requirements: ["CARD-026"],
  },
  {
    name: "card-fallback-null",
    suites: VARIANT_SCOPE.cards,
    description: "A card without a fallback shows monetary_account_id_fallback: null instead of leaving it out.",
    allowedBy: "GAP-27 (removed reads as absent or null); CARD-022",
  },
  {
    name: "company-provider-body-rules",
    suites: VARIANT_SCOPE.companies,
    description:
      "POST company without address_main and address_postal (the provider's rule), or with a subscription_type other than COMPANY_V2 (a closed list), is refused with 400.",
    allowedBy: "GAP-65 (allowed values not shown); COMP-008 (LENIENT)",
    requirements: ["COMP-008"],
  },
  {
    name: "ids-per-user-per-resource",
    description:
      "Each user's items are numbered from 1 in each resource (company 1, certificate 1, ...), and every user's monetary accounts are 1 and 2.",
    allowedBy: "GAP-70",
  },
  {
    name: "sandbox-data-varies",
    description: "The second user created holds 18 companies instead of 12 (users' data differ).",
    allowedBy: "conventions §4 (fresh data; contents not fixed)",
  },
  { name: "connection-close", description: "Every answer closes its connection (no keep-alive).", allowedBy: "HTTP/1.1" },
] as const satisfies readonly VariantSpec[];

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

/** Body rewrites, before signing (a signed answer is signed as sent). */
export function registerVariants(app: FastifyInstance, ctx: ReferenceContext): void {
  const on = (name: VariantName) => ctx.variants.on(name);
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

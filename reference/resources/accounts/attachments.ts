// The routes read as the specification; every fault and variant of this file hooks in through a named seam below them.
import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { badRequest, HttpError } from "../../http-error.js";
import { intParam, pathUser, sendId, sendItems, type ReferenceContext, type ResourceModule } from "../../module.js";
import type { Collection } from "../../state.js";
import { timestamp, zoneOffsetMs } from "../../time.js";
import { invalidBody, notTheirs } from "../refusals.js";
import type { FaultName } from "../../../faults/catalogue.js";

const ATTACHMENT_TYPE_KEY = "AttachmentUser";

interface AttachmentRecord {
  id: number;
  created: string;
  updated: string;
  description: string;
  contentType: string;
  monetaryAccountId: number;
  uuid: string;
  bytes: Buffer;
}

/**
 * The accepted types (wire conventions §7: png, jpeg and gif MUST; pdf is LENIENT and this server takes it),
 * each with its magic number. The specification does not say what a body that is not of its declared type
 * does (spec/gaps.md GAP-22); this server refuses it, as it refuses an empty body.
 */
const ACCEPTED: Record<string, (bytes: Buffer) => boolean> = {
  "image/png": (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/gif": (b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString("latin1")),
  "application/pdf": (b) => b.subarray(0, 5).toString("latin1") === "%PDF-",
};

/** The media type of a Content-Type header, lower-cased and without parameters. */
function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The read form: the description and content type as uploaded, urls an array of {type, url} (ATT-005, ATT-006). */
function view(record: AttachmentRecord, ctx: ReferenceContext, sessionToken?: string): Record<string, unknown> {
  // The specification shows no download endpoint; the url names the file without pretending to serve it.
  const url = downloadUrl(ctx, `https://attachments.reference.invalid/${record.uuid}`, sessionToken);
  return {
    id: record.id,
    created: record.created,
    updated: record.updated,
    attachment: {
      description: htmlEscaped(
        ctx,
        ctx.faults.on("attachment-description-truncated") ? record.description.slice(0, 30) : record.description,
      ),
      content_type: ctx.faults.on("attachment-content-type-not-stored")
        ? "application/octet-stream"
        : shownContentType(ctx, record.contentType),
      urls: ctx.faults.on("attachment-urls-as-string") ? url : [{ type: "ORIGINAL", url }],
    },
  };
}

/** The monetary account of the path, which must be one of the user's (AUTH-019: another user's is as absent as a missing one). */
function ownAccount(request: FastifyRequest, ctx: ReferenceContext, userId: number): number {
  const accountId = intParam(request, "monetaryAccountID");
  const owned = ctx.state.users.get(userId)?.monetaryAccountIds.includes(accountId) ?? false;
  const anyone =
    ctx.faults.on("attachment-other-users-account-accepted") &&
    [...ctx.state.users.values()].some((u) => u.monetaryAccountIds.includes(accountId));
  unknownAccountRead(ctx, accountId);
  if (!owned && !anyone && !unknownAccountTaken(ctx, accountId)) throw notTheirs(ctx, "The monetary account was not found.");
  return accountId;
}

/**
 * The account of an upload exists and is the user's. Variant r5-attachment-unknown-account-accepted: the check is written as
 * "refuse an account another user owns", so an id that names no monetary account at all passes.
 */
function unknownAccountTaken(ctx: ReferenceContext, accountId: number): boolean {
  return (
    ctx.variants.on("r5-attachment-unknown-account-accepted") &&
    ![...ctx.state.users.values()].some((u) => u.monetaryAccountIds.includes(accountId))
  );
}

/** The path's user (AUTH-015); with `fault` on, the session's user whatever the path says (a check forgotten on one route). */
function routeUser(request: FastifyRequest, ctx: ReferenceContext, fault: FaultName): number {
  if (!ctx.faults.on(fault)) return pathUser(request, ctx);
  intParam(request, "userID");
  return request.session!.userId;
}

/**
 * An upload of a type that is not accepted is refused with the error envelope (conventions §1). Fault
 * r6-attachment-unsupported-type-framework-415: the accepted types are registered as the route's body parsers, so another type
 * is refused by the web framework itself, before the handler, with its own 415 body.
 */
function refusedByTheFramework(ctx: ReferenceContext, request: FastifyRequest): boolean {
  if (!ctx.faults.on("r6-attachment-unsupported-type-framework-415")) return false;
  return ACCEPTED[allowListKey(ctx, request, mediaType(request.headers["content-type"]))] === undefined;
}

/** The web framework's own 415 answer (fault r6-attachment-unsupported-type-framework-415). */
function sendFramework415(reply: FastifyReply, request: FastifyRequest): FastifyReply {
  return reply
    .code(415)
    .type("application/json")
    .send({
      statusCode: 415,
      code: "FST_ERR_CTP_INVALID_MEDIA_TYPE",
      error: "Unsupported Media Type",
      message: `Unsupported Media Type: ${request.headers["content-type"] ?? ""}`,
    });
}

/** The upload's bytes, checked against its declared type (ATT-001 to ATT-003, ATT-009; wire conventions §7). */
function uploadedFile(request: FastifyRequest, ctx: ReferenceContext): { contentType: string; bytes: Buffer } {
  const contentType = mediaType(request.headers["content-type"]);
  const body = request.body;
  const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  if (ctx.faults.on("attachment-accepts-any-type")) return { contentType, bytes };
  const check = ACCEPTED[allowListKey(ctx, request, contentType)];
  const anyImage = ctx.faults.on("attachment-accepts-any-image-type") && contentType.startsWith("image/");
  const refusedByFault =
    (contentType === "image/png" && ctx.faults.on("attachment-png-refused")) ||
    (contentType === "application/pdf" && ctx.faults.on("attachment-pdf-refused"));
  if ((!check && !anyImage) || refusedByFault) {
    // Variant resource-refusal-codes: 415 Unsupported Media Type, as conventions §6 allows any 4XX.
    throw new HttpError(ctx.variants.on("resource-refusal-codes") ? 415 : 400, "Attachments must be PNG, JPEG, GIF or PDF files.");
  }
  if (bytes.length === 0) {
    // Variant attachment-empty-upload-stored: neither file says an empty upload is refused (ATT-009, LENIENT).
    if (ctx.variants.on("attachment-empty-upload-stored")) return { contentType, bytes };
    throw badRequest("The attachment is empty.");
  }
  if (gif89aOnly(ctx, contentType, bytes)) throw badRequest(`The attachment's bytes are not of type ${contentType}.`);
  if (jfifOnly(ctx, contentType, bytes)) throw badRequest(`The attachment's bytes are not of type ${contentType}.`);
  if (check && !check(bytes)) throw badRequest(`The attachment's bytes are not of type ${contentType}.`);
  return { contentType, bytes };
}

/**
 * POST /user/{userID}/monetary-account/{monetary-accountID}/attachment (raw bytes, the file's type as
 * Content-Type, the description in a header) and GET /user/{userID}/attachment/{itemId}
 * (spec: Endpoints > Attachments; wire conventions §7). There is no delete and no list.
 */
export const attachmentsModule: ResourceModule = {
  name: "attachments",
  register(app, ctx) {
    const attachments = ctx.state.collection<AttachmentRecord>("attachments");
    // Fault r5-attachment-description-header-fixed-prefix: the header name is written out as the spec spells it, not built
    // from the configured prefix.
    const descriptionHeader = ctx.faults.on("r5-attachment-description-header-fixed-prefix")
      ? "x-service-attachment-description"
      : ctx.header("Attachment-Description").toLowerCase();

    app.post("/v1/user/:userID/monetary-account/:monetaryAccountID/attachment", async (request, reply) => {
      if (refusedByTheFramework(ctx, request)) return sendFramework415(reply, request);
      const userId = routeUser(request, ctx, "attachment-upload-ignores-path-user");
      const monetaryAccountId = ownAccount(request, ctx, userId);
      const raw = request.headers[descriptionHeader];
      const description = headerDescription(ctx, raw);
      const now = uploadStamp(ctx);
      const store = (contentType: string, bytes: Buffer) =>
        attachments.add(userId, (id) => ({
          id: numberedPerAccount(ctx, attachments, userId, monetaryAccountId) ?? id,
          created: now,
          updated: now,
          description,
          contentType,
          monetaryAccountId,
          uuid: randomUUID(),
          bytes,
        }));
      const early = storedBeforeTheChecks(ctx, request, store);
      checkDescription(ctx, request, description);
      const { contentType, bytes } = uploadedFile(request, ctx);
      const record = early ?? sameFileStored(ctx, attachments, userId, bytes) ?? store(contentType, bytes);
      return sendId(reply, answeredId(ctx, record));
    });

    app.get("/v1/user/:userID/attachment/:itemId", async (request, reply) => {
      const userId = routeUser(request, ctx, "attachment-read-ignores-path-user");
      const record = findAttachment(ctx, attachments, userId, intParam(request, "itemId"));
      if (!record) return unknownAttachment(ctx, reply);
      return sendAttachment(ctx, reply, record, request);
    });
  },
};

// ---- Seams of the attachment routes: each decides one rule and names the faults and variants that bend it. ----

/**
 * A refused upload stores nothing (ATT-010); the careless order (the fault, and variant attachment-stored-before-checks:
 * ATT-010 is LENIENT) stores what came in before any check.
 */
function storedBeforeTheChecks(
  ctx: ReferenceContext,
  request: FastifyRequest,
  store: (contentType: string, bytes: Buffer) => AttachmentRecord,
): AttachmentRecord | undefined {
  if (!ctx.faults.on("attachment-refused-upload-stored") && !ctx.variants.on("attachment-stored-before-checks")) return undefined;
  return store(mediaType(request.headers["content-type"]), Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
}

/** Every upload carries a description (ATT-004); the faults take one without it, or skip the check for GIF uploads. */
function checkDescription(ctx: ReferenceContext, request: FastifyRequest, description: string): void {
  const gifUnchecked =
    ctx.faults.on("attachment-description-skipped-for-gif") && mediaType(request.headers["content-type"]) === "image/gif";
  // Variant r5-attachment-empty-description-accepted: the check asks whether the header is there, not whether it holds text.
  const blankTaken =
    ctx.variants.on("r5-attachment-empty-description-accepted") &&
    request.headers[ctx.header("Attachment-Description").toLowerCase()] !== undefined;
  if (description.trim() === "" && !ctx.faults.on("attachment-description-optional") && !gifUnchecked && !blankTaken) {
    throw invalidBody(ctx, `The ${ctx.header("Attachment-Description")} header is required.`);
  }
}

/**
 * An id that names no attachment of the user is refused (4XX with an error body). Fault r4-attachment-unknown-id-200-empty:
 * the read returns early with a bare send() for "nothing found", so the answer is 200 with an empty body.
 */
function unknownAttachment(ctx: ReferenceContext, reply: FastifyReply): FastifyReply {
  if (ctx.faults.on("r4-attachment-unknown-id-200-empty")) return reply.code(200).send();
  throw notTheirs(ctx);
}

/** The caller's attachment of that id (AUTH-019); the fault serves any user's. */
function findAttachment(
  ctx: ReferenceContext,
  attachments: Collection<AttachmentRecord>,
  userId: number,
  id: number,
): AttachmentRecord | undefined {
  const found = ctx.faults.on("attachment-other-user-readable") ? attachments.getAny(id) : attachments.get(userId, id);
  return onFirstAccountOnly(ctx, userId, found);
}

/**
 * Attachments are read back per user, whichever of the user's monetary accounts they were uploaded to (spec: What the
 * service does); the fault's read joins on the user's first (primary) monetary account, so any other account's are not found.
 */
function onFirstAccountOnly(ctx: ReferenceContext, userId: number, found: AttachmentRecord | undefined): AttachmentRecord | undefined {
  if (!found || !ctx.faults.on("r4-attachment-read-first-account-only")) return found;
  // Fault r4-attachment-read-first-account-only: WHERE monetary_account_id = the user's primary account.
  return found.monetaryAccountId === ctx.state.users.get(userId)?.monetaryAccountIds[0] ? found : undefined;
}

/** GET answers the read form under AttachmentUser (ERR-015), as application/json (ATT-007, LENIENT: the first reading). */
function sendAttachment(ctx: ReferenceContext, reply: FastifyReply, record: AttachmentRecord, request: FastifyRequest): FastifyReply {
  const typeKey = ctx.faults.on("attachment-type-key-wrong") ? "Attachment" : ATTACHMENT_TYPE_KEY;
  const shown = view(record, ctx, request.session?.token);
  // Fault attachment-read-id-from-path: the read form's id is copied from the path parameter, a string.
  if (ctx.faults.on("attachment-read-id-from-path")) shown.id = (request.params as Record<string, string>).itemId;
  const items = [{ [typeKey]: shown }];
  if (ctx.faults.on("attachment-read-octet-stream"))
    return reply
      .code(200)
      .type("application/octet-stream")
      .send(JSON.stringify({ Response: items }));
  return sendItems(reply, items);
}

/**
 * The download url names the file only; the session token travels in the authentication header alone. Variant
 * r3-attachment-url-carries-session-token (blind round 3, ruled open): the link works in a browser, the caller's token in its query.
 */
function downloadUrl(ctx: ReferenceContext, url: string, sessionToken: string | undefined): string {
  if (!ctx.variants.on("r3-attachment-url-carries-session-token") || !sessionToken) return url;
  return `${url}?token=${encodeURIComponent(sessionToken)}`;
}

/** The description as uploaded (ATT-006); the fault reads the header as a comma-separated list and keeps its first entry. */
function headerDescription(ctx: ReferenceContext, raw: string | string[] | undefined): string {
  const description = formDecoded(ctx, typeof raw === "string" ? raw : "");
  return ctx.faults.on("attachment-description-cut-at-comma") ? description.split(",")[0]!.trim() : description;
}

/**
 * Every JPEG is accepted (conventions §7); the fault's magic-number check wants the JFIF APP0 marker (FF D8 FF E0), so a
 * JPEG that starts with an Exif (FF E1) or a quantisation-table segment (FF DB) is refused.
 */
function jfifOnly(ctx: ReferenceContext, contentType: string, bytes: Buffer): boolean {
  return ctx.faults.on("attachment-jpeg-jfif-only") && contentType === "image/jpeg" && bytes[3] !== 0xe0;
}

/** The upload answers the new attachment's Id (conventions §7); the fault's copy-paste slip answers the monetary account's id. */
function answeredId(ctx: ReferenceContext, record: AttachmentRecord): number {
  return ctx.faults.on("attachment-upload-answers-account-id") ? record.monetaryAccountId : record.id;
}

/**
 * The allow-list is looked up by media type, parameters dropped (conventions §7); the fault looks up the whole header,
 * lower-cased, so `image/png; name=scan.png` is an unknown type and refused.
 */
function allowListKey(ctx: ReferenceContext, request: FastifyRequest, contentType: string): string {
  if (!ctx.variants.on("attachment-content-type-parameters-refused")) return contentType;
  return (request.headers["content-type"] ?? "").trim().toLowerCase();
}

/** The read form's content_type is the type uploaded (conventions §7); the fault rebuilds it from the stored file extension. */
function shownContentType(ctx: ReferenceContext, contentType: string): string {
  // Fault r3-attachment-jpeg-read-as-jpg: the file is stored as .jpg and its type read back as "image/" + extension.
  if (ctx.faults.on("r3-attachment-jpeg-read-as-jpg") && contentType === "image/jpeg") return "image/jpg";
  // Fault r6-attachment-pdf-read-octet-stream: the read maps the stored type through a table of image types; others fall back.
  if (ctx.faults.on("r6-attachment-pdf-read-octet-stream") && !contentType.startsWith("image/")) return "application/octet-stream";
  return contentType;
}

/** Every GIF is accepted (conventions §7: GIF87a and GIF89a alike); the fault's magic-number check wants GIF89a only. */
function gif89aOnly(ctx: ReferenceContext, contentType: string, bytes: Buffer): boolean {
  // Fault r4-attachment-gif87a-refused: the signature compared is "GIF89a", so a GIF87a file is refused.
  if (!ctx.faults.on("r4-attachment-gif87a-refused") || contentType !== "image/gif") return false;
  return bytes.subarray(0, 6).toString("latin1") !== "GIF89a";
}

/** The description reads back as uploaded (conventions §7); the fault's read form escapes it for HTML. */
function htmlEscaped(ctx: ReferenceContext, description: string): string {
  if (!ctx.faults.on("r4-attachment-description-html-escaped")) return description;
  // Fault r4-attachment-description-html-escaped: an output sanitiser meant for the web view runs on the API answer too.
  const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  return description.replace(/[&<>"']/g, (c) => entities[c]!);
}

/** The description header is taken as sent (ATT-006); the fault decodes it like an application/x-www-form-urlencoded field. */
function formDecoded(ctx: ReferenceContext, description: string): string {
  if (!ctx.faults.on("r4-attachment-description-plus-as-space")) return description;
  // Fault r4-attachment-description-plus-as-space: the header helper shared with the query parser: '+' is a space, %XX a byte.
  const spaced = description.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * Every upload is a new attachment with its own description and type (conventions §7: read back as uploaded). Fault
 * r4-attachment-same-file-answers-old-id: uploads are de-duplicated by their bytes, so a file the user uploaded before
 * answers the older attachment (its description and type) and nothing new is stored; undefined otherwise.
 */
function sameFileStored(
  ctx: ReferenceContext,
  attachments: Collection<AttachmentRecord>,
  userId: number,
  bytes: Buffer,
): AttachmentRecord | undefined {
  if (!ctx.faults.on("r4-attachment-same-file-answers-old-id")) return undefined;
  return attachments.list(userId).find((a) => a.bytes.equals(bytes));
}

/** An upload is stamped with the time of the upload in UTC (conventions §2: timestamps are in UTC). */
function uploadStamp(ctx: ReferenceContext): string {
  const now = new Date();
  // Variant r5-attachment-stamped-local-time: the upload path stamps the server's Amsterdam wall-clock time as if it were UTC.
  if (!ctx.variants.on("r5-attachment-stamped-local-time")) return timestamp(now);
  return timestamp(new Date(now.getTime() + zoneOffsetMs(now, "Europe/Amsterdam")));
}

/**
 * Attachment ids are the server's (unique per user at least), whichever account the file went to; undefined takes it.
 * Fault r6-attachment-ids-per-account: the id is the next number on the monetary account, while the read looks it up per
 * user, so an upload to a second account takes (and overwrites) the id of an attachment on the first.
 */
function numberedPerAccount(
  ctx: ReferenceContext,
  attachments: Collection<AttachmentRecord>,
  userId: number,
  monetaryAccountId: number,
): number | undefined {
  if (!ctx.faults.on("r6-attachment-ids-per-account")) return undefined;
  return attachments.list(userId).filter((a) => a.monetaryAccountId === monetaryAccountId).length + 1;
}

/** An account id that names no account is refused like another user's (a 4XX, never a 5XX: conventions §6). */
function unknownAccountRead(ctx: ReferenceContext, accountId: number): void {
  if (!ctx.faults.on("r6-attachment-unknown-account-500")) return;
  // Fault r6-attachment-unknown-account-500: the account's owner is read from the looked-up account without checking it exists.
  if (![...ctx.state.users.values()].some((u) => u.monetaryAccountIds.includes(accountId)))
    throw new TypeError("Cannot read properties of undefined (reading 'userId')");
}

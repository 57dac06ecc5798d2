// Attachments (banking-api.md "Endpoints > Attachments", "Resources and their fields > Attachment (read form)";
// wire conventions §7): raw uploads to one of the user's monetary accounts, read back per user.
// There is no delete: every upload here stays, so none is made on a read-only target. Uploads go to the
// primary user's monetary account (fixtures.monetaryAccountId); the API lists no accounts, so a fresh user
// would have none the suite could name.
import { randomUUID } from "node:crypto";
import { describe, test } from "vitest";
import {
  expectNot5xx,
  expectObjects,
  expectOk,
  expectRefused,
  expectSchema,
  expectStatus,
  expectThat,
  fail,
  type About,
} from "../harness/checks.js";
import { createdId, objectsOfType, responseItems, typeKeyOf } from "../harness/envelope.js";
import type { Exchange } from "../harness/http/exchange.js";
import { idsIn } from "./support/crud-checks.js";
import { LenientLog } from "../harness/lenient.js";
import { SAME_ID_ELSEWHERE } from "./support/resource-helpers.js";
import type { Session } from "../harness/session/session.js";
import { gif1x1, IMAGE_FILES, jpeg1x1, OTHER_TYPE_FILES, PDF_FILE, png1x1, type TestFile } from "../harness/test-data/images.js";
import { SKIP, useTarget } from "../harness/run/target.js";
import { accountIdsOf, CardCalls } from "./support/cards.js";

const t = useTarget();
const from = t.profile.sourceAddresses[0];
const readOnly = t.profile.mode === "read-only";
const accountId = t.profile.fixtures.monetaryAccountId;
const NO_ACCOUNT = "needs fixtures.monetaryAccountId (a monetary account of the primary user) in the profile";
/** ATT-010: the most ids read one by one between the two accepted uploads around a refused one. */
const MAX_BRACKET = 1000;
/** ATT-010: a bracket this narrow is read at once; a wider one is tried again first. */
const NARROW_BRACKET = 50;
const PNG: TestFile = { name: "a 1x1 PNG", contentType: "image/png", bytes: png1x1() };

/**
 * The same images as other writers make them (ATT-001: every JPEG and GIF, not one encoder's): the JFIF JPEG with its APP0
 * segment swapped for a minimal Exif APP1 (a camera's), or left out (a bare baseline JPEG); the GIF in its 1987 version.
 */
function otherWriters(): TestFile[] {
  const jfif = jpeg1x1();
  const afterApp0 = 4 + jfif.readUInt16BE(4);
  // "Exif\0\0", then a little-endian TIFF header whose first IFD (at offset 8) has no entries and no next IFD.
  const exif = Buffer.from([0x45, 0x78, 0x69, 0x66, 0, 0, 0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, exif.length + 2]), exif]);
  const gif87a = Buffer.concat([Buffer.from("GIF87a", "ascii"), gif1x1().subarray(6)]);
  return [
    {
      name: "a 1x1 Exif JPEG (APP1, no JFIF)",
      contentType: "image/jpeg",
      bytes: Buffer.concat([jfif.subarray(0, 2), app1, jfif.subarray(afterApp0)]),
    },
    {
      name: "a 1x1 JPEG without an APP0 segment",
      contentType: "image/jpeg",
      bytes: Buffer.concat([jfif.subarray(0, 2), jfif.subarray(afterApp0)]),
    },
    { name: "a 1x1 GIF87a", contentType: "image/gif", bytes: gif87a },
  ];
}
/** Every image an upload must take: the test files and the same images from other writers. */
const ACCEPTED_IMAGES = [...IMAGE_FILES, ...otherWriters()];

/** A description no other upload has, so a leak can be told apart from anything else in a body. */
function uniqueDescription(what: string): string {
  return `conformance ${what} ${randomUUID()}`;
}

interface UploadOptions {
  /** The description header; null sends none. */
  description: string | null;
  /** The userID of the path (default: the session's user). */
  userId?: number;
  /** The monetary account of the path (default: the primary user's fixture). */
  account?: number;
  bytes?: Buffer;
}

function upload(session: Session, file: TestFile, options: UploadOptions): Promise<Exchange> {
  return t.client.request({
    method: "POST",
    path: `/user/${options.userId ?? session.userId}/monetary-account/${options.account ?? accountId}/attachment`,
    token: session.sessionToken,
    from,
    body: options.bytes ?? file.bytes,
    headers: {
      "Content-Type": file.contentType,
      ...(options.description === null ? {} : { [t.header("Attachment-Description")]: options.description }),
    },
  });
}

/**
 * GAP-70: monetary accounts cannot be listed, so their ids are taken to be unique across users unless the two
 * users' listable items (cards, companies) share ids, the sign of a server that numbers per user.
 */
async function idsLookPerUser(a: Session, b: Session): Promise<boolean> {
  const lists = [(s: Session) => `/user/${s.userId}/card?count=200`, (s: Session) => `/user/${s.userId}/company?count=200`];
  for (const path of lists) {
    const [mine, theirs] = await Promise.all([a, b].map((s) => t.client.request({ path: path(s), token: s.sessionToken, from: s.from })));
    if (mine!.status !== 200 || theirs!.status !== 200) continue;
    const own = new Set(idsIn(mine!.json));
    if (idsIn(theirs!.json).some((id) => own.has(id))) return true;
  }
  return false;
}

function readAttachment(session: Session, id: number, userId = session.userId): Promise<Exchange> {
  return t.client.request({ path: `/user/${userId}/attachment/${id}`, token: session.sessionToken, from });
}

/** An accepted upload: 200, and the created id under Id (wire conventions §1, spec/gaps.md GAP-18). */
function expectCreated(exchange: Exchange, about: About): number {
  expectStatus(exchange, 200, about);
  expectOk(exchange, { ...about, req: "ERR-009" });
  const id = expectObjects(exchange, ["Id"], { ...about, req: "ERR-009" })[0];
  expectSchema(id, "id", { ...about, req: "ERR-009" }, exchange);
  return createdId(exchange.json)!;
}

/** Uploads a file as the primary user and returns its id; the upload itself is checked as ATT-001. */
async function uploaded(file: TestFile, description: string): Promise<number> {
  const exchange = await upload(t.primary(), file, { description });
  return expectCreated(exchange, { req: "ATT-001", what: `(${file.name}, ${file.contentType}, as set-up)` });
}

/**
 * The read form (spec: Attachment (read form)): HTTP 200 with the JSON envelope. The Content-Type header is
 * checked apart (ATT-007, LENIENT), so the envelope is read whatever that header says.
 */
function expectAttachmentRead(exchange: Exchange, about: About): Record<string, unknown> {
  expectStatus(exchange, 200, about);
  const items = responseItems(exchange.json);
  expectThat(
    items !== undefined && items.every((item) => typeKeyOf(item) !== undefined),
    exchange,
    'a JSON body {"Response":[{"<Type>": {…}}]}',
    about,
  );
  return expectObjects(exchange, ["AttachmentUser"], { ...about, req: "ERR-015" })[0]!;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

// Independent: every upload carries a description of its own, and the refused-upload checks look only for their own.
describe.concurrent("uploads", () => {
  test.for(ACCEPTED_IMAGES.map((file) => [file.name, file] as const))(
    "ATT-001 %s uploaded with its MIME type and a description is accepted with an integer Id",
    { tags: ["ERR-009"] },
    async ([, file], { skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(accountId === undefined, NO_ACCOUNT);
      const exchange = await upload(t.primary(), file, { description: uniqueDescription(file.name) });
      expectCreated(exchange, { req: "ATT-001", what: `(${file.name} as ${file.contentType})` });
    },
  );

  test(
    "ATT-002 a one-page PDF is accepted where PDFs are taken (strict: always), else accepted or refused with an error body; " +
      "a PDF taken reads back as application/pdf",
    { tags: ["ATT-006"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(accountId === undefined, NO_ACCOUNT);
      const exchange = await upload(t.primary(), PDF_FILE, { description: uniqueDescription("pdf") });
      const about = { req: "ATT-002", what: "(a one-page PDF as application/pdf)" };
      if (t.profile.capabilities.pdfAttachments || t.profile.strict || exchange.status === 200) {
        const id = expectCreated(exchange, about);
        // Taken, so read back as uploaded (conventions §7: "attachment.content_type … as uploaded"), as every image is.
        const read = await readAttachment(t.primary(), id);
        const readBack = { req: "ATT-006", what: `(the PDF attachment ${id} just uploaded)` };
        const inner = expectAttachmentRead(read, readBack).attachment as Record<string, unknown> | undefined;
        expectThat(
          typeof inner?.content_type === "string" && mediaType(inner.content_type) === PDF_FILE.contentType,
          read,
          `attachment.content_type "${PDF_FILE.contentType}", the Content-Type of the upload`,
          readBack,
          `content_type ${JSON.stringify(inner?.content_type)}`,
        );
      } else {
        expectRefused(exchange, { ...about, what: `${about.what}: not accepted, so it must be refused properly` });
      }
    },
  );

  test(
    "ERR-003 an upload to a monetary-accountID that names no account is taken, or refused with an error body; never a 5XX",
    { tags: ["ERR-001"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      // Taking it is a reading blind round 5 left open (both readers); crashing on it is not (conventions §6).
      const nowhere = [2_000_000_000, 1_999_999_999].find((id) => id !== accountId)!;
      const exchange = await upload(t.primary(), PNG, { description: uniqueDescription("no such account"), account: nowhere });
      const about = { req: "ERR-003", what: `(a PNG uploaded to monetary account ${nowhere}, which names no account)` };
      expectNot5xx(exchange, about);
      if (exchange.status >= 300) expectRefused(exchange, { ...about, req: "ERR-001" });
    },
  );

  test.for(OTHER_TYPE_FILES.map((file) => [file.name, file] as const))(
    "ATT-003 %s (not PNG, JPEG, GIF or PDF) is refused with an error body",
    { tags: ["ERR-001"] },
    async ([, file], { skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(accountId === undefined, NO_ACCOUNT);
      const exchange = await upload(t.primary(), file, { description: uniqueDescription(file.name) });
      expectRefused(exchange, { req: "ATT-003", what: `(${file.name} as ${file.contentType})` });
    },
  );

  test("ATT-009 an upload with an empty body is accepted with an Id or refused with an error body (strict: refused)", async ({
    skip,
    annotate,
  }) => {
    skip(readOnly, SKIP.readOnly);
    skip(accountId === undefined, NO_ACCOUNT);
    // LENIENT: neither file says what an empty upload does; refusing it (no bytes are no PNG) is our reading.
    const log = new LenientLog(t.profile.strict);
    const exchange = await upload(t.primary(), PNG, { description: uniqueDescription("empty"), bytes: Buffer.alloc(0) });
    const about = { req: "ATT-009", what: "(an empty body as image/png)" };
    if (exchange.status === 200) {
      expectCreated(exchange, about);
      log.note(about, "an empty upload was accepted", "a 4XX refusal with an error body");
    } else {
      expectRefused(exchange, about);
    }
    await log.report(annotate);
  });

  test.for(IMAGE_FILES.map((file) => [file.name, file] as const))(
    "ATT-004 %s uploaded without the Attachment-Description header is refused with an error body",
    { tags: ["ERR-001"] },
    async ([, file], { skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(accountId === undefined, NO_ACCOUNT);
      const exchange = await upload(t.primary(), file, { description: null });
      expectRefused(exchange, {
        req: "ATT-004",
        what: `(${file.name} as ${file.contentType} without ${t.header("Attachment-Description")})`,
      });
    },
  );

  /** Refused uploads: each type outside PNG, JPEG, GIF and PDF (with a description), and each image type without one. */
  const refusals: [string, TestFile, "type" | "description"][] = [
    ...OTHER_TYPE_FILES.map((file): [string, TestFile, "type"] => [`${file.name} (${file.contentType})`, file, "type"]),
    ...IMAGE_FILES.map((file): [string, TestFile, "description"] => [`${file.name} without the description header`, file, "description"]),
  ];
  test.for(refusals)(
    "ATT-010 a refused upload of %s found stored among the ids between two accepted uploads is noted (strict: it stores nothing)",
    async ([what, file, reason], { skip, annotate }) => {
      skip(readOnly, SKIP.readOnly);
      skip(accountId === undefined, NO_ACCOUNT);
      // No attachment list exists: the ids handed out around the refused upload are read one by one, and none may
      // be the refused upload (its unique description; without a description: an attachment of its type with none).
      const marker = uniqueDescription(`refused ${what}`);
      const about = { req: "ATT-010", what: `(after the refused upload of ${what})` };
      // LENIENT (blind ruling 2026-11-28): no sentence states that a refused upload stores nothing; strict requires it.
      const log = new LenientLog(t.profile.strict);
      // Other files create items meanwhile, and ids may be shared by every resource: up to 1,000 ids are read, 20 at
      // once (a list grown past 200 items in parallel is such a burst). A bracket that a burst of other creates made
      // wider than a few dozen ids is tried again (up to five times), and the narrowest is read: three uploads cost
      // less than hundreds of reads, and a busy moment of the run is no reason to leave the requirement unchecked.
      let before = 0;
      let after = 0;
      let narrowest: { before: number; after: number } | undefined;
      const width = (b: { before: number; after: number }) => b.after - b.before;
      for (let attempt = 0; attempt < 5 && !(narrowest && width(narrowest) <= NARROW_BRACKET); attempt++) {
        before = await uploaded(PNG, uniqueDescription("bracket before"));
        const refused = await upload(t.primary(), file, { description: reason === "description" ? null : marker });
        expectRefused(refused, { req: reason === "description" ? "ATT-004" : "ATT-003", what: `(${what})` });
        after = await uploaded(PNG, uniqueDescription("bracket after"));
        if (after > before && (!narrowest || after - before < width(narrowest))) narrowest = { before, after };
      }
      skip(
        !narrowest || width(narrowest) > MAX_BRACKET,
        `the ids around the refused upload (${before}, ${after}) are not close and ascending, so the ids between cannot be read one by one`,
      );
      ({ before, after } = narrowest!);
      const between = Array.from({ length: after - before - 1 }, (_, i) => before + 1 + i);
      for (let at = 0; at < between.length; at += 20) {
        const reads = await Promise.all(
          between.slice(at, at + 20).map(async (id) => ({ id, read: await readAttachment(t.primary(), id) })),
        );
        for (const { id, read } of reads) {
          if (read.status !== 200) continue;
          const inner = objectsOfType(read.json, "AttachmentUser")[0]?.attachment as Record<string, unknown> | undefined;
          if (!isRecord(inner)) continue;
          const stored =
            reason === "type"
              ? inner.description === marker
              : (inner.description === undefined || inner.description === null || inner.description === "") &&
                typeof inner.content_type === "string" &&
                mediaType(inner.content_type) === file.contentType;
          if (!stored) continue;
          if (t.profile.strict)
            fail(about, read, "no attachment stored by the refused upload", `attachment ${id}: ${JSON.stringify(inner).slice(0, 200)}`);
          log.note(about, "a refused upload was stored as an attachment", "no attachment stored by a refused upload");
        }
      }
      await log.report(annotate);
    },
  );
});

// Independent: each check reads back the attachment it uploaded, by id.
describe.concurrent("reading an attachment back", () => {
  test(
    "ATT-005 an attachment uploaded to each monetary account of a fresh user, else the primary (as its cards name them), reads " +
      "back per user",
    { tags: ["ATT-006"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      // "files uploaded to a monetary account and read back per user": the account the upload named is no part of the read.
      // A fresh user's accounts where the target makes one, else the primary's (uploads stay either way: there is no delete).
      const session = t.canProvision() ? await t.freshSession() : t.primary();
      const { cards } = await new CardCalls(t, session).all({ req: "ATT-005", what: "listing a fresh user's cards for its accounts" });
      const accounts = accountIdsOf(cards);
      skip(accounts.length === 0, `user ${session.userId}'s cards name no monetary account`);
      // Every upload first, then every read: an id the second account's upload reused (ids numbered per account, read
      // per user) shows on the first account's read, not on a read made before the second upload.
      const made: { account: number; id: number; description: string }[] = [];
      for (const account of accounts) {
        const description = uniqueDescription(`account ${account}`);
        const about = { req: "ATT-001", what: `(a PNG uploaded to monetary account ${account} of user ${session.userId})` };
        made.push({ account, description, id: expectCreated(await upload(session, IMAGE_FILES[0]!, { description, account }), about) });
      }
      for (const { account, id, description } of made) {
        const about = {
          req: "ATT-005",
          what: `(attachment ${id}, uploaded to monetary account ${account} of user ${session.userId}, read after every account's upload)`,
        };
        const read = await readAttachment(session, id);
        const inner = expectAttachmentRead(read, about);
        expectThat(
          (inner.attachment as Record<string, unknown> | undefined)?.description === description,
          read,
          `attachment.description "${description}"`,
          about,
          `${JSON.stringify(inner.attachment)}`.slice(0, 200),
        );
      }
    },
  );

  test.for(IMAGE_FILES.map((file) => [file.name, file] as const))(
    "ATT-005 %s reads back as AttachmentUser with the content type and description it was uploaded with",
    { tags: ["ATT-006", "ERR-015"] },
    async ([, file], { skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(accountId === undefined, NO_ACCOUNT);
      // A comma and a semicolon: the header is one free text, not a list of values.
      // Characters a careless decoder changes: HTML's five, a form's "+" and a percent escape, read back as sent.
      const description = `${uniqueDescription(`read-back of ${file.name}`)}, with a comma; a semicolon & "quotes" <tag> 'x' 2+1 50%2C`;
      const id = await uploaded(file, description);
      const exchange = await readAttachment(t.primary(), id);
      const about = { req: "ATT-005", what: `(the ${file.contentType} attachment just uploaded)` };
      const attachment = expectAttachmentRead(exchange, about);
      expectSchema(attachment, "attachment-user", about, exchange);
      // The schema types the members; created, updated and urls are not promised present (response fields
      // are typed where present), so only strict profiles require them. id, content_type and description are
      // compared with what was sent, so they must be there.
      expectThat(attachment.id === id, exchange, `id ${id}, the id the upload answered`, about, `id ${JSON.stringify(attachment.id)}`);
      for (const field of ["created", "updated"]) {
        if (attachment[field] === undefined && !t.profile.strict) continue;
        expectThat(
          typeof attachment[field] === "string",
          exchange,
          `${field} as a string`,
          about,
          `${field}: ${JSON.stringify(attachment[field])}`,
        );
      }
      const inner = attachment.attachment;
      expectThat(
        isRecord(inner),
        exchange,
        "an attachment object {description, content_type, urls}",
        about,
        `attachment: ${JSON.stringify(inner)}`,
      );
      if (inner.urls !== undefined || t.profile.strict) {
        expectThat(
          Array.isArray(inner.urls),
          exchange,
          "attachment.urls as an array of {type, url}",
          about,
          `urls: ${JSON.stringify(inner.urls)}`,
        );
      }
      const readBack = { req: "ATT-006", what: about.what };
      expectThat(
        typeof inner.content_type === "string" && mediaType(inner.content_type) === file.contentType,
        exchange,
        `attachment.content_type "${file.contentType}", the Content-Type of the upload`,
        readBack,
        `content_type ${JSON.stringify(inner.content_type)}`,
      );
      expectThat(
        inner.description === description,
        exchange,
        `attachment.description "${description}", the description header of the upload`,
        readBack,
        `description ${JSON.stringify(inner.description)}`,
      );
    },
  );

  test("ATT-007 the attachment read answers Content-Type application/json or the attachment's type (strict: application/json)", async ({
    skip,
  }) => {
    skip(readOnly, SKIP.readOnly);
    skip(accountId === undefined, NO_ACCOUNT);
    const id = await uploaded(PNG, uniqueDescription("content-type header"));
    const exchange = await readAttachment(t.primary(), id);
    const about = { req: "ATT-007", what: "(a PNG attachment)" };
    expectStatus(exchange, 200, about);
    const got = mediaType(exchange.headers["content-type"]);
    const allowed = t.profile.strict ? ["application/json"] : ["application/json", PNG.contentType];
    if (!allowed.includes(got))
      fail(about, exchange, `Content-Type ${allowed.join(" or ")}`, `Content-Type "${exchange.headers["content-type"] ?? ""}"`);
  });
});

// Independent: each check looks for its own attachment; refused calls change nothing.
describe.concurrent("attachments belong to their user", () => {
  test(
    "AUTH-019 the second user cannot read the primary user's attachment under its own userID",
    { tags: ["ERR-001"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(accountId === undefined, NO_ACCOUNT);
      const other = t.secondary();
      skip(!other, t.secondaryMissing());
      const description = uniqueDescription("private");
      const id = await uploaded(PNG, description);
      expectAttachmentRead(await readAttachment(t.primary(), id), { req: "AUTH-019", what: "by its owner (control)" });
      const exchange = await readAttachment(other!, id);
      const about = { req: "AUTH-019", what: `by the second user, with the primary user's attachment id ${id}` };
      // Ids may be per user and there is no attachment list: a 200 without this attachment's unique description is the second user's own.
      skip(exchange.status === 200 && !exchange.bodyText.includes(description), `attachment ${id}: ${SAME_ID_ELSEWHERE}`);
      expectRefused(exchange, about);
      expectThat(
        !exchange.bodyText.includes(description),
        exchange,
        "no trace of the attachment",
        about,
        "the attachment's description in the body",
      );
    },
  );

  test("AUTH-019 the second user cannot upload to the primary user's monetary account", { tags: ["ERR-001"] }, async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    skip(accountId === undefined, NO_ACCOUNT);
    const other = t.secondary();
    skip(!other, t.secondaryMissing());
    const exchange = await upload(other!, PNG, { description: uniqueDescription("foreign account") });
    const accepted = exchange.status >= 200 && exchange.status < 300;
    skip(
      accepted && (await idsLookPerUser(t.primary(), other!)),
      `the upload was accepted, and the two users' cards or companies share ids (ids per user?), so monetary account ` +
        `${accountId} may be the second user's own: monetary accounts cannot be listed (GAP-70)`,
    );
    expectRefused(exchange, { req: "AUTH-019", what: `by the second user, to the primary user's monetary account ${accountId}` });
  });

  test(
    "AUTH-015 the primary session is refused on the second user's userID, for uploads and reads",
    { tags: ["ERR-001"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(accountId === undefined, NO_ACCOUNT);
      const other = t.secondary();
      skip(!other, t.secondaryMissing());
      const description = uniqueDescription("path user");
      const id = await uploaded(PNG, description);
      const read = await readAttachment(t.primary(), id, other!.userId);
      const about = { req: "AUTH-015", what: `with the primary session on the second user's id ${other!.userId}` };
      expectRefused(read, about);
      expectThat(!read.bodyText.includes(description), read, "no attachment data", about, "the attachment's description in the body");
      const write = await upload(t.primary(), PNG, { description: uniqueDescription("path user upload"), userId: other!.userId });
      expectRefused(write, about);
    },
  );
});

// Feature announcements, read only (banking-api.md "Resources and their fields > Feature announcement",
// "Endpoints > Feature announcement"; wire conventions §2, §6). The API has no list and no create, so the
// ids come from the profile (fixtures.featureAnnouncementIds, primary user only).
import { describe, test } from "vitest";
import { expectNot5xx, expectObjects, expectOk, expectRefused, expectSchema, expectThat, type About } from "../harness/checks.js";
import { responseItems } from "../harness/envelope.js";
import type { Exchange } from "../harness/http/exchange.js";
import { expectNoTrace, expectUnknownIdAnswer, SAME_ID_ELSEWHERE, showsOwnItemOfSameId } from "./support/resource-helpers.js";
import type { Session } from "../harness/session/session.js";
import { SKIP, useTarget } from "../harness/run/target.js";
import { LenientLog } from "../harness/lenient.js";
import { sharedOnce } from "./support/shared-once.js";

const t = useTarget();
const readOnly = t.profile.mode === "read-only";
const ids = t.profile.fixtures.featureAnnouncementIds ?? [];

/**
 * The profile's announcements a read answers with 200. One that answers 4XX while others read (blind round 4: the readers split
 * on which announcements the path must serve, the types being not shown) is noted in each check and left out; strict reads every
 * one. None readable: every id stays, and the checks fail on them.
 */
const readable = sharedOnce(async (): Promise<{ ids: number[]; unreadable: number[]; first: Map<number, Exchange> }> => {
  const answers = await Promise.all(ids.map((id) => send(t.primary(), "GET", id)));
  const first = new Map(ids.map((id, i) => [id, answers[i]!]));
  const served = ids.filter((_, i) => answers[i]!.status === 200);
  const unreadable = ids.filter((_, i) => answers[i]!.status >= 400 && answers[i]!.status < 500);
  return served.length === 0 || t.profile.strict
    ? { ids, unreadable: [], first }
    : { ids: ids.filter((id) => !unreadable.includes(id)), unreadable, first };
});

/**
 * Whether the first readable announcement, read once (readable), answers 4XX when read again: a server that serves each
 * announcement once (blind round 6, asked again: both readers OPEN). Asked before any check writes, so a refused write
 * that deleted anyway is still told apart. Judged by FEAT-006's own check; the others then skip what needs a second read.
 */
const secondRead = sharedOnce(async (): Promise<Exchange | undefined> => {
  const { ids: served } = await readable();
  return served.length === 0 ? undefined : send(t.primary(), "GET", served[0]!);
});
const refused = (exchange: Exchange | undefined) => exchange !== undefined && exchange.status >= 400 && exchange.status < 500;
/** Whether the target serves an announcement once (its second read refused). */
const servedOnce = async () => refused(await secondRead());

/** The ids a check reads: the readable ones, the others noted (FEAT-004) by the check of `req`. */
async function idsToRead(req: string): Promise<number[]> {
  const { ids: served, unreadable } = await readable();
  if (unreadable.length > 0)
    new LenientLog(t.profile.strict).note(
      { req: "FEAT-004", what: `(announcements ${unreadable.join(", ")} of fixtures.featureAnnouncementIds, read by ${req})` },
      "an announcement the profile names answered 4XX while others read",
      "every announcement the profile names readable",
    );
  return served;
}
const TYPE = "FeatureAnnouncement";
/** What "unchanged" compares: the fields of the specification's table (avatar by its uuid). */
const SHOWN: [string, (a: Record<string, unknown>) => unknown][] = [
  ["title", (a) => a.title],
  ["sub_title", (a) => a.sub_title],
  ["type", (a) => a.type],
  ["avatar.uuid", (a) => (a.avatar as { uuid?: unknown } | undefined)?.uuid],
];
const noFixture = "needs at least one feature announcement id in the profile's fixtures.featureAnnouncementIds";

const send = (session: Session, method: string, id: number | string, options: { userId?: number; json?: unknown } = {}) =>
  t.client.request({
    method,
    path: `/user/${options.userId ?? session.userId}/feature-announcement/${id}`,
    token: session.sessionToken,
    from: session.from,
    ...(options.json === undefined ? {} : { json: options.json }),
  });

/**
 * GET one announcement: exactly one FeatureAnnouncement element (conventions §2). `first`: its first read of the run (one
 * request per announcement and run, shared by the checks that only read), else a read of its own.
 */
async function read(id: number, about: About, first = false): Promise<{ exchange: Exchange; announcement: Record<string, unknown> }> {
  return judged((first && (await readable()).first.get(id)) || (await send(t.primary(), "GET", id)), about);
}

/** A read's answer: exactly one FeatureAnnouncement element (conventions §2). */
function judged(exchange: Exchange, about: About): { exchange: Exchange; announcement: Record<string, unknown> } {
  expectOk(exchange, about);
  const found = expectObjects(exchange, [TYPE], { ...about, req: "ERR-015" });
  expectThat(responseItems(exchange.json)!.length === 1, exchange, `exactly one ${TYPE} element`, about);
  return { exchange, announcement: found[0]! };
}

// Independent: reads only.
describe.concurrent("GET /user/{userID}/feature-announcement/{itemId}", () => {
  test(
    "FEAT-001 each announcement answers one FeatureAnnouncement whose title, sub_title and type are strings",
    { tags: ["ERR-015", "FEAT-004"] },
    async ({ skip }) => {
      skip(ids.length === 0, noFixture);
      for (const id of await idsToRead("FEAT-001")) {
        const about = { req: "FEAT-001", what: `(announcement ${id})` };
        const { exchange, announcement } = await read(id, about, true);
        expectSchema(announcement, "feature-announcement", about, exchange);
        // Response fields are not promised present (GAP-04's reading for every table): each one present is a
        // string (null is not), and at least one is there; strict profiles require all three.
        const fields = ["title", "sub_title", "type"];
        const notStrings = fields.filter(
          (field) => (t.profile.strict || announcement[field] !== undefined) && typeof announcement[field] !== "string",
        );
        const expected = t.profile.strict
          ? "title, sub_title and type as strings (strict)"
          : "title, sub_title and type as strings where present, at least one of them";
        const none = fields.every((field) => announcement[field] === undefined);
        expectThat(
          notStrings.length === 0 && !none,
          exchange,
          expected,
          about,
          none ? "none of them" : notStrings.map((f) => `${f} ${JSON.stringify(announcement[f])}`).join(", "),
        );
      }
    },
  );

  test("FEAT-006 an announcement read once answers 200 with it again on a second read, or 4XX (noted: served once; strict: 200)", async ({
    skip,
    annotate,
  }) => {
    skip(ids.length === 0, noFixture);
    const again = await secondRead();
    skip(again === undefined, "no announcement of the profile's fixtures answers 200 (FEAT-001 judges that)");
    const about = { req: "FEAT-006", what: `(announcement ${(await readable()).ids[0]}, read a second time)` };
    if (refused(again) && !t.profile.strict) {
      expectRefused(again!, about);
      const log = new LenientLog(t.profile.strict);
      log.note(about, "an announcement read once answered 4XX when read again", "200 with the announcement on every read");
      return log.report(annotate);
    }
    judged(again!, about);
  });

  test(
    "FEAT-002 each announcement's avatar is an Avatar: string uuid, anchor_uuid and style, images with string attachment_public_uuid and " +
      "content_type and integer height and width",
    { tags: ["FEAT-004", "FEAT-005"] },
    async ({ skip }) => {
      skip(ids.length === 0, noFixture);
      let checked = 0;
      for (const id of await idsToRead("FEAT-002")) {
        const about = { req: "FEAT-002", what: `(announcement ${id})` };
        const { exchange, announcement } = await read(id, about, true);
        const avatar = announcement.avatar;
        // An announcement without avatar has nothing to check, except where the profile is strict. One answered with avatar
        // null is noted (FEAT-005; blind round 5: both readers OPEN on whether every announcement has an avatar).
        if (avatar === null && !t.profile.strict)
          new LenientLog(t.profile.strict).note({ ...about, req: "FEAT-005" }, "an announcement answered avatar null", "an avatar object");
        if ((avatar === undefined || avatar === null) && !t.profile.strict) continue;
        checked++;
        expectThat(
          avatar !== null && typeof avatar === "object" && !Array.isArray(avatar),
          exchange,
          "an avatar object",
          about,
          `avatar ${JSON.stringify(avatar)}`,
        );
        expectSchema(avatar, "avatar", about, exchange);
        // The members' types are checked where present; that every member is there, only by strict profiles.
        if (t.profile.strict) {
          const missing = ["uuid", "anchor_uuid", "style", "image"].filter((m) => (avatar as Record<string, unknown>)[m] === undefined);
          expectThat(
            missing.length === 0,
            exchange,
            "avatar with uuid, anchor_uuid, style and image (strict)",
            about,
            `missing ${missing.join(", ")}`,
          );
        }
      }
      skip(checked === 0, "no announcement of the profile's fixtures carries an avatar");
    },
  );
});

// Independent: every write here is refused on a conformant server, so the announcements never change.
describe.concurrent("feature announcements are read only", () => {
  const writes: [string, unknown][] = [
    ["PUT", { title: "Changed by the conformance suite", sub_title: "Changed", type: "FEATURE" }],
    ["DELETE", undefined],
  ];
  test.for(writes)(
    "FEAT-003 %s on an announcement is refused with an error body, and the announcement reads back unchanged",
    { tags: ["ERR-001", "FEAT-004"] },
    async ([method, json], { skip }) => {
      skip(readOnly, SKIP.readOnly);
      skip(ids.length === 0, noFixture);
      // The last readable one: one that answers 4XX while others read is FEAT-004's, noted.
      const readableIds = await idsToRead("FEAT-003");
      const id = readableIds[readableIds.length - 1]!;
      // Asked before the write: a server that serves each announcement once cannot show it again after the write.
      const once = await servedOnce();
      const { announcement: before } = await read(id, { req: "FEAT-003", what: "before the write" }, true);
      const exchange = await send(t.primary(), method, id, { json });
      expectNot5xx(exchange, { req: "FEAT-003", what: `(${method} on a read-only resource)` });
      expectRefused(exchange, { req: "FEAT-003", what: `(${method} on a read-only resource)` });
      const again = await send(t.primary(), "GET", id);
      skip(
        once && refused(again) && !t.profile.strict,
        `the announcement cannot be read after the refused ${method}: the target serves an announcement once (FEAT-006, noted)`,
      );
      const { exchange: after, announcement } = judged(again, { req: "FEAT-003", what: `after the refused ${method}` });
      const changed = SHOWN.filter(([, of]) => JSON.stringify(of(announcement)) !== JSON.stringify(of(before))).map(([name]) => name);
      expectThat(
        changed.length === 0,
        after,
        `the announcement as before (${JSON.stringify(before).slice(0, 200)})`,
        { req: "FEAT-003" },
        `changed ${changed.join(", ")}`,
      );
    },
  );

  test(
    "ERR-007 POST on the feature-announcement paths (no create endpoint) is refused with an error body",
    { tags: ["ERR-001"] },
    async ({ skip }) => {
      skip(readOnly, SKIP.readOnly);
      const session = t.primary();
      const body = { title: "Created by the conformance suite", sub_title: "Created", type: "FEATURE" };
      for (const path of [
        t.userPath(session, "/feature-announcement"),
        ...(ids[0] === undefined ? [] : [t.userPath(session, `/feature-announcement/${ids[0]}`)]),
      ]) {
        const exchange = await t.client.request({ method: "POST", path, token: session.sessionToken, from: session.from, json: body });
        expectRefused(exchange, { req: "ERR-007", what: "(POST is not an operation of this path)" });
      }
    },
  );
});

// Independent: reads only.
describe.concurrent("who may see an announcement", () => {
  test(
    "AUTH-019 the second user reading the primary user's announcement under its own userID is refused and gets none of it",
    { tags: ["ERR-001", "FEAT-004"] },
    async ({ skip }) => {
      const other = t.secondary();
      skip(!other, t.secondaryMissing());
      skip(ids.length === 0, noFixture);
      let tried = 0;
      for (const id of await idsToRead("AUTH-019")) {
        const { announcement } = await read(id, { req: "FEAT-001", what: "by the owner (setup)" }, true);
        const traces = ["title", "sub_title"]
          .map((f) => announcement[f])
          .filter((v): v is string => typeof v === "string" && v.length >= 6);
        const exchange = await send(other!, "GET", id);
        const about = { req: "AUTH-019", what: `by the second user with the primary user's announcement id ${id}` };
        // No list shows the second user's ids, and every user may get the same announcements (GAP-70): a 200
        // showing another object than the owner's is an announcement of the second user's own with that id.
        if (showsOwnItemOfSameId(exchange, announcement)) continue;
        tried++;
        expectRefused(exchange, about);
        expectNoTrace(exchange, traces, about);
      }
      skip(tried === 0, `every announcement id: ${SAME_ID_ELSEWHERE}`);
    },
  );

  test(
    "AUTH-015 a session on another user's userID is refused, the primary's on the second user's and the second user's on the primary's",
    { tags: ["ERR-001"] },
    async ({ skip }) => {
      const other = t.secondary();
      skip(!other, t.secondaryMissing());
      skip(ids.length === 0, noFixture);
      // A readable one, as its first read showed it (a target may serve an announcement once: FEAT-006).
      const id = (await idsToRead("AUTH-015"))[0] ?? ids[0]!;
      const exchange = await send(t.primary(), "GET", id, { userId: other!.userId });
      expectRefused(exchange, { req: "AUTH-015", what: `with the primary session on the second user's id ${other!.userId}` });
      // The owner's userID and the owner's own announcement: a server that serves whichever user the path names shows it here.
      const { announcement } = await read(id, { req: "FEAT-001", what: "by the owner (setup)" }, true);
      const traces = ["title", "sub_title"].map((f) => announcement[f]).filter((v): v is string => typeof v === "string" && v.length >= 6);
      const swapped = await send(other!, "GET", id, { userId: t.primary().userId });
      const about = { req: "AUTH-015", what: `with the second user's session on the primary user's id ${t.primary().userId}` };
      expectRefused(swapped, about);
      expectNoTrace(swapped, traces, about);
    },
  );

  test(
    "ERR-014 an announcement id that does not exist is refused with an error body (strict), or answered 200 with an empty Response " +
      "(noted)",
    { tags: ["ERR-001"] },
    async ({ annotate }) => {
      const exchange = await send(t.primary(), "GET", 2_000_000_000);
      const about = { req: "ERR-014", what: "(an id no announcement has)" };
      await expectUnknownIdAnswer(t, exchange, about, annotate);
    },
  );

  test("ERR-006 announcement ids that are not integers are refused with an error body", { tags: ["ERR-003"] }, async () => {
    for (const id of ["abc", "1.5", ...(ids[0] === undefined ? [] : [`${ids[0]}abc`])]) {
      const exchange = await send(t.primary(), "GET", id);
      expectNot5xx(exchange, { req: "ERR-003", what: `with announcement id "${id}"` });
      expectRefused(exchange, { req: "ERR-006", what: `with announcement id "${id}"` });
    }
  });
});

// The route reads as the specification; every fault of this file hooks in through a named seam below it.
import { randomUUID as globalUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { HttpError, notFound } from "../http-error.js";
import { intParam, objectBody, pathUser, sendId, sendItems, type ReferenceContext, type ResourceModule } from "../module.js";
import type { Collection } from "../state.js";

const FEATURE_TYPE_KEY = "FeatureAnnouncement";
const SEEDED = [
  { title: "Pay with your phone", sub_title: "Add your card to your wallet app", type: "FEATURE" },
  { title: "Share an account", sub_title: "Invite someone to view your balance", type: "FEATURE" },
  { title: "Insights", sub_title: "See where your money goes", type: "PROMOTION" },
];

interface AnnouncementRecord {
  id: number;
  title: string;
  sub_title: string;
  type: string;
  avatar: {
    uuid: string;
    anchor_uuid: string;
    style: string;
    image: { attachment_public_uuid: string; content_type: string; height: number; width: number }[];
  };
}

/**
 * GET /user/{userID}/feature-announcement/{itemId}, read only (spec: Feature announcement). No write
 * method is routed, so PUT, POST and DELETE fall to the unknown-route answer (404 with an error body).
 */
export const featureAnnouncementsModule: ResourceModule = {
  name: "feature-announcements",
  seed(ctx, user) {
    const announcements = ctx.state.collection<AnnouncementRecord>("feature-announcements");
    const same = ctx.variants.on("announcements-same-for-everyone");
    const ids = SEEDED.map((row, i) => {
      let n = 0;
      const randomUUID = () => (same ? `00000000-0000-4000-8000-${String(i * 10 + n++).padStart(12, "0")}` : globalUUID());
      const anchor = randomUUID();
      return announcements.add(user.id, (id) => ({
        id,
        ...row,
        avatar: {
          uuid: randomUUID(),
          anchor_uuid: anchor,
          style: "NONE",
          image: [{ attachment_public_uuid: randomUUID(), content_type: "image/png", height: 1024, width: 1024 }],
        },
      })).id;
    });
    return { featureAnnouncementIds: ids };
  },
  register(app, ctx) {
    const announcements = ctx.state.collection<AnnouncementRecord>("feature-announcements");
    const typeKey = announcementTypeKey(ctx);
    /** Variant r6-feature-announcement-gone-after-first-read: the announcements each user has seen, as "user:id". */
    const seen = new Set<string>();

    app.get("/v1/user/:userID/feature-announcement/:itemId", async (request, reply) => {
      const userId = pathUser(request, ctx, "feature-announcement-path-user-unchecked");
      const id = intParam(request, "itemId");
      int32Lookup(ctx, id);
      const a = findAnnouncement(ctx, announcements, userId, id);
      if (!a || seenBefore(ctx, seen, userId, a)) return refuseUnknown(ctx, reply, announcements, id);
      return sendItems(reply, [{ [typeKey]: announcementView(ctx, a) }]);
    });

    carelessWriteRoutes(app, ctx, announcements);
  },
};

// ---- Seams of the announcement route: each decides one rule and names the faults that bend it. ----

/** Announcements are answered under FeatureAnnouncement (ERR-015). */
function announcementTypeKey(ctx: ReferenceContext): string {
  return ctx.faults.on("feature-announcement-wrong-type-key") ? "Announcement" : FEATURE_TYPE_KEY;
}

/** Any integer itemId is looked up (conventions §6: no 5XX); the fault's lookup takes a 32-bit id and crashes above it. */
function int32Lookup(ctx: ReferenceContext, id: number): void {
  // Fault feature-announcement-large-id-500: an itemId above 2147483647 overflows the lookup key and crashes.
  if (ctx.faults.on("feature-announcement-large-id-500") && id > 2147483647) throw new RangeError(`id ${id} is out of int32 range`);
}

/** The caller's announcement of that id (AUTH-019); the fault serves any user's. */
function findAnnouncement(
  ctx: ReferenceContext,
  announcements: Collection<AnnouncementRecord>,
  userId: number,
  id: number,
): AnnouncementRecord | undefined {
  const found = ctx.faults.on("feature-announcement-other-user-readable") ? announcements.getAny(id) : announcements.get(userId, id);
  // Fault r4-feature-announcement-promotion-not-found: the read's query keeps type = FEATURE, so a PROMOTION is not found.
  if (found && found.type !== "FEATURE" && ctx.faults.on("r4-feature-announcement-promotion-not-found")) return undefined;
  return found;
}

/**
 * Reading an announcement changes nothing (read only): every read serves it. Variant r6-feature-announcement-gone-after-first-read:
 * the read marks the announcement as seen for the user, and the query serves unseen announcements only.
 */
function seenBefore(ctx: ReferenceContext, seen: Set<string>, userId: number, a: AnnouncementRecord): boolean {
  if (!ctx.variants.on("r6-feature-announcement-gone-after-first-read")) return false;
  const key = `${userId}:${a.id}`;
  if (seen.has(key)) return true;
  seen.add(key);
  return false;
}

/** An unknown announcement is refused (ERR-014); the fault answers an empty Response for an id nobody has. */
function refuseUnknown(
  ctx: ReferenceContext,
  reply: FastifyReply,
  announcements: Collection<AnnouncementRecord>,
  id: number,
): FastifyReply {
  if (ctx.faults.on("feature-announcement-unknown-id-empty") && announcements.ownerOf(id) === undefined) return sendItems(reply, []);
  throw notFound();
}

/** The read form (FEAT-001, FEAT-002): sub_title a string, the avatar image's height and width integers. */
function announcementView(ctx: ReferenceContext, a: AnnouncementRecord): Record<string, unknown> {
  const { faults, variants } = ctx;
  const sizes = faults.on("feature-announcement-image-size-strings");
  const images = a.avatar.image.map((i) => (sizes ? { ...i, height: String(i.height), width: String(i.width) } : i));
  // Fault feature-announcement-image-object: the mapper answers the first image as an object, not the array.
  const avatar: Record<string, unknown> = { ...a.avatar, image: faults.on("feature-announcement-image-object") ? images[0] : images };
  // The avatar carries uuid, anchor_uuid, style and image (spec: Shared objects); the fault's mapper forgets anchor_uuid.
  if (faults.on("feature-announcement-anchor-uuid-dropped")) delete avatar.anchor_uuid;
  return {
    // Variant r5-feature-announcement-promotion-avatar-null: the promotion mapper has no avatar and answers null.
    avatar: a.type === "PROMOTION" && variants.on("r5-feature-announcement-promotion-avatar-null") ? null : avatar,
    title: a.title,
    sub_title: faults.on("feature-announcement-sub-title-null") ? null : a.sub_title,
    type: a.type,
  };
}

/**
 * Announcements are read only (FEAT-003, ERR-007): a conformant server routes no write method, so PUT, POST and
 * DELETE fall to the unknown-route answer. The faults route the careless ones.
 */
function carelessWriteRoutes(app: FastifyInstance, ctx: ReferenceContext, announcements: Collection<AnnouncementRecord>): void {
  const { faults } = ctx;
  if (faults.on("feature-announcement-writable") || faults.on("feature-announcement-refused-put-applies")) {
    app.put("/v1/user/:userID/feature-announcement/:itemId", async (request, reply) => {
      const a = announcements.get(pathUser(request, ctx), intParam(request, "itemId"));
      if (!a) throw notFound();
      const body = objectBody(request);
      if (typeof body.title === "string") a.title = body.title;
      if (faults.on("feature-announcement-refused-put-applies")) throw new HttpError(405, "Feature announcements are read only.");
      return sendId(reply, a.id);
    });
  }
  if (faults.on("feature-announcement-deletable")) {
    app.delete("/v1/user/:userID/feature-announcement/:itemId", async (request, reply) => {
      const userId = pathUser(request, ctx);
      if (!announcements.delete(userId, intParam(request, "itemId"))) throw notFound();
      return sendItems(reply, []);
    });
  }
  if (faults.on("feature-announcement-post-creates")) {
    app.post("/v1/user/:userID/feature-announcement", async (request, reply) => {
      const userId = pathUser(request, ctx);
      const body = objectBody(request);
      const a = announcements.add(userId, (id) => ({
        id,
        title: String(body.title ?? ""),
        sub_title: String(body.sub_title ?? ""),
        type: String(body.type ?? "FEATURE"),
        avatar: { uuid: globalUUID(), anchor_uuid: globalUUID(), style: "NONE", image: [] },
      }));
      return sendId(reply, a.id);
    });
  }
}

// The routes read as the specification; every fault and variant of this file hooks in through a named seam below them.
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError, translate } from "../../http-error.js";
import type { FaultName } from "../../../faults/catalogue.js";
import { intParam, objectBody, pathUser, sendId, sendItems, type ReferenceContext, type ResourceModule } from "../../module.js";
import type { Collection } from "../../state.js";
import { timestamp } from "../../time.js";
import { invalidBody, notTheirs } from "../refusals.js";

/** Any single type key will do (conventions §2); this is the provider's object name. */
const CHALLENGE_TYPE_KEY = "MasterCardIdentityCheckChallengeRequestUser";
/** The two answers a PUT may give (spec: States and transitions > Challenge request). */
const CHALLENGE_ANSWERS = ["ACCEPTED_PENDING_RESPONSE", "REJECTED_PENDING_RESPONSE"];
/** Seeded per user: enough for one accept, one reject, one refusal series and spares. */
const SEEDED = 5;

interface ChallengeRecord {
  id: number;
  created: string;
  updated: string;
  /** As first seeded: what the stale-read fault keeps answering. */
  initialStatus: string;
  status: string;
  amount: string;
  description: string;
  expiry_time: string;
}

function challengeView(c: ChallengeRecord, status: string): Record<string, unknown> {
  return {
    id: c.id,
    created: c.created,
    updated: c.updated,
    status,
    amount: c.amount,
    description: c.description,
    expiry_time: c.expiry_time,
  };
}

/** GET and PUT /user/{userID}/challenge-request/{itemId} (spec: Endpoints > Challenge requests; conventions §2, §7; GAP-31). */
export const challengeRequestsModule: ResourceModule = {
  name: "challenge-requests",
  seed(ctx, user) {
    const challenges = ctx.state.collection<ChallengeRecord>("challenge-requests");
    const ids: number[] = [];
    for (let i = 0; i < SEEDED; i++) {
      const now = timestamp();
      const expiry = timestamp(new Date(Date.now() + 24 * 3600 * 1000));
      const c = challenges.add(user.id, (id) => ({
        id,
        created: now,
        updated: now,
        initialStatus: "PENDING",
        status: "PENDING",
        amount: `${10 + i}.50`,
        description: `Purchase ${i + 1} at a web shop`,
        expiry_time: expiry,
      }));
      ids.push(c.id);
    }
    return { challengeRequestIds: ids };
  },
  register(app, ctx) {
    const challenges = ctx.state.collection<ChallengeRecord>("challenge-requests");

    app.get("/v1/user/:userID/challenge-request/:itemId", { ...errorsAsObject(ctx) }, async (request, reply) => {
      // Fault challenge-read-path-user-unchecked: the read takes any existing user's id from the path.
      const userId = pathUser(request, ctx, "challenge-read-path-user-unchecked");
      const id = intParam(request, "itemId");
      const c = findChallenge(ctx, challenges, userId, id, "challenge-other-user-readable");
      if (!c || rejectedHidden(ctx, c)) throw unknownChallenge(ctx, challenges, id);
      return sendItems(reply, [{ [CHALLENGE_TYPE_KEY]: readView(ctx, c) }]);
    });

    app.put("/v1/user/:userID/challenge-request/:itemId", { ...errorsAsObject(ctx) }, async (request, reply) => {
      // Fault r4-challenge-put-path-user-unchecked: the update takes any existing user's id from the path (the read checks it).
      const userId = pathUser(request, ctx, "r4-challenge-put-path-user-unchecked");
      const id = putItemId(ctx, request);
      const c = findChallenge(ctx, challenges, userId, id, "challenge-other-user-writable");
      if (!c) {
        foreignAnswerApplied(ctx, challenges, id, request.body);
        throw notTheirs(ctx);
      }
      const sent = objectBody(request).status;
      if (sent === undefined) return refuseMissingStatus(ctx, reply, c);
      const status = readStatus(ctx, sent);
      if (typeof status !== "string" || !acceptedAnswer(ctx, status)) {
        refusedAnswerApplied(ctx, c, status);
        throw invalidBody(ctx, `Field status must be one of ${CHALLENGE_ANSWERS.join(", ")}.`);
      }
      if (answerWindowClosed(ctx, c)) throw invalidBody(ctx, "The challenge request has expired.");
      if (answerLocked(ctx, c)) return sendAnswered(ctx, reply, c);
      c.status = status;
      c.updated = timestamp();
      updateEveryRequest(ctx, challenges, userId, c);
      return sendAnswered(ctx, reply, c);
    });
  },
};

// ---- Seams of the challenge routes: each decides one rule and names the faults and variants that bend it. ----

/** The PUT's itemId, an integer like every path id (conventions §6: anything else is a 4XX), as the GET reads it. */
function putItemId(ctx: ReferenceContext, request: FastifyRequest): number {
  if (!ctx.variants.on("r5-challenge-put-id-number-coerced")) return intParam(request, "itemId");
  // Variant r5-challenge-put-id-number-coerced: the update's own parser is Number() plus an integer check, so 1001.0, 1.001e3
  // and 0x3E9 all read as 1001.
  const id = Number((request.params as Record<string, string>).itemId);
  if (!Number.isInteger(id) || id < 0) throw new HttpError(400, "Path parameter itemId must be an integer.", "bad-path-id");
  return id;
}

/** The caller's challenge request of that id (AUTH-019); `anyOwner` names the fault that forgets the owner check. */
function findChallenge(
  ctx: ReferenceContext,
  challenges: Collection<ChallengeRecord>,
  userId: number,
  id: number,
  anyOwner: FaultName,
): ChallengeRecord | undefined {
  return ctx.faults.on(anyOwner) ? challenges.getAny(id) : challenges.get(userId, id);
}

/** An unknown challenge request is refused with a 4XX (ERR-014); the fault crashes (500) on an id nobody has. */
function unknownChallenge(ctx: ReferenceContext, challenges: Collection<ChallengeRecord>, id: number): Error {
  if (ctx.faults.on("challenge-unknown-id-500") && challenges.ownerOf(id) === undefined) return new Error("challenge request is undefined");
  return notTheirs(ctx);
}

/** GET answers the challenge request with its current status (CHAL-004, CHAL-005); variant challenge-fields-minimal: {id, status} only. */
function readView(ctx: ReferenceContext, c: ChallengeRecord): Record<string, unknown> {
  const { faults, variants } = ctx;
  let view = challengeView(c, shownStatus(ctx, faults.on("challenge-get-stale-status") ? c.initialStatus : c.status));
  if (variants.on("challenge-fields-minimal")) view = { id: view.id, status: view.status };
  if (faults.on("challenge-get-status-missing")) delete view.status;
  // Fault r5-challenge-unanswered-status-null: the read's status map knows the two answers only; anything else shows null.
  if (faults.on("r5-challenge-unanswered-status-null") && !CHALLENGE_ANSWERS.includes(c.status)) view.status = null;
  return view;
}

/** GET shows the status as it was set (conventions §7); the fault's display map shortens REJECTED_PENDING_RESPONSE. */
function shownStatus(ctx: ReferenceContext, status: string): string {
  // Fault challenge-rejected-read-back-short: the read maps the stored status through a table that names it REJECTED.
  return ctx.faults.on("challenge-rejected-read-back-short") && status === "REJECTED_PENDING_RESPONSE" ? "REJECTED" : status;
}

/** PUT without status is refused (CHAL-007); the fault answers the Id and changes nothing. */
function refuseMissingStatus(ctx: ReferenceContext, reply: FastifyReply, c: ChallengeRecord): FastifyReply {
  if (ctx.faults.on("challenge-put-missing-status-accepted")) return sendId(reply, c.id);
  throw invalidBody(ctx, "Field status is required.");
}

/** status is a string, taken as sent (spec: PUT payload; conventions §7); the faults coerce it with String() or upper-case it. */
function readStatus(ctx: ReferenceContext, sent: unknown): unknown {
  const { faults } = ctx;
  let status = sent;
  if (typeof status !== "string" && faults.on("challenge-put-status-coerced")) status = String(status as string);
  if (typeof status === "string" && faults.on("challenge-put-status-case-insensitive")) status = status.toUpperCase();
  return status;
}

/**
 * PUT changes the challenge request of the path only (CHAL-008, LENIENT since the blind ruling); the fault's update has no
 * id filter and answers them all, and so does variant challenge-put-sets-every-request.
 */
function updateEveryRequest(ctx: ReferenceContext, challenges: Collection<ChallengeRecord>, userId: number, c: ChallengeRecord): void {
  if (!(ctx.faults.on("challenge-put-applies-to-all") || ctx.variants.on("challenge-put-sets-every-request"))) return;
  for (const other of challenges.list(userId)) {
    other.status = c.status;
    other.updated = c.updated;
  }
}

/** PUT takes the two answers of the state table (CHAL-001, CHAL-002, CHAL-006); the faults misspell or drop one, or take any string. */
function acceptedAnswer(ctx: ReferenceContext, status: string): boolean {
  const { faults } = ctx;
  let allowed = CHALLENGE_ANSWERS;
  if (faults.on("challenge-accept-refused")) allowed = ["ACCEPTED_PENDING_RESPONSES", "REJECTED_PENDING_RESPONSE"];
  if (faults.on("challenge-reject-refused")) allowed = ["ACCEPTED_PENDING_RESPONSE"];
  // Fault r6-challenge-put-status-prefix-accepted: the check's startsWith has its operands swapped, so any prefix of an answer passes.
  if (faults.on("r6-challenge-put-status-prefix-accepted")) return allowed.some((answer) => answer.startsWith(status));
  return allowed.includes(status) || faults.on("challenge-put-any-status");
}

/**
 * Every PUT sets the status it sends, an answered request's too (conventions §7: a later GET shows the status that was set).
 * Fault r4-challenge-answer-locked-silently: the first answer locks the request; later PUTs are answered but not applied.
 */
function answerLocked(ctx: ReferenceContext, c: ChallengeRecord): boolean {
  return ctx.faults.on("r4-challenge-answer-locked-silently") && CHALLENGE_ANSWERS.includes(c.status);
}

/** A refused PUT changes nothing (CHAL-006); the fault stores the status before it refuses. */
function refusedAnswerApplied(ctx: ReferenceContext, c: ChallengeRecord, status: unknown): void {
  if (ctx.faults.on("challenge-refused-put-applies")) c.status = String(status);
}

/**
 * PUT answers the challenge request's Id (CHAL-003, LENIENT since the blind ruling); the fault and
 * challenge-put-answers-request answer the updated challenge request under its type key (as GET shows it).
 */
function sendAnswered(ctx: ReferenceContext, reply: FastifyReply, c: ChallengeRecord): FastifyReply {
  if (ctx.faults.on("challenge-put-answers-object")) return sendItems(reply, [{ [CHALLENGE_TYPE_KEY]: challengeView(c, c.status) }]);
  if (ctx.variants.on("challenge-put-answers-request")) return sendItems(reply, [{ [CHALLENGE_TYPE_KEY]: readView(ctx, c) }]);
  // Fault r4-challenge-put-status-beside-id: the answer adds the new status for the app's screen, beside Id in the same element.
  if (ctx.faults.on("r4-challenge-put-status-beside-id")) return sendItems(reply, [{ Id: { id: c.id }, status: c.status }]);
  return sendId(reply, c.id);
}

/** The fault's answer window: a minute from the challenge request's creation. */
const ANSWER_WINDOW_MS = 60_000;

/**
 * A PUT sets the status it sends (spec: States and transitions > Challenge request); the request's expiry_time is a day on.
 * Variant r5-challenge-answer-window-from-created: the PUT takes a hard-coded one-minute answer window from created, not the
 * request's own expiry_time, and refuses a later answer as expired.
 */
function answerWindowClosed(ctx: ReferenceContext, c: ChallengeRecord): boolean {
  if (!ctx.variants.on("r5-challenge-answer-window-from-created")) return false;
  const created = Date.parse(`${c.created.slice(0, 23).replace(" ", "T")}Z`);
  return Number.isFinite(created) && Date.now() - created > ANSWER_WINDOW_MS;
}

/**
 * Refusals carry the error envelope, Error an array (conventions §1). Fault r6-challenge-errors-object: the challenge routes'
 * own error handler writes Error as the one error object; no handler of their own otherwise.
 */
function errorsAsObject(ctx: ReferenceContext) {
  if (!ctx.faults.on("r6-challenge-errors-object")) return {};
  return {
    errorHandler: (error: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
      const status =
        error instanceof HttpError
          ? error.status
          : typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500
            ? 400
            : error instanceof SyntaxError
              ? 400
              : 500;
      const language = request.headers[ctx.header("Language").toLowerCase()];
      const translated = translate(error.message, typeof language === "string" ? language : undefined);
      return reply
        .code(status)
        .type("application/json")
        .send({ Error: { error_description: error.message, error_description_translated: translated } });
    },
  };
}

/**
 * GET reads the challenge request whatever its status (conventions §7: a later GET shows the status that was set). Fault
 * r6-challenge-rejected-read-not-found: the read's query keeps the "open" requests only (status not REJECTED_PENDING_RESPONSE),
 * so a rejected request reads as unknown.
 */
function rejectedHidden(ctx: ReferenceContext, c: ChallengeRecord): boolean {
  return ctx.faults.on("r6-challenge-rejected-read-not-found") && c.status === "REJECTED_PENDING_RESPONSE";
}

/**
 * A PUT of a challenge request that is not the caller's is refused and changes nothing (AUTH-019). Fault
 * r6-challenge-put-foreign-applied-then-refused: the update runs by id alone ("UPDATE … WHERE id = ?") and the ownership check
 * is made on the read-back, so another user's request takes a valid status before the 404.
 */
function foreignAnswerApplied(ctx: ReferenceContext, challenges: Collection<ChallengeRecord>, id: number, body: unknown): void {
  if (!ctx.faults.on("r6-challenge-put-foreign-applied-then-refused")) return;
  const status = body !== null && typeof body === "object" ? (body as Record<string, unknown>).status : undefined;
  const other = challenges.getAny(id);
  if (!other || typeof status !== "string" || !CHALLENGE_ANSWERS.includes(status)) return;
  other.status = status;
  other.updated = timestamp();
}

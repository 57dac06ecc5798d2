import { intParam, objectBody, pathUser, sendId, sendItems, type ResourceModule } from "../../module.js";
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
    const { faults, variants } = ctx;
    const challenges = ctx.state.collection<ChallengeRecord>("challenge-requests");

    app.get("/v1/user/:userID/challenge-request/:itemId", async (request, reply) => {
      const userId = pathUser(request, ctx);
      const id = intParam(request, "itemId");
      const c = faults.on("challenge-other-user-readable") ? challenges.getAny(id) : challenges.get(userId, id);
      if (!c && faults.on("challenge-unknown-id-500") && challenges.ownerOf(id) === undefined)
        throw new Error("challenge request is undefined");
      if (!c) throw notTheirs(ctx);
      let view = challengeView(c, faults.on("challenge-get-stale-status") ? c.initialStatus : c.status);
      if (variants.on("challenge-fields-minimal")) view = { id: view.id, status: view.status };
      if (faults.on("challenge-get-status-missing")) delete view.status;
      return sendItems(reply, [{ [CHALLENGE_TYPE_KEY]: view }]);
    });

    app.put("/v1/user/:userID/challenge-request/:itemId", async (request, reply) => {
      const userId = pathUser(request, ctx);
      const id = intParam(request, "itemId");
      const c = faults.on("challenge-other-user-writable") ? challenges.getAny(id) : challenges.get(userId, id);
      if (!c) throw notTheirs(ctx);
      const status = objectBody(request).status;
      if (status === undefined) {
        if (faults.on("challenge-put-missing-status-accepted")) return sendId(reply, c.id);
        throw invalidBody(ctx, "Field status is required.");
      }
      let allowed = CHALLENGE_ANSWERS;
      if (faults.on("challenge-accept-refused")) allowed = ["ACCEPTED_PENDING_RESPONSES", "REJECTED_PENDING_RESPONSE"];
      if (faults.on("challenge-reject-refused")) allowed = ["ACCEPTED_PENDING_RESPONSE"];
      const valid = typeof status === "string" && (allowed.includes(status) || faults.on("challenge-put-any-status"));
      if (!valid) {
        if (faults.on("challenge-refused-put-applies")) c.status = String(status);
        throw invalidBody(ctx, `Field status must be one of ${CHALLENGE_ANSWERS.join(", ")}.`);
      }
      c.status = status;
      c.updated = timestamp();
      if (faults.on("challenge-put-answers-object")) return sendItems(reply, [{ [CHALLENGE_TYPE_KEY]: challengeView(c, c.status) }]);
      return sendId(reply, c.id);
    });
  },
};

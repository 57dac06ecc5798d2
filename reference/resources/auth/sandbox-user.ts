import { objectBody, type ReferenceContext, type ResourceModule } from "../../module.js";
import type { User } from "../../state.js";
import type { CardRecord } from "../cards/cards.js";

/** POST /sandbox-user-person: a fresh user with fresh data (wire conventions §4). */
export const sandboxUserModule: ResourceModule = {
  name: "sandbox-user",
  register(app, ctx) {
    let first: string | undefined;
    let sharedLockedIps: Set<string> | undefined;
    /** The sandbox user made before (fault r4-sandbox-user-inherits-card-states copies its cards' states). */
    let previous: User | undefined;
    app.post("/v1/sandbox-user-person", { config: { auth: "none" } }, async (request, reply) => {
      // Fault sandbox-user-body-required: the JSON-object helper of the other POST handlers, copied; the empty body is refused.
      if (ctx.faults.on("sandbox-user-body-required")) objectBody(request);
      const again = keyHandedOutAgain(ctx, first);
      if (again) return reply.send({ Response: [{ ApiKey: { api_key: again } }] });
      const user = ctx.createUser("sandbox user");
      cardStatesFromPrevious(ctx, previous, user);
      previous = user;
      first ??= user.apiKey;
      // Variant sandbox-user-lockout-shared (blind round 2, ruled open): every sandbox key gets the same lock-out set,
      // so a lock-out holds for the caller's address whatever the key.
      if (ctx.variants.on("sandbox-user-lockout-shared")) ctx.state.apiKeys.get(user.apiKey)!.lockedIps = sharedLockedIps ??= new Set();
      return reply
        .code(200)
        .type("application/json")
        .send({ Response: [{ ApiKey: { api_key: user.apiKey } }] });
    });
  },
};

/** Every call makes a fresh user with a fresh API key (AUTH-017); the fault hands out the first key again. */
function keyHandedOutAgain(ctx: ReferenceContext, first: string | undefined): string | undefined {
  return ctx.faults.on("sandbox-user-same-key") ? first : undefined;
}

/**
 * A sandbox user's cards start from the seed table, whatever other users did (conventions §4: fresh data). Fault
 * r4-sandbox-user-inherits-card-states: the sandbox clones the previous sandbox user's card rows as its template, so the
 * states that user's cards reached (blocked, activated, re-ordered) carry over to the new user's cards, card by card.
 */
function cardStatesFromPrevious(ctx: ReferenceContext, previous: User | undefined, user: User): void {
  if (!ctx.faults.on("r4-sandbox-user-inherits-card-states") || !previous) return;
  const cards = ctx.state.collection<CardRecord>("cards");
  const template = cards.list(previous.id);
  cards.list(user.id).forEach((card, i) => {
    const from = template[i];
    if (from) Object.assign(card, { status: from.status, order_status: from.order_status, activated: from.activated });
  });
}

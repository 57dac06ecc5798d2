import { objectBody, type ReferenceContext, type ResourceModule } from "../../module.js";

/** POST /sandbox-user-person: a fresh user with fresh data (wire conventions §4). */
export const sandboxUserModule: ResourceModule = {
  name: "sandbox-user",
  register(app, ctx) {
    let first: string | undefined;
    let sharedLockedIps: Set<string> | undefined;
    app.post("/v1/sandbox-user-person", { config: { auth: "none" } }, async (request, reply) => {
      // Fault sandbox-user-body-required: the JSON-object helper of the other POST handlers, copied; the empty body is refused.
      if (ctx.faults.on("sandbox-user-body-required")) objectBody(request);
      const again = keyHandedOutAgain(ctx, first);
      if (again) return reply.send({ Response: [{ ApiKey: { api_key: again } }] });
      const user = ctx.createUser("sandbox user");
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

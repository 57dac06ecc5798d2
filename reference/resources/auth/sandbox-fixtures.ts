import { pathUser, sendItems, type ResourceModule } from "../../module.js";

/**
 * GET /user/{userID}/sandbox-fixtures: a sandbox-only aid, not part of the specification. It answers the
 * ids a profile's `fixtures` would list for the caller (monetary account, OAuth client, challenge requests,
 * feature announcements), so a profile can say `fixtures: discover` instead of copying them by hand.
 */
export const sandboxFixturesModule: ResourceModule = {
  name: "sandbox-fixtures",
  register(app, ctx) {
    app.get("/v1/user/:userID/sandbox-fixtures", { config: { auth: "session" } }, async (request, reply) => {
      const userId = pathUser(request, ctx);
      return sendItems(reply, [{ SandboxFixtures: { ...ctx.fixturesOf(userId) } }]);
    });
  },
};

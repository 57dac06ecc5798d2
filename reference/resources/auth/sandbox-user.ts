import type { ResourceModule } from "../../module.js";

/** POST /sandbox-user-person: a fresh user with fresh data (wire conventions §4). */
export const sandboxUserModule: ResourceModule = {
  name: "sandbox-user",
  register(app, ctx) {
    let first: string | undefined;
    app.post("/v1/sandbox-user-person", { config: { auth: "none" } }, async (_request, reply) => {
      if (ctx.faults.on("sandbox-user-same-key") && first) return reply.send({ Response: [{ ApiKey: { api_key: first } }] });
      const user = ctx.createUser("sandbox user");
      first ??= user.apiKey;
      return reply
        .code(200)
        .type("application/json")
        .send({ Response: [{ ApiKey: { api_key: user.apiKey } }] });
    });
  },
};

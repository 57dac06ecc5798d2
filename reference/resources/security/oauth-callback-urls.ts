import type { FastifyRequest } from "fastify";
import { intParam, objectBody, pathUser, sendId, sendItems, type ResourceModule } from "../../module.js";
import { paginate } from "../../pagination.js";
import { timestamp } from "../../time.js";
import { invalidBody, notTheirs } from "../refusals.js";

const OAUTH_CALLBACK_URL_TYPE_KEY = "OauthCallbackUrl";

/** An OAuth client: the spec references it only by id, so it exists only to own callback URLs. */
interface OauthClientRecord {
  id: number;
  created: string;
}

interface CallbackUrlRecord {
  id: number;
  clientId: number;
  created: string;
  updated: string;
  url: string;
  /** Made by seed() (the list-cached fault shows only these). */
  seeded?: true;
}

const BASE = "/v1/user/:userID/oauth-client/:oauthClientID/callback-url";
/** Seeded callback URLs per client: more than one, so a read that ignores its item id shows. */
const SEEDED_URLS = [
  "https://app.example/oauth/callback",
  "https://app.example/oauth/callback-2",
  "https://staging.app.example/oauth/callback",
];

function view(record: CallbackUrlRecord): Record<string, unknown> {
  return { id: record.id, created: record.created, updated: record.updated, url: record.url };
}

/**
 * OAuth client callback URLs (spec: Endpoints > OAuth client callback URLs; conventions §1, §2):
 * list, create, read, update, delete under one of the user's OAuth clients.
 */
export const oauthCallbackUrlsModule: ResourceModule = {
  name: "oauth-callback-urls",
  seed(ctx, user) {
    const now = timestamp();
    const client = ctx.state.collection<OauthClientRecord>("oauth-clients").add(user.id, (id) => ({ id, created: now }));
    const urls = ctx.state.collection<CallbackUrlRecord>("oauth-callback-urls");
    for (const url of SEEDED_URLS) urls.add(user.id, (id) => ({ id, clientId: client.id, created: now, updated: now, url, seeded: true }));
    return { oauthClientId: client.id };
  },
  register(app, ctx) {
    const { faults, state } = ctx;
    const clients = state.collection<OauthClientRecord>("oauth-clients");
    const urls = state.collection<CallbackUrlRecord>("oauth-callback-urls");

    /** The OAuth client of the path, which must be the caller's; the owner whose URLs it holds. */
    function client(request: FastifyRequest, skipCheck = false): { owner: number; clientId: number } {
      const userId = pathUser(request, ctx);
      const clientId = intParam(request, "oauthClientID");
      if (clients.get(userId, clientId)) return { owner: userId, clientId };
      const owner = clients.ownerOf(clientId);
      if (owner !== undefined && (skipCheck || faults.on("callback-url-other-users-client-accepted"))) return { owner, clientId };
      throw notTheirs(ctx, "No such OAuth client for this user.");
    }

    function item(request: FastifyRequest, skipCheck = false): CallbackUrlRecord {
      const { owner, clientId } = client(request, skipCheck);
      const id = intParam(request, "itemId");
      const found = urls.get(owner, id);
      if (!found || found.clientId !== clientId) throw notTheirs(ctx);
      return found;
    }

    /** url: a required string (spec); whether it must look like a URL is not stated, so any non-empty string goes. */
    function urlField(body: Record<string, unknown>, typeChecked: boolean): string {
      const url = body.url;
      if (url === undefined && faults.on("callback-url-missing-url-accepted")) return "";
      if (!typeChecked && url !== undefined) return String(url as string);
      if (typeof url !== "string" || url.trim() === "") throw invalidBody(ctx, "Field url must be a non-empty string.");
      return url;
    }

    app.get(BASE, async (request, reply) => {
      const { owner, clientId } = client(request);
      const all = urls.list(owner).filter((u) => u.clientId === clientId && (u.seeded || !faults.on("callback-url-list-cached")));
      const page = paginate(request, all, ctx);
      return sendItems(
        reply,
        page.items.map((u) => ({ [OAUTH_CALLBACK_URL_TYPE_KEY]: view(u) })),
        { Pagination: page.pagination },
      );
    });

    app.post(BASE, async (request, reply) => {
      const { owner, clientId } = client(request);
      const url = urlField(objectBody(request), true);
      const now = timestamp();
      const created = urls.add(owner, (id) => ({ id, clientId, created: now, updated: now, url }));
      if (faults.on("callback-url-create-answers-201"))
        return reply
          .code(201)
          .type("application/json")
          .send({ Response: [{ Id: { id: created.id } }] });
      return sendId(reply, created.id);
    });

    app.get(`${BASE}/:itemId`, async (request, reply) => {
      let found = item(request, faults.on("callback-url-item-skips-client-check"));
      if (faults.on("callback-url-read-ignores-item-id"))
        found = urls.list(clients.ownerOf(found.clientId)!).find((u) => u.clientId === found.clientId)!;
      return sendItems(reply, [{ [OAUTH_CALLBACK_URL_TYPE_KEY]: view(found) }]);
    });

    app.put(`${BASE}/:itemId`, async (request, reply) => {
      const found = item(request, faults.on("callback-url-put-skips-client-check"));
      const body = objectBody(request);
      // The fault merges the body into the record first and validates after, so a refusal comes too late.
      if (faults.on("callback-url-refused-put-applies")) found.url = body.url as string;
      const url = urlField(body, !faults.on("callback-url-put-url-type-unchecked"));
      if (!faults.on("callback-url-put-ignored")) {
        found.url = url;
        found.updated = timestamp();
      }
      return sendId(reply, found.id);
    });

    app.delete(`${BASE}/:itemId`, async (request, reply) => {
      const skipCheck = faults.on("callback-url-delete-skips-client-check");
      const { owner } = client(request, skipCheck);
      const found = item(request, skipCheck);
      if (!faults.on("callback-url-delete-noop")) urls.delete(owner, found.id);
      if (faults.on("callback-url-delete-answers-204")) return reply.code(204).send();
      return sendItems(reply, []);
    });
  },
};

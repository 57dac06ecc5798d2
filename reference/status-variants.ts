// Legal variants of refusal statuses (conventions §6: where the specification fixes no status, any 4XX
// with an error body passes). Real servers pick codes per endpoint and per reason, so these variants do
// too: a check that hard-codes one code for "not found", "bad body", "unknown method" or "bad path id"
// on any endpoint fails under one of them.
import type { FastifyRequest } from "fastify";
import type { VariantName } from "../faults/catalogue.js";
import type { VariantSet } from "./switches.js";
import type { HttpError } from "./http-error.js";

/** Which resource a route (its pattern, e.g. /v1/user/:userID/company/:itemId) belongs to. */
function resourceOf(route: string): string {
  const match = /^\/v1\/user\/:userID\/(?:monetary-account\/:\w+\/|oauth-client\/:\w+\/)?([a-z-]+)/.exec(route);
  return match?.[1] ?? "other";
}

/** The reason behind a refusal, as far as the status and the error's kind tell it. */
type Reason = "not-found" | "bad-path-id" | "bad-body" | "forbidden" | "other";

function reasonOf(status: number, error: HttpError | undefined, request: FastifyRequest): Reason {
  if (error?.kind === "bad-path-id") return "bad-path-id";
  if (status === 404) return "not-found";
  if (status === 403) return "forbidden";
  if (
    status === 400 &&
    (request.method === "POST" || request.method === "PUT") &&
    !/^\/v1\/(installation|device-server|session-server)/.test(request.url)
  )
    return "bad-body";
  return "other";
}

/** Per variant: reason → resource (or "*") → status. */
const TABLES: Partial<Record<VariantName, Partial<Record<Reason, Record<string, number>>>>> = {
  "4xx-per-endpoint": {
    "not-found": {
      "certificate-pinned": 410,
      "callback-url": 410,
      "share-invite-monetary-account-response": 403,
      "feature-announcement": 403,
      "*": 404,
    },
    "bad-path-id": { "*": 404 },
    "bad-body": {
      company: 422,
      "certificate-pinned": 422,
      "additional-transaction-information-category-user-defined": 422,
      "challenge-request": 422,
      "share-invite-monetary-account-response": 409,
      "card-batch-replace": 422,
      "*": 400,
    },
    forbidden: { "*": 404 },
  },
  "4xx-per-endpoint-mirror": {
    "not-found": { company: 400, "callback-url": 400, "challenge-request": 400, attachment: 410, "*": 404 },
    "bad-path-id": { "*": 422 },
    "bad-body": { "callback-url": 422, "ideal-merchant-transaction": 422, "*": 400 },
    forbidden: { "*": 401 },
  },
};

/** The refusal status under the status variants that are on (unchanged when none is). */
export function variantStatus(status: number, error: HttpError | undefined, request: FastifyRequest, variants: VariantSet): number {
  const table = (Object.keys(TABLES) as VariantName[]).filter((name) => variants.on(name)).map((name) => TABLES[name]!)[0];
  if (!table || status < 400 || status > 499) return status;
  const byResource = table[reasonOf(status, error, request)];
  if (!byResource) return status;
  return byResource[resourceOf(request.routeOptions.url ?? "")] ?? byResource["*"] ?? status;
}

/** Unknown path or unknown method: 4xx-per-endpoint answers 405 (with Allow) for a known path, 404 else; the mirror 404 and 400. */
export function notFoundStatus(knownPath: boolean, variants: VariantSet): number | undefined {
  if (variants.on("4xx-per-endpoint")) return knownPath ? 405 : 404;
  if (variants.on("4xx-per-endpoint-mirror")) return knownPath ? 404 : 400;
  return undefined;
}

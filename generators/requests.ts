// Which request schema each endpoint of harness/endpoints.ts takes, and filling a path template with
// chosen path ids (well-formed or not).
import type { Endpoint } from "../harness/endpoints.js";
import type { BodyName } from "./bodies.js";

/** "METHOD /path/template" → the schema of its JSON body. */
export const BODY_OF: Record<string, BodyName> = {
  "POST /installation": "installation-request",
  "POST /device-server": "device-server-request",
  "POST /session-server": "session-server-request",
  "POST /user/{userID}/company": "company-create",
  "PUT /user/{userID}/company/{itemId}": "company-update",
  "POST /user/{userID}/certificate-pinned": "certificate-pinned-create",
  "PUT /user/{userID}/card/{itemId}": "card-update",
  "POST /user/{userID}/card-batch-replace": "card-batch-replace-request",
  "POST /user/{userID}/card/{itemId}/replace": "card-replace-request",
  "POST /user/{userID}/additional-transaction-information-category-user-defined": "category-user-defined-create",
  "PUT /user/{userID}/challenge-request/{itemId}": "challenge-request-update",
  "POST /user/{userID}/oauth-client/{oauthClientId}/callback-url": "oauth-callback-url-request",
  "PUT /user/{userID}/oauth-client/{oauthClientId}/callback-url/{itemId}": "oauth-callback-url-request",
  "PUT /user/{userID}/share-invite-monetary-account-response/{itemId}": "share-invite-monetary-account-response-update",
  "POST /user/{userID}/monetary-account/{monetaryAccountId}/ideal-merchant-transaction": "ideal-merchant-transaction-create",
};

export function bodyNameOf(endpoint: Pick<Endpoint, "method" | "path">): BodyName | undefined {
  return BODY_OF[`${endpoint.method} ${endpoint.path}`];
}

/** The placeholders of a path template, in order: ["userID", "itemId"]. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** Fills a template; undefined when a placeholder has no value. */
export function fill(template: string, values: Record<string, string | number | undefined>): string | undefined {
  let missing = false;
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) missing = true;
    return String(value ?? "");
  });
  return missing ? undefined : path;
}

/** The list an item endpoint's ids come from (".../card/{itemId}" → ".../card"), if the catalogue has it. */
export function listPathOf(itemPath: string): string | undefined {
  const match = /^(.*)\/\{itemId\}(?:\/[a-z-]+)?$/.exec(itemPath);
  return match?.[1];
}

import { BODY_VALUE_DEFAULTS, type BodyValues, type Fixtures } from "./profile.js";

/** One endpoint of the specification, as the cross-cutting checks iterate over them. */
export interface Endpoint {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path template under /v1, e.g. "/user/{userID}/card/{itemId}". */
  path: string;
  /** Spec section (banking-api.md "Endpoints" subsection). */
  section: string;
  deprecated?: boolean;
  /** Only where the profile enables the capability. */
  capability?: "ideal";
  /** The path needs this fixture id from the profile; without it the endpoint is not exercised. */
  needs?: keyof Fixtures;
  /** A minimal JSON body for methods that take one (attachments take raw bytes). */
  body?: unknown;
  /** Raw-body upload (attachments). */
  raw?: boolean;
}

/** Every endpoint of banking-api.md (and the iDEAL paths of wire conventions §7). */
/** A company body as GAP-65 has the suite send it: the default bodyValues (the provider's) and both addresses. */
const ADDRESS = { street: "Naritaweg", house_number: "131", postal_code: "1043 BS", city: "Amsterdam", country: "NL" };
const companyBody = (v: BodyValues) => ({ name: "Conformance BV", country: v.companyCountries[0], legal_form: v.companyLegalForm, subscription_type: v.companySubscriptionType, address_main: ADDRESS, address_postal: ADDRESS });
const COMPANY_BODY = companyBody(BODY_VALUE_DEFAULTS);
const CATEGORY_BODY = { status: BODY_VALUE_DEFAULTS.categoryStatus };

export const ENDPOINTS: Endpoint[] = [
  { method: "POST", path: "/user/{userID}/company", section: "Companies", body: COMPANY_BODY },
  { method: "GET", path: "/user/{userID}/company", section: "Companies" },
  { method: "GET", path: "/user/{userID}/company/{itemId}", section: "Companies" },
  { method: "PUT", path: "/user/{userID}/company/{itemId}", section: "Companies", body: COMPANY_BODY },
  { method: "POST", path: "/user/{userID}/certificate-pinned", section: "Pinned certificates", body: { certificate_chain: [{ certificate: "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----" }] } },
  { method: "GET", path: "/user/{userID}/certificate-pinned/{itemId}", section: "Pinned certificates" },
  { method: "DELETE", path: "/user/{userID}/certificate-pinned/{itemId}", section: "Pinned certificates" },
  { method: "GET", path: "/user/{userID}/certificate-pinned", section: "Pinned certificates" },
  { method: "POST", path: "/user/{userID}/monetary-account/{monetaryAccountId}/attachment", section: "Attachments", needs: "monetaryAccountId", raw: true },
  { method: "GET", path: "/user/{userID}/attachment/{itemId}", section: "Attachments" },
  { method: "GET", path: "/user/{userID}/card", section: "Cards" },
  { method: "GET", path: "/user/{userID}/card/{itemId}", section: "Cards" },
  { method: "PUT", path: "/user/{userID}/card/{itemId}", section: "Cards", body: { second_line: "conformance" } },
  { method: "POST", path: "/user/{userID}/card-batch-replace", section: "Card replacement", body: { cards: [] } },
  { method: "POST", path: "/user/{userID}/card/{itemId}/replace", section: "Card replacement", body: {} },
  { method: "GET", path: "/user/{userID}/feature-announcement/{itemId}", section: "Feature announcement" },
  { method: "POST", path: "/user/{userID}/additional-transaction-information-category-user-defined", section: "User-defined transaction categories", body: CATEGORY_BODY },
  { method: "GET", path: "/user/{userID}/challenge-request/{itemId}", section: "Challenge requests" },
  { method: "PUT", path: "/user/{userID}/challenge-request/{itemId}", section: "Challenge requests", body: { status: "REJECTED_PENDING_RESPONSE" } },
  { method: "GET", path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url", section: "OAuth client callback URLs", needs: "oauthClientId" },
  { method: "POST", path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url", section: "OAuth client callback URLs", needs: "oauthClientId", body: { url: "https://client.example/callback" } },
  { method: "GET", path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url/{itemId}", section: "OAuth client callback URLs", needs: "oauthClientId" },
  { method: "PUT", path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url/{itemId}", section: "OAuth client callback URLs", needs: "oauthClientId", body: { url: "https://client.example/callback" } },
  { method: "DELETE", path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url/{itemId}", section: "OAuth client callback URLs", needs: "oauthClientId" },
  { method: "GET", path: "/user/{userID}/share-invite-monetary-account-response", section: "Share invites", deprecated: true },
  { method: "GET", path: "/user/{userID}/share-invite-monetary-account-response/{itemId}", section: "Share invites", deprecated: true },
  { method: "PUT", path: "/user/{userID}/share-invite-monetary-account-response/{itemId}", section: "Share invites", deprecated: true, body: { status: "REJECTED" } },
  { method: "POST", path: "/user/{userID}/monetary-account/{monetaryAccountId}/ideal-merchant-transaction", section: "iDEAL", deprecated: true, capability: "ideal", needs: "monetaryAccountId", body: { amount_requested: { value: "1.00", currency: "EUR" }, issuer: "BUNQNL2A" } },
  { method: "GET", path: "/user/{userID}/monetary-account/{monetaryAccountId}/ideal-merchant-transaction", section: "iDEAL", deprecated: true, capability: "ideal", needs: "monetaryAccountId" },
  { method: "GET", path: "/user/{userID}/monetary-account/{monetaryAccountId}/ideal-merchant-transaction/{itemId}", section: "iDEAL", deprecated: true, capability: "ideal", needs: "monetaryAccountId" },
];

/** The authentication calls that need the installation token. */
export const INSTALLATION_TOKEN_ENDPOINTS: Endpoint[] = [
  { method: "POST", path: "/device-server", section: "Authentication endpoints", body: { description: "conformance", secret: "x" } },
  { method: "POST", path: "/session-server", section: "Authentication endpoints", body: { secret: "x" } },
];

/** Fills a path template; undefined when a fixture it needs is missing. */
export function fillPath(endpoint: Endpoint, ids: { userID: number; itemId?: number; fixtures: Fixtures }): string | undefined {
  let missing = false;
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === "userID") return String(ids.userID);
    if (name === "itemId") return String(ids.itemId ?? 1);
    const value = ids.fixtures[name as keyof Fixtures];
    if (typeof value !== "number") {
      missing = true;
      return "";
    }
    return String(value);
  });
  return missing ? undefined : path;
}

/** An endpoint's body with the target's own values (profile bodyValues) where the specification shows none. */
export function endpointBody(endpoint: Endpoint, values: BodyValues): unknown {
  if (endpoint.body === COMPANY_BODY) return companyBody(values);
  if (endpoint.body === CATEGORY_BODY) return { status: values.categoryStatus };
  return endpoint.body;
}

/** Endpoints that exist for this profile (capabilities on). */
export function endpointsFor(capabilities: { ideal?: boolean }): Endpoint[] {
  return ENDPOINTS.filter((e) => !e.capability || capabilities[e.capability]);
}

import type { BodyName } from "../generators/bodies.js";
import { BODY_VALUE_DEFAULTS, type BodyValues, type Fixtures } from "./profile/profile.js";

/**
 * What an operation answers. typed: Response holds elements under these type keys (each `[key, schema]`;
 * alternatives mean any one of them, LENIENT readings included); list adds Pagination; contains: these keys
 * must all be there. any-key: one element under any type key; delete: an empty or typed answer to a DELETE.
 */
export type Answer =
  | { kind: "typed"; elements: [string, string][]; list?: true; contains?: string[][] }
  | { kind: "any-key"; schema: string }
  | { kind: "delete" }
  | { kind: "envelope" };

/**
 * One endpoint of the specification: the one table the cross-cutting checks iterate over, the OpenAPI export
 * describes (report/openapi.ts), and the generators and the error-bodies property take body schemas from.
 */
export interface Endpoint {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path template under /v1, e.g. "/user/{userID}/card/{itemId}". */
  path: string;
  /** Spec section (banking-api.md "Endpoints" subsection). */
  section: string;
  /** What it does, in one line (the OpenAPI summary). */
  summary: string;
  /** The schema of its JSON body (schemas/<name>.schema.json), where it takes one; the generators make all but the test-user call's. */
  request?: BodyName | "sandbox-user-request";
  /** What it answers: the type keys of its elements, and whether it is a list. */
  answer: Answer;
  /** Failures answer exactly 400 (spec: Errors, for the card list, read and update). */
  exactly400?: true;
  /** Which token it takes: none, the installation token, or (absent) the session token. */
  auth?: "none" | "installation";
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

const id: [string, string] = ["Id", "id"];
const typed = (...elements: [string, string][]): Answer => ({ kind: "typed", elements });
const list = (...elements: [string, string][]): Answer => ({ kind: "typed", elements, list: true });
const CARD: [string, string][] = [
  ["Card", "card"],
  ["CardDebit", "card"],
  ["CardCredit", "card"],
];
const SESSION_USERS: [string, string][] = [
  ["UserPerson", "session-user"],
  ["UserCompany", "session-user"],
  ["UserApiKey", "session-user"],
];

/** A company body as GAP-65 has the suite send it: the default bodyValues (the provider's) and both addresses. */
const ADDRESS = { street: "Naritaweg", house_number: "131", postal_code: "1043 BS", city: "Amsterdam", country: "NL" };
const companyBody = (v: BodyValues) => ({
  name: "Conformance BV",
  country: v.companyCountries[0],
  legal_form: v.companyLegalForm,
  subscription_type: v.companySubscriptionType,
  address_main: ADDRESS,
  address_postal: ADDRESS,
});
const COMPANY_BODY = companyBody(BODY_VALUE_DEFAULTS);
const CATEGORY_BODY = { status: BODY_VALUE_DEFAULTS.categoryStatus };

/** Every resource endpoint of banking-api.md (and the iDEAL paths of wire conventions §7). */
export const ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/user/{userID}/company",
    section: "Companies",
    body: COMPANY_BODY,
    summary: "Create a company",
    request: "company-create",
    answer: typed(id),
  },
  {
    method: "GET",
    path: "/user/{userID}/company",
    section: "Companies",
    summary: "List the user's companies",
    answer: list(["UserCompany", "company"]),
  },
  {
    method: "GET",
    path: "/user/{userID}/company/{itemId}",
    section: "Companies",
    summary: "Read a company",
    answer: typed(["UserCompany", "company"]),
  },
  {
    method: "PUT",
    path: "/user/{userID}/company/{itemId}",
    section: "Companies",
    body: COMPANY_BODY,
    summary: "Update a company; answers Id or the company (LENIENT)",
    request: "company-update",
    answer: typed(id, ["UserCompany", "company"]),
  },
  {
    method: "POST",
    path: "/user/{userID}/certificate-pinned",
    section: "Pinned certificates",
    body: { certificate_chain: [{ certificate: "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----" }] },
    summary: "Pin a certificate chain",
    request: "certificate-pinned-create",
    answer: typed(id),
  },
  {
    method: "GET",
    path: "/user/{userID}/certificate-pinned/{itemId}",
    section: "Pinned certificates",
    summary: "Read a pinned chain",
    answer: typed(["CertificatePinned", "certificate-pinned"]),
  },
  {
    method: "DELETE",
    path: "/user/{userID}/certificate-pinned/{itemId}",
    section: "Pinned certificates",
    summary: "Delete a pinned chain",
    answer: { kind: "delete" },
  },
  {
    method: "GET",
    path: "/user/{userID}/certificate-pinned",
    section: "Pinned certificates",
    summary: "List the pinned chains",
    answer: list(["CertificatePinned", "certificate-pinned"]),
  },
  {
    method: "POST",
    path: "/user/{userID}/monetary-account/{monetaryAccountId}/attachment",
    section: "Attachments",
    needs: "monetaryAccountId",
    raw: true,
    summary: "Upload an attachment (raw bytes) to a monetary account",
    answer: typed(id),
  },
  {
    method: "GET",
    path: "/user/{userID}/attachment/{itemId}",
    section: "Attachments",
    summary: "Read an attachment's description and content type",
    answer: typed(["AttachmentUser", "attachment-user"]),
  },
  {
    method: "GET",
    path: "/user/{userID}/card",
    section: "Cards",
    summary: "List the cards the user can access",
    answer: list(...CARD),
    exactly400: true,
  },
  {
    method: "GET",
    path: "/user/{userID}/card/{itemId}",
    section: "Cards",
    summary: "Read a card",
    answer: typed(...CARD),
    exactly400: true,
  },
  {
    method: "PUT",
    path: "/user/{userID}/card/{itemId}",
    section: "Cards",
    body: { second_line: "conformance" },
    summary: "Update a card (status, order status, names, fallback account, PIN); answers the card",
    request: "card-update",
    answer: typed(...CARD),
    exactly400: true,
  },
  {
    method: "POST",
    path: "/user/{userID}/card-batch-replace",
    section: "Card replacement",
    body: { cards: [] },
    summary: "Replace several cards",
    request: "card-batch-replace-request",
    answer: typed(["CardBatchReplace", "card-batch-replace"]),
  },
  {
    method: "POST",
    path: "/user/{userID}/card/{itemId}/replace",
    section: "Card replacement",
    body: {},
    summary: "Replace a card (new number, same expiry and pricing)",
    request: "card-replace-request",
    answer: typed(id),
  },
  {
    method: "GET",
    path: "/user/{userID}/feature-announcement/{itemId}",
    section: "Feature announcement",
    summary: "Read a feature announcement",
    answer: typed(["FeatureAnnouncement", "feature-announcement"]),
  },
  {
    method: "POST",
    path: "/user/{userID}/additional-transaction-information-category-user-defined",
    section: "User-defined transaction categories",
    body: CATEGORY_BODY,
    summary: "Create a user-defined transaction category",
    request: "category-user-defined-create",
    answer: typed(id),
  },
  {
    method: "GET",
    path: "/user/{userID}/challenge-request/{itemId}",
    section: "Challenge requests",
    summary: "Read a challenge request (any single type key whose object has a string status)",
    answer: { kind: "any-key", schema: "challenge-request" },
  },
  {
    method: "PUT",
    path: "/user/{userID}/challenge-request/{itemId}",
    section: "Challenge requests",
    body: { status: "REJECTED_PENDING_RESPONSE" },
    summary: "Answer a challenge request",
    request: "challenge-request-update",
    answer: typed(id),
  },
  {
    method: "GET",
    path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url",
    section: "OAuth client callback URLs",
    needs: "oauthClientId",
    summary: "List the OAuth client's callback URLs",
    answer: list(["OauthCallbackUrl", "oauth-callback-url"]),
  },
  {
    method: "POST",
    path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url",
    section: "OAuth client callback URLs",
    needs: "oauthClientId",
    body: { url: "https://client.example/callback" },
    summary: "Add a callback URL",
    request: "oauth-callback-url-request",
    answer: typed(id),
  },
  {
    method: "GET",
    path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url/{itemId}",
    section: "OAuth client callback URLs",
    needs: "oauthClientId",
    summary: "Read a callback URL",
    answer: typed(["OauthCallbackUrl", "oauth-callback-url"]),
  },
  {
    method: "PUT",
    path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url/{itemId}",
    section: "OAuth client callback URLs",
    needs: "oauthClientId",
    body: { url: "https://client.example/callback" },
    summary: "Change a callback URL; answers Id or the callback URL (LENIENT)",
    request: "oauth-callback-url-request",
    answer: typed(id, ["OauthCallbackUrl", "oauth-callback-url"]),
  },
  {
    method: "DELETE",
    path: "/user/{userID}/oauth-client/{oauthClientId}/callback-url/{itemId}",
    section: "OAuth client callback URLs",
    needs: "oauthClientId",
    summary: "Delete a callback URL",
    answer: { kind: "delete" },
  },
  {
    method: "GET",
    path: "/user/{userID}/share-invite-monetary-account-response",
    section: "Share invites",
    deprecated: true,
    summary: "List the shares the user was invited to",
    answer: list(["ShareInviteMonetaryAccountResponse", "share-invite-monetary-account-response"]),
  },
  {
    method: "GET",
    path: "/user/{userID}/share-invite-monetary-account-response/{itemId}",
    section: "Share invites",
    deprecated: true,
    summary: "Read a share invitation",
    answer: typed(["ShareInviteMonetaryAccountResponse", "share-invite-monetary-account-response"]),
  },
  {
    method: "PUT",
    path: "/user/{userID}/share-invite-monetary-account-response/{itemId}",
    section: "Share invites",
    deprecated: true,
    body: { status: "REJECTED" },
    summary: "Accept, reject or revoke a share invitation; answers Id or the share (LENIENT)",
    request: "share-invite-monetary-account-response-update",
    answer: typed(id, ["ShareInviteMonetaryAccountResponse", "share-invite-monetary-account-response"]),
  },
  {
    method: "POST",
    path: "/user/{userID}/monetary-account/{monetaryAccountId}/ideal-merchant-transaction",
    section: "iDEAL",
    deprecated: true,
    capability: "ideal",
    needs: "monetaryAccountId",
    body: { amount_requested: { value: "1.00", currency: "EUR" }, issuer: "BUNQNL2A" },
    summary: "Request an iDEAL merchant transaction",
    request: "ideal-merchant-transaction-create",
    answer: typed(id),
  },
  {
    method: "GET",
    path: "/user/{userID}/monetary-account/{monetaryAccountId}/ideal-merchant-transaction",
    section: "iDEAL",
    deprecated: true,
    capability: "ideal",
    needs: "monetaryAccountId",
    summary: "List iDEAL merchant transactions",
    answer: list(["IdealMerchantTransaction", "ideal-merchant-transaction"]),
  },
  {
    method: "GET",
    path: "/user/{userID}/monetary-account/{monetaryAccountId}/ideal-merchant-transaction/{itemId}",
    section: "iDEAL",
    deprecated: true,
    capability: "ideal",
    needs: "monetaryAccountId",
    summary: "Poll an iDEAL merchant transaction",
    answer: typed(["IdealMerchantTransaction", "ideal-merchant-transaction"]),
  },
];

const DEVICE_SERVER: Endpoint = {
  method: "POST",
  path: "/device-server",
  section: "Authentication endpoints",
  body: { description: "conformance", secret: "x" },
  summary: "Register the device for the API key (installation token); binds the key to the caller's IP or permitted_ips",
  request: "device-server-request",
  auth: "installation",
  answer: typed(id),
};
const SESSION_SERVER: Endpoint = {
  method: "POST",
  path: "/session-server",
  section: "Authentication endpoints",
  body: { secret: "x" },
  summary: "Open a session (installation token); the user object's id is the userID of every path",
  request: "session-server-request",
  auth: "installation",
  answer: {
    kind: "typed",
    elements: [id, ["Token", "token"], ...SESSION_USERS],
    contains: [["Id"], ["Token"], ["UserPerson", "UserCompany", "UserApiKey"]],
  },
};

/** The authentication calls that need the installation token. */
export const INSTALLATION_TOKEN_ENDPOINTS: Endpoint[] = [DEVICE_SERVER, SESSION_SERVER];

/** The authentication calls (spec: Authentication endpoints) and the test-user call (wire conventions §4). */
export const AUTH_ENDPOINTS: Endpoint[] = [
  {
    method: "POST",
    path: "/installation",
    section: "Authentication endpoints",
    summary: "Register the client's public key; answers Id, the installation Token and the ServerPublicKey",
    request: "installation-request",
    auth: "none",
    answer: {
      kind: "typed",
      elements: [id, ["Token", "token"], ["ServerPublicKey", "server-public-key"]],
      contains: [["Id"], ["Token"], ["ServerPublicKey"]],
    },
  },
  DEVICE_SERVER,
  SESSION_SERVER,
  {
    method: "POST",
    path: "/sandbox-user-person",
    section: "Test users",
    summary: "A fresh test user with fresh data (optional capability of a target)",
    request: "sandbox-user-request",
    auth: "none",
    answer: typed(["ApiKey", "api-key"]),
  },
];

/** The endpoint of a method and path template, among the resource and authentication endpoints. */
export function endpointOf(method: string, path: string): Endpoint | undefined {
  return [...AUTH_ENDPOINTS, ...ENDPOINTS].find((e) => e.method === method && e.path === path);
}

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

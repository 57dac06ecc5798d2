import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FaultName } from "../faults/catalogue.js";
import type { FaultSet, VariantSet } from "./switches.js";
import { HttpError, badRequest, forbidden } from "./http-error.js";
import type { ReferenceState, SessionRecord, User } from "./state.js";

/** What a helper needs to ask which faults and variants are on (a ReferenceContext will do). */
export type Switchboard = Pick<ReferenceContext, "faults" | "variants">;

/** Fixture ids of a user that the API offers no list for (the profile's `fixtures`). */
export interface SeededFixtures {
  monetaryAccountId?: number;
  oauthClientId?: number;
  challengeRequestIds?: number[];
  featureAnnouncementIds?: number[];
}

export interface ReferenceContext {
  state: ReferenceState;
  /** The faults switched on: `ctx.faults.on("card-lost-reactivable")` (names from faults/catalogue.ts). */
  faults: FaultSet;
  /** The legal variants switched on: `ctx.variants.on("pages-descending")`. */
  variants: VariantSet;
  /** Full name of a service header, e.g. header("Client-Authentication"). */
  header(name: string): string;
  /** The least number of items a seeded list holds (ReferenceOptions.listItems; 0: each module's own seed). */
  listItems: number;
  /** A new user with a fresh API key and the seed data of every module. */
  createUser(displayName: string, apiKey?: string): User;
  /** The fixture ids seeded for a user (what a profile's `fixtures` would list), by user id. */
  fixturesOf(userId: number): SeededFixtures | undefined;
}

/**
 * One resource of the reference server: its routes and the data it seeds for each new user. Its faults and
 * legal variants are declared in faults/ (`CARD_FAULTS`, `CARD_VARIANTS` in faults/cards.ts), joined in faults/catalogue.ts.
 */
export interface ResourceModule {
  name: string;
  seed?(ctx: ReferenceContext, user: User): SeededFixtures | void;
  register(app: FastifyInstance, ctx: ReferenceContext): void;
}

/** How a route authenticates; set as route `config`. */
export interface RouteConfig {
  auth?: "none" | "installation" | "session";
  /** Every 4XX of this route is answered with this status (cards: the spec fixes 400). */
  errorStatus?: number;
}

declare module "fastify" {
  interface FastifyRequest {
    session?: SessionRecord;
    installationToken?: string;
    callerIp: string;
  }
}

/** An integer path parameter; anything else is a 400 (conventions §6). */
export function intParam(request: FastifyRequest, name: string): number {
  const raw = (request.params as Record<string, string>)[name] ?? "";
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(400, `Path parameter ${name} must be an integer, got "${raw}".`, "bad-path-id");
  return Number(raw);
}

/** The userID of the path, which must be the session's user (spec: Authentication, rules). */
export function pathUser(request: FastifyRequest, ctx: ReferenceContext, fault?: FaultName): number {
  const given = intParam(request, "userID");
  const session = request.session;
  if (!session) throw forbidden();
  // Fault path-user-zero-means-self: a userID of 0 reads as "no user given" and falls back to the session's user.
  const userId = given || (ctx.faults.on("path-user-zero-means-self") ? session.userId : 0);
  if (userId !== session.userId && !(fault && ctx.faults.on(fault) && ctx.state.users.has(userId))) {
    throw forbidden("The user in the path is not the authenticated user.");
  }
  return userId;
}

/** A JSON object body, or a 400. */
export function objectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === null || typeof body !== "object" || Array.isArray(body) || Buffer.isBuffer(body)) {
    throw badRequest("The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

export function sendItems(reply: FastifyReply, items: Record<string, unknown>[], extra: Record<string, unknown> = {}): FastifyReply {
  return reply
    .code(200)
    .type("application/json")
    .send({ Response: items, ...extra });
}

export function sendId(reply: FastifyReply, id: number): FastifyReply {
  return sendItems(reply, [{ Id: { id } }]);
}

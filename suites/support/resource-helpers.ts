// Small helpers for the company, category, challenge-request and feature-announcement suites.
import { isDeepStrictEqual } from "node:util";
import { expectOk, expectRefused, expectThat, failPlain, type About } from "../../harness/checks.js";
import { LenientLog } from "../../harness/lenient.js";
import { objectsOfType, paginationOf, responseItems, typeKeyOf } from "../../harness/envelope.js";
import type { Exchange } from "../../harness/http/exchange.js";
import type { Session } from "../../harness/session/session.js";
import type { Target } from "../../harness/run/target.js";
import { notApplicable } from "../../harness/not-applicable.js";
import { sharedOnce } from "./shared-once.js";

/**
 * The user a suite file writes additive data to (creates with no DELETE): one fresh user per file where
 * the target provisions users, else the primary. Never called on a read-only target.
 */
export function writerSession(t: Target): () => Promise<Session> {
  return sharedOnce(() => (t.canProvision() ? t.freshSession() : Promise.resolve(t.primary())));
}

/** Every page of a list, from the first page (count=200) along older_url and then newer_url (conventions §5). */
export async function readWholeList(
  t: Target,
  options: { path: string; session: Session; typeKey: string; about: About },
): Promise<{ first: Exchange; objects: Record<string, unknown>[] }> {
  const { session, about } = options;
  const get = (path: string, query?: Record<string, number>) =>
    t.client.request({ path, ...(query ? { query } : {}), token: session.sessionToken, from: session.from });
  const first = await get(options.path, { count: 200 });
  expectOk(first, about);
  const byId = new Map<unknown, Record<string, unknown>>();
  const take = (exchange: Exchange) => {
    for (const o of objectsOfType(exchange.json, options.typeKey)) byId.set(o.id ?? byId.size, o);
  };
  take(first);
  for (const direction of ["older_url", "newer_url"] as const) {
    let link = paginationOf(first.json)?.[direction] ?? null;
    for (let pages = 0; link !== null; pages++) {
      if (pages >= 50) failPlain(about, `following ${direction} from ${first.request.path} did not end after 50 pages`);
      const page = await get(link);
      expectOk(page, { ...about, what: `following ${direction}` });
      take(page);
      link = paginationOf(page.json)?.[direction] ?? null;
    }
  }
  return { first, objects: [...byId.values()] };
}

/** Strings shorter than this are too common ("BV", "NL") to prove a leak when an error text happens to hold them. */
const MIN_TRACE_LENGTH = 6;

/** Whether a body carries `"id": N` (any spacing, not a longer number that starts with N). */
export function bodyHasId(bodyText: string, id: number): boolean {
  return new RegExp(`"id"\\s*:\\s*${id}(?![0-9.])`).test(bodyText);
}

/**
 * A refusal must not carry the item: none of the given values (ids as "id": N, names as text) appears in
 * the body. Strings under six characters are not looked for: an error text may hold them by chance.
 */
export function expectNoTrace(exchange: Exchange, traces: (string | number)[], about: About): void {
  const found = traces.filter((trace) =>
    typeof trace === "number" ? bodyHasId(exchange.bodyText, trace) : trace.length >= MIN_TRACE_LENGTH && exchange.bodyText.includes(trace),
  );
  expectThat(
    found.length === 0,
    exchange,
    "no trace of the other user's item in the body",
    about,
    `${found.map((f) => JSON.stringify(f)).join(", ")} in the body`,
  );
}

/**
 * The owner's ids that are not also ids of the intruder's own items. The specification does not make ids
 * unique across users (a server may number each user's items from 1): reading an id the intruder also owns
 * would rightly answer the intruder's own item, so only the other ids can show a foreign read.
 */
export function foreignIds(ownerIds: unknown[], intruderIds: unknown[]): number[] {
  const own = new Set(intruderIds);
  return ownerIds.filter((id): id is number => typeof id === "number" && !own.has(id));
}

/** Why an object-level check on an id the API gives no list for stops: the other user has an item of that id too. */
export const SAME_ID_ELSEWHERE =
  "the other user seems to have an item of its own under that id (ids per user?), so the answer cannot be told from an own read";

/** Why an object-level check cannot run: every id of the owner is also one of the intruder's. */
export const SHARED_IDS =
  "every item id of the owner is also an id of the other user's own items (ids per user?), so a refusal could not be told from an own read";

/** The object of a 200 answer with exactly one Response element (under any type key), else undefined. */
function singleObject(exchange: Exchange): unknown {
  if (exchange.status !== 200) return undefined;
  const items = responseItems(exchange.json);
  const key = items?.length === 1 ? typeKeyOf(items[0]) : undefined;
  return key === undefined ? undefined : items![0]![key];
}

/**
 * Whether another user's 200 answer is an item of its own with the owner's id: one object, and not the
 * owner's very object (same created time, uuids, status …). Where ids may be per user (GAP-70) only the
 * owner's own object shows a leak; an empty or odd 200 is still no refusal.
 */
export function showsOwnItemOfSameId(exchange: Exchange, owners: Record<string, unknown>): boolean {
  const object = singleObject(exchange);
  return object !== undefined && object !== null && typeof object === "object" && !isDeepStrictEqual(object, owners);
}

/** Two URLs are the same once parsed (a server may normalise case of scheme and host, default ports, escapes). */
export function sameUrl(a: unknown, b: string): boolean {
  if (typeof a !== "string") return false;
  if (a === b) return true;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/**
 * Why a deprecated endpoint's checks cannot run: the target answers its list with a 4XX, as a server that retired it
 * may (VER-003 is LENIENT: "Policy for future versions and for retiring deprecated items: not shown"). Undefined where
 * it is served. Read once per target, list path and thread.
 */
const retiredLists = new Map<string, Promise<string | undefined>>();
export function retiredDeprecated(t: Target, session: Session, listPath: string): Promise<string | undefined> {
  const path = t.userPath(session, listPath);
  // Workers go from run to run (kill matrix): one target's answer is not another's, whose user ids may be the same.
  const key = `${t.profile.baseUrl} ${path}`;
  let known = retiredLists.get(key);
  if (!known) {
    known = t.client
      .request({ path, token: session.sessionToken, from: session.from })
      .then((exchange) =>
        exchange.status >= 400 && exchange.status < 500
          ? notApplicable(`the deprecated ${listPath} answers ${exchange.status}: the target has retired it (VER-003 allows that)`)
          : undefined,
      );
    retiredLists.set(key, known);
  }
  return known;
}

/** ERR-014's other reading (LENIENT, blind ruling 2026-11-28), worded once so its notes collapse in the report. */
export const UNKNOWN_ID_EMPTY = "a read of an item id that names no item answered 200 with an empty Response";

/**
 * ERR-014: a read of an item id that names nothing is refused with an error body, or answered 200 with an empty Response
 * (noted; strict requires the refusal): neither file says how such a read is answered.
 */
export async function expectUnknownIdAnswer(
  t: Target,
  exchange: Exchange,
  about: About,
  annotate: Parameters<LenientLog["report"]>[0],
): Promise<void> {
  if (exchange.status === 200 && responseItems(exchange.json)?.length === 0) {
    const log = new LenientLog(t.profile.strict);
    log.note(about, UNKNOWN_ID_EMPTY, "a 4XX refusal with an error body");
    return log.report(annotate);
  }
  expectRefused(exchange, about);
}

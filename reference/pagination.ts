import type { FastifyRequest } from "fastify";
import { badRequest } from "./http-error.js";
import type { FaultName } from "../faults/catalogue.js";
import type { Switchboard } from "./module.js";

const MAX_COUNT = 200;
const DEFAULT_COUNT = 10;

type Pagination = { future_url: string | null; newer_url: string | null; older_url: string | null };

export interface Page<T> {
  items: T[];
  /** Undefined only under fault page-empty-list-no-pagination (the list is then sent without Pagination). */
  pagination: Pagination | undefined;
}

function integerQuery(query: Record<string, unknown>, name: string, ctx: Switchboard): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  // Fault page-count-parseint: count is read with parseInt, which stops at the first character that is not a digit.
  if (name === "count" && ctx.faults.on("page-count-parseint") && typeof raw === "string" && /^\d{1,15}/.test(raw)) {
    return Number.parseInt(raw, 10);
  }
  if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw)) throw badRequest(`Query parameter ${name} must be a non-negative integer.`);
  return Number(raw);
}

/**
 * Pagination per wire conventions §5, in the specification's reading: pages ascend by id,
 * no cursor gives the newest `count` items, newer_url/older_url are null exactly at the ends.
 * Faults and variants bend it only inside the seams below this function.
 */
export function paginate<T extends { id: number }>(request: FastifyRequest, all: T[], ctx: Switchboard): Page<T> {
  const query = request.query as Record<string, unknown>;
  const list = request.url.split("?")[0]!;
  const everything = negativeCountServesAll(ctx, list, query.count);
  const count = everything ? undefined : integerQuery(query, "count", ctx);
  if (count !== undefined && !countInRange(ctx, list, count, query.count))
    throw badRequest(`Query parameter count must be between 1 and ${MAX_COUNT}.`);
  const newerId = integerQuery(query, "newer_id", ctx);
  const olderId = integerQuery(query, "older_id", ctx);
  if (newerId !== undefined && !newerIdServed(ctx)) throw badRequest("Query parameter newer_id is not supported.");
  if (newerId !== undefined && olderId !== undefined) throw badRequest("Use newer_id or older_id, not both.");
  const cursorPage = newerId !== undefined || olderId !== undefined;
  const size = everything ? Math.max(all.length, 1) : pageSize(ctx, list, count, cursorPage);

  const sorted = sortedById(ctx, list, all);
  let items: T[];
  const above = newerId === undefined ? [] : sorted.filter((i) => isNewer(ctx, list, i.id, newerId));
  if (newerId !== undefined) items = newerPage(ctx, above, size);
  else if (olderId !== undefined) items = olderPage(ctx, sorted, olderId, size, list);
  else items = newestPage(ctx, sorted, size, list);
  if (servedFromSnapshot(ctx, query)) items = [];

  const links = pageLinks(ctx, request, count, cursorPage, items.length);
  if (items.length === 0) {
    const listEmpty = all.length === 0;
    return { items, pagination: emptyPagination(ctx, shown(ctx, emptyListLinks(ctx, links, listEmpty)), listEmpty) };
  }
  const max = items[items.length - 1]!.id;
  const min = items[0]!.id;
  const show = linksShown(
    ctx,
    sorted.some((i) => i.id > max) && !newerUrlDropped(ctx, list, olderId !== undefined),
    olderExist(ctx, sorted, min, items.length === size),
    cursorPage,
  );
  const cursor = cursors(ctx, max, min);
  return {
    items: pageOrder(ctx, items),
    pagination: shown(ctx, {
      future_url: show.future ? links.future(cursor.future) : null,
      newer_url: show.newer ? links.newer(cursor.newer) : null,
      older_url: show.older ? links.older(cursor.older) : null,
    }),
  };
}

// ---- Seams: each decides one rule of paginate() and names the faults and variants that bend it. ----

/** A fault of one list only (an older code path): on, and the request is for that list. */
function onList(ctx: Switchboard, name: FaultName, list: string, resource: string): boolean {
  return ctx.faults.on(name) && list.endsWith(`/${resource}`);
}

/** The items in id order, as numbers (conventions §5: items are ordered by id). */
function sortedById<T extends { id: number }>(ctx: Switchboard, list: string, all: T[]): T[] {
  return [...all].sort((a, b) => a.id - b.id);
}

/** count is 1 to 200 (PAGE-005, PAGE-006, PAGE-007). */
function countInRange(ctx: Switchboard, list: string, count: number, raw: unknown): boolean {
  const { faults, variants } = ctx;
  // Fault r5-ideal-list-count-capped-100: the deprecated iDEAL list kept the cap of an older API version, 100, as a refusal.
  if (onList(ctx, "r5-ideal-list-count-capped-100", list, "ideal-merchant-transaction")) return count >= 1 && count <= 100;
  // Fault r3-callback-url-count-compared-as-text: the cap comes from configuration as the text "200" and is compared with
  // the query's text, so "5" > "200" is refused and "1000" < "200" is taken.
  if (onList(ctx, "r3-callback-url-count-compared-as-text", list, "callback-url")) return count >= 1 && !(String(raw) > String(MAX_COUNT));
  const lowest = faults.on("page-count-zero-accepted") ? 0 : 1;
  // Variant count-over-200-clamped: a count above the cap is served as 200 (LENIENT, pageSize), not refused.
  const capped = !(
    faults.on("page-count-cap-ignored") ||
    onList(ctx, "page-cap-missing-certificates", list, "certificate-pinned") ||
    variants.on("count-over-200-clamped")
  );
  const highest = faults.on("page-count-200-refused") ? MAX_COUNT - 1 : MAX_COUNT;
  return count >= lowest && (!capped || count <= highest);
}

/** A count below 1 is refused like any count out of range (conventions §5). */
function negativeCountServesAll(ctx: Switchboard, list: string, raw: unknown): boolean {
  // Fault r6-share-invite-negative-count-all: the deprecated share-invite list's older code reads a negative count as "no limit".
  return onList(ctx, "r6-share-invite-negative-count-all", list, "share-invite-monetary-account-response") && /^-\d+$/.test(String(raw));
}

/** newer_id is a cursor like older_id (PAGE-021). */
function newerIdServed(ctx: Switchboard): boolean {
  return !ctx.faults.on("page-newer-id-refused");
}

/** The page size: count, or 10 without one (PAGE-003, PAGE-004). */
function pageSize(ctx: Switchboard, list: string, count: number | undefined, cursorPage: boolean): number {
  const { faults, variants } = ctx;
  const fallback = faults.on("page-default-count-20")
    ? 20
    : onList(ctx, "page-default-count-callback-urls", list, "callback-url")
      ? 25
      : DEFAULT_COUNT;
  let size = onList(ctx, "page-count-ignored-share-invites", list, "share-invite-monetary-account-response")
    ? DEFAULT_COUNT
    : count || fallback;
  if (count !== undefined && faults.on("page-count-off-by-one")) size += 1;
  if (cursorPage && faults.on("page-cursor-count-ignored")) size = DEFAULT_COUNT;
  // Fault page-count-clamped-100: a page is clamped to the cap of an older API version, 100.
  if (faults.on("page-count-clamped-100")) size = Math.min(size, 100);
  return variants.on("count-over-200-clamped") ? Math.min(size, MAX_COUNT) : size;
}

/** newer_id is exclusive: the next page starts above it (conventions §5: every item exactly once). */
function isNewer(ctx: Switchboard, list: string, id: number, newerId: number): boolean {
  // Fault r3-company-list-newer-id-inclusive: the company list's query reads newer_id with >=, repeating the boundary company.
  return onList(ctx, "r3-company-list-newer-id-inclusive", list, "company") ? id >= newerId : id > newerId;
}

/** older_id is exclusive: the older page starts below it (PAGE-016). */
function isOlder(ctx: Switchboard, id: number, olderId: number): boolean {
  return ctx.faults.on("page-older-id-inclusive") ? id <= olderId : id < olderId;
}

/** With older_id, the `size` items just below the cursor: the previous page (PAGE-016). */
function olderPage<T extends { id: number }>(ctx: Switchboard, sorted: T[], olderId: number, size: number, list: string): T[] {
  const { faults } = ctx;
  // Fault r3-share-invite-oldest-page-empty: the share-invite list slices by the cursor's position and forgets to clamp the
  // start at 0, so slice(at - size, at) counts from the end when fewer than `size` items remain: the oldest page is empty.
  const at = sorted.findIndex((i) => i.id === olderId);
  if (at >= 0 && onList(ctx, "r3-share-invite-oldest-page-empty", list, "share-invite-monetary-account-response"))
    return sorted.slice(at - size, at);
  // Variant page-cursor-by-position (blind round 2, ruled open): the cursor is looked up by position, so a cursor item
  // deleted since (index -1) restarts near the top.
  if (ctx.variants.on("page-cursor-by-position")) {
    const at = sorted.findIndex((i) => i.id === olderId);
    return at >= 0 ? sorted.slice(Math.max(0, at - size), at) : sorted.slice(at - size, at);
  }
  // Fault r5-cert-list-older-page-by-pinned-time: the chain list's older page is keyed on the cursor chain's pinning time
  // (created < the cursor's created), so chains pinned in the same millisecond as the cursor chain fall between the pages.
  const cursorItem = sorted.find((i) => i.id === olderId);
  if (cursorItem && onList(ctx, "r5-cert-list-older-page-by-pinned-time", list, "certificate-pinned")) {
    const pinnedAt = stampOf(cursorItem, "created");
    return sorted.filter((i) => compareText(stampOf(i, "created"), pinnedAt) < 0).slice(-size);
  }
  const below = sorted.filter((i) => isOlder(ctx, i.id, olderId));
  // Fault page-older-page-skips-back: the oldest `size` items below the cursor, not the ones just below it.
  return faults.on("page-older-page-skips-back") ? below.slice(0, size) : below.slice(-size);
}

/** With newer_id, the `size` items just above the cursor: the next page, not the newest one */
function newerPage<T>(ctx: Switchboard, above: T[], size: number): T[] {
  // Fault page-newer-page-skips-ahead: the slice of the no-cursor page, copied.
  return ctx.faults.on("page-newer-page-skips-ahead") ? above.slice(-size) : above.slice(0, size);
}

/** Whether items older than the page exist; fault page-older-url-when-page-full guesses it from a full page. */
function olderExist<T extends { id: number }>(ctx: Switchboard, sorted: T[], min: number, pageFull: boolean): boolean {
  return ctx.faults.on("page-older-url-when-page-full") ? pageFull : sorted.some((i) => i.id < min);
}

/** Without a cursor, the newest `size` items (PAGE-012). */
function newestPage<T extends { id: number }>(ctx: Switchboard, sorted: T[], size: number, list: string): T[] {
  // Fault r5-company-list-newest-by-updated: the company list's query is ORDER BY updated DESC LIMIT count, so the most recently
  // changed companies make the first page (shown in id order), not the newest ones.
  if (onList(ctx, "r5-company-list-newest-by-updated", list, "company")) {
    const byChange = [...sorted].sort((a, b) => compareText(stampOf(a, "updated"), stampOf(b, "updated")) || a.id - b.id);
    return byChange.slice(-size).sort((a, b) => a.id - b.id);
  }
  return ctx.faults.on("page-oldest-first") ? sorted.slice(0, size) : sorted.slice(-size);
}

/**
 * A refresh (future_url) is a live read; fault page-future-url-from-snapshot serves the listing's snapshot, which
 * holds nothing newer (PAGE-018).
 */
function servedFromSnapshot(ctx: Switchboard, query: Record<string, unknown>): boolean {
  return ctx.faults.on("page-future-url-from-snapshot") && query.refresh === "1";
}

/** The links of a page: the requested path, relative, with the count the request sent (PAGE-013, PAGE-014, PAGE-015). */
function pageLinks(ctx: Switchboard, request: FastifyRequest, count: number | undefined, cursorPage: boolean, pageItems: number) {
  const { faults } = ctx;
  let path = (faults.on("page-links-route-pattern") ? (request.routeOptions.url ?? request.url) : request.url).split("?")[0]!;
  // Fault page-links-without-version: the path as a router mounted under /v1 sees it.
  if (faults.on("page-links-without-version")) path = path.replace(/^\/v1(?=\/)/, "");
  // Fault r4-share-invite-links-renamed-path: the deprecated share-invite list links to its successor's path, which is not served.
  if (onList(ctx, "r4-share-invite-links-renamed-path", path, "share-invite-monetary-account-response"))
    path = path.replace(/share-invite-monetary-account-response$/, "share-invite-bank-response");
  // Fault r6-cert-list-links-double-version: the chain list's link builder prefixes /v1 to a path that already carries it.
  if (onList(ctx, "r6-cert-list-links-double-version", path, "certificate-pinned")) path = `/v1${path}`;
  const base = faults.on("page-links-absolute") ? `${request.protocol}://${request.host}${path}` : path;
  const keepCount =
    count !== undefined && !faults.on("page-links-drop-count") && !(cursorPage && faults.on("page-links-drop-count-on-cursor-pages"));
  // Fault page-links-count-undefined: the link template always writes count, so a request without one links count=undefined.
  const writeCount = keepCount || (count === undefined && faults.on("page-links-count-undefined"));
  // Fault r6-company-list-links-count-from-page: the company list's links write the length of the page answered as count.
  const linkedCount = onList(ctx, "r6-company-list-links-count-from-page", path, "company") && pageItems > 0 ? pageItems : count;
  const link = (cursor: "newer_id" | "older_id", id: number) => `${base}?${writeCount ? `count=${linkedCount}&` : ""}${cursor}=${id}`;
  // Fault r3-ideal-future-url-older-id: the iDEAL list's future_url was copied from the older_url line and keeps older_id.
  const futureCursor = onList(ctx, "r3-ideal-future-url-older-id", path, "ideal-merchant-transaction") ? "older_id" : "newer_id";
  return {
    newer: (id: number) => link("newer_id", id),
    older: (id: number) => link("older_id", id),
    future: (id: number) => futureLink(ctx, path, base, writeCount ? count : undefined, () => link(futureCursor, id)),
  };
}

/** future_url: newer_id = the page's greatest id, keeping count (PAGE-015, PAGE-017). */
function futureLink(ctx: Switchboard, path: string, base: string, count: number | undefined, link: () => string): string {
  // Fault r6-card-list-future-url-without-cursor: the card list's refresh link is the list's own path, with no newer_id.
  if (onList(ctx, "r6-card-list-future-url-without-cursor", path, "card")) return count === undefined ? base : `${base}?count=${count}`;
  // Fault r6-callback-url-future-url-drops-count: the callback-url list's future_url is built by a helper that knows only the cursor.
  if (onList(ctx, "r6-callback-url-future-url-drops-count", path, "callback-url")) return link().replace(/([?&])count=[^&]*&/, "$1");
  return `${link()}${ctx.faults.on("page-future-url-from-snapshot") ? "&refresh=1" : ""}`;
}

/** An empty list still carries its Pagination object. */
function emptyPagination(ctx: Switchboard, pagination: Pagination, listEmpty: boolean): Pagination | undefined {
  // Fault page-empty-list-no-pagination: the early return for "nothing to list" sends Response only.
  return ctx.faults.on("page-empty-list-no-pagination") && listEmpty ? undefined : pagination;
}

/** An empty page has no links (PAGE-020). */
function emptyListLinks(ctx: Switchboard, links: ReturnType<typeof pageLinks>, listEmpty: boolean): Pagination {
  if (ctx.faults.on("page-empty-list-links") && listEmpty)
    return { future_url: null, newer_url: links.newer(0), older_url: links.older(0) };
  return { future_url: null, newer_url: null, older_url: null };
}

/**
 * Which links a page carries: newer_url and older_url where more items lie that way, future_url on the newest page
 * (PAGE-010, PAGE-011, PAGE-016, PAGE-017).
 */
function linksShown(
  ctx: Switchboard,
  hasNewer: boolean,
  hasOlder: boolean,
  cursorPage: boolean,
): { future: boolean; newer: boolean; older: boolean } {
  const { faults, variants } = ctx;
  return {
    // Variants future-url-null and future-url-every-page: the other readings of PAGE-017 (LENIENT).
    future: !variants.on("future-url-null") && (!hasNewer || variants.on("future-url-every-page")),
    newer: hasNewer || faults.on("page-newer-url-at-end"),
    older: (hasOlder && !(cursorPage && faults.on("page-older-url-first-page-only"))) || faults.on("page-older-url-at-end"),
  };
}

/** A page reached with older_id links back to newer items (PAGE-010); the card list's fault thinks the caller already has them. */
function newerUrlDropped(ctx: Switchboard, list: string, olderPage: boolean): boolean {
  // Fault r3-card-list-no-newer-url-after-older: newer_url is built only on the first page and on pages reached with newer_id.
  return olderPage && onList(ctx, "r3-card-list-no-newer-url-after-older", list, "card");
}

/** The ids the links carry: the page's greatest (newer_url, future_url) and smallest (older_url) (PAGE-008, PAGE-009, PAGE-017). */
function cursors(ctx: Switchboard, max: number, min: number): { newer: number; older: number; future: number } {
  const { faults } = ctx;
  let newer = faults.on("page-newer-id-off-by-one") ? max + 1 : max;
  let older = faults.on("page-older-id-off-by-one") ? min - 1 : min;
  // Fault page-descending-cursors-swapped: the page descends (pageOrder) and the cursors are read from its ends.
  if (faults.on("page-descending-cursors-swapped")) [newer, older] = [min, max];
  return { newer, older, future: faults.on("page-future-url-smallest-id") ? min : newer };
}

/** Items ascend by id within a page (PAGE-019). */
function pageOrder<T>(ctx: Switchboard, items: T[]): T[] {
  const { faults, variants } = ctx;
  let ordered = items;
  if (faults.on("page-descending-cursors-swapped")) ordered = [...ordered].reverse();
  if (faults.on("page-unsorted-two-sources") && ordered.length >= 3) {
    const half = Math.floor(ordered.length / 2);
    ordered = [...ordered.slice(half), ...ordered.slice(0, half)];
  }
  // Variant pages-descending: the provider's order within a page; the cursors stay the page's greatest and smallest id.
  if (variants.on("pages-descending")) ordered = [...ordered].reverse();
  return ordered;
}

/** The Pagination object as sent: every link, null ones included (PAGE-001). */
function shown(ctx: Switchboard, pagination: Pagination): Pagination {
  if (!ctx.faults.on("page-null-links-omitted")) return pagination;
  return Object.fromEntries(Object.entries(pagination).filter(([, v]) => v !== null)) as Pagination;
}

/** A timestamp member of a listed item, as text (only the faults that page by time read it). */
function stampOf(item: object, member: "created" | "updated"): string {
  return String((item as Record<string, unknown>)[member] ?? "");
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

import type { FastifyRequest } from "fastify";
import { badRequest } from "./http-error.js";
import type { FaultName } from "./faults/catalogue.js";
import { fault } from "./faults/faults.js";
import type { Switchboard } from "./module.js";

const MAX_COUNT = 200;
const DEFAULT_COUNT = 10;

const SUITES = ["pagination"];

/** Careless list implementations, one rule each (spec: Limits > Pagination rules; wire conventions §5). */
export const PAGINATION_FAULTS = [
  fault("pagination-inside-response", "PAGE-002", "Lists put Pagination inside the Response array instead of beside it.", SUITES),
  fault("page-null-links-omitted", "PAGE-001", "Pagination leaves out the links that are null instead of sending them as null.", SUITES),
  fault("page-default-count-20", "PAGE-003", "A list request without count answers 20 items instead of 10.", SUITES),
  fault("page-count-off-by-one", "PAGE-004", "A list request with count N answers N+1 items when more exist.", SUITES),
  fault("page-count-200-refused", "PAGE-005", "count 200 is refused: the cap check is count >= 200 instead of count > 200.", SUITES),
  fault("page-count-cap-ignored", "PAGE-006", "count above 200 is accepted and honoured, so a page can hold more than 200 items.", SUITES),
  fault("page-count-zero-accepted", "PAGE-007", "count 0 is accepted and read as the default page size.", SUITES),
  fault("page-newer-id-off-by-one", "PAGE-008", "newer_id in newer_url and future_url is the greatest id on the page plus one.", SUITES),
  fault(
    "page-descending-cursors-swapped",
    "PAGE-008",
    "Pages descend by id and newer_id is taken from the page's last item (its smallest id), older_id from its first.",
    SUITES,
  ),
  fault("page-older-id-off-by-one", "PAGE-009", "older_id in older_url is the smallest id on the page minus one.", SUITES),
  fault("page-newer-url-at-end", "PAGE-010", "newer_url is set on the newest page too, although no item has a greater id.", SUITES),
  fault("page-older-url-at-end", "PAGE-011", "older_url is set on the oldest page too, although no item has a smaller id.", SUITES),
  fault("page-oldest-first", "PAGE-012", "A list request without a cursor answers the oldest count items instead of the newest.", SUITES),
  fault("page-links-absolute", "PAGE-013", "Pagination links are absolute URLs (scheme and host) instead of relative ones.", SUITES),
  fault(
    "page-links-route-pattern",
    "PAGE-014",
    "Pagination links name the route pattern (/v1/user/:userID/...) instead of the requested path.",
    SUITES,
  ),
  fault("page-links-drop-count", "PAGE-015", "Pagination links leave out the count the request sent.", SUITES),
  fault("page-older-id-inclusive", "PAGE-016", "older_id is read as inclusive, so the next older page repeats the boundary item.", SUITES),
  fault(
    "page-older-url-first-page-only",
    "PAGE-016",
    "older_url is only given on the first page (no cursor), so a walk to older pages stops after the second page.",
    SUITES,
  ),
  fault("page-future-url-smallest-id", "PAGE-017", "future_url carries the smallest id on the page as newer_id.", SUITES),
  fault(
    "page-unsorted-two-sources",
    "PAGE-019",
    "A page is stitched from two halves, the newer half first, so its items are in no id order.",
    SUITES,
  ),
  fault("page-empty-list-links", "PAGE-020", "An empty list answers newer_url and older_url pointing at id 0 instead of null.", SUITES),
  fault(
    "page-cursor-count-ignored",
    "PAGE-004",
    "With newer_id or older_id present, count is ignored and the page holds the default 10 items.",
    SUITES,
  ),
  fault(
    "page-newer-id-refused",
    "PAGE-021",
    "Only older_id is implemented: a request with newer_id (newer_url, future_url) is refused.",
    SUITES,
  ),
  fault(
    "page-count-ignored-share-invites",
    "PAGE-004",
    "The share-invite list (an older code path) ignores count and always answers the default 10 items.",
    SUITES,
  ),
  fault("page-default-count-callback-urls", "PAGE-003", "The callback-URL list defaults to 25 items per page instead of 10.", SUITES),
  fault(
    "page-cap-missing-certificates",
    "PAGE-005",
    "The pinned-certificate list has no cap: a count above 200 is honoured, so a page holds more than 200 items.",
    SUITES,
  ),
  fault(
    "page-links-drop-count-on-cursor-pages",
    "PAGE-015",
    "Links keep count on the first page only: a page reached with newer_id or older_id links on without count.",
    SUITES,
  ),
  fault(
    "page-future-url-from-snapshot",
    "PAGE-018",
    "future_url carries refresh=1, and a refresh is served from the listing's snapshot, so items created after the listing never show.",
    SUITES,
  ),
] as const;

type Pagination = { future_url: string | null; newer_url: string | null; older_url: string | null };

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

function integerQuery(query: Record<string, unknown>, name: string): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
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
  const count = integerQuery(query, "count");
  if (count !== undefined && !countInRange(ctx, list, count)) throw badRequest(`Query parameter count must be between 1 and ${MAX_COUNT}.`);
  const newerId = integerQuery(query, "newer_id");
  const olderId = integerQuery(query, "older_id");
  if (newerId !== undefined && !newerIdServed(ctx)) throw badRequest("Query parameter newer_id is not supported.");
  if (newerId !== undefined && olderId !== undefined) throw badRequest("Use newer_id or older_id, not both.");
  const cursorPage = newerId !== undefined || olderId !== undefined;
  const size = pageSize(ctx, list, count, cursorPage);

  const sorted = [...all].sort((a, b) => a.id - b.id);
  let items: T[];
  if (newerId !== undefined) items = sorted.filter((i) => i.id > newerId).slice(0, size);
  else if (olderId !== undefined) items = sorted.filter((i) => isOlder(ctx, i.id, olderId)).slice(-size);
  else items = newestPage(ctx, sorted, size);
  if (servedFromSnapshot(ctx, query)) items = [];

  const links = pageLinks(ctx, request, count, cursorPage);
  if (items.length === 0) return { items, pagination: shown(ctx, emptyListLinks(ctx, links, all.length === 0)) };
  const max = items[items.length - 1]!.id;
  const min = items[0]!.id;
  const show = linksShown(
    ctx,
    sorted.some((i) => i.id > max),
    sorted.some((i) => i.id < min),
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

/** count is 1 to 200 (PAGE-005, PAGE-006, PAGE-007). */
function countInRange(ctx: Switchboard, list: string, count: number): boolean {
  const { faults, variants } = ctx;
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
  return variants.on("count-over-200-clamped") ? Math.min(size, MAX_COUNT) : size;
}

/** older_id is exclusive: the older page starts below it (PAGE-016). */
function isOlder(ctx: Switchboard, id: number, olderId: number): boolean {
  return ctx.faults.on("page-older-id-inclusive") ? id <= olderId : id < olderId;
}

/** Without a cursor, the newest `size` items (PAGE-012). */
function newestPage<T>(ctx: Switchboard, sorted: T[], size: number): T[] {
  return ctx.faults.on("page-oldest-first") ? sorted.slice(0, size) : sorted.slice(-size);
}

/** A refresh (future_url) is a live read; fault page-future-url-from-snapshot serves the listing's snapshot, which holds nothing newer (PAGE-018). */
function servedFromSnapshot(ctx: Switchboard, query: Record<string, unknown>): boolean {
  return ctx.faults.on("page-future-url-from-snapshot") && query.refresh === "1";
}

/** The links of a page: the requested path, relative, with the count the request sent (PAGE-013, PAGE-014, PAGE-015). */
function pageLinks(ctx: Switchboard, request: FastifyRequest, count: number | undefined, cursorPage: boolean) {
  const { faults } = ctx;
  const path = (faults.on("page-links-route-pattern") ? (request.routeOptions.url ?? request.url) : request.url).split("?")[0]!;
  const base = faults.on("page-links-absolute") ? `${request.protocol}://${request.host}${path}` : path;
  const keepCount =
    count !== undefined && !faults.on("page-links-drop-count") && !(cursorPage && faults.on("page-links-drop-count-on-cursor-pages"));
  const link = (cursor: "newer_id" | "older_id", id: number) => `${base}?${keepCount ? `count=${count}&` : ""}${cursor}=${id}`;
  return {
    newer: (id: number) => link("newer_id", id),
    older: (id: number) => link("older_id", id),
    future: (id: number) => `${link("newer_id", id)}${faults.on("page-future-url-from-snapshot") ? "&refresh=1" : ""}`,
  };
}

/** An empty page has no links (PAGE-020). */
function emptyListLinks(ctx: Switchboard, links: ReturnType<typeof pageLinks>, listEmpty: boolean): Pagination {
  if (ctx.faults.on("page-empty-list-links") && listEmpty)
    return { future_url: null, newer_url: links.newer(0), older_url: links.older(0) };
  return { future_url: null, newer_url: null, older_url: null };
}

/** Which links a page carries: newer_url and older_url where more items lie that way, future_url on the newest page (PAGE-010, PAGE-011, PAGE-016, PAGE-017). */
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

import type { FastifyRequest } from "fastify";
import { badRequest } from "./http-error.js";
import type { FaultSet, FaultSpec } from "./faults.js";

export const MAX_COUNT = 200;
export const DEFAULT_COUNT = 10;

const fault = (name: string, requirement: string, description: string): FaultSpec => ({ name, requirement, description, suites: ["pagination"] });

/** Careless list implementations, one rule each (spec: Limits > Pagination rules; wire conventions §5). */
export const paginationFaults: FaultSpec[] = [
  fault("pagination-inside-response", "PAGE-002", "Lists put Pagination inside the Response array instead of beside it."),
  fault("page-null-links-omitted", "PAGE-001", "Pagination leaves out the links that are null instead of sending them as null."),
  fault("page-default-count-20", "PAGE-003", "A list request without count answers 20 items instead of 10."),
  fault("page-count-off-by-one", "PAGE-004", "A list request with count N answers N+1 items when more exist."),
  fault("page-count-200-refused", "PAGE-005", "count 200 is refused: the cap check is count >= 200 instead of count > 200."),
  fault("page-count-cap-ignored", "PAGE-006", "count above 200 is accepted and honoured, so a page can hold more than 200 items."),
  fault("page-count-zero-accepted", "PAGE-007", "count 0 is accepted and read as the default page size."),
  fault("page-newer-id-off-by-one", "PAGE-008", "newer_id in newer_url and future_url is the greatest id on the page plus one."),
  fault("page-descending-cursors-swapped", "PAGE-008", "Pages descend by id and newer_id is taken from the page's last item (its smallest id), older_id from its first."),
  fault("page-older-id-off-by-one", "PAGE-009", "older_id in older_url is the smallest id on the page minus one."),
  fault("page-newer-url-at-end", "PAGE-010", "newer_url is set on the newest page too, although no item has a greater id."),
  fault("page-older-url-at-end", "PAGE-011", "older_url is set on the oldest page too, although no item has a smaller id."),
  fault("page-oldest-first", "PAGE-012", "A list request without a cursor answers the oldest count items instead of the newest."),
  fault("page-links-absolute", "PAGE-013", "Pagination links are absolute URLs (scheme and host) instead of relative ones."),
  fault("page-links-route-pattern", "PAGE-014", "Pagination links name the route pattern (/v1/user/:userID/...) instead of the requested path."),
  fault("page-links-drop-count", "PAGE-015", "Pagination links leave out the count the request sent."),
  fault("page-older-id-inclusive", "PAGE-016", "older_id is read as inclusive, so the next older page repeats the boundary item."),
  fault("page-older-url-first-page-only", "PAGE-016", "older_url is only given on the first page (no cursor), so a walk to older pages stops after the second page."),
  fault("page-future-url-smallest-id", "PAGE-017", "future_url carries the smallest id on the page as newer_id."),
  fault("page-unsorted-two-sources", "PAGE-019", "A page is stitched from two halves, the newer half first, so its items are in no id order."),
  fault("page-empty-list-links", "PAGE-020", "An empty list answers newer_url and older_url pointing at id 0 instead of null."),
  fault("page-cursor-count-ignored", "PAGE-004", "With newer_id or older_id present, count is ignored and the page holds the default 10 items."),
  fault("page-newer-id-refused", "PAGE-021", "Only older_id is implemented: a request with newer_id (newer_url, future_url) is refused."),
  fault("page-count-ignored-share-invites", "PAGE-004", "The share-invite list (an older code path) ignores count and always answers the default 10 items."),
  fault("page-default-count-callback-urls", "PAGE-003", "The callback-URL list defaults to 25 items per page instead of 10."),
  fault("page-cap-missing-certificates", "PAGE-005", "The pinned-certificate list has no cap: a count above 200 is honoured, so a page holds more than 200 items."),
  fault("page-links-drop-count-on-cursor-pages", "PAGE-015", "Links keep count on the first page only: a page reached with newer_id or older_id links on without count."),
  fault("page-future-url-from-snapshot", "PAGE-018", "future_url carries refresh=1, and a refresh is served from the listing's snapshot, so items created after the listing never show."),
];

export interface Page<T> {
  items: T[];
  pagination: { future_url: string | null; newer_url: string | null; older_url: string | null };
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
 */
export function paginate<T extends { id: number }>(request: FastifyRequest, all: T[], faults: FaultSet): Page<T> {
  const query = request.query as Record<string, unknown>;
  const count = integerQuery(query, "count");
  const listPath = request.url.split("?")[0]!;
  const on = (fault: string, list: string) => faults.on(fault) && listPath.endsWith(`/${list}`);
  const uncapped = faults.on("page-count-cap-ignored") || on("page-cap-missing-certificates", "certificate-pinned");
  // Variant count-over-200-clamped: a count above the cap is served as 200 (LENIENT), not refused.
  const tooBig = uncapped || faults.on("count-over-200-clamped") ? false : faults.on("page-count-200-refused") ? (count ?? 0) >= MAX_COUNT : (count ?? 0) > MAX_COUNT;
  if (count !== undefined && ((count < 1 && !faults.on("page-count-zero-accepted")) || tooBig)) {
    throw badRequest(`Query parameter count must be between 1 and ${MAX_COUNT}.`);
  }
  const newerId = integerQuery(query, "newer_id");
  const olderId = integerQuery(query, "older_id");
  if (newerId !== undefined && faults.on("page-newer-id-refused")) throw badRequest("Query parameter newer_id is not supported.");
  if (newerId !== undefined && olderId !== undefined) throw badRequest("Use newer_id or older_id, not both.");
  const defaultSize = faults.on("page-default-count-20") ? 20 : on("page-default-count-callback-urls", "callback-url") ? 25 : DEFAULT_COUNT;
  let size = on("page-count-ignored-share-invites", "share-invite-monetary-account-response") ? DEFAULT_COUNT : count || defaultSize;
  if (count !== undefined && faults.on("page-count-off-by-one")) size += 1;
  if ((newerId !== undefined || olderId !== undefined) && faults.on("page-cursor-count-ignored")) size = DEFAULT_COUNT;
  if (faults.on("count-over-200-clamped")) size = Math.min(size, MAX_COUNT);
  const sorted = [...all].sort((a, b) => a.id - b.id);
  let items: T[];
  if (newerId !== undefined) items = sorted.filter((i) => i.id > newerId).slice(0, size);
  else if (olderId !== undefined) items = sorted.filter((i) => (faults.on("page-older-id-inclusive") ? i.id <= olderId : i.id < olderId)).slice(-size);
  else items = faults.on("page-oldest-first") ? sorted.slice(0, size) : sorted.slice(-size);
  // Fault page-future-url-from-snapshot: a refresh is served from the listing's snapshot, which holds nothing newer.
  if (faults.on("page-future-url-from-snapshot") && query.refresh === "1") items = [];

  const path = faults.on("page-links-route-pattern") ? (request.routeOptions.url ?? request.url).split("?")[0]! : request.url.split("?")[0]!;
  const base = faults.on("page-links-absolute") ? `${request.protocol}://${request.host}${path}` : path;
  const cursorPage = newerId !== undefined || olderId !== undefined;
  const keepCount = count !== undefined && !faults.on("page-links-drop-count") && !(cursorPage && faults.on("page-links-drop-count-on-cursor-pages"));
  const link = (cursor: string, id: number) => `${base}?${keepCount ? `count=${count}&` : ""}${cursor}=${id}`;
  const futureLink = (id: number) => `${link("newer_id", id)}${faults.on("page-future-url-from-snapshot") ? "&refresh=1" : ""}`;
  if (items.length === 0) {
    const end = faults.on("page-empty-list-links") && all.length === 0 ? link("newer_id", 0) : null;
    return { items, pagination: shown({ future_url: null, newer_url: end, older_url: end && link("older_id", 0) }, faults) };
  }
  const max = items[items.length - 1]!.id;
  const min = items[0]!.id;
  const hasNewer = sorted.some((i) => i.id > max);
  const hasOlder = sorted.some((i) => i.id < min);
  // The ids the links carry: the page's greatest and smallest, unless a fault gets them wrong.
  let newerCursor = faults.on("page-newer-id-off-by-one") ? max + 1 : max;
  let olderCursor = faults.on("page-older-id-off-by-one") ? min - 1 : min;
  if (faults.on("page-descending-cursors-swapped")) {
    items.reverse();
    [newerCursor, olderCursor] = [items[items.length - 1]!.id, items[0]!.id];
  }
  if (faults.on("page-unsorted-two-sources") && items.length >= 3) {
    const half = Math.floor(items.length / 2);
    items = [...items.slice(half), ...items.slice(0, half)];
  }
  // Variant pages-descending: the provider's order within a page; the cursors stay the page's greatest and smallest id.
  if (faults.on("pages-descending")) items.reverse();
  const olderAllowed = !faults.on("page-older-url-first-page-only") || (newerId === undefined && olderId === undefined);
  return {
    items,
    pagination: shown(
      {
        future_url: (hasNewer && !faults.on("future-url-every-page")) || faults.on("future-url-null") ? null : futureLink(faults.on("page-future-url-smallest-id") ? min : newerCursor),
        newer_url: hasNewer || faults.on("page-newer-url-at-end") ? link("newer_id", newerCursor) : null,
        older_url: (hasOlder && olderAllowed) || faults.on("page-older-url-at-end") ? link("older_id", olderCursor) : null,
      },
      faults,
    ),
  };
}

/** The Pagination object as sent: under page-null-links-omitted, the null links are left out. */
function shown(pagination: Page<unknown>["pagination"], faults: FaultSet): Page<unknown>["pagination"] {
  if (!faults.on("page-null-links-omitted")) return pagination;
  return Object.fromEntries(Object.entries(pagination).filter(([, v]) => v !== null)) as Page<unknown>["pagination"];
}

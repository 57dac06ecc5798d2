// Helpers of the pagination suite: the list endpoints a target has (harness/endpoints.ts: every GET
// without {itemId}), reading one page, following a link, and the named checks every page gets
// (wire conventions §5). The properties themselves stay in suites/pagination.test.ts.
import { expectOk, expectSchema, expectThat, fail, type About } from "../../harness/checks.js";
import { endpointsFor, type Endpoint } from "../../harness/endpoints.js";
import { paginationOf, typeKeyOf, type Pagination } from "../../harness/envelope.js";
import type { Exchange } from "../../harness/http/exchange.js";
import type { LenientLog } from "../../harness/lenient.js";
import type { Fixtures } from "../../harness/profile/profile.js";
import type { Session } from "../../harness/session/session.js";
import type { Target } from "../../harness/run/target.js";

/** One list endpoint, filled in for the user whose list it is. */
export interface ListCase {
  /** The path template, e.g. /user/{userID}/card. */
  template: string;
  /** The filled path under /v1, e.g. /user/7/card. */
  path: string;
  session: Session;
  /** Only this file reads or writes it (a fresh user's list): exact checks (every item, newest items) are safe. */
  stable: boolean;
}

export function listEndpoints(t: Target): Endpoint[] {
  return endpointsFor(t.profile.capabilities).filter((e) => e.method === "GET" && !e.path.includes("{itemId}"));
}

/** Fills a list template for a user; undefined when a fixture id it needs is unknown for that user. */
export function fillList(endpoint: Endpoint, session: Session, fixtures: Fixtures): string | undefined {
  let missing = false;
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = name === "userID" ? session.userId : fixtures[name as keyof Fixtures];
    if (typeof value !== "number") missing = true;
    return String(value);
  });
  return missing ? undefined : path;
}

export interface Page {
  exchange: Exchange;
  ids: number[];
  pagination: Pagination | undefined;
}

/** GET a list path (with a query) or a link the server gave; absolute links are followed by their path. */
export async function getPage(
  t: Target,
  list: ListCase,
  pathOrLink: string,
  query?: Record<string, string | number | undefined>,
): Promise<Exchange> {
  const path = /^[a-z]+:\/\//i.test(pathOrLink) ? pathOrLink.replace(/^[a-z]+:\/\/[^/]+/i, "") : pathOrLink;
  return t.client.request({ path, ...(query ? { query } : {}), token: list.session.sessionToken, from: list.session.from });
}

/** A 200 list answer's item ids (each element's single inner object must carry an integer id). */
export function readPage(exchange: Exchange, about: About): Page {
  const items = expectOk(exchange, about);
  const ids = items.map((item, index) => {
    const inner = item[typeKeyOf(item)!] as { id?: unknown } | undefined;
    if (typeof inner?.id !== "number" || !Number.isInteger(inner.id))
      fail(
        about,
        exchange,
        "every list element to carry an integer id (pages are cut by id)",
        `element ${index}: ${JSON.stringify(item).slice(0, 200)}`,
      );
    return inner.id;
  });
  return { exchange, ids, pagination: paginationOf(exchange.json) };
}

/** The id a link carries in its newer_id or older_id parameter. */
export function cursorOf(link: string, name: "newer_id" | "older_id"): number | undefined {
  const raw = new URL(link, "http://relative.invalid").searchParams.get(name);
  return raw !== null && /^-?\d+$/.test(raw) ? Number(raw) : undefined;
}

/** The request's path from /v1/ on (a base URL may put a prefix before /v1). */
function listPathOf(exchange: Exchange): string {
  const path = exchange.request.path.split("?")[0]!;
  const at = path.indexOf("/v1/");
  return at >= 0 ? path.slice(at) : path;
}

/** PAGE-002, PAGE-001: a Pagination object beside Response, with the three links, each a string or null. */
export function expectPaginationObject(exchange: Exchange): Pagination {
  const body = exchange.json as Record<string, unknown> | undefined;
  const pagination = body?.Pagination;
  expectThat(
    pagination !== null && typeof pagination === "object" && !Array.isArray(pagination),
    exchange,
    "a Pagination object beside Response at the top level of the body",
    { req: "PAGE-002" },
  );
  expectSchema(
    pagination,
    "pagination",
    { req: "PAGE-001", what: "(future_url, newer_url and older_url, each a string or null)" },
    exchange,
  );
  return pagination as Pagination;
}

/** PAGE-013, PAGE-014, PAGE-015: every link is relative under /v1/, names the same list, and keeps the count sent. */
export function expectLinkShapes(exchange: Exchange, pagination: Pagination, sentCount: number | undefined): void {
  for (const name of ["future_url", "newer_url", "older_url"] as const) {
    const link = pagination[name];
    if (link === null || link === undefined) continue;
    const got = `${name} ${JSON.stringify(link)}`;
    expectThat(
      typeof link === "string" && link.startsWith("/v1/"),
      exchange,
      `${name} to be a relative URL beginning with /v1/`,
      { req: "PAGE-013" },
      got,
    );
    const url = new URL(link, "http://relative.invalid");
    expectThat(
      decodeURIComponent(url.pathname) === decodeURIComponent(listPathOf(exchange)),
      exchange,
      `${name} to name the same list path ${listPathOf(exchange)}`,
      { req: "PAGE-014" },
      got,
    );
    if (sentCount !== undefined) {
      expectThat(
        url.searchParams.get("count") === String(sentCount),
        exchange,
        `${name} to keep count=${sentCount}`,
        { req: "PAGE-015" },
        got,
      );
    }
  }
}

/** PAGE-008, PAGE-009, PAGE-017: newer_id (newer_url, future_url) is the page's greatest id, older_id its smallest. */
export function expectCursors(page: Page): void {
  if (page.ids.length === 0 || !page.pagination) return;
  const max = Math.max(...page.ids);
  const min = Math.min(...page.ids);
  const { exchange, pagination } = page;
  const check = (name: "newer_url" | "future_url" | "older_url", cursor: "newer_id" | "older_id", want: number, req: string) => {
    const link = pagination[name];
    if (typeof link !== "string") return;
    const got = cursorOf(link, cursor);
    expectThat(
      got === want,
      exchange,
      `${name} with ${cursor}=${want}, the ${cursor === "newer_id" ? "greatest" : "smallest"} id on the page`,
      { req },
      `${name} ${JSON.stringify(link)}`,
    );
  };
  check("newer_url", "newer_id", max, "PAGE-008");
  check("future_url", "newer_id", max, "PAGE-017");
  check("older_url", "older_id", min, "PAGE-009");
}

/** Whether a page's ids rise or fall throughout. */
export function idOrder(ids: number[]): { ascending: boolean; descending: boolean } {
  return {
    ascending: ids.every((id, i) => i === 0 || ids[i - 1]! < id),
    descending: ids.every((id, i) => i === 0 || ids[i - 1]! > id),
  };
}

/** PAGE-019: items in id order, ascending or descending (LENIENT: strict requires ascending, the specification's reading). */
export function expectIdOrder(page: Page, lenient: LenientLog): void {
  const { ids, exchange } = page;
  const { ascending, descending } = idOrder(ids);
  expectThat(
    ascending || descending,
    exchange,
    "the page's items in id order, ascending or descending",
    { req: "PAGE-019" },
    `ids ${ids.join(", ")}`,
  );
  if (!ascending)
    lenient.note(
      { req: "PAGE-019", what: exchange.request.path },
      "pages descend by id (the provider's reading)",
      "ascending pages (newer_id is the page's last item)",
    );
}

/** PAGE-001, PAGE-002, PAGE-008, PAGE-009, PAGE-013, PAGE-014, PAGE-015: what every page of every list must show. */
export function expectPageRules(page: Page, sentCount: number | undefined): void {
  const pagination = expectPaginationObject(page.exchange);
  expectLinkShapes(page.exchange, pagination, sentCount);
  expectCursors(page);
}

/** PAGE-003/PAGE-004: a page reached by a link holds at most the count the link kept. */
export function expectAtMost(page: Page, limit: number, req: string): void {
  expectThat(
    page.ids.length <= limit,
    page.exchange,
    `at most ${limit} items (the count the link kept)`,
    { req },
    `${page.ids.length} items`,
  );
}

/** A pagination link null (an absent link counts as null here: whether all three are present is PAGE-001's check). */
export function expectNullLink(page: Page, link: "newer_url" | "older_url", expected: string, req: string): void {
  const value = page.pagination?.[link];
  expectThat((value ?? null) === null, page.exchange, expected, { req }, `${link} ${JSON.stringify(value)}`);
}

/**
 * Follows one direction's links from a page until they end (at most `maxPages`), checking every page's
 * rules, its size (at most `count`) and the end rule that holds however the list changes meanwhile: a page
 * reached by a link that holds fewer than `count` items holds every item beyond its cursor, so the link
 * onwards must be null (PAGE-010, PAGE-011).
 */
export async function walkChecked(
  t: Target,
  list: ListCase,
  from: Page,
  direction: "older_url" | "newer_url",
  count: number,
  maxPages: number,
): Promise<Page[]> {
  const pages = [from];
  for (let link = from.pagination?.[direction]; typeof link === "string"; link = pages[pages.length - 1]!.pagination?.[direction]) {
    if (pages.length > maxPages) break;
    const page = readPage(await getPage(t, list, link), { req: "PAGE-021", what: `(${direction} of the page before)` });
    expectWalkedPage(page, direction, count);
    pages.push(page);
  }
  return pages;
}

/**
 * A page a walk with `count` reached by following `direction`: the page rules, at most count items, and where it holds
 * fewer, no link onwards.
 */
export function expectWalkedPage(page: Page, direction: "older_url" | "newer_url", count: number): void {
  expectPageRules(page, count);
  expectAtMost(page, count, "PAGE-004");
  if (page.ids.length < count) {
    const onwards = page.pagination?.[direction] ?? null;
    expectThat(
      onwards === null,
      page.exchange,
      `${direction} null: the page holds fewer than count=${count} items, so no item lies beyond it`,
      { req: direction === "older_url" ? "PAGE-011" : "PAGE-010" },
      `${direction} ${JSON.stringify(onwards)} with ${page.ids.length} items`,
    );
  }
}

/**
 * A refresh with nothing newer (PAGE-021: a cursor taken from a link answers 200): the newest page's future_url, or, where it is
 * null (PAGE-017), newer_id its greatest id, the cursor future_url carries. Nothing newer is an empty page, never an error.
 */
export async function refreshWithNothingNewer(t: Target, list: ListCase, skip: (condition: boolean, note: string) => void): Promise<void> {
  const first = readPage(await getPage(t, list, list.path), { req: "PAGE-021", what: "(the newest page, for its cursor)" });
  skip(first.ids.length === 0, `${list.path} is empty: there is no newest item to refresh from`);
  const link = first.pagination?.future_url ?? undefined;
  const refreshed = link ? await getPage(t, list, link) : await getPage(t, list, list.path, { newer_id: Math.max(...first.ids) });
  readPage(refreshed, { req: "PAGE-021", what: link ? "(the newest page's future_url, nothing newer)" : "(newer_id the newest id)" });
}

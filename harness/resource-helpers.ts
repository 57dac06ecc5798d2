// Small helpers for the company, category, challenge-request and feature-announcement suites.
import { expectOk, expectThat, failPlain, type About } from "./checks.js";
import { objectsOfType, paginationOf } from "./envelope.js";
import type { Exchange } from "./exchange.js";
import type { Session } from "./session.js";
import type { Target } from "./target.js";

/**
 * The user a suite file writes additive data to (creates with no DELETE): one fresh user per file where
 * the target provisions users, else the primary. Never called on a read-only target.
 */
export function writerSession(t: Target): () => Promise<Session> {
  let session: Promise<Session> | undefined;
  return () => (session ??= t.canProvision() ? t.freshSession() : Promise.resolve(t.primary()));
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

/** A refusal must not carry the item: none of the given values (ids, names) appears in the body. */
export function expectNoTrace(exchange: Exchange, traces: (string | number)[], about: About): void {
  const found = traces.filter((trace) =>
    typeof trace === "number" ? new RegExp(`"id"\\s*:\\s*${trace}\\b`).test(exchange.bodyText) : exchange.bodyText.includes(trace),
  );
  expectThat(found.length === 0, exchange, "no trace of the other user's item in the body", about, `${found.map((f) => JSON.stringify(f)).join(", ")} in the body`);
}

// The order a run starts its suite files in: the longest first, so the files whose chains of requests set the pace
// against a distant target never wait for a worker behind short ones, and a run's schedule is the same every time.
//
// vitest's own order (the durations of the last run, kept in node_modules/.vite) fed on itself: a file slowed by what
// ran beside it was started first the next time, beside the same files. ATT-010 reads every id handed out around a
// refused upload, so attachments next to the list-growing files read a thousand ids instead of fifty: 6.9 s instead
// of 0.6 s at 50 ms, and first in the next run. A fresh clone, without those durations, went by file size.

/**
 * Longest first, as measured at 50 ms per request (`npm run bench -- --latency`, November 2026). A suite not
 * listed starts after these (test/harness/suite-order.test.ts asks for every suite to be placed).
 */
export const SUITE_ORDER = [
  "pagination",
  "card-state-machine",
  "authorisation",
  "authentication",
  "list-sizes",
  "cards",
  "companies",
  "errors",
  "certificate-pinned",
  "share-invites",
  "card-replacement",
  "error-bodies",
  "challenge-requests",
  "pin-code",
  "versioning",
  "oauth-callback-urls",
  "attachments",
  "headers",
  "categories",
  "feature-announcements",
  "ideal",
  "envelope",
  "signatures",
] as const;

/** Where a test file starts in a run: a suite by SUITE_ORDER, anything else (a self-test, a generated file) after them. */
export function suiteRank(moduleId: string): number {
  const suite = /\/suites\/([^/]+)\.test\.ts$/.exec(moduleId)?.[1];
  const at = suite === undefined ? -1 : (SUITE_ORDER as readonly string[]).indexOf(suite);
  return at < 0 ? SUITE_ORDER.length : at;
}

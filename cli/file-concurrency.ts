// How many suite files run at once, from the round trip to the target that the preflight measured.
//
// A check mostly waits for answers. The embedded reference answers on the CLI's own thread, on the same two cores as
// the checks, and never makes a check wait but for CPU: one file at a time (its tests still side by side) keeps both
// cores busy, and more files only pay for threads (each imports the harness) and their contention. Any other target
// may keep a check waiting, a nearby one too (a Retry-After, a backoff after a 503, a slow answer): against a loopback
// target four files overlap that waiting, and against a distant one the count grows with the round trip, up to a cap
// that keeps the workers' own start-up and their CPU share in bounds. A profile with a request-rate limit keeps the
// base count: the workers share the rate (harness/http/rate-limit.ts), so more files would only slow each file down.

/**
 * Files at once against the embedded reference. Measured on a 2-core machine, runs interleaved, 3 each (median CPU,
 * user + sys, and wall): 4 files 12.4 s CPU in 7.3 s, 2 files 10.7 s in 6.6 s, 1 file 9.6 s in 6.9 s; after the
 * exchange reporting was made lighter, 2 files 9.4 s in 5.7 s, 1 file 8.6 s in 6.1 s.
 */
export const EMBEDDED_FILES = 1;

/**
 * Files at once on any other loopback target, and the least on a distant one. One file at a time turned a nearby
 * target's weather into waiting end to end: at 2 % chaos (429 with Retry-After: 1 s, 503s, dropped connections) the
 * whole suite took 2.6 times as long as a direct run beside it, against less than twice with four files.
 */
export const BASE_FILES = 4;

/**
 * The most files at once, however distant the target. The tests of a file run side by side, so a file does not need a
 * worker of its own to overlap its waiting, and each worker thread costs start-up CPU (about 0.7 s) and memory.
 * Measured on a 2-core machine against a target 50 ms away (the reference and the delaying proxy on the same cores),
 * side by side, 3 runs each: 5 files 13.5-13.8 s, 6 files 12.6-13.1 s, 7 files 12.6-12.7 s, 8 files 12.4-12.8 s,
 * 10 files 13.5-14.0 s. Past six, what the checks gain the workers' start-up takes back.
 */
export const MAX_FILES = 6;

/**
 * Round trip the base count is good for: up to it a target counts as loopback; above it the count grows in
 * proportion (12 ms: 4 × 12 / 10 = 5 files; 15 ms and more: MAX_FILES).
 */
export const LOOPBACK_ROUND_TRIP_MS = 10;

export interface FileConcurrencyInput {
  /** The target is the embedded reference (no preflight, no waiting but for CPU). */
  embedded: boolean;
  /** The quickest answer the preflight got, ms; undefined when no preflight ran (embedded target, --no-preflight). */
  roundTripMs?: number | undefined;
  /** Suite files the run selected (no more workers than files). */
  files: number;
  /** The profile limits the request rate (rateLimit.requestsPerSecond). */
  rateLimited: boolean;
  /**
   * Every write of the run lands on the primary user's data: the profile writes (mode full) but provisions no fresh
   * users. Files then run one at a time, their tests still side by side: a file that reads the primary's list before
   * and after a refused write (CERT-007, COMP-015, …) took an item another file added meanwhile for one the refused
   * write stored (seen against a conformant server 50 ms away: pagination growing the pinned-chain list while
   * certificate-pinned checked it). Within a file, tests that share a list take turns (suites/support/shared-data.ts).
   */
  sharedWrites: boolean;
}

/**
 * Test files to run at once: one where every file writes to the primary user's data, EMBEDDED_FILES against the
 * embedded reference, else BASE_FILES on a loopback target, more the further away the target is.
 */
export function fileConcurrency({ embedded, roundTripMs, files, rateLimited, sharedWrites }: FileConcurrencyInput): number {
  if (sharedWrites) return 1;
  if (embedded) return EMBEDDED_FILES;
  if (rateLimited || roundTripMs === undefined || !Number.isFinite(roundTripMs) || roundTripMs <= LOOPBACK_ROUND_TRIP_MS) return BASE_FILES;
  const wanted = Math.round((BASE_FILES * roundTripMs) / LOOPBACK_ROUND_TRIP_MS);
  return Math.max(BASE_FILES, Math.min(wanted, MAX_FILES, files));
}

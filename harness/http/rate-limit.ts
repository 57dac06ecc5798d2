/**
 * Being gentle with a target: a request-rate limit (profile `rateLimit.requestsPerSecond`) and honouring
 * 429 Too Many Requests with Retry-After (wire conventions §6: "429 rate limited (with Retry-After, which
 * the suite honours)"; spec/gaps.md GAP-52: a 429 is not itself a failure).
 */

export interface RateLimitOptions {
  /** Most request starts per second from this client; undefined: no limit. */
  requestsPerSecond?: number;
  /** Longest Retry-After the client waits for; a longer one ends the request with a TransportError. */
  maxRetryAfterMs: number;
  /** How many times one request is retried after 429 before giving up. */
  maxRetries: number;
}

export const RATE_LIMIT_DEFAULTS = { maxRetryAfterMs: 10_000, maxRetries: 3 } as const;

/** Used when a 429 carries no (usable) Retry-After: wait a second, as the header's smallest value would. */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Spaces request starts at least 1000/rate ms apart, measured from when each start really happened (a late
 * timer never lets the next ones bunch up), so any one-second window holds at most `rate` starts.
 * Callers queue in call order.
 */
export class RequestPacer {
  private queue: Promise<void> = Promise.resolve();
  private lastStart = -Infinity;
  private readonly intervalMs: number;

  constructor(requestsPerSecond: number) {
    this.intervalMs = 1000 / requestsPerSecond;
  }

  take(): Promise<void> {
    const turn = this.queue.then(async () => {
      const wait = this.lastStart + this.intervalMs - performance.now();
      if (wait > 0) await sleep(wait);
      this.lastStart = performance.now();
    });
    this.queue = turn;
    return turn;
  }
}

/**
 * Retry-After as milliseconds to wait: delay-seconds ("120") or an HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT",
 * RFC 9110 §10.2.3). A date in the past means "now" (0). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined; // "1.5", "-3": neither form
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * How a parallel run shares the profile's rate: every test worker has its own client, so each gets an
 * even share (requestsPerSecond / workers) and the target never sees more than the profile allows.
 */
export function workerShare(requestsPerSecond: number | undefined, workers: number | undefined): number | undefined {
  if (requestsPerSecond === undefined) return undefined;
  return requestsPerSecond / Math.max(1, workers ?? 1);
}

/** One request and its answer, as the checks, the exchange log and failure messages see it. */
export interface SentRequest {
  method: string;
  url: string;
  /** Path and query as sent, e.g. /v1/user/7/card?count=5 */
  path: string;
  headers: Record<string, string>;
  /** Text body, or a placeholder for binary bodies. */
  body?: string;
  /** Local address the request was sent from, where bound. */
  from?: string;
}

export interface Exchange {
  request: SentRequest;
  status: number;
  headers: Record<string, string>;
  bodyBytes: Buffer;
  bodyText: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON (see jsonError). */
  json: unknown;
  jsonError?: string;
  durationMs: number;
  /**
   * Set only when the client sent this request more than once (harness/http/client.ts): the earlier attempts and
   * what ended each (a 429, a 502/503/504, a dropped connection). The exchange itself is the final answer.
   */
  attempts?: Attempt[];
  /** Set on an attempt the client is about to retry: why, and how long it waits first. */
  retrying?: { reason: string; waitMs: number };
}

/** One earlier attempt of a retried request. */
export interface Attempt {
  /** The status it got, or the transport problem (TransportError kind and code) when none came. */
  status?: number;
  transport?: string;
  /** The request id it carried (a retry gets a fresh one). */
  requestId?: string;
  waitedMs: number;
}

const SNIPPET = 300;

/** `GET /v1/user/7/card` */
export function describeRequest(request: SentRequest): string {
  return `${request.method} ${request.path}${request.from ? ` (from ${request.from})` : ""}`;
}

/** `200 {"Response":[…]}`, shortened for one-line failure messages. */
export function describeResponse(exchange: Exchange): string {
  const text = exchange.bodyText.trim();
  const location =
    exchange.status >= 300 && exchange.status < 400 && exchange.headers.location ? ` (Location: ${exchange.headers.location})` : "";
  if (text === "") return `${exchange.status}${location} (empty body)`;
  const notJson = exchange.jsonError && /json/i.test(exchange.headers["content-type"] ?? "") ? " (labelled JSON but not valid JSON)" : "";
  const isText = /json|text|xml|html/i.test(exchange.headers["content-type"] ?? "") || exchange.json !== undefined;
  if (!isText && !/^[\x20-\x7e\s]*$/.test(text.slice(0, 200)))
    return `${exchange.status} (${exchange.bodyBytes.length} bytes of ${exchange.headers["content-type"] ?? "binary"})`;
  const oneLine = text.replace(/\s+/g, " ");
  return `${exchange.status}${location}${notJson} ${oneLine.length > SNIPPET ? `${oneLine.slice(0, SNIPPET)}…` : oneLine}`;
}

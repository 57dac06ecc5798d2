import { createPrivateKey, randomUUID, type KeyObject } from "node:crypto";
import { isIP } from "node:net";
import type * as Undici from "undici";
import { Agent, EnvHttpProxyAgent, Pool, type Dispatcher } from "./undici-lean.js";
import { dispatchOnce, type Answer } from "./dispatch-once.js";
import type { Attempt, Exchange, SentRequest } from "./exchange.js";
import { DEFAULT_RETRY_AFTER_MS, parseRetryAfter, RATE_LIMIT_DEFAULTS, RequestPacer, sleep, type RateLimitOptions } from "./rate-limit.js";
import { assertReadOnlyAllowed } from "./read-only.js";
import { registerSecret } from "../redact.js";
import { signBody } from "./signing.js";
import { describeTlsProblem, type TlsConnectOptions } from "./tls.js";
import { DROPPED_CODES, TransportError } from "./transport-error.js";
import { assertTargetAnswering, noteAnswer, noteNoAnswer } from "./transport-limit.js";

export interface ClientOptions {
  baseUrl: string;
  headerPrefix: string;
  userAgent: string;
  requestMs: number;
  maxResponseBytes: number;
  /** Called with every completed exchange (the exchange log, harness/run/exchange-log.ts). */
  onExchange?: (exchange: Exchange) => void | Promise<void>;
  /** "read-only": refuse to send anything but GET outside the session bootstrap (ReadOnlyViolation). */
  mode?: "full" | "read-only";
  /** Pace requests and honour 429 Retry-After (defaults: no pacing, 429 waited out up to 10 s, 3 retries). */
  rateLimit?: Partial<RateLimitOptions>;
  /**
   * How often a safe request (GET, HEAD, and the bootstrap POSTs /installation, /device-server, /session-server)
   * is retried after a dropped or reset connection or a 502/503/504 (default 2). Writes are never resent.
   */
  retries?: number;
  /** Requests in a row without an answer after which nothing more is sent (default 10; 0: never give up). */
  maxTransportErrors?: number;
  /** TLS towards the target: private CA, client certificate, or no verification (harness/http/tls.ts). */
  tls?: TlsConnectOptions;
  /** "env" (default): honour HTTP_PROXY / HTTPS_PROXY / NO_PROXY, loopback targets always direct; "none": never a proxy. */
  proxy?: "env" | "none";
  /**
   * PEM private key of the installed client key: every request with a body then carries <prefix>Client-Signature
   * over its exact bytes (harness/http/signing.ts). A caller's own value for that header, or null, wins.
   */
  signingKey?: string;
}

export interface RequestOptions {
  method?: string;
  /** Relative to the base URL ("/user/7/card"), or a link under /v1 as the server gives it ("/v1/user/7/card?count=5"). */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Session or installation token; null or undefined sends no authentication header. */
  token?: string | null;
  /** Extra headers; a null value removes a default header (User-Agent, Cache-Control, the prefixed ones). */
  headers?: Record<string, string | null>;
  json?: unknown;
  body?: Buffer | string;
  /** Local address to send from (one of the profile's sourceAddresses). */
  from?: string;
  /**
   * A write is never resent, unless its caller vouches for it here: "same-request-id" resends it after weather
   * (a dropped connection, a 502/503/504) with its first request id, which a conformant server never applies twice
   * (a reused id is refused). Where the first attempt may have been applied (no answer, 502, 504) and the resend is
   * refused with a 4XX, its outcome is unknown: a TransportError ("lost-answer"), never an answer to judge.
   */
  resend?: "same-request-id";
}

/** The dispatchers for one source address: direct, and through the environment's proxy where one is set. */
interface Route {
  direct: Agent;
  proxied?: EnvHttpProxyAgent;
}

/**
 * The one HTTP client of the suite: undici with keep-alive, one Agent per source address,
 * a whole-exchange time limit and a response-size cap. It never throws on an HTTP status (a 3XX is an
 * answer to judge: redirects are never followed); a missing or unusable answer becomes a TransportError
 * with a plain message saying what was sent, what went wrong and which limit applied.
 * For gentle runs it paces requests, waits out 429 Retry-After, and in read-only mode refuses writes.
 * Weather (a dropped connection, a 502/503/504) is retried on safe requests only, a few times with backoff
 * (Retry-After honoured within rateLimit.maxRetryAfterMs); the final answer is the one the checks judge, and
 * it carries the earlier attempts (Exchange.attempts). A write is never resent.
 */
export class HttpClient {
  private readonly routes = new Map<string, Route>();
  readonly origin: string;
  private readonly basePath: string;
  private readonly pacer: RequestPacer | undefined;
  private readonly retry: RateLimitOptions;
  private readonly retries: number;
  private readonly signingKey: KeyObject | undefined;
  /** Each installation registers a key pair of its own (the target keeps one installation per key: session/keys.ts). */
  keyPerInstallation = false;
  /** The signing key of each token whose installation has a key pair of its own (signFor); else signingKey. */
  private readonly tokenKeys = new Map<string, KeyObject>();

  constructor(readonly options: ClientOptions) {
    if (!/\/v1$/.test(options.baseUrl)) throw new Error(`baseUrl must end in /v1, got ${options.baseUrl}`);
    this.signingKey = options.signingKey === undefined ? undefined : createPrivateKey(options.signingKey);
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname; // ".../v1"
    const rate = options.rateLimit?.requestsPerSecond;
    this.pacer = rate !== undefined && rate > 0 ? new RequestPacer(rate) : undefined;
    this.retry = {
      ...(rate === undefined ? {} : { requestsPerSecond: rate }),
      maxRetryAfterMs: options.rateLimit?.maxRetryAfterMs ?? RATE_LIMIT_DEFAULTS.maxRetryAfterMs,
      maxRetries: options.rateLimit?.maxRetries ?? RATE_LIMIT_DEFAULTS.maxRetries,
    };
    this.retries = options.retries ?? DEFAULT_RETRIES;
  }

  /**
   * Bodies sent with `token` are signed with this key (a private PEM) rather than the client's: the token's installation
   * has a key pair of its own (harness/session/keys.ts, keyPerInstallation). No effect where the profile does not sign.
   */
  signFor(token: string, privateKeyPem: string): void {
    if (this.signingKey) this.tokenKeys.set(token, createPrivateKey(privateKeyPem));
  }

  /** Bodies sent with `token` are signed as those sent with `like` are (a session signs as its installation). */
  signLike(like: string, token: string): void {
    const key = this.tokenKeys.get(like);
    if (key) this.tokenKeys.set(token, key);
  }

  /** Full name of a service header: header("Client-Authentication") → "X-Service-Client-Authentication". */
  header(name: string): string {
    return `${this.options.headerPrefix}${name}`;
  }

  private dispatcher(from: string | undefined, url: URL): Dispatcher {
    const key = from ?? "";
    let route = this.routes.get(key);
    if (!route) {
      const base: Undici.Agent.Options = {
        // Top-level localAddress: undici ignores connect.localAddress.
        ...(from ? { localAddress: from } : {}),
        keepAliveTimeout: 10_000,
        // What one worker has in flight at once, however many of its tests run side by side: a target's load stays
        // what it was when tests ran one after another (64 a worker ended in timeouts from a busy reference on 2 cores).
        connections: 16,
        headersTimeout: this.options.requestMs,
        bodyTimeout: this.options.requestMs,
        ...(this.options.tls ? { connect: { ...this.options.tls } } : {}),
      };
      route = { direct: new Agent(base) };
      const proxies = (this.options.proxy ?? "env") === "env" ? proxyFromEnv() : undefined;
      if (proxies) {
        route.proxied = new EnvHttpProxyAgent({
          ...base,
          ...proxies,
          ...(this.options.tls ? { requestTls: { ...this.options.tls } } : {}),
          // The connection to the proxy leaves from the source address too.
          clientFactory: (origin, opts) => new Pool(origin, { ...opts, ...(from ? { localAddress: from } : {}) }),
        });
      }
      this.routes.set(key, route);
    }
    // Loopback targets (the embedded reference, a server on this machine) never go through a proxy.
    return route.proxied && !isLoopback(url.hostname) ? route.proxied : route.direct;
  }

  defaultHeaders(): Record<string, string> {
    return {
      "User-Agent": this.options.userAgent,
      "Cache-Control": "no-cache",
      [this.header("Client-Request-Id")]: randomUUID(),
      [this.header("Geolocation")]: "0 0 0 0 000",
      [this.header("Language")]: "en_US",
    };
  }

  url(path: string, query?: RequestOptions["query"]): URL {
    // A link from the server ("/v1/...") is resolved against the base URL's root; a resource path against the base.
    const root = this.basePath.slice(0, -"/v1".length);
    const url = new URL(
      path.startsWith("/v1/") || path === "/v1" ? `${this.origin}${root}${path}` : `${this.origin}${this.basePath}${path}`,
    );
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  async request(options: RequestOptions): Promise<Exchange> {
    const method = options.method ?? "GET";
    assertTargetAnswering(this.origin, `${method} ${options.path}`);
    if (this.options.mode === "read-only") {
      const url = this.url(options.path, options.query);
      assertReadOnlyAllowed(method, url.pathname.slice(this.basePath.length), `${url.pathname}${url.search}`);
    }
    // Allocated only once a request is retried: a request sent once costs nothing extra.
    let attempts: Attempt[] | undefined;
    let rateLimited = 0;
    let transient = 0;
    const key = options.resend === "same-request-id" && !this.isSafe(method, options) ? this.requestIdFor(options) : undefined;
    /** A keyed write was resent after weather that may have let the first attempt through. */
    let uncertain = false;
    for (;;) {
      await this.pacer?.take();
      let exchange: Exchange;
      try {
        exchange = await this.once(method, options, attempts !== undefined, key);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        // Every attempt without an answer counts towards maxTransportErrors, a resent one too: with tests side by
        // side, the requests in flight when a target dies would otherwise each be resent before any counted.
        noteNoAnswer(this.origin, error, this.options.maxTransportErrors ?? DEFAULT_MAX_TRANSPORT_ERRORS);
        const wait =
          DROPPED_CODES.has(error.code ?? "") && transient < this.retries && (key !== undefined || this.isSafe(method, options))
            ? backoff(transient)
            : undefined;
        if (wait === undefined) {
          if (attempts) {
            error.retries = attempts.length;
            error.message += ` (after ${attempts.length} ${attempts.length === 1 ? "retry" : "retries"})`;
          }
          throw error;
        }
        (attempts ??= []).push({
          transport: `${error.kind} ${error.code}`,
          ...(key === undefined ? {} : { requestId: key }),
          waitedMs: wait,
        });
        uncertain ||= key !== undefined;
        transient++;
        await sleep(wait);
        // The target may have been given up on meanwhile (by this request's drops or others'): nothing more is sent.
        assertTargetAnswering(this.origin, `${method} ${options.path}`);
        continue;
      }
      let wait: number | undefined;
      let reason: string | undefined;
      if (exchange.status === 429) {
        try {
          wait = this.retryDelay(exchange, rateLimited);
        } catch (error) {
          await this.finish(exchange, attempts);
          throw error;
        }
        rateLimited++;
        reason = "429 Too Many Requests";
      } else if (TRANSIENT_STATUS.has(exchange.status) && transient < this.retries && (key !== undefined || this.isSafe(method, options))) {
        // Retry-After honoured within the rate-limit bound; a longer one is not waited for: the answer stands.
        const asked = parseRetryAfter(exchange.headers["retry-after"]);
        wait = asked === undefined ? backoff(transient) : asked <= this.retry.maxRetryAfterMs ? asked : undefined;
        if (wait !== undefined) {
          transient++;
          reason = `${exchange.status} (transient)`;
          // A 503 says the request was not handled; a gateway's 502 or 504 may come after the target did the work.
          uncertain ||= key !== undefined && exchange.status !== 503;
        }
      }
      if (wait === undefined) {
        if (uncertain && exchange.status >= 400 && exchange.status < 500) {
          await this.finish(exchange, attempts);
          throw new TransportError(
            `${describe(exchange.request)}: resent with the same request id after ` +
              `${attempts!.map((a) => a.transport ?? a.status).join(", ")}, and the resend was refused (${exchange.status}): the ` +
              `first attempt may have been applied and its answer lost`,
            "lost-answer",
            undefined,
            attempts!.length,
          );
        }
        return this.finish(exchange, attempts);
      }
      exchange.retrying = { reason: reason!, waitMs: wait };
      await this.options.onExchange?.(exchange);
      const requestId = exchange.request.headers[this.header("Client-Request-Id")];
      (attempts ??= []).push({ status: exchange.status, ...(requestId === undefined ? {} : { requestId }), waitedMs: wait });
      await sleep(wait);
    }
  }

  /** The request id a keyed write keeps over its attempts: the caller's, or one made now; none when the caller removed it. */
  private requestIdFor(options: RequestOptions): string | undefined {
    const id = this.header("Client-Request-Id").toLowerCase();
    const own = Object.entries(options.headers ?? {}).find(([name]) => name.toLowerCase() === id);
    return own === undefined ? randomUUID() : (own[1] ?? undefined);
  }

  /** The final answer: with the earlier attempts where there were any, recorded, returned. */
  private async finish(exchange: Exchange, attempts: Attempt[] | undefined): Promise<Exchange> {
    noteAnswer(this.origin);
    if (attempts) exchange.attempts = attempts;
    await this.options.onExchange?.(exchange);
    return exchange;
  }

  /**
   * Whether a request may be sent again without asking: it changes nothing (GET, HEAD, OPTIONS), or it is one of
   * the three bootstrap calls the protocol is built to repeat. Every other write is never resent.
   */
  private isSafe(method: string, options: RequestOptions): boolean {
    return resendable(method, options.path);
  }

  /** How long to wait before retrying a 429, or a TransportError when the wait or the retries would exceed the profile's bounds. */
  private retryDelay(exchange: Exchange, retries: number): number {
    const header = exchange.headers["retry-after"];
    const asked = parseRetryAfter(header);
    const wait = asked ?? DEFAULT_RETRY_AFTER_MS;
    const what = `${exchange.request.method} ${exchange.request.path}`;
    const said = header === undefined ? "no Retry-After" : `Retry-After: ${header}`;
    if (retries >= this.retry.maxRetries) {
      throw new TransportError(
        `${what}: still 429 Too Many Requests (${said}) after ${retries} ${retries === 1 ? "retry" : "retries"} ` +
          `(rateLimit.maxRetries = ${this.retry.maxRetries}); the target is rate limiting this run: lower ` +
          `rateLimit.requestsPerSecond`,
        "rate-limited",
      );
    }
    if (wait > this.retry.maxRetryAfterMs) {
      throw new TransportError(
        `${what}: 429 Too Many Requests asks to wait ${Math.ceil(wait / 1000)} s (${said}), longer than ` +
          `rateLimit.maxRetryAfterMs (${this.retry.maxRetryAfterMs} ms); not retried`,
        "rate-limited",
      );
    }
    return wait;
  }

  /**
   * One attempt: fresh default headers (a new request id) unless the caller set them. A retry always carries a
   * fresh request id, the caller's own included: the first attempt may have reached the server, and an id
   * used twice on one device is refused. A keyed write (resend: "same-request-id") keeps `requestId` on every attempt.
   */
  private async once(method: string, options: RequestOptions, retry = false, requestId?: string): Promise<Exchange> {
    const url = this.url(options.path, options.query);
    const headers: Record<string, string> = this.defaultHeaders();
    if (options.token) {
      // Whatever goes out as a token is treated as a secret, made-up ones included: reports never show it.
      registerSecret(options.token, "token");
      headers[this.header("Client-Authentication")] = options.token;
    }
    let body: Buffer | string | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["Content-Type"] = "application/json";
    }
    if (this.signingKey && body !== undefined) {
      const key = (options.token ? this.tokenKeys.get(options.token) : undefined) ?? this.signingKey;
      headers[this.header("Client-Signature")] = signBody(body, key);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      const existing = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
      if (existing) delete headers[existing];
      if (value !== null) headers[name] = value;
      if (value !== null && /client-authentication$/i.test(name)) registerSecret(value, "token");
    }
    if (requestId !== undefined || (retry && options.headers)) {
      const id = this.header("Client-Request-Id").toLowerCase();
      const name = Object.keys(headers).find((h) => h.toLowerCase() === id);
      if (name !== undefined) headers[name] = requestId ?? randomUUID();
    }
    const sent: SentRequest = {
      method,
      url: url.toString(),
      path: `${url.pathname}${url.search}`,
      headers,
      ...(body === undefined
        ? {}
        : { body: typeof body === "string" ? body : `«${body.length} bytes of ${headers["Content-Type"] ?? "binary"}»` }),
      ...(options.from ? { from: options.from } : {}),
    };
    const started = performance.now();
    const limit = this.options.requestMs;
    const maxBytes = this.options.maxResponseBytes;
    const dispatched = dispatchOnce(
      () => this.dispatcher(options.from, url),
      { origin: url.origin, path: sent.path, method: method as Undici.Dispatcher.HttpMethod, headers, body },
      {
        refuseHeaders: (status, answerHeaders) => {
          // A HEAD answer announces a body it does not send.
          const declared = method.toUpperCase() === "HEAD" ? Number.NaN : Number(answerHeaders["content-length"]);
          if (!Number.isFinite(declared) || declared <= maxBytes) return undefined;
          return new TransportError(
            `${describe(sent)}: status ${status} announced a body of ${declared} bytes (Content-Length), over the ` +
              `limit of ${maxBytes} bytes (maxResponseBytes); not read`,
            "too-large",
          );
        },
        maxBytes,
        tooLarge: (status) =>
          new TransportError(
            `${describe(sent)}: status ${status}, then the body went past ${maxBytes} bytes (maxResponseBytes) and was cut off`,
            "too-large",
          ),
      },
    );
    // Our own whole-exchange timer, so a timeout is told apart from other stops (a refusing proxy also "aborts").
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      dispatched.abort(new Error(`no complete answer within ${limit} ms`));
    }, limit);
    let answer: Answer;
    try {
      answer = await dispatched.answer;
    } catch (error) {
      if (error instanceof TransportError) throw error;
      // A TLS 1.3 server refusing a missing client certificate just closes the connection: say what that often means.
      const hint =
        url.protocol === "https:" && !this.options.tls?.cert
          ? "over TLS this is often a server that wants a client certificate (set tls.cert and tls.key)"
          : undefined;
      throw toTransportError(error, {
        sent,
        limitMs: limit,
        maxBytes,
        timedOut,
        status: dispatched.progress.statusCode,
        received: dispatched.progress.size,
        ...(hint ? { hint } : {}),
      });
    } finally {
      clearTimeout(timer);
    }
    const bodyBytes = answer.body;
    const bodyText = bodyBytes.toString("utf8");
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
    let json: unknown;
    let jsonError: string | undefined;
    if (bodyText.trim() !== "") {
      try {
        json = JSON.parse(bodyText);
      } catch (error) {
        jsonError = (error as Error).message;
      }
    }
    const exchange: Exchange = {
      request: sent,
      status: answer.statusCode,
      headers: responseHeaders,
      bodyBytes,
      bodyText,
      json,
      ...(jsonError ? { jsonError } : {}),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    return exchange;
  }

  /** Closes the connections; a connection still busy after a second is cut, so closing never hangs. */
  async close(): Promise<void> {
    const dispatchers = [...this.routes.values()].flatMap((route) => [route.direct, ...(route.proxied ? [route.proxied] : [])]);
    this.routes.clear();
    await Promise.all(
      dispatchers.map(async (dispatcher) => {
        const closed = dispatcher.close().then(
          () => true,
          () => true,
        );
        if (!(await Promise.race([closed, sleep(1000).then(() => false)]))) await dispatcher.destroy().catch(() => undefined);
      }),
    );
  }
}

function describe(sent: SentRequest): string {
  return `${sent.method} ${sent.path}${sent.from ? ` (from ${sent.from})` : ""}`;
}

/**
 * The proxy settings of the environment, or undefined when no proxy is set. The first non-empty of the
 * lower- and upper-case spelling wins (undici would let an empty http_proxy hide a set HTTP_PROXY).
 */
function proxyFromEnv(env: NodeJS.ProcessEnv = process.env): { httpProxy?: string; httpsProxy?: string; noProxy: string } | undefined {
  const pick = (name: string) => env[name.toLowerCase()] || env[name] || undefined;
  const httpProxy = pick("HTTP_PROXY");
  const httpsProxy = pick("HTTPS_PROXY") ?? httpProxy;
  if (!httpProxy && !httpsProxy) return undefined;
  return { ...(httpProxy ? { httpProxy } : {}), ...(httpsProxy ? { httpsProxy } : {}), noProxy: pick("NO_PROXY") ?? "" };
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

/** Default of the profile's `maxTransportErrors`. */
const DEFAULT_MAX_TRANSPORT_ERRORS = 10;

/** Default of the profile's `retries`. */
const DEFAULT_RETRIES = 2;
/** Answers a gateway or an overloaded server gives for a moment: retried on safe requests. */
const TRANSIENT_STATUS = new Set([502, 503, 504]);
/** The session bootstrap calls, designed to be repeated (relative to the base URL). */
const BOOTSTRAP_PATHS = new Set(["/installation", "/device-server", "/session-server"]);
/** Whether a request may be resent as it is: GET, HEAD, OPTIONS, or a bootstrap POST (path relative to the base URL or under /v1). */
export function resendable(method: string, path: string): boolean {
  const upper = method.toUpperCase();
  if (upper === "GET" || upper === "HEAD" || upper === "OPTIONS") return true;
  if (upper !== "POST") return false;
  const bare = path.split("?")[0]!;
  const under = bare.lastIndexOf("/v1/");
  return BOOTSTRAP_PATHS.has(under >= 0 ? bare.slice(under + 3) : bare);
}

/** 100 ms, 200 ms, 400 ms, … (at most 2 s) before the n-th retry of a transient fault without Retry-After. */
const backoff = (n: number) => Math.min(2000, 100 * 2 ** n);

const CONNECTION_PROBLEMS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by the server",
  EPIPE: "connection closed by the server",
  ENOTFOUND: "host name not found",
  EAI_AGAIN: "host name lookup failed (temporary DNS failure)",
  EADDRNOTAVAIL: "source address not available on this machine",
  UND_ERR_SOCKET: "the server closed the connection",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ECONNABORTED: "connection aborted",
  ETIMEDOUT: "connecting timed out",
  UND_ERR_CONNECT_TIMEOUT: "connecting timed out",
};

interface Failure {
  sent: SentRequest;
  limitMs: number;
  maxBytes: number;
  timedOut: boolean;
  /** Set when the status line and headers had arrived. */
  status?: number;
  received: number;
  /** Added to a connection closed or reset before any answer. */
  hint?: string;
}

function toTransportError(error: unknown, failure: Failure): TransportError {
  const { sent, limitMs, maxBytes, timedOut, status, received } = failure;
  const err = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code ?? "";
  const what = describe(sent);
  const afterHeaders = status !== undefined;
  const sofar = afterHeaders ? `status ${status} and headers arrived, then ` : "";
  const got = afterHeaders ? `; ${received} bytes of body received` : "";
  if (timedOut || /HEADERS_TIMEOUT|BODY_TIMEOUT/.test(code)) {
    // "no complete answer within" is the phrase reports classify timeouts by (report/failure-blame.ts).
    const stalled = afterHeaders
      ? `status ${status} and headers arrived, then the body stalled${got}`
      : "not even a status line and headers arrived";
    return new TransportError(`${what}: no complete answer within ${limitMs} ms (timeouts.requestMs): ${stalled}`, "timeout");
  }
  if (code === "UND_ERR_RES_EXCEEDED_MAX_SIZE") {
    return new TransportError(`${what}: ${sofar}the body went past ${maxBytes} bytes (maxResponseBytes)`, "too-large");
  }
  const tls = describeTlsProblem(code, err.cause?.message ?? err.message ?? "");
  if (tls && !afterHeaders) return new TransportError(`${what}: ${tls}`, "tls");
  const plain = CONNECTION_PROBLEMS[code];
  if (plain) {
    const before = afterHeaders && code === "UND_ERR_SOCKET" ? "the server closed the connection before the body was complete" : plain;
    const hint = !afterHeaders && failure.hint && ["UND_ERR_SOCKET", "ECONNRESET"].includes(code) ? `; ${failure.hint}` : "";
    return new TransportError(`${what}: ${sofar}${before}${got} (${code})${hint}`, "connection", code);
  }
  if (/Proxy response \((\d+)\)/.test(err.message ?? "")) {
    return new TransportError(`${what}: the proxy (HTTPS_PROXY / HTTP_PROXY) refused the tunnel: ${err.message}`, "connection");
  }
  const message = err.message || String(error);
  return new TransportError(`${what}: ${sofar}${message}${got}${code ? ` (${code})` : ""}`, "other");
}

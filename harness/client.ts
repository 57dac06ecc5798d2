import { randomUUID } from "node:crypto";
import { Agent, type Dispatcher } from "undici";
import type { Exchange, SentRequest } from "./exchange.js";
import { TransportError } from "./transport-error.js";

export interface ClientOptions {
  baseUrl: string;
  headerPrefix: string;
  userAgent: string;
  requestMs: number;
  maxResponseBytes: number;
  /** Called with every completed exchange (the recorder). */
  onExchange?: (exchange: Exchange) => void | Promise<void>;
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
}

/**
 * The one HTTP client of the suite: undici with keep-alive, one Agent per source address,
 * a whole-exchange time limit and a response-size cap. It never throws on an HTTP status;
 * a missing or unusable answer becomes a TransportError with a plain message.
 */
export class HttpClient {
  private readonly agents = new Map<string, Agent>();
  readonly origin: string;
  private readonly basePath: string;

  constructor(readonly options: ClientOptions) {
    if (!/\/v1$/.test(options.baseUrl)) throw new Error(`baseUrl must end in /v1, got ${options.baseUrl}`);
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname; // ".../v1"
  }

  /** Full name of a service header: header("Client-Authentication") → "X-Service-Client-Authentication". */
  header(name: string): string {
    return `${this.options.headerPrefix}${name}`;
  }

  private agent(from: string | undefined): Agent {
    const key = from ?? "";
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({
        // Top-level localAddress: undici ignores connect.localAddress.
        ...(from ? { localAddress: from } : {}),
        keepAliveTimeout: 10_000,
        connections: 16,
        headersTimeout: this.options.requestMs,
        bodyTimeout: this.options.requestMs,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  defaultHeaders(): Record<string, string> {
    return {
      "User-Agent": this.options.userAgent,
      "Cache-Control": "no-cache",
      [this.header("Client-Request-Id")]: randomUUID(),
      [this.header("Geolocation")]: "0 0 0 0 000",
      [this.header("Language")]: "en_US",
      [this.header("Region")]: "en_US",
    };
  }

  url(path: string, query?: RequestOptions["query"]): URL {
    // A link from the server ("/v1/...") is resolved against the base URL's root; a resource path against the base.
    const root = this.basePath.slice(0, -"/v1".length);
    const url = new URL(path.startsWith("/v1/") || path === "/v1" ? `${this.origin}${root}${path}` : `${this.origin}${this.basePath}${path}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  async request(options: RequestOptions): Promise<Exchange> {
    const method = options.method ?? "GET";
    const url = this.url(options.path, options.query);
    const headers: Record<string, string> = this.defaultHeaders();
    if (options.token) headers[this.header("Client-Authentication")] = options.token;
    let body: Buffer | string | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["Content-Type"] = "application/json";
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      const existing = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
      if (existing) delete headers[existing];
      if (value !== null) headers[name] = value;
    }
    const sent: SentRequest = {
      method,
      url: url.toString(),
      path: `${url.pathname}${url.search}`,
      headers,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : `«${body.length} bytes of ${headers["Content-Type"] ?? "binary"}»` }),
      ...(options.from ? { from: options.from } : {}),
    };
    const started = performance.now();
    const limit = this.options.requestMs;
    const signal = AbortSignal.timeout(limit);
    let response: Dispatcher.ResponseData;
    try {
      response = await this.agent(options.from).request({
        origin: url.origin,
        path: sent.path,
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
      });
    } catch (error) {
      throw toTransportError(error, sent, limit, this.options.maxResponseBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > this.options.maxResponseBytes) {
          response.body.destroy();
          throw new TransportError(
            `${method} ${sent.path}: response body exceeded ${this.options.maxResponseBytes} bytes (maxResponseBytes); status was ${response.statusCode}`,
            "too-large",
          );
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (error instanceof TransportError) throw error;
      throw toTransportError(error, sent, limit, this.options.maxResponseBytes, response.statusCode);
    }
    const bodyBytes = Buffer.concat(chunks);
    const bodyText = bodyBytes.toString("utf8");
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
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
      status: response.statusCode,
      headers: responseHeaders,
      bodyBytes,
      bodyText,
      json,
      ...(jsonError ? { jsonError } : {}),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    await this.options.onExchange?.(exchange);
    return exchange;
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((agent) => agent.close()));
    this.agents.clear();
  }
}

function toTransportError(error: unknown, sent: SentRequest, limitMs: number, maxBytes: number, status?: number): TransportError {
  const err = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code ?? "";
  const what = `${sent.method} ${sent.path}${sent.from ? ` (from ${sent.from})` : ""}`;
  const after = status === undefined ? "" : ` after status ${status} and headers`;
  if (err.name === "TimeoutError" || err.name === "AbortError" || /TIMEOUT/.test(code)) {
    return new TransportError(`${what}: no complete answer within ${limitMs} ms (timeouts.requestMs)${after}`, "timeout");
  }
  if (code === "UND_ERR_RES_EXCEEDED_MAX_SIZE") {
    return new TransportError(`${what}: response body exceeded ${maxBytes} bytes (maxResponseBytes)`, "too-large");
  }
  if (["ECONNREFUSED", "ECONNRESET", "EPIPE", "ENOTFOUND", "EADDRNOTAVAIL", "UND_ERR_SOCKET", "EHOSTUNREACH", "ECONNABORTED"].includes(code)) {
    const plain: Record<string, string> = {
      ECONNREFUSED: "connection refused",
      ECONNRESET: "connection reset by the server",
      EPIPE: "connection closed by the server",
      ENOTFOUND: "host name not found",
      EADDRNOTAVAIL: "source address not available on this machine",
      UND_ERR_SOCKET: "the server closed the connection",
      EHOSTUNREACH: "host unreachable",
      ECONNABORTED: "connection aborted",
    };
    return new TransportError(`${what}: ${plain[code]}${after} (${code})`, "connection");
  }
  return new TransportError(`${what}: ${err.message || String(error)}${after}${code ? ` (${code})` : ""}`, "other");
}

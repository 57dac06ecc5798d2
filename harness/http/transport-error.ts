/**
 * The target did not give a usable HTTP answer: no connection, a TLS failure, a timeout, a reset, a body
 * over the size cap, a 429 the profile's rate-limit bounds do not let us wait out, or a request not sent at all
 * because the target had stopped answering ("given-up": profile maxTransportErrors, harness/http/transport-limit.ts).
 * A test that ends with one is "broken: transport" (weather, not a defect): reports classify it by the
 * typed fields here (name, kind), never by the message.
 */
export class TransportError extends Error {
  override readonly name = "TransportError";
  constructor(
    message: string,
    readonly kind: "timeout" | "connection" | "too-large" | "aborted" | "tls" | "rate-limited" | "lost-answer" | "given-up" | "other",
    /** The system or undici error code, where there was one (ECONNRESET, UND_ERR_SOCKET, …). */
    readonly code?: string,
    /** Retries made before giving up (harness/http/client.ts); absent when the request was sent once. */
    public retries?: number,
  ) {
    super(message);
  }
}

/** Codes of a connection that broke under a request: weather (harness/http/client.ts retries these on safe requests). */
export const DROPPED_CODES: ReadonlySet<string> = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ECONNABORTED"]);

/**
 * The TransportError a thrown value is or carries (as its cause, e.g. a fast-check property failure), also
 * after serialisation to a reporter (vitest keeps name and kind). Undefined for any other error.
 */
export function transportErrorIn(error: unknown): { kind: string; code?: string; retries?: number } | undefined {
  for (let e = error, depth = 0; e !== null && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const candidate = e as { name?: unknown; kind?: unknown; code?: unknown; retries?: unknown };
    if (candidate.name === "TransportError" && typeof candidate.kind === "string") {
      return {
        kind: candidate.kind,
        ...(typeof candidate.code === "string" ? { code: candidate.code } : {}),
        ...(typeof candidate.retries === "number" ? { retries: candidate.retries } : {}),
      };
    }
  }
  return undefined;
}

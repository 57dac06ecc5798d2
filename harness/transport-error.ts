/**
 * The target did not give a usable HTTP answer: no connection, a TLS failure, a timeout, a reset, a body
 * over the size cap, or a 429 the profile's rate-limit bounds do not let us wait out.
 */
export class TransportError extends Error {
  override readonly name = "TransportError";
  constructor(
    message: string,
    readonly kind: "timeout" | "connection" | "too-large" | "aborted" | "tls" | "rate-limited" | "other",
  ) {
    super(message);
  }
}

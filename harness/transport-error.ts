/** The target did not give a usable HTTP answer: no connection, timeout, reset, or a body over the size cap. */
export class TransportError extends Error {
  override readonly name = "TransportError";
  constructor(
    message: string,
    readonly kind: "timeout" | "connection" | "too-large" | "aborted" | "other",
  ) {
    super(message);
  }
}

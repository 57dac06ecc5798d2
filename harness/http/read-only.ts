/**
 * The harness's own guard for `mode: read-only` profiles: suites skip writing checks (SKIP.readOnly),
 * and should one forget, the client refuses to send instead of writing to a production target.
 */

/** The session bootstrap (spec "Authentication"): the only calls other than GET a read-only run makes. */
const BOOTSTRAP_CALLS = ["/installation", "/device-server", "/session-server"] as const;

export class ReadOnlyViolation extends Error {
  override readonly name = "ReadOnlyViolation";
}

/**
 * Throws unless the request may be sent in read-only mode: GET, or POST to one of the bootstrap calls.
 * `resourcePath` is the path under the base URL, without query ("/user/7/card").
 */
export function assertReadOnlyAllowed(method: string, resourcePath: string, shownPath: string): void {
  const upper = method.toUpperCase();
  if (upper === "GET") return;
  if (upper === "POST" && (BOOTSTRAP_CALLS as readonly string[]).includes(resourcePath.replace(/\/+$/, ""))) return;
  throw new ReadOnlyViolation(
    `${upper} ${shownPath}: not sent: the profile is read-only (mode: read-only), which allows only GET after the session bootstrap ` +
      `(POST ${BOOTSTRAP_CALLS.join(", ")}); a check that writes must skip in read-only mode (SKIP.readOnly)`,
  );
}

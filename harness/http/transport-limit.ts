import { processWide } from "../run/process-wide.js";
import { TransportError } from "./transport-error.js";

/**
 * Fail fast on a dead target (profile `maxTransportErrors`): after that many requests in a row got no usable
 * answer, the client sends nothing more and the rest of the run is marked not run, said once. One count per
 * thread and target origin, whichever module graph loaded the client (harness/run/process-wide.ts): the kill
 * matrix's global setups, one per reference server, all run in the CLI's process. Any answer resets it.
 */
interface Limit {
  consecutive: number;
  /** Set once the limit was reached: why the rest is not sent. */
  reason?: string;
}

const limits = () => processWide("transport-limit", () => new Map<string, Limit>());
function state(origin: string): Limit {
  const all = limits();
  let limit = all.get(origin);
  if (limit === undefined) all.set(origin, (limit = { consecutive: 0 }));
  return limit;
}

/** What a test that was not run because of the limit says (one text, so the console groups them into one line). */
export const NOT_RUN_NOTE = "not run: the target stopped answering (profile maxTransportErrors reached)";

/** The kinds that mean "no answer at all": a timeout, a refused, reset or dropped connection, a failed TLS handshake. */
const NO_ANSWER = new Set<TransportError["kind"]>(["timeout", "connection", "tls"]);

/** Throws at once when the limit was reached: nothing more is sent to a target that stopped answering. */
export function assertTargetAnswering(origin: string, what: string): void {
  const reason = state(origin).reason;
  if (reason !== undefined) throw new TransportError(`${what}: not sent: ${reason}`, "given-up");
}

/** Counts a request that ended without an answer; reaching `limit` (0: never) stops the client. */
export function noteNoAnswer(origin: string, error: TransportError, limit: number): void {
  if (!NO_ANSWER.has(error.kind)) return;
  const s = state(origin);
  s.consecutive++;
  if (limit > 0 && s.consecutive >= limit && s.reason === undefined) {
    s.reason =
      `${limit} requests in a row got no answer (the last: ${error.message.split("\n")[0]}); the rest of the run is not sent ` +
      `(profile maxTransportErrors)`;
  }
}

/** An answer (any status) came: the count starts again. */
export function noteAnswer(origin: string): void {
  const s = state(origin);
  if (s.consecutive !== 0) s.consecutive = 0;
}

/** A kill-matrix fault run is over: its target's count goes (the thread's next run aims at another server). */
export function forgetTarget(origin: string): void {
  limits().delete(origin);
}

/** Why the client stopped sending to any target, once the limit was reached for it. */
export const transportLimitReason = (): string | undefined => [...limits().values()].find((l) => l.reason !== undefined)?.reason;

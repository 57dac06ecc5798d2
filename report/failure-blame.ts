// Which requirements a failed test blames, and what kind of failure it was, from summary.json's typed fields.
import { leadingRequirementId } from "../catalogue/requirements.js";
import type { TestSummary } from "./reporters/summary-reporter.js";
import type { FailureKind } from "./conformance-types.js";

/**
 * Messages of a target that gave no usable HTTP answer (harness/http/client.ts TransportError), and of a failed session
 * bootstrap. Allure's categories match messages (report/reporters/allure-results.ts); the verdict reads them only
 * in summaries written before tests carried their typed `failure` (legacyFailure).
 */
export const UNREACHABLE_SOURCE =
  "no complete answer within|connection refused|connection reset|connection closed by the server|host name not found|" +
  "host unreachable|closed the connection|connection aborted|source address not available|TLS:|TLS handshake failed|" +
  "maxResponseBytes|429 Too Many Requests|host name lookup failed|network unreachable|connecting timed out";
/** Messages of a session bootstrap that failed (harness/run/global-setup.ts, harness/run/target.ts). */
export const BOOTSTRAP_SOURCE = "no session for the primary user|session bootstrap";
const UNREACHABLE = new RegExp(UNREACHABLE_SOURCE, "i");
const BOOTSTRAP = new RegExp(BOOTSTRAP_SOURCE, "i");

/**
 * Blame and kind of a failed test, from its typed fields: a check of a requirement the test names blames that one
 * (and is a defect); a check of one it does not name blames them all, a defect only when that is one requirement;
 * transport (weather) blames none; anything else blames them all, as what it is.
 */
export function judgeFailure(test: Pick<TestSummary, "requirements" | "broken" | "failure" | "message">): {
  blamed: string[];
  kind: FailureKind;
} {
  if (test.broken === "transport") return { blamed: [], kind: "transport" };
  if (!test.failure) return legacyFailure(test.message, test.requirements);
  const cause = test.failure;
  if (cause.kind === "check") {
    const blamed = test.requirements.includes(cause.requirement) ? [cause.requirement] : [...test.requirements];
    return { blamed, kind: blamed.length === 1 ? "defect" : "broken" };
  }
  return { blamed: [...test.requirements], kind: cause.kind === "error" ? "broken" : cause.kind };
}

/** A summary written before tests carried their typed `failure`: blame and kind read from the message, as then. */
function legacyFailure(message: string | undefined, named: string[]): { blamed: string[]; kind: FailureKind } {
  return { blamed: blamedBy(message, named), kind: failureKind(message, named) };
}

/** Legacy (legacyFailure): the requirement a failure message starts with ("HDR-003: …"), if the test names it. */
export function blamedBy(message: string | undefined, named: string[]): string[] {
  const first = leadingRequirementId(message);
  return first && named.includes(first) ? [first] : [...named];
}

/** Legacy (legacyFailure): the kind of a failure, from its message. */
function failureKind(message: string | undefined, named: string[]): FailureKind {
  if (blamedBy(message, named).length === 1 && leadingRequirementId(message) !== undefined) return "defect";
  return UNREACHABLE.test(message ?? "") ? "unreachable" : BOOTSTRAP.test(message ?? "") ? "bootstrap" : "broken";
}

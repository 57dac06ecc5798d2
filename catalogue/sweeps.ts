// The sweeps: checks that try one shape of bug on every endpoint, method or list it can apply to (a rule kept on one
// sibling and dropped on another, a refused write that lands, an error answer missing part of its contract, …), each
// named by its suite and the requirement its tests lead with. `conformance coverage --sweeps` shows, per endpoint,
// which sweeps a run's requests reached (reports/exchanges.har names each request's test).
import { ENDPOINTS, type Endpoint } from "../harness/endpoints.js";

export interface Sweep {
  /** The shape of bug it tries, in a few words. */
  shape: string;
  suite: string;
  /** The requirement its tests lead with, or a prefix ("PAGE") for every requirement of that prefix. */
  requirement: string;
}

export const SWEEPS: readonly Sweep[] = [
  { shape: "no token", suite: "authentication", requirement: "AUTH-004" },
  { shape: "unknown or tampered token", suite: "authentication", requirement: "AUTH-005" },
  { shape: "session from an unbound address", suite: "authentication", requirement: "AUTH-011" },
  { shape: "another user's userID (refused write changes nothing)", suite: "authorisation", requirement: "AUTH-015" },
  { shape: "another user's item under the caller's userID", suite: "authorisation", requirement: "AUTH-019" },
  { shape: "a userID that names nobody, 0 included", suite: "authorisation", requirement: "AUTH-022" },
  { shape: "invalid bodies, headers, methods: never 2XX or 5XX", suite: "error-bodies", requirement: "ERR-001" },
  { shape: "path ids that are not integers", suite: "errors", requirement: "ERR-006" },
  { shape: "an item id no server hands out", suite: "errors", requirement: "ERR-014" },
  { shape: "write-only input never echoed in an error", suite: "errors", requirement: "ERR-016" },
  { shape: "pages walked both ways, counts at the edges", suite: "pagination", requirement: "PAGE" },
  { shape: "only under /v1", suite: "versioning", requirement: "VER-001" },
];

/** The endpoint a request path (under /v1, no query) is a call of, by method and template. */
export function endpointOf(method: string, path: string): Endpoint | undefined {
  return ENDPOINTS.find((e) => e.method === method && new RegExp(`^/v1${e.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));
}

/** Whether a HAR entry's test ("suite > describe > title") belongs to the sweep. */
export function inSweep(sweep: Sweep, test: string): boolean {
  const [suite, ...rest] = test.split(" > ");
  const lead = sweep.requirement.includes("-") ? `${sweep.requirement} ` : `${sweep.requirement}-`;
  return suite === sweep.suite && rest.at(-1)?.startsWith(lead) === true;
}

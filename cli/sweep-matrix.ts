// conformance coverage --sweeps: which sweeps (catalogue/sweeps.ts) reached each endpoint and method in the last run,
// read from its exchanges.har (every entry names its test). Evidence, not intent: an endpoint a sweep skipped for this
// profile (a fixture missing, read-only) shows as not reached.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ENDPOINTS } from "../harness/endpoints.js";
import { ConfigError } from "../harness/profile/config-error.js";
import { endpointOf, inSweep, SWEEPS } from "../catalogue/sweeps.js";

interface HarEntry {
  request: { method: string; url: string };
  _test?: string;
}

export function sweepMatrix(reportsDir: string): string {
  const file = join(reportsDir, "exchanges.har");
  let entries: HarEntry[];
  try {
    entries = (JSON.parse(readFileSync(file, "utf8")) as { log: { entries: HarEntry[] } }).log.entries;
  } catch (error) {
    throw new ConfigError(`conformance coverage --sweeps: cannot read ${file} (${(error as Error).message}); run the suite first`);
  }
  const key = (method: string, path: string) => `${method} ${path}`;
  const reached = new Map<string, Set<number>>();
  for (const entry of entries) {
    const endpoint = endpointOf(entry.request.method, new URL(entry.request.url).pathname);
    if (!endpoint || !entry._test) continue;
    SWEEPS.forEach((sweep, i) => {
      if (!inSweep(sweep, entry._test!)) return;
      const k = key(endpoint.method, endpoint.path);
      reached.set(k, (reached.get(k) ?? new Set()).add(i));
    });
  }
  const rows = ENDPOINTS.map((e) => ({ name: key(e.method, e.path), hits: reached.get(key(e.method, e.path)) ?? new Set<number>() }));
  const width = Math.max(...rows.map((r) => r.name.length));
  const out = [
    "Sweeps (one shape of bug tried on every endpoint it applies to):",
    ...SWEEPS.map((s, i) => `  ${String(i + 1).padStart(2)}  ${s.shape} (${s.suite}, ${s.requirement})`),
    "",
    `${"endpoint".padEnd(width)}  ${SWEEPS.map((_, i) => String(i + 1).padStart(2)).join(" ")}  reached by`,
    ...rows.map(
      (r) =>
        `${r.name.padEnd(width)}  ${SWEEPS.map((_, i) => (r.hits.has(i) ? " x" : " .")).join(" ")}  ${r.hits.size} of ${SWEEPS.length}`,
    ),
  ];
  const none = rows.filter((r) => r.hits.size === 0);
  out.push("", none.length === 0 ? "Every endpoint was reached by a sweep." : `Reached by no sweep: ${none.map((r) => r.name).join(", ")}`);
  return `${out.join("\n")}\n`;
}

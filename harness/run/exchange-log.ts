// Every exchange of a run, redacted, one JSON line each in <reports>/exchanges.ndjson, tagged with the test
// that made it. The CLI turns the file into exchanges.har (any browser's network panel loads it) and takes
// each failure's last exchange for its curl line. Workers append whole lines, so files running at once
// interleave lines, never bytes of one line.
import { mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, relative } from "node:path";
import type { Exchange } from "../http/exchange.js";
import { redactedParts } from "./redacted-exchange.js";
import { currentTest, nameInFile } from "./test-scope.js";

export const EXCHANGE_LOG = "exchanges.ndjson";

/** One line of the log: the exchange as reports may show it (secrets redacted). */
export interface LoggedExchange {
  /** "<suite> > <describe…> > <title>", as summary.json's fullName; absent outside a test (global setup). */
  test?: string;
  startedAt: string;
  durationMs: number;
  method: string;
  url: string;
  from?: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** Text of a textual answer (redacted, at most 64 KiB); binary answers are summarised. */
  responseBody: string;
  responseBytes: number;
}

const MAX_BODY = 64 * 1024;

/** The test that made the exchange (its own async scope: tests of a file may run side by side). */
function testOfThisExchange(suitesRoot: string): string | undefined {
  const task = currentTest();
  if (!task) return undefined;
  const suite = relative(suitesRoot, task.file.filepath).replace(/\.test\.ts$/, "");
  return `${suite} > ${nameInFile(task)}`;
}

/** An onExchange sink that appends to `<reportsDir>/exchanges.ndjson`. */
export function exchangeLogger(reportsDir: string, suitesRoot: string): (exchange: Exchange) => void {
  const file = `${reportsDir}/${EXCHANGE_LOG}`;
  mkdirSync(dirname(file), { recursive: true });
  // Opened once for appending (a worker's thousands of lines would otherwise each open and close the file); each
  // line is one write, so workers appending at once interleave whole lines.
  const fd = openSync(file, "a");
  return (exchange) => {
    const parts = redactedParts(exchange);
    const test = testOfThisExchange(suitesRoot);
    const entry: LoggedExchange = {
      ...(test ? { test } : {}),
      startedAt: new Date(Date.now() - exchange.durationMs).toISOString(),
      durationMs: exchange.durationMs,
      method: exchange.request.method,
      url: exchange.request.url,
      ...(exchange.request.from ? { from: exchange.request.from } : {}),
      requestHeaders: parts.requestHeaders,
      ...(parts.requestBody === undefined ? {} : { requestBody: parts.requestBody.slice(0, MAX_BODY) }),
      status: exchange.status,
      responseHeaders: parts.responseHeaders,
      responseBody: parts.responseText.slice(0, MAX_BODY),
      responseBytes: exchange.bodyBytes.length,
    };
    try {
      writeSync(fd, `${JSON.stringify(entry)}\n`);
    } catch {
      // A report that cannot be written must not fail a check; the run's own reports say what is missing.
    }
  };
}

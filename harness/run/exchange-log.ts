// Every exchange of a run, redacted, one JSON line each in <reports>/exchanges.ndjson, tagged with the test
// that made it. The CLI turns the file into exchanges.har (any browser's network panel loads it) and each test's
// exchanges into its Allure steps and attachment (report/reporters/allure-exchanges.ts), as each test file ends, and
// takes each failure's last exchange for its curl line.
import { mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { RunnerTestCase } from "vitest";
import { suiteOfFile } from "../../catalogue/test-titles.js";
import type { Attempt, Exchange } from "../http/exchange.js";
import { redactText } from "../redact.js";
import { redactedParts } from "./redacted-exchange.js";
import { processWide } from "./process-wide.js";
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
  /** Weather: the attempts before this final answer (their request ids redacted)… */
  attempts?: Attempt[];
  /** …or the retry this answer is about to get. */
  retrying?: { reason: string; waitMs: number };
}

const MAX_BODY = 64 * 1024;

/** A test's name in the log: "<suite> > <describe…> > <title>", its file named from the suites' folder. */
function loggedTestName(task: RunnerTestCase, suitesRoot: string): string {
  return `${suiteOfFile(task.file.filepath, suitesRoot)} > ${nameInFile(task)}`;
}

/** An exchange as the log holds it: secrets redacted, bodies cut at 64 KiB (after redaction: no cut hides a secret). */
export function loggedExchange(exchange: Exchange, test?: string): LoggedExchange {
  const parts = redactedParts(exchange);
  return {
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
    ...(exchange.attempts
      ? { attempts: exchange.attempts.map((a) => (a.requestId ? { ...a, requestId: redactText(a.requestId) } : a)) }
      : {}),
    ...(exchange.retrying ? { retrying: exchange.retrying } : {}),
  };
}

/** The logs of this thread with lines not yet written (flushExchangeLogs). */
const unwritten = () =>
  processWide("exchange-log.unwritten", () => {
    // A thread that ends between two flushes (a worker torn down after an error) still writes what waits.
    process.once("exit", () => flushExchangeLogs());
    return new Set<() => void>();
  });

/** A thread's lines are written at least this often, whatever the tests do. */
const FLUSH_AFTER_MS = 50;
/** …and at once past this many characters waiting. */
const FLUSH_AT_CHARS = 256 * 1024;

/**
 * An onExchange sink that appends to `<reportsDir>/exchanges.ndjson`. Lines are written whole, so workers appending at
 * once interleave lines, never bytes of one line. `buffered` (a worker's sink) keeps a test's lines together and writes
 * them at once: when the test ends (flushExchangeLogs, from harness/setup/test-scope-setup.ts), at the latest after
 * 50 ms, or at 256 KiB waiting. A write per exchange cost about 50 µs of a file system call each, 0.25 s a run.
 */
export function exchangeLogger(reportsDir: string, suitesRoot: string, buffered = false): (exchange: Exchange) => void {
  const file = `${reportsDir}/${EXCHANGE_LOG}`;
  mkdirSync(dirname(file), { recursive: true });
  // Opened once for appending (a worker's thousands of lines would otherwise each open and close the file).
  const fd = openSync(file, "a");
  let waiting: string[] = [];
  let chars = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = (text: string) => {
    try {
      writeSync(fd, text);
    } catch {
      // A report that cannot be written must not fail a check; the run's own reports say what is missing.
    }
  };
  const flush = () => {
    unwritten().delete(flush);
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (waiting.length === 0) return;
    const text = waiting.join("");
    waiting = [];
    chars = 0;
    write(text);
  };
  return (exchange) => {
    const task = currentTest();
    const line = `${JSON.stringify(loggedExchange(exchange, task ? loggedTestName(task, suitesRoot) : undefined))}\n`;
    if (!buffered) return write(line);
    waiting.push(line);
    chars += line.length;
    if (chars >= FLUSH_AT_CHARS) return flush();
    if (timer !== undefined) return;
    // The first line waiting: the log is on the thread's list and its timer runs, until flush takes both away. Unref'd:
    // a line waiting never keeps a worker alive (flushExchangeLogs runs as each test and file ends).
    unwritten().add(flush);
    timer = setTimeout(flush, FLUSH_AFTER_MS).unref();
  };
}

/** Writes every line this thread's logs hold back (harness/setup/test-scope-setup.ts: as each test and each file ends). */
export function flushExchangeLogs(): void {
  for (const flush of [...unwritten()]) flush();
}

import { Status } from "allure-js-commons";
import type { RuntimeMessage } from "allure-js-commons/sdk";
import type { LoggedExchange } from "../../harness/run/exchange-log.js";

/**
 * The run's exchanges by the test that made them, as the exchange log names it ("<suite> > <describe…> > <title>"),
 * until each test's Allure result is written. The workers only log each exchange (harness/run/exchange-log.ts); the
 * CLI reads the log as each test file ends (report/reporters/har.ts) and files its lines here: an exchange is redacted
 * and written once, not carried to the CLI a second time in the test's metadata (that second way cost a tenth of a
 * run's CPU).
 */
export class ExchangesByTest {
  private readonly pending = new Map<string, LoggedExchange[]>();

  file(exchange: LoggedExchange): void {
    if (exchange.test === undefined) return; // the global setup's bootstrap belongs to no test
    const list = this.pending.get(exchange.test);
    if (list) list.push(exchange);
    else this.pending.set(exchange.test, [exchange]);
  }

  /** The exchanges of one test (every attempt's), in the order they were made; forgotten here once taken. */
  take(test: string): LoggedExchange[] {
    const list = this.pending.get(test) ?? [];
    this.pending.delete(test);
    return list;
  }
}

/** "GET /v1/user/7/card → 200", with the weather it met. */
function exchangeTitle(e: LoggedExchange): string {
  const n = e.attempts?.length;
  const weather = e.retrying ? ` (${e.retrying.reason}: retried)` : n ? ` (after ${n} ${n === 1 ? "retry" : "retries"})` : "";
  return `${e.method} ${new URL(e.url).pathname} → ${e.status}${weather}`;
}

/** A redacted JSON text as a value (so reports show it as a tree), else the text itself, cut at 20,000 characters. */
function readable(redacted: string): unknown {
  const text = redacted.length > 20_000 ? `${redacted.slice(0, 20_000)}…` : redacted;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** One exchange as the test's attachment shows it. */
function shown(e: LoggedExchange): Record<string, unknown> {
  return {
    name: exchangeTitle(e),
    request: {
      method: e.method,
      url: e.url,
      ...(e.from ? { from: e.from } : {}),
      headers: e.requestHeaders,
      ...(e.requestBody === undefined ? {} : { body: readable(e.requestBody) }),
    },
    response: { status: e.status, headers: e.responseHeaders, body: readable(e.responseBody) },
    durationMs: e.durationMs,
    ...(e.attempts ? { attempts: e.attempts } : {}),
    ...(e.retrying ? { retrying: e.retrying } : {}),
  };
}

/**
 * A test's exchanges as its Allure result shows them: a step per exchange, named by what was sent and what came back
 * and timed as it ran, and one attachment, "exchanges", holding them all (redacted) in order. One file per test, not per
 * exchange: a run makes about 5,000 exchanges, and a file each cost seconds of CPU.
 */
export function exchangeMessages(logged: readonly LoggedExchange[]): RuntimeMessage[] {
  if (logged.length === 0) return [];
  const steps = logged.flatMap((e): RuntimeMessage[] => {
    const start = Date.parse(e.startedAt);
    return [
      { type: "step_start", data: { name: exchangeTitle(e), start } },
      { type: "step_stop", data: { stop: start + Math.round(e.durationMs), status: Status.PASSED } },
    ];
  });
  const content = JSON.stringify(logged.map(shown), null, 2);
  return [
    ...steps,
    { type: "attachment_content", data: { name: "exchanges", content, encoding: "utf8", contentType: "application/json" } },
  ];
}

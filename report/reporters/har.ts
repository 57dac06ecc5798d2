// reports/exchanges.har: the run's exchanges as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/),
// from the redacted exchange log. Each entry names its test in `_test` (custom fields start with "_").
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EXCHANGE_LOG, type LoggedExchange } from "../../harness/run/exchange-log.js";
import { SUITE_VERSION } from "../../harness/version.js";

export function readExchangeLog(reportsDir: string): LoggedExchange[] {
  const file = join(reportsDir, EXCHANGE_LOG);
  if (!existsSync(file)) return [];
  const out: LoggedExchange[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      out.push(JSON.parse(line) as LoggedExchange);
    } catch {
      // A line cut by a crashed worker is left out rather than spoiling the whole file.
    }
  }
  return out;
}

const pairs = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }));

function harEntry(e: LoggedExchange): Record<string, unknown> {
  const url = new URL(e.url);
  const requestType = e.requestHeaders["content-type"] ?? e.requestHeaders["Content-Type"] ?? "application/json";
  return {
    startedDateTime: e.startedAt,
    time: e.durationMs,
    request: {
      method: e.method,
      url: e.url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: pairs(e.requestHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(e.requestBody === undefined ? {} : { postData: { mimeType: requestType, text: e.requestBody } }),
      headersSize: -1,
      bodySize: e.requestBody === undefined ? 0 : Buffer.byteLength(e.requestBody),
    },
    response: {
      status: e.status,
      statusText: "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: pairs(e.responseHeaders),
      content: { size: e.responseBytes, mimeType: e.responseHeaders["content-type"] ?? "", text: e.responseBody },
      redirectURL: e.responseHeaders.location ?? "",
      headersSize: -1,
      bodySize: e.responseBytes,
    },
    cache: {},
    timings: { send: 0, wait: e.durationMs, receive: 0 },
    ...(e.from ? { serverIPAddress: url.hostname, _from: e.from } : {}),
    ...(e.test ? { _test: e.test } : {}),
  };
}

/** Writes exchanges.har beside the log; returns how many entries it holds. */
export function writeHar(reportsDir: string): number {
  const entries = readExchangeLog(reportsDir).sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
  const har = {
    log: { version: "1.2", creator: { name: "banking-api-conformance", version: SUITE_VERSION }, entries: entries.map(harEntry) },
  };
  writeFileSync(join(reportsDir, "exchanges.har"), `${JSON.stringify(har)}\n`);
  return entries.length;
}

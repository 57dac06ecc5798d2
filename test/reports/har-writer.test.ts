// exchanges.har is built while the run goes (report/reporters/har.ts): read in pieces as workers append to the
// exchange log, half-written lines included, it is the same file as one read of the whole log at the end.
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LoggedExchange } from "../../harness/run/exchange-log.js";
import { HarWriter } from "../../report/reporters/har.js";

function exchange(i: number): LoggedExchange {
  return {
    test: `suite > test ${i % 3}`,
    // Out of order, as workers running side by side append them; two share a start.
    startedAt: new Date(Date.UTC(2026, 10, 26, 12, 0, 0, (i * 37) % 11)).toISOString(),
    durationMs: i,
    method: i % 2 ? "POST" : "GET",
    url: `http://127.0.0.1:1/v1/user/1/card?count=${i}`,
    requestHeaders: { "X-Service-Language": "en_US" },
    ...(i % 2 ? { requestBody: `{"name":"é ${i}"}` } : {}),
    status: 200,
    responseHeaders: { "content-type": "application/json" },
    responseBody: `{"Response":[{"Id":{"id":${i}}}],"text":"ü€ ${i}"}`,
    responseBytes: 40 + i,
  };
}

describe("exchanges.har", () => {
  it("read in pieces while the log grows, cut mid-line and mid-character, equals one read of the whole log", () => {
    const lines = Array.from({ length: 12 }, (_, i) => `${JSON.stringify(exchange(i))}\n`).join("");
    const bytes = Buffer.from(lines, "utf8");
    const whole = mkdtempSync(join(tmpdir(), "har-whole-"));
    appendFileSync(join(whole, "exchanges.ndjson"), bytes);
    expect(new HarWriter(whole).finish()).toBe(12);

    const pieces = mkdtempSync(join(tmpdir(), "har-pieces-"));
    const writer = new HarWriter(pieces);
    writer.absorb(); // no log yet
    // Cuts inside lines, and inside the two-byte "é" and three-byte "€".
    const cuts = [1, bytes.indexOf("é") + 1, bytes.indexOf("€") + 2, Math.floor(bytes.length / 2), bytes.length - 3, bytes.length].sort(
      (a, b) => a - b,
    );
    let from = 0;
    for (const cut of cuts) {
      appendFileSync(join(pieces, "exchanges.ndjson"), bytes.subarray(from, cut));
      writer.absorb();
      from = cut;
    }
    expect(writer.finish()).toBe(12);
    const har = readFileSync(join(pieces, "exchanges.har"), "utf8");
    expect(har).toBe(readFileSync(join(whole, "exchanges.har"), "utf8"));
    const parsed = JSON.parse(har) as { log: { version: string; entries: { startedDateTime: string; _test: string }[] } };
    expect(parsed.log.version).toBe("1.2");
    const starts = parsed.log.entries.map((e) => e.startedDateTime);
    expect(starts).toEqual([...starts].sort());
  });

  it("leaves out a line a crashed worker cut off, and keeps the rest", () => {
    const dir = mkdtempSync(join(tmpdir(), "har-cut-"));
    appendFileSync(join(dir, "exchanges.ndjson"), `${JSON.stringify(exchange(1))}\n${JSON.stringify(exchange(2)).slice(0, 30)}`);
    expect(new HarWriter(dir).finish()).toBe(1);
  });
});

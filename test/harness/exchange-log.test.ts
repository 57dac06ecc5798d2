// A worker's exchange log holds a test's lines back and writes them at once (harness/run/exchange-log.ts): the CLI reads
// the log as each test file ends, so every line must be in the file by then, and none may wait for long.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { Exchange } from "../../harness/http/exchange.js";
import { EXCHANGE_LOG, exchangeLogger, flushExchangeLogs } from "../../harness/run/exchange-log.js";

function exchange(i: number): Exchange {
  const body = `{"Response":[{"Id":{"id":${i}}}]}`;
  return {
    request: { method: "GET", url: `http://127.0.0.1:1/v1/user/1/card/${i}`, path: `/v1/user/1/card/${i}`, headers: {} },
    status: 200,
    headers: { "content-type": "application/json" },
    bodyBytes: Buffer.from(body),
    bodyText: body,
    json: JSON.parse(body) as unknown,
    durationMs: 1,
  };
}

const linesIn = (dir: string): string[] =>
  readFileSync(join(dir, EXCHANGE_LOG), "utf8")
    .split("\n")
    .filter((line) => line !== "");

describe("the exchange log", () => {
  it("unbuffered (the CLI thread's own exchanges), writes each line as it comes", () => {
    const dir = mkdtempSync(join(tmpdir(), "exchange-log-"));
    const log = exchangeLogger(dir, dir);
    log(exchange(1));
    log(exchange(2));
    expect(linesIn(dir).map((line) => (JSON.parse(line) as { url: string }).url)).toEqual([
      "http://127.0.0.1:1/v1/user/1/card/1",
      "http://127.0.0.1:1/v1/user/1/card/2",
    ]);
  });

  it("buffered (a worker's), holds lines back until flushExchangeLogs, then writes them whole and in order", () => {
    const dir = mkdtempSync(join(tmpdir(), "exchange-log-"));
    const log = exchangeLogger(dir, dir, true);
    for (let i = 0; i < 5; i++) log(exchange(i));
    expect(linesIn(dir)).toEqual([]);
    flushExchangeLogs();
    expect(linesIn(dir).map((line) => (JSON.parse(line) as { url: string }).url)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `http://127.0.0.1:1/v1/user/1/card/${i}`),
    );
    flushExchangeLogs(); // nothing waiting: nothing written twice
    expect(linesIn(dir)).toHaveLength(5);
  });

  it("buffered, writes what waits within 50 ms even if no test ends", async () => {
    const dir = mkdtempSync(join(tmpdir(), "exchange-log-"));
    exchangeLogger(dir, dir, true)(exchange(7));
    expect(linesIn(dir)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(linesIn(dir)).toHaveLength(1);
  });

  it("buffered, writes at once when a quarter of a megabyte waits", () => {
    const dir = mkdtempSync(join(tmpdir(), "exchange-log-"));
    const log = exchangeLogger(dir, dir, true);
    const big = exchange(9);
    // A body is logged up to 64 KiB: four such lines pass 256 KiB.
    big.bodyText = `{"text":"${"x".repeat(100_000)}"}`;
    for (let i = 0; i < 3; i++) log(big);
    expect(linesIn(dir)).toEqual([]);
    log(big);
    expect(linesIn(dir)).toHaveLength(4);
  });

  it("buffered, writes what waits when the thread exits before a flush", () => {
    const dir = mkdtempSync(join(tmpdir(), "exchange-log-"));
    const module = pathToFileURL(join(import.meta.dirname, "../../harness/run/exchange-log.ts")).href;
    const script =
      `const { exchangeLogger } = await import(${JSON.stringify(module)});` +
      `exchangeLogger(${JSON.stringify(dir)}, ${JSON.stringify(dir)}, true)(${JSON.stringify(exchange(3))});` +
      "process.exit(0);";
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(child.status, child.stderr).toBe(0);
    expect(linesIn(dir)).toHaveLength(1);
  });
});

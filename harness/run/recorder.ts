import * as allure from "allure-js-commons";
import type { Exchange } from "../http/exchange.js";
import { redactText } from "../redact.js";
import { redactedParts } from "./redacted-exchange.js";
import { noteExchange } from "./weather.js";
import { allureOn } from "./allure-on.js";

/** A redacted JSON text as a value (so reports show it as a tree), else the text itself, cut at 20,000 characters. */
function readable(redacted: string): unknown {
  const text = redacted.length > 20_000 ? `${redacted.slice(0, 20_000)}…` : redacted;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The exchange as it goes into reports: secrets redacted, binary bodies summarised. */
export function redactedExchange(exchange: Exchange): Record<string, unknown> {
  const parts = redactedParts(exchange);
  return {
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      ...(exchange.request.from ? { from: exchange.request.from } : {}),
      headers: parts.requestHeaders,
      ...(parts.requestBody === undefined ? {} : { body: readable(parts.requestBody) }),
    },
    response: {
      status: exchange.status,
      headers: parts.responseHeaders,
      body: readable(parts.responseText),
    },
    durationMs: exchange.durationMs,
    // Weather: the attempts before this final answer, or the retry this answer is about to get.
    ...(exchange.attempts
      ? { attempts: exchange.attempts.map((a) => (a.requestId ? { ...a, requestId: redactText(a.requestId) } : a)) }
      : {}),
    ...(exchange.retrying ? { retrying: exchange.retrying } : {}),
  };
}

/** Attaches every exchange of the running test to its Allure result. */
export async function recordExchange(exchange: Exchange): Promise<void> {
  noteExchange(exchange);
  if (!allureOn()) return;
  const path = exchange.request.path.split("?")[0];
  const n = exchange.attempts?.length;
  const weather = exchange.retrying ? ` (${exchange.retrying.reason}: retried)` : n ? ` (after ${n} ${n === 1 ? "retry" : "retries"})` : "";
  await allure.attachment(
    `${exchange.request.method} ${path} → ${exchange.status}${weather}`,
    JSON.stringify(redactedExchange(exchange), null, 2),
    "application/json",
  );
}

import * as allure from "allure-js-commons";
import type { Exchange } from "../http/exchange.js";
import { redactHeaders, redactText } from "../redact.js";
import { noteExchange } from "./weather.js";

/** A JSON text as a value (so reports show it as a tree), else the text itself. Redacted first. */
function readable(text: string): unknown {
  const redacted = redactText(text.length > 20_000 ? `${text.slice(0, 20_000)}…` : text);
  try {
    return JSON.parse(redacted) as unknown;
  } catch {
    return redacted;
  }
}

/** The exchange as it goes into reports: secrets redacted, binary bodies summarised. */
export function redactedExchange(exchange: Exchange): Record<string, unknown> {
  const contentType = exchange.headers["content-type"] ?? "";
  const textual = exchange.json !== undefined || /json|text|xml|html/i.test(contentType) || exchange.bodyBytes.length === 0;
  return {
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      ...(exchange.request.from ? { from: exchange.request.from } : {}),
      headers: redactHeaders(exchange.request.headers),
      ...(exchange.request.body === undefined ? {} : { body: readable(exchange.request.body) }),
    },
    response: {
      status: exchange.status,
      headers: redactHeaders(exchange.headers),
      body: textual ? readable(exchange.bodyText) : `«${exchange.bodyBytes.length} bytes of ${contentType || "binary"}»`,
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
  const path = exchange.request.path.split("?")[0];
  const n = exchange.attempts?.length;
  const weather = exchange.retrying ? ` (${exchange.retrying.reason}: retried)` : n ? ` (after ${n} ${n === 1 ? "retry" : "retries"})` : "";
  await allure.attachment(
    `${exchange.request.method} ${path} → ${exchange.status}${weather}`,
    JSON.stringify(redactedExchange(exchange), null, 2),
    "application/json",
  );
}

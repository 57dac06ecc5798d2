import type { Exchange } from "../http/exchange.js";
import { redactHeaders, redactText } from "../redact.js";

/** An exchange's parts as reports may show them: secrets redacted, a binary answer summarised. */
export interface RedactedParts {
  requestHeaders: Record<string, string>;
  requestBody?: string;
  responseHeaders: Record<string, string>;
  /** The answer's text (redacted), or «N bytes of TYPE» for a binary one. */
  responseText: string;
}

/** The redacted parts of an exchange (the whole texts: a report cuts them after redaction, so no cut hides a secret). */
export function redactedParts(exchange: Exchange): RedactedParts {
  const contentType = exchange.headers["content-type"] ?? "";
  const textual = exchange.json !== undefined || /json|text|xml|html/i.test(contentType) || exchange.bodyBytes.length === 0;
  return {
    requestHeaders: redactHeaders(exchange.request.headers),
    ...(exchange.request.body === undefined ? {} : { requestBody: redactText(exchange.request.body) }),
    responseHeaders: redactHeaders(exchange.headers),
    responseText: textual ? redactText(exchange.bodyText) : `«${exchange.bodyBytes.length} bytes of ${contentType || "binary"}»`,
  };
}

import { escapeRegExp } from "./escape-reg-exp.js";

/**
 * Secrets never reach reports or the console. Two nets: known values (API keys and tokens are
 * registered as soon as the harness sees them) and known places (JSON fields and headers that carry
 * secrets, PEM private keys, credentials in URLs), so a secret the harness never saw is still caught by
 * where it sits. Failure messages shorten bodies ("…"): a secret cut off there is caught too.
 */
const known = new Map<string, string>();

const SECRET_FIELDS = ["token", "secret", "api_key", "pin_code", "activation_code", "private_key", "access_token"];
// The value may be cut off by a shortened body ("…") or the end of the text: still a secret.
const FIELD_PATTERN = new RegExp(`("(?:${SECRET_FIELDS.join("|")})"\\s*:\\s*)"(?:[^"\\\\…]|\\\\.)*("|…|$)`, "g");
const PRIVATE_KEY_PATTERN = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g;
const SECRET_HEADER = /(client-authentication|authorization|cookie|api-key)$/i;
// A secret header quoted in free text ("X-Service-Client-Authentication: abc…"); the name ends the match so prefixes vary.
// Only token-like values (16+ characters), so "… without X-Service-Client-Authentication: expected 4XX" stays readable.
const HEADER_IN_TEXT = /((?:client-authentication|authorization|api-key)["']?\s*[:=]\s*["']?(?:Bearer |Basic )?)[A-Za-z0-9_.+/=-]{16,}/gi;
const URL_CREDENTIALS = /(\bhttps?:\/\/)[^\s/@:]+:[^\s/@]+@/gi;
// A long token-like run cut off by "…": checked against the known values' beginnings.
const CUT_OFF = /[A-Za-z0-9_+/=-]{12,}(?=…)/g;

/** Every known value in one pattern, longest first (one pass over a text instead of one per value); made when needed. */
let knownPattern: RegExp | undefined;

export function registerSecret(value: string | undefined, label: string): void {
  if (value && value.length >= 6 && known.get(value) !== label) {
    known.set(value, label);
    knownPattern = undefined;
  }
}

/** Known values replaced by their labels. */
function withoutKnown(text: string): string {
  if (known.size === 0) return text;
  knownPattern ??= new RegExp(
    [...known.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join("|"),
    "g",
  );
  return text.replace(knownPattern, (value) => `«${known.get(value)!}»`);
}

export function redactText(text: string): string {
  let out = withoutKnown(
    text
      .replace(PRIVATE_KEY_PATTERN, "«redacted private key»")
      .replace(FIELD_PATTERN, (_m, field: string, end: string) => `${field}"«redacted»${end === '"' ? '"' : end}`)
      .replace(URL_CREDENTIALS, "$1«redacted»@"),
  );
  if (known.size > 0) {
    out = out.replace(CUT_OFF, (run) => {
      // The run may begin before the secret ("secret=sandbox_ab…"): try each start that leaves 12 characters.
      for (let start = 0; start + 12 <= run.length; start++) {
        const tail = run.slice(start);
        for (const [value, label] of known) if (value.startsWith(tail)) return `${run.slice(0, start)}«${label}»`;
      }
      return run;
    });
  }
  return out.replace(HEADER_IN_TEXT, "$1«redacted»");
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const entries = Object.entries(headers);
  // One pass over all values (a header value holds no line break): an exchange's dozen headers cost one redaction, not
  // a dozen. Where a pattern took a line break with it, the values no longer line up: each is redacted alone.
  const values = entries.map(([name, value]) => (SECRET_HEADER.test(name) ? "«redacted»" : value));
  const joined = redactText(values.join("\n")).split("\n");
  const redacted = joined.length === values.length ? joined : values.map(redactText);
  return Object.fromEntries(entries.map(([name], i) => [name, redacted[i]!]));
}

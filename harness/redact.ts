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
// A long token-like run cut off by "…" (12+ characters of [A-Za-z0-9_+/=-]): checked against the known values' beginnings.
const CUT_OFF_MIN = 12;

/**
 * Known values by a hash of their first MIN_SECRET characters, longest first within a bucket. A run knows hundreds of
 * values (every user's key, token and session): one regular expression of them all cost a quarter of a millisecond
 * per text, a scan with a rolling hash costs a few microseconds, and finds the same matches (at each position, the
 * longest known value that starts there). A new value joins its bucket: values keep arriving all run long (each
 * fresh session), and rebuilding the table for each cost more than the scans.
 */
const buckets = new Map<number, string[]>();
/** Whether any known value's hash has these low 16 bits: most positions of a text are ruled out without a Map lookup. */
const maybe = new Uint8Array(1 << 16);
const MIN_SECRET = 6;
// 31^(MIN_SECRET - 1), modulo 2^32: what the character leaving the window weighed in the hash.
const OUT_WEIGHT = Array.from({ length: MIN_SECRET - 1 }).reduce<number>((w) => Math.imul(w, 31), 1);

function hashAt(text: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + MIN_SECRET; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

export function registerSecret(value: string | undefined, label: string): void {
  if (!value || value.length < MIN_SECRET) return;
  const isNew = !known.has(value);
  known.set(value, label);
  if (!isNew) return;
  const h = hashAt(value, 0);
  maybe[h & 0xffff] = 1;
  const bucket = buckets.get(h);
  if (!bucket) buckets.set(h, [value]);
  else {
    // Longest first, so the scan takes the longest value that starts at a position.
    const at = bucket.findIndex((v) => v.length < value.length);
    bucket.splice(at < 0 ? bucket.length : at, 0, value);
  }
}

/** Known values replaced by their labels. */
function withoutKnown(text: string): string {
  const n = text.length;
  if (known.size === 0 || n < MIN_SECRET) return text;
  let out = "";
  let copied = 0;
  let h = hashAt(text, 0);
  // A tight loop (a run scans about 12 MB of text): the rolling hash moves one character a step; only a position whose
  // hash some known value has is looked at closely.
  for (let at = 0; ;) {
    if (maybe[h & 0xffff] !== 0) {
      const value = valueAt(text, at, h);
      if (value !== undefined) {
        out += `${text.slice(copied, at)}«${known.get(value)!}»`;
        at += value.length;
        copied = at;
        if (at + MIN_SECRET > n) break;
        h = hashAt(text, at);
        continue;
      }
    }
    if (at + MIN_SECRET >= n) break;
    h = (Math.imul(h - Math.imul(text.charCodeAt(at), OUT_WEIGHT), 31) + text.charCodeAt(at + MIN_SECRET)) | 0;
    at++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The longest known value with hash `h` that starts at `at`, if any. */
function valueAt(text: string, at: number, h: number): string | undefined {
  const bucket = buckets.get(h);
  if (bucket === undefined) return undefined;
  for (const value of bucket) if (text.startsWith(value, at)) return value;
  return undefined;
}

export function redactText(text: string): string {
  let out = withoutKnown(
    text
      .replace(PRIVATE_KEY_PATTERN, "«redacted private key»")
      .replace(FIELD_PATTERN, (_m, field: string, end: string) => `${field}"«redacted»${end === '"' ? '"' : end}`)
      .replace(URL_CREDENTIALS, "$1«redacted»@"),
  );
  if (known.size > 0) {
    out = replaceCutOffRuns(out, (run) => {
      // The run may begin before the secret ("secret=sandbox_ab…"): try each start that leaves 12 characters.
      for (let start = 0; start + CUT_OFF_MIN <= run.length; start++) {
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

/** [A-Za-z0-9_+/=-] */
function isRunChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 43 ||
    code === 47 ||
    code === 61 ||
    code === 45
  );
}

/**
 * Each run of CUT_OFF_MIN or more run characters that ends right before "…", replaced. Found from each "…" backwards,
 * in one pass: a regular expression with a look-ahead (/[…]{12,}(?=…)/g) tries every start of a long run and scans it
 * to its end each time, which on a two-byte string (any character beyond Latin-1 in the text) took seconds for one
 * answer holding a long name.
 */
function replaceCutOffRuns(text: string, replace: (run: string) => string): string {
  let out = "";
  let done = 0;
  for (let at = text.indexOf("…"); at >= 0; at = text.indexOf("…", at + 1)) {
    let start = at;
    while (start > done && isRunChar(text.charCodeAt(start - 1))) start--;
    if (at - start < CUT_OFF_MIN) continue;
    out += text.slice(done, start) + replace(text.slice(start, at));
    done = at;
  }
  return done === 0 ? text : out + text.slice(done);
}

/**
 * Secrets never reach reports or the console. Two nets: known values (API keys and tokens are
 * registered as soon as the harness sees them) and known places (JSON fields and headers that carry
 * secrets, PEM private keys), so a secret the harness never saw is still caught by where it sits.
 */
const known = new Map<string, string>();

const SECRET_FIELDS = ["token", "secret", "api_key", "pin_code", "activation_code", "private_key", "access_token"];
const FIELD_PATTERN = new RegExp(`("(?:${SECRET_FIELDS.join("|")})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, "g");
const PRIVATE_KEY_PATTERN = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g;
const SECRET_HEADER = /(client-authentication|authorization|cookie|api-key)$/i;

export function registerSecret(value: string | undefined, label: string): void {
  if (value && value.length >= 6) known.set(value, label);
}

export function redactText(text: string): string {
  let out = text.replace(PRIVATE_KEY_PATTERN, "«redacted private key»").replace(FIELD_PATTERN, '$1"«redacted»"');
  for (const [value, label] of known) {
    if (out.includes(value)) out = out.split(value).join(`«${label}»`);
  }
  return out;
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? "«redacted»" : redactText(value)]),
  );
}

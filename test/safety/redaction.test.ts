// Issue 7 part 3, the redaction gaps found while proving it: secrets cut off by shortened bodies, in URLs,
// in header lines quoted in free text, and private keys without their END line.
import { describe, expect, it } from "vitest";
import { CheckFailure, expectOk } from "../../harness/checks.js";
import type { Exchange } from "../../harness/http/exchange.js";
import { redactText, registerSecret } from "../../harness/redact.js";

const TOKEN = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2";

function exchangeWith(body: string, status = 500): Exchange {
  return {
    request: { method: "POST", url: "http://h/v1/session-server", path: "/v1/session-server", headers: {} },
    status,
    headers: { "content-type": "application/json" },
    bodyBytes: Buffer.from(body),
    bodyText: body,
    json: undefined,
    durationMs: 1,
  };
}

describe("redaction of secrets that are cut off, quoted or embedded", () => {
  it("a secret field whose value a shortened body cuts off is still redacted", () => {
    expect(redactText('got 200 {"Token":{"token":"0123456789abcdef0123…')).toBe('got 200 {"Token":{"token":"«redacted»…');
    expect(redactText('{"secret":"never-registered-but-cut')).toBe('{"secret":"«redacted»');
  });

  it("a failure message quoting a long body never shows any part of a token near the cut (registered or not)", () => {
    const padding = "x".repeat(250);
    const body = `{"Error":[{"error_description":"${padding}","token":"${TOKEN}"}]}`;
    let message = "";
    try {
      expectOk(exchangeWith(body), { req: "AUTH-003" });
    } catch (error) {
      expect(error).toBeInstanceOf(CheckFailure);
      message = (error as Error).message;
    }
    expect(message).toMatch(/…$/);
    expect(message).not.toMatch(/a1b2c3d4/);
  });

  it("a registered token cut off by '…' in free text is redacted by its beginning", () => {
    registerSecret(TOKEN, "session token");
    expect(redactText(`token=${TOKEN.slice(0, 30)}…`)).toBe("token=«session token»…");
    expect(redactText(`${TOKEN.slice(0, 10)}…`)).toBe(`${TOKEN.slice(0, 10)}…`); // too short to tell
  });

  it("credentials in a URL and token-like values of secret headers in text are redacted; plain prose is kept", () => {
    expect(redactText("GET https://user:pa55word@staging.example/v1/user")).toBe("GET https://«redacted»@staging.example/v1/user");
    expect(redactText("sent X-Service-Client-Authentication: 9f8e7d6c5b4a39281706f5e4d3c2b1a0 twice")).toBe(
      "sent X-Service-Client-Authentication: «redacted» twice",
    );
    expect(redactText("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig")).toBe("Authorization: Bearer «redacted»");
    const prose = "AUTH-004: GET /v1/user/1/card without X-Service-Client-Authentication: expected a 4XX status with an error body";
    expect(redactText(prose)).toBe(prose);
  });

  it("a PEM private key without its END line (cut off) is redacted to the end", () => {
    expect(redactText("key: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC…")).toBe("key: «redacted private key»");
  });
});

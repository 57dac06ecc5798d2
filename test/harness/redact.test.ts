import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeRegExp } from "../../harness/escape-reg-exp.js";
import type { Exchange } from "../../harness/http/exchange.js";
import { loggedExchange } from "../../harness/run/exchange-log.js";
import { redactHeaders, redactText, registerSecret } from "../../harness/redact.js";

describe("redaction", () => {
  it("replaces registered secret values wherever they occur", () => {
    registerSecret("apikey-0123456789", "api key");
    expect(redactText("secret=apikey-0123456789&x")).toBe("secret=«api key»&x");
  });

  it("replaces secret JSON fields even when the value was never registered", () => {
    const text = JSON.stringify({ Token: { token: "never-seen-token" }, secret: "k", pin_code: "1234", api_key: "z", description: "kept" });
    const out = redactText(text);
    for (const value of ["never-seen-token", '"1234"', '"k"', '"z"']) expect(out).not.toContain(value);
    expect(out).toContain("kept");
  });

  it("replaces a known value cut off by an ellipsis, also in a long two-byte text", () => {
    registerSecret("sessiontoken0123456789abcdef", "session token");
    expect(redactText("token sessiontoken0123456789…")).toBe("token «session token»…");
    expect(redactText("x-sessiontoken0123456789… and abc…")).toBe("x-«session token»… and abc…");
    // A character beyond Latin-1 makes the string two-byte, where a look-ahead regular expression took seconds on runs
    // this long (each start scanned to the run's end): the scan from each "…" backwards is one pass.
    const run = "a".repeat(50_000);
    expect(redactText(`Zoë – 東京 ${run}… ${run} end`)).toBe(`Zoë – 東京 ${run}… ${run} end`);
  });

  it("replaces PEM private keys", () => {
    const out = redactText("a\n-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\nb");
    expect(out).toBe("a\n«redacted private key»\nb");
  });

  it("replaces authentication headers by name", () => {
    expect(redactHeaders({ "X-Service-Client-Authentication": "t0k3n-value", "User-Agent": "ua" })).toEqual({
      "X-Service-Client-Authentication": "«redacted»",
      "User-Agent": "ua",
    });
  });

  it("a recorded exchange carries no secret from request or response", () => {
    registerSecret("session-token-abcdef", "session token");
    const body = JSON.stringify({ Response: [{ Token: { token: "session-token-abcdef" } }] });
    const exchange: Exchange = {
      request: {
        method: "POST",
        url: "http://h/v1/session-server",
        path: "/v1/session-server",
        headers: { "X-Service-Client-Authentication": "inst-token-xyz" },
        body: '{"secret":"apikey-0123456789"}',
      },
      status: 200,
      headers: { "content-type": "application/json" },
      bodyBytes: Buffer.from(body),
      bodyText: body,
      json: JSON.parse(body),
      durationMs: 1,
    };
    const recorded = JSON.stringify(loggedExchange(exchange));
    for (const secret of ["session-token-abcdef", "inst-token-xyz", "apikey-0123456789"]) expect(recorded).not.toContain(secret);
  });

  it("finds exactly what one pattern of all known values finds: at each position the longest value starting there", () => {
    // A two-letter alphabet makes values that share beginnings, contain each other and overlap in a text.
    const mirror = new Map<string, string>();
    const value = fc.stringMatching(/^[ab]{6,9}$/);
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 8 }), fc.stringMatching(/^[ab ]{0,60}$/), (values, text) => {
        values.forEach((v, i) => {
          registerSecret(v, `L${i}`);
          mirror.set(v, `L${i}`);
        });
        const oracle = new RegExp(
          [...mirror.keys()]
            .sort((a, b) => b.length - a.length)
            .map(escapeRegExp)
            .join("|"),
          "g",
        );
        expect(redactText(text)).toBe(text.replace(oracle, (v) => `«${mirror.get(v)!}»`));
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });
});

// Issue 7 part 3: no secret reaches an artifact. A whole-suite run with known secrets (a long API key of our
// own, sandbox users' keys, installation and session tokens, pin codes, the client's private key), through a
// recording proxy that collects every secret that really went over the wire; then every file under the
// reports folder and the captured console output are searched for each of them.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpawnedRun } from "../support/spawn-run.js";
import { faultCatalogue } from "../../faults/catalogue.js";
import { startReferenceServer, type RunningReference } from "../../reference/server.js";
import { filesUnder, runAgainst, tempDir, writeTargets } from "../hostile/support.js";
import { startRecordingProxy, type Recorded, type RecordingProxy } from "./recording-proxy.js";

const KNOWN_API_KEY = `known-secret-api-key-${randomBytes(24).toString("hex")}`;
// Faults whose failure messages quote answers that carry secrets, so redaction of failure texts is exercised too.
const LEAKY_FAULTS = ["card-echoes-pin-code", "unknown-token-accepted"];
const SECRET_FIELDS = ["token", "api_key", "secret", "pin_code", "activation_code", "private_key", "access_token"];

/** Every value of a secret-named field in a JSON text, at any depth. */
function secretFields(text: string, out: Map<string, string>): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return;
  }
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (SECRET_FIELDS.includes(key) && typeof inner === "string" && inner !== "") {
          if (!out.has(inner)) out.set(inner, key);
        } else walk(inner);
      }
    }
  };
  walk(parsed);
}

function secretsOnTheWire(records: Recorded[]): Map<string, string> {
  const secrets = new Map<string, string>([[KNOWN_API_KEY, "api key (profile)"]]);
  for (const r of records) {
    for (const [name, value] of Object.entries(r.requestHeaders)) {
      if (/client-authentication$/i.test(name) && typeof value === "string" && !secrets.has(value))
        secrets.set(value, "token (request header)");
    }
    secretFields(r.requestBody, secrets);
    secretFields(r.responseBody, secrets);
  }
  return secrets;
}

/**
 * Where `text` shows a secret: long values by value; short ones (pin codes) by the field they sit in, since "7391" also occurs innocently.
 */
function leaksIn(where: string, text: string, secrets: Map<string, string>): string[] {
  const leaks: string[] = [];
  for (const [value, kind] of secrets) {
    if (value.length >= 8 && text.includes(value)) leaks.push(`${where}: ${kind} ${value.slice(0, 6)}…`);
  }
  const plain = text.replace(/&quot;/g, '"').replace(/\\+"/g, '"');
  for (const match of plain.matchAll(new RegExp(`"(${SECRET_FIELDS.join("|")})"\\s*:\\s*"([^"]*)"`, "g"))) {
    if (!match[2]!.startsWith("«")) leaks.push(`${where}: field ${match[1]} = ${match[2]!.slice(0, 6)}…`);
  }
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) leaks.push(`${where}: a PEM private key`);
  return leaks;
}

describe("secrets never reach reports or the console", () => {
  let reference: RunningReference;
  let proxy: RecordingProxy;
  let run: SpawnedRun;

  beforeAll(async () => {
    const known = new Set(faultCatalogue().map((f) => f.name));
    reference = await startReferenceServer({ apiKey: KNOWN_API_KEY, faults: LEAKY_FAULTS.filter((f) => known.has(f)) });
    proxy = await startRecordingProxy(reference.baseUrl);
    const targets = writeTargets(tempDir("secrets"), {
      secrets: {
        baseUrl: proxy.baseUrl,
        apiKey: KNOWN_API_KEY,
        provisioning: "sandbox-user",
        allowDestructive: true,
        sourceAddresses: ["127.0.0.1", "127.0.0.2"],
        fixtures: reference.fixtures,
        capabilities: { ideal: true, pdfAttachments: true },
        // Fixed, so CI is repeatable. Seed 1 once shrank a made-up token (never sent by that test) to 64 zeros,
        // the very token another test sends: its counterexample printed it unredacted. Kept as the regression.
        seed: 1,
      },
    });
    run = await runAgainst(targets, "secrets", [], { timeoutMs: 240_000 });
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    await reference?.close();
  });

  it("the run exercised secrets: the known key, tokens, sandbox keys, pin codes, and failures quoting answers", () => {
    expect(run.summary, run.stderr.slice(-2000)).toBeDefined();
    const secrets = secretsOnTheWire(proxy.records);
    const kinds = new Set(secrets.values());
    for (const kind of ["api key (profile)", "token", "api_key", "pin_code"]) expect(kinds, kind).toContain(kind);
    expect(
      proxy.records.filter((r) => Object.keys(r.requestHeaders).some((h) => /client-authentication$/i.test(h))).length,
    ).toBeGreaterThan(50);
    expect(run.summary!.totals.failed, "the leaky faults made checks fail").toBeGreaterThan(0);
    // The scan below finds what it looks for: the recorded traffic itself is full of leaks.
    expect(leaksIn("recorded traffic", JSON.stringify(proxy.records.slice(0, 10)), secrets).length).toBeGreaterThan(0);
  });

  it("no API key, token, pin code or private key in any file under the reports folder or in stdout/stderr", () => {
    const secrets = secretsOnTheWire(proxy.records);
    const outputs: [string, string][] = [
      ["stdout", run.stdout],
      ["stderr", run.stderr],
      ...filesUnder(run.reportsDir).map((f): [string, string] => [relative(run.reportsDir, f), readFileSync(f, "utf8")]),
    ];
    expect(outputs.length).toBeGreaterThan(10);
    const leaks = outputs.flatMap(([where, text]) => leaksIn(where, text, secrets));
    expect(leaks).toEqual([]);
  });
});

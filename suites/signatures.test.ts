// Signatures (wire conventions §3 "Request signing"; banking-api.md "Authentication": the signing scheme is
// "not shown"; spec/gaps.md GAP-66): the provider's dialect, checked only where the profile's `signing`
// enables it. RSA PKCS#1 v1.5, SHA-256 over the exact body bytes, base64. Answers carry
// <prefix>Server-Signature, verified with the ServerPublicKey of the installation answer; the provider refuses a
// POST /session-server without a valid <prefix>Client-Signature made with the installed client key (HDR-013,
// HDR-014: LENIENT since the blind ruling of 2026-11-28, so only strict requires the refusal). Only session-server
// is checked for refusals: the provider requires no signature on other calls.
import { describe, test } from "vitest";
import { sharedOnce } from "./support/shared-once.js";
import { CARD_TYPES } from "./support/cards.js";
import { expect4xx, expectOk, expectRefused, expectThat, fail, failPlain, type About } from "../harness/checks.js";
import { objectsOfType } from "../harness/envelope.js";
import { LenientLog } from "../harness/lenient.js";
import type { Exchange } from "../harness/http/exchange.js";
import { newKeyPair, sharedKeyPair } from "../harness/session/keys.js";
import { postDeviceServer, postInstallation, postSessionServer, type Session } from "../harness/session/session.js";
import { flipBit, serverSignatureVerdict, signBody } from "../harness/http/signing.js";
import { SKIP, useTarget } from "../harness/run/target.js";

const t = useTarget();
const signing = t.profile.signing ?? { requests: false, verifyResponses: false };
const OFF = SKIP.signingOff;
const readOnly = t.profile.mode === "read-only";
const from = t.profile.sourceAddresses[0];
const serverHeader = t.header("Server-Signature");
const clientHeader = t.header("Client-Signature");

/** The answer carries a server signature over exactly the bytes received, valid under `serverKey`. */
function expectServerSigned(exchange: Exchange, serverKey: string | undefined, about: About): void {
  if (serverKey === undefined) failPlain(about, "no ServerPublicKey in the installation answer to verify the server signature with");
  const verdict = serverSignatureVerdict(exchange, serverHeader, serverKey);
  if (!verdict.ok)
    fail(about, exchange, `a valid ${serverHeader} (RSA PKCS#1 v1.5, SHA-256 over the exact body bytes, base64)`, verdict.problem);
}

// One API key for the whole file: a fresh user's where the target provisions them, else the primary's
// (a device registration from the primary's own address changes no data).
const bootstrapKey = sharedOnce(() => (t.canProvision() ? t.freshApiKey(from) : Promise.resolve(t.primary().apiKey)));

/** A new installation with a device registered for the file's key: ready for POST /session-server. */
async function registeredDevice(about: About): Promise<{ apiKey: string; token: string }> {
  const apiKey = await bootstrapKey();
  const installation = await postInstallation(t.client, { from });
  expectOk(installation.exchange, { ...about, what: "(setup: POST /installation)" });
  expectThat(installation.token !== undefined, installation.exchange, "a Token", { ...about, what: "(setup: POST /installation)" });
  const device = await postDeviceServer(t.client, { token: installation.token, apiKey, from });
  expectOk(device, { ...about, what: "(setup: POST /device-server)" });
  return { apiKey, token: installation.token };
}

/** The signed call succeeds: the refusal before it was about the signature, not the device or the key. */
async function expectSignedSessionOpens(device: { apiKey: string; token: string }, about: About): Promise<void> {
  const signed = await postSessionServer(t.client, { token: device.token, apiKey: device.apiKey, from });
  expectOk(signed.exchange, { ...about, what: "correctly signed, after the refusal (control: the same installation and key work)" });
}

// HDR-012 is LENIENT (neither file says answers are signed): it is checked only where the profile asks for it
// with signing.verifyResponses, the profile's own declaration that its server signs.
// Side by side: each test opens an installation of its own, or reads the primary's cards; the one create adds to
// a list nothing reads.
describe.concurrent("server signatures (<prefix>Server-Signature)", () => {
  test("HDR-012 answers of POST /installation, /device-server, /session-server bear a valid server signature over the exact body", async ({
    skip,
  }) => {
    skip(!signing.verifyResponses, OFF);
    const about = (call: string): About => ({ req: "HDR-012", what: `(${call})` });
    const apiKey = await bootstrapKey();
    const installation = await postInstallation(t.client, { from });
    expectOk(installation.exchange, about("installation"));
    expectServerSigned(installation.exchange, installation.serverPublicKey, about("installation, verified with the key it hands out"));
    expectThat(installation.token !== undefined, installation.exchange, "a Token", about("installation"));
    const device = await postDeviceServer(t.client, { token: installation.token, apiKey, from });
    expectOk(device, about("device-server"));
    expectServerSigned(device, installation.serverPublicKey, about("device-server"));
    const session = await postSessionServer(t.client, { token: installation.token, apiKey, from });
    expectOk(session.exchange, about("session-server"));
    expectServerSigned(session.exchange, installation.serverPublicKey, about("session-server"));
  });

  interface Sample {
    /** Needs a write (skipped on read-only targets). */
    writes?: boolean;
    /** The exchange to verify, and the session whose installation answer holds the server key. */
    send(skip: (condition: boolean, note: string) => void): Promise<{ exchange: Exchange; session: Session; refused?: boolean }>;
  }
  const cardsOf = (session: Session) =>
    t.client.request({ path: `/user/${session.userId}/card`, token: session.sessionToken, from: session.from });
  const writer = sharedOnce(() => (t.canProvision() ? t.freshSession({ from }) : Promise.resolve(t.primary())));
  const SAMPLES: [string, Sample][] = [
    ["a list (GET /user/{userID}/card)", { send: async () => ({ exchange: await cardsOf(t.primary()), session: t.primary() }) }],
    [
      "an item read (GET /user/{userID}/card/{itemId})",
      {
        async send(skip) {
          const session = t.primary();
          const list = await cardsOf(session);
          expectOk(list, { req: "HDR-012", what: "(setup: the card list)" });
          const id = objectsOfType(list.json, ...CARD_TYPES).find((card) => typeof card.id === "number")?.id;
          // GAP-01: cards have no create endpoint; a missing fixture means not run, never failed.
          skip(typeof id !== "number", `the primary user has no card to read (${list.request.path} listed none)`);
          if (typeof id !== "number") return failPlain({ req: "HDR-012" }, "unreachable");
          return {
            exchange: await t.client.request({
              path: `/user/${session.userId}/card/${id}`,
              token: session.sessionToken,
              from: session.from,
            }),
            session,
          };
        },
      },
    ],
    [
      "a create (POST /user/{userID}/additional-transaction-information-category-user-defined)",
      {
        writes: true,
        async send() {
          // Additive data with no DELETE: a fresh user where the target provisions them.
          const session = await writer();
          const path = `/user/${session.userId}/additional-transaction-information-category-user-defined`;
          return {
            exchange: await t.client.request({
              method: "POST",
              path,
              token: session.sessionToken,
              from: session.from,
              json: { status: t.profile.bodyValues.categoryStatus, category: "Signed" },
            }),
            session,
          };
        },
      },
    ],
    [
      "an error answer (GET of a card id the user does not have)",
      {
        async send() {
          const session = t.primary();
          const exchange = await t.client.request({
            path: `/user/${session.userId}/card/2000000000`,
            token: session.sessionToken,
            from: session.from,
          });
          return { exchange, session, refused: true };
        },
      },
    ],
    [
      "a refusal of a call without authentication (GET /user/{userID}/card)",
      {
        send: async () => ({
          exchange: await t.client.request({ path: `/user/${t.primary().userId}/card`, from }),
          session: t.primary(),
          refused: true,
        }),
      },
    ],
  ];
  test.for(SAMPLES)("HDR-012 %s carries a valid server signature over its exact body", async ([, sample], { skip }) => {
    skip(!signing.verifyResponses, OFF);
    skip(sample.writes === true && readOnly, SKIP.readOnly);
    const { exchange, session, refused } = await sample.send(skip);
    const about = { req: "HDR-012" };
    if (refused) expect4xx(exchange, about);
    else expectOk(exchange, about);
    expectServerSigned(exchange, session.serverPublicKey ?? t.primary().serverPublicKey, about);
  });
});

// Side by side: each test registers a device of its own on its own installation.
describe.concurrent("client signatures on POST /session-server (<prefix>Client-Signature)", () => {
  test(
    "HDR-013 POST /session-server without a client signature is refused with an error body (strict), or served (noted)",
    { tags: ["ERR-001"] },
    async ({ skip, annotate }) => {
      skip(!signing.requests, OFF);
      // LENIENT (blind ruling 2026-11-28): signing is "not required by the specification"; a signing server may still serve unsigned calls.
      const log = new LenientLog(t.profile.strict);
      const about = { req: "HDR-013", what: `without ${clientHeader}` };
      const device = await registeredDevice(about);
      const unsigned = await t.client.request({
        method: "POST",
        path: "/session-server",
        token: device.token,
        from,
        json: { secret: device.apiKey },
        headers: { [clientHeader]: null },
      });
      if (unsigned.status === 200) log.note(about, "an unsigned POST /session-server was served", "a 4XX refusal with an error body");
      else {
        expectRefused(unsigned, about);
        await expectSignedSessionOpens(device, about);
      }
      await log.report(annotate);
    },
  );

  /** The exact body sent, and how its bad signature is made. */
  const TAMPERED: [string, (sent: string, apiKey: string) => Promise<string>][] = [
    [
      "made over a different body than the one sent",
      async (_sent, apiKey) =>
        signBody(JSON.stringify({ secret: apiKey, description: "changed after signing" }), (await sharedKeyPair()).privateKeyPem),
    ],
    ["with one bit flipped", async (sent) => flipBit(signBody(sent, (await sharedKeyPair()).privateKeyPem))],
    [
      "made with the key of another installation",
      async (sent) => {
        // Installed elsewhere, so a server that accepts any installed key is caught too.
        const other = await newKeyPair();
        const installed = await postInstallation(t.client, { from, publicKeyPem: other.publicKeyPem });
        expectOk(installed.exchange, { req: "HDR-014", what: "(setup: installing the other key)" });
        return signBody(sent, other.privateKeyPem);
      },
    ],
  ];
  test.for(TAMPERED)(
    "HDR-014 POST /session-server with a client signature %s is refused with an error body (strict), or served (noted)",
    { tags: ["ERR-001"] },
    async ([what, badSignature], { skip, annotate }) => {
      skip(!signing.requests, OFF);
      // LENIENT (blind ruling 2026-11-28): how a signing server verifies is the provider's, not the specification's.
      const log = new LenientLog(t.profile.strict);
      const about = { req: "HDR-014", what: `with ${clientHeader} ${what}` };
      const device = await registeredDevice(about);
      const sent = JSON.stringify({ secret: device.apiKey });
      const signature = await badSignature(sent, device.apiKey);
      const exchange = await t.client.request({
        method: "POST",
        path: "/session-server",
        token: device.token,
        from,
        body: sent,
        headers: { "Content-Type": "application/json", [clientHeader]: signature },
      });
      if (exchange.status === 200)
        log.note(about, "POST /session-server with a client signature that does not verify was served", "a 4XX refusal with an error body");
      else {
        expectRefused(exchange, about);
        await expectSignedSessionOpens(device, about);
      }
      await log.report(annotate);
    },
  );
});

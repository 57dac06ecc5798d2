// PIN codes (banking-api.md "Endpoints > Cards": pin_code is "write-only, optional", a "plaintext pin;
// requests require encryption to be enabled"; wire conventions §7: write-only fields never appear in any
// response). Since the blind ruling of 2026-11-28 (spec/rulings.md) a plaintext pin may be accepted, an encrypted
// request may be refused and a wrong HMAC accepted (CARD-029 to CARD-031 are LENIENT): strict requires the first
// readings; the pin never shows anywhere (CARD-032), whatever the reading. The encryption scheme is not in either
// spec file: checks that send an encrypted request run only where the profile declares the provider's scheme
// (encryption: true; harness/http/encryption.ts). Every write uses a fresh user's card.
import { createPublicKey, randomBytes } from "node:crypto";
import { describe, test } from "vitest";
import {
  canonical,
  CardCalls,
  cardChanges,
  cardOf,
  expect400,
  expectSameCard,
  freshCardUser,
  isPermanent,
  needsFreshUser,
  writeOnlyKeys,
  type Card,
  type Skip,
} from "./support/cards.js";
import { expectNot5xx, expectThat, failPlain, type About } from "../harness/checks.js";
import {
  aesEncrypt,
  ENCRYPTION_OFF,
  encryptionHeaderNames,
  encryptionHmac,
  sealKey,
  sendEncrypted,
  type EncryptedBody,
} from "../harness/http/encryption.js";
import type { Exchange } from "../harness/http/exchange.js";
import { expectKept, keptInAnswer, orAsBefore } from "./support/card-kept.js";
import { LenientLog } from "../harness/lenient.js";
import { useTarget } from "../harness/run/target.js";

const t = useTarget();

/** Four-digit pins; the one used is a digit run found nowhere in the user's cards or the path, so seeing it later means it was echoed. */
const PINS = ["7391", "5826", "3947", "6158", "2683", "8462", "4719", "9275"];
const hasToken = (text: string, pin: string) => new RegExp(`(?<!\\d)${pin}(?!\\d)`).test(text);

interface PinSetup {
  calls: CardCalls;
  card: Card;
  pin: string;
}

/** A fresh user's card that is not LOST, STOLEN or CANCELLED, and a pin that shows nowhere yet. */
async function setup(skip: Skip, about: About): Promise<PinSetup> {
  const { calls, cards } = await freshCardUser(t, about);
  const card = cards.find((c) => !isPermanent(c));
  skip(!card, "the fresh user has no card that is not LOST, STOLEN or CANCELLED");
  const seen = `${JSON.stringify(cards)} ${t.userPath(calls.session, `/card/${card!.id}`)}`;
  const pin = PINS.find((p) => !hasToken(seen, p));
  skip(pin === undefined, "every candidate pin already shows in the user's cards");
  return { calls, card: card!, pin: pin! };
}

/** CARD-032 (and CARD-024 for card answers): no pin_code field and not the pin sent, anywhere in the answer. */
function expectNoPin(exchange: Exchange, pin: string, about: About): void {
  const keys = writeOnlyKeys(exchange.json).filter((path) => path.endsWith(".pin_code"));
  // An answer may quote what the request carried besides the pin (its request id, a trace reference): left out.
  const echoes = Object.values(exchange.request.headers).filter((v) => v.length >= 8);
  const quoted = hasToken(
    echoes.reduce((text, v) => text.split(v).join(" "), exchange.bodyText),
    pin,
  );
  expectThat(
    keys.length === 0 && !quoted,
    exchange,
    "no pin_code field and no trace of the pin sent",
    about,
    [...keys, ...(quoted ? ["the pin sent, quoted in the body"] : [])].join(", "),
  );
}

/** Every page of the user's card list shows no pin (CARD-032). */
async function expectNoPinListed(calls: CardCalls, pin: string, about: About): Promise<void> {
  for (const page of (await calls.all({ ...about, what: "listing the cards after the PUT" })).pages)
    expectNoPin(page, pin, { ...about, what: "in the card list" });
}

function needsEncryption(skip: Skip, calls: CardCalls): void {
  skip(!t.profile.encryption, ENCRYPTION_OFF);
  skip(!calls.session.serverPublicKey, "the installation answer carried no ServerPublicKey: there is no key to seal the AES key with");
}

const cardPath = (s: PinSetup) => t.userPath(s.calls.session, `/card/${s.card.id}`);

/**
 * A refused PUT that changed the card: since the blind ruling a refusal may keep the fields sent beside what it refused
 * (CARD-033 is LENIENT), so the change is recorded, and strict requires the card as it was.
 */
function judgeRefusedChanges(log: LenientLog, before: Card, after: Card, about: About): void {
  if (t.profile.strict)
    return expectSameCard(before, after, { ...about, what: `${about.what}: the refused PUT must change nothing (strict)` });
  const changed = cardChanges(before, after);
  if (changed.length > 0)
    log.note(about, `a refused card PUT changed the card (${changed.map((c) => c.field).join(", ")})`, "the card as it was");
}
const masked = (body: Record<string, unknown>) => canonical({ ...body, pin_code: "****" });

// Side by side: each test writes to the card of a fresh user of its own.
describe.concurrent("pin_code in plaintext", () => {
  const rows: [string, (pin: string) => Record<string, unknown>][] = [
    ["pin_code alone", (pin) => ({ pin_code: pin })],
    ["pin_code next to second_line", (pin) => ({ pin_code: pin, second_line: "conformance pin 029" })],
  ];
  test(
    "CARD-029 a card PUT carrying pin_code without encryption is refused with exactly 400 or accepted, and no answer quotes the pin " +
      "(strict: refused, the card unchanged)",
    { tags: ["CARD-032"] },
    async ({ skip, annotate }) => {
      needsFreshUser(t, skip);
      const s = await setup(skip, { req: "CARD-029" });
      // The blind ruling left open whether "requests require encryption" makes a plaintext pin a failure: accepted is
      // recorded; a refusal is a card update failure, exactly 400.
      const log = new LenientLog(t.profile.strict);
      for (const [what, make] of rows) {
        const body = make(s.pin);
        const about = { req: "CARD-029", what: `in plaintext, ${what} (${masked(body)}) on card ${s.card.id}` };
        const before = await s.calls.read(s.card.id, { ...about, what: "reading the card before the PUT" });
        const exchange = await s.calls.put(s.card.id, body);
        if (exchange.status === 200) {
          cardOf(exchange, { ...about, req: "CARD-008", what: `${about.what}: accepted, so the answer is the card` });
          expectNoPin(exchange, s.pin, { req: "CARD-032", what: `${about.what}: the PUT answer` });
          log.note(about, "a plaintext pin_code accepted (200)", "a refusal with exactly 400 leaving the card unchanged");
        } else {
          expect400(exchange, about);
          expectNoPin(exchange, s.pin, { req: "CARD-032", what: `${about.what}: the error body` });
          const after = await s.calls.read(s.card.id, { ...about, what: "reading the card after the refused PUT" });
          judgeRefusedChanges(log, before, after, about);
        }
        expectNoPin(await s.calls.get(s.card.id), s.pin, { req: "CARD-032", what: "GET of the card after the PUT" });
      }
      await expectNoPinListed(s.calls, s.pin, { req: "CARD-032" });
      await log.report(annotate);
    },
  );

  test(
    "ERR-016 a card PUT carrying pin_code, activation_code or cancellation_reason of the wrong JSON type (a number, an object) never " +
      "quotes the value, refused or not",
    { tags: ["CARD-032"] },
    async ({ skip }) => {
      needsFreshUser(t, skip);
      const s = await setup(skip, { req: "ERR-016" });
      // Digit runs found nowhere yet (setup's pin is one): a refusal for the type must not quote them back.
      const code = `${s.pin}${[...s.pin].reverse().join("")}`;
      const reason = `${[...s.pin].reverse().join("")}${s.pin}`;
      const bodies: [Record<string, unknown>, string][] = [
        [{ pin_code: Number(s.pin) }, s.pin],
        [{ pin_code: { pin: s.pin } }, s.pin],
        [{ activation_code: Number(code) }, code],
        [{ cancellation_reason: Number(reason) }, reason],
      ];
      for (const [body, value] of bodies) {
        const field = Object.keys(body)[0]!;
        const about = {
          req: "ERR-016",
          what: `with ${field} of the wrong JSON type (${canonical({ [field]: "…" })}) on card ${s.card.id}`,
        };
        const exchange = await s.calls.put(s.card.id, body);
        const keys = writeOnlyKeys(exchange.json);
        const echoes = Object.values(exchange.request.headers).filter((v) => v.length >= 8);
        const quoted = hasToken(
          echoes.reduce((text, v) => text.split(v).join(" "), exchange.bodyText),
          value,
        );
        expectThat(
          keys.length === 0 && !quoted,
          exchange,
          `an answer (${exchange.status}) without the write-only field or the value sent in it`,
          field === "pin_code" ? { ...about, req: "CARD-032" } : about,
          [...keys, ...(quoted ? [`the ${field} value sent, quoted in the body`] : [])].join(", "),
        );
      }
      expectNoPin(await s.calls.get(s.card.id), s.pin, { req: "CARD-032", what: "GET of the card after the PUTs" });
    },
  );
});

// Side by side: each test writes to the card of a fresh user of its own.
describe.concurrent("pin_code under the provider's request encryption", () => {
  test(
    "CARD-030 an encrypted card PUT with pin_code and second_line is answered 200 with the card showing the second_line, a later GET " +
      "shows it too, or is refused with exactly 400; no answer shows the pin (strict: answered 200)",
    { tags: ["CARD-024", "CARD-032"] },
    async ({ skip, annotate }) => {
      needsFreshUser(t, skip);
      const s = await setup(skip, { req: "CARD-030" });
      needsEncryption(skip, s.calls);
      const body = { pin_code: s.pin, second_line: `conformance pin ${s.card.id}` };
      const about = { req: "CARD-030", what: `encrypted, with ${masked(body)} on card ${s.card.id}` };
      const exchange = await sendEncrypted(t, s.calls.session, { method: "PUT", path: cardPath(s), json: body });
      // Neither spec file shows the provider's encryption (blind ruling): a target may not take it, and refuse the request.
      if (exchange.status !== 200) {
        const log = new LenientLog(t.profile.strict);
        expect400(exchange, about);
        expectNoPin(exchange, s.pin, { req: "CARD-032", what: `${about.what}: the error body` });
        expectNoPin(await s.calls.get(s.card.id), s.pin, { req: "CARD-032", what: "GET of the card after the refused PUT" });
        log.note(about, "an encrypted card PUT refused with 400 (the provider's encryption not taken)", "200 with the card");
        await log.report(annotate);
        return;
      }
      const answer = cardOf(exchange, about);
      // A card PUT may be taken with the card keeping the texts it had (CARD-023 is LENIENT: a reprint may be pending):
      // recorded, strict requires the text sent. The pin rules below hold either way.
      const log = new LenientLog(t.profile.strict);
      const kept = answer.second_line !== body.second_line && keptInAnswer(s.card, answer, body, "second_line");
      if (!kept)
        expectThat(
          answer.second_line === body.second_line,
          exchange,
          `the answer to show second_line ${canonical(body.second_line)}${orAsBefore(s.card, body, "second_line")}`,
          about,
          `second_line ${canonical(answer.second_line)}`,
        );
      expectNoPin(exchange, s.pin, { req: "CARD-024", what: `${about.what}: the PUT answer` });
      const after = await s.calls.read(s.card.id, { ...about, what: "GET of the card after the encrypted PUT" });
      const read = { ...about, what: `GET of card ${s.card.id} after the encrypted PUT` };
      if (kept) expectKept(s.card, after, body, ["second_line"], read, log);
      else if (after.second_line !== body.second_line)
        failPlain(read, `expected second_line ${canonical(body.second_line)}, got ${canonical(after.second_line)}`);
      expectNoPin(await s.calls.get(s.card.id), s.pin, { req: "CARD-032", what: "GET of the card after the encrypted PUT" });
      await expectNoPinListed(s.calls, s.pin, { req: "CARD-032" });
      await log.report(annotate);
    },
  );

  /** Each row breaks the encryption one way; `plain` is the JSON text encrypted, `keyBytes` the length of the server's RSA key. */
  const broken: [string, (e: EncryptedBody, plain: Buffer, keyBytes: number) => EncryptedBody][] = [
    ["the HMAC with one bit flipped", (e) => withHmac(e, flip(Buffer.from(e.headers[names().hmac]!, "base64")))],
    [
      "the HMAC made over the encrypted body alone, without the IV in front",
      (e) => withHmac(e, encryptionHmac(e.key, Buffer.alloc(0), e.body)),
    ],
    ["no Hmac header", (e) => ({ ...e, headers: Object.fromEntries(Object.entries(e.headers).filter(([name]) => name !== names().hmac)) })],
    [
      "the AES key sealed with the client's own public key instead of the server's",
      (e) => ({ ...e, headers: { ...e.headers, [names().key]: sealKey(e.key, t.run.clientKey.publicKeyPem).toString("base64") } }),
    ],
    // A sealed key the server's RSA key cannot open at all: longer than that key, or as long but above its modulus. A
    // server that lets the RSA step throw answers 5XX, which neither reading of CARD-031 allows (nor wire-conventions §6).
    [
      "a sealed AES key of random bytes twice as long as the server's RSA key",
      (e, _plain, keyBytes) => ({ ...e, headers: { ...e.headers, [names().key]: randomBytes(2 * keyBytes).toString("base64") } }),
    ],
    [
      "a sealed AES key as long as the server's RSA key, every byte 0xFF (above its modulus)",
      (e, _plain, keyBytes) => ({ ...e, headers: { ...e.headers, [names().key]: Buffer.alloc(keyBytes, 0xff).toString("base64") } }),
    ],
    [
      "a body whose last block carries no valid padding (its HMAC made over it)",
      (e, plain) => {
        const unpadded = aesEncrypt(Buffer.concat([plain, Buffer.alloc(16 - (plain.length % 16))]), e.key, e.iv, false);
        return withHmac({ ...e, body: unpadded }, encryptionHmac(e.key, e.iv, unpadded));
      },
    ],
  ];
  test(
    "CARD-031 an encrypted card PUT whose HMAC does not match, whose key the server cannot unseal or whose body does not decrypt is " +
      "refused with exactly 400 or accepted, and quotes no pin (strict: refused, the card unchanged)",
    { tags: ["CARD-032"] },
    async ({ skip, annotate }) => {
      needsFreshUser(t, skip);
      const s = await setup(skip, { req: "CARD-031" });
      needsEncryption(skip, s.calls);
      const keyBytes = rsaKeyBytes(s.calls.session.serverPublicKey!);
      const body = { pin_code: s.pin, second_line: "conformance pin 031" };
      // Neither spec file shows the provider's encryption (blind ruling): an accepted request is recorded; a refusal is a
      // card update failure, exactly 400.
      const log = new LenientLog(t.profile.strict);
      for (const [what, tweak] of broken) {
        const about = { req: "CARD-031", what: `encrypted with ${what}, carrying ${masked(body)}, on card ${s.card.id}` };
        const before = await s.calls.read(s.card.id, { ...about, what: "reading the card before the PUT" });
        const exchange = await sendEncrypted(t, s.calls.session, { method: "PUT", path: cardPath(s), json: body }, (e) =>
          tweak(e, Buffer.from(JSON.stringify(body)), keyBytes),
        );
        if (exchange.status === 200) {
          cardOf(exchange, { ...about, req: "CARD-008", what: `${about.what}: accepted, so the answer is the card` });
          expectNoPin(exchange, s.pin, { req: "CARD-032", what: `${about.what}: the PUT answer` });
          log.note(about, `an encrypted card PUT with ${what} accepted (200)`, "a refusal with exactly 400 leaving the card unchanged");
          continue;
        }
        expectNot5xx(exchange, about);
        expect400(exchange, about);
        expectNoPin(exchange, s.pin, { req: "CARD-032", what: `${about.what}: the error body` });
        judgeRefusedChanges(log, before, await s.calls.read(s.card.id, about), about);
      }
      expectNoPin(await s.calls.get(s.card.id), s.pin, { req: "CARD-032", what: "GET of the card after the PUTs" });
      await log.report(annotate);
    },
  );
});

const names = () => encryptionHeaderNames(t.profile.headerPrefix);
/** The length in bytes of the RSA key a ServerPublicKey names (256, a 2048-bit key's, where it cannot be read). */
function rsaKeyBytes(pem: string): number {
  try {
    const bits = createPublicKey(pem).asymmetricKeyDetails?.modulusLength;
    return bits ? Math.ceil(bits / 8) : 256;
  } catch {
    return 256;
  }
}
const withHmac = (e: EncryptedBody, hmac: Buffer): EncryptedBody => ({
  ...e,
  headers: { ...e.headers, [names().hmac]: hmac.toString("base64") },
});
function flip(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  copy[copy.length >> 1] = copy[copy.length >> 1]! ^ 0x01;
  return copy;
}

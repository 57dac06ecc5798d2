// Common request headers (banking-api.md "Common request rules"; wire conventions §3).
import { describe, test } from "vitest";
import { expectOk, expectRefused, expectThat, failPlain } from "../harness/checks.js";
import { errorEntries } from "../harness/envelope.js";
import { sharedKeyPair } from "../harness/keys.js";
import { postInstallation, postDeviceServer, postSessionServer } from "../harness/session.js";
import { SKIP, useTarget } from "../harness/target.js";

const t = useTarget();
const from = t.profile.sourceAddresses[0];
const readOnly = t.profile.mode === "read-only";

function cards(headers: Record<string, string | null>, token: string | null = t.primary().sessionToken) {
  return t.client.request({ path: t.userPath(t.primary(), "/card"), token, from, headers });
}

describe("User-Agent", () => {
  test("HDR-001 ERR-001 ERR-002 a resource call without User-Agent is refused with an error body", async () => {
    expectOk(await cards({}), { req: "HDR-001", what: "with User-Agent (control)" });
    expectRefused(await cards({ "User-Agent": null }), { req: "HDR-001", what: "without User-Agent" });
  });

  test("HDR-001 ERR-001 POST /installation without User-Agent is refused with an error body", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    // A valid key, so that only the missing User-Agent can be the reason to refuse.
    const json = { client_public_key: (await sharedKeyPair()).publicKeyPem };
    const exchange = await t.client.request({ method: "POST", path: "/installation", json, headers: { "User-Agent": null }, from });
    expectRefused(exchange, { req: "HDR-001", what: "without User-Agent, with a valid PEM RSA public key" });
  });
});

describe("User-Agent values and optional headers", () => {
  test("HDR-010 any User-Agent value is accepted", async () => {
    for (const agent of ["x", "my client", "Mozilla/5.0 (X11; Linux x86_64)", "conformance-ü/1.0 (+tests)"]) {
      expectOk(await cards({ "User-Agent": agent }), { req: "HDR-010", what: `with User-Agent: ${agent}` });
    }
  });

  test("HDR-011 a request without Language, Region, Client-Request-Id and Geolocation succeeds", async () => {
    const none = Object.fromEntries(["Language", "Region", "Client-Request-Id", "Geolocation"].map((name) => [t.header(name), null]));
    expectOk(await cards(none), { req: "HDR-011", what: "without any of the optional service headers" });
  });
});

describe("X-Service-Client-Request-Id", () => {
  test("HDR-002 HDR-003 ERR-001 a request id reused on a resource call is refused, and each id is echoed", async () => {
    const id = `conformance-${crypto.randomUUID()}`;
    const first = await cards({ [t.header("Client-Request-Id")]: id });
    expectOk(first, { req: "HDR-002", what: `with a new request id ${id}` });
    const echoed = first.headers[t.header("Client-Request-Id").toLowerCase()];
    expectThat(echoed === id, first, `the response header ${t.header("Client-Request-Id")}: ${id}`, { req: "HDR-003" }, echoed === undefined ? "no such header" : `"${echoed}"`);
    const second = await cards({ [t.header("Client-Request-Id")]: id });
    expectRefused(second, { req: "HDR-002", what: `reusing request id ${id} on the same device` });
  });

  test("HDR-002 ERR-001 a request id reused in a second session on the same device is refused", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    // A fresh user's key where the target provisions users: new devices and sessions never touch the primary's.
    const apiKey = t.canProvision() ? await t.freshApiKey(from) : t.primary().apiKey;
    const installation = await postInstallation(t.client, { from });
    expectOk(await postDeviceServer(t.client, { token: installation.token ?? null, apiKey, from }), { req: "HDR-002", what: "registering the device (set-up)" });
    const open = async (which: string) => {
      const session = await postSessionServer(t.client, { token: installation.token ?? null, apiKey, from });
      expectOk(session.exchange, { req: "HDR-002", what: `opening the ${which} session on the device (set-up)` });
      return session;
    };
    const call = (session: { token?: string; userId?: number }, id: string) =>
      t.client.request({ path: `/user/${session.userId ?? t.primary().userId}/card`, token: session.token ?? null, from, headers: { [t.header("Client-Request-Id")]: id } });
    const id = `conformance-${crypto.randomUUID()}`;
    expectOk(await call(await open("first"), id), { req: "HDR-002", what: `with a new request id ${id} in the first session` });
    // The first session may end when the second opens (not shown either way): only the second is used from here.
    const second = await open("second");
    expectOk(await call(second, `conformance-${crypto.randomUUID()}`), { req: "HDR-002", what: "with a fresh request id in the second session (control)" });
    expectRefused(await call(second, id), { req: "HDR-002", what: `reusing request id ${id} in another session of the same device` });
  });

  test("HDR-002 ERR-001 a request id reused on session-server for the same device is refused", async ({ skip }) => {
    skip(readOnly, SKIP.readOnly);
    // A fresh user's key where the target provisions users: new devices and sessions never touch the primary's.
    const apiKey = t.canProvision() ? await t.freshApiKey(from) : t.primary().apiKey;
    const installation = await postInstallation(t.client, { from });
    expectOk(await postDeviceServer(t.client, { token: installation.token ?? null, apiKey, from }), { req: "HDR-002", what: "registering the device (set-up)" });
    const id = `conformance-${crypto.randomUUID()}`;
    const open = () => t.client.request({ method: "POST", path: "/session-server", token: installation.token ?? null, from, json: { secret: apiKey }, headers: { [t.header("Client-Request-Id")]: id } });
    expectOk(await open(), { req: "HDR-002", what: `with a new request id ${id}` });
    expectRefused(await open(), { req: "HDR-002", what: `reusing request id ${id} on the same device` });
    // A fresh id still works: the refusal was about the id, not the device.
    const again = await postSessionServer(t.client, { token: installation.token ?? null, apiKey, from });
    expectOk(again.exchange, { req: "HDR-002", what: "with a fresh request id (control)" });
  });
});

describe("X-Service-Language, Region, Geolocation, Cache-Control", () => {
  test("HDR-006 the supported languages en_US and nl_NL are accepted", async () => {
    for (const language of ["en_US", "nl_NL"]) {
      expectOk(await cards({ [t.header("Language")]: language }), { req: "HDR-006", what: `with ${t.header("Language")}: ${language}` });
    }
  });

  test("HDR-004 ERR-001 an unsupported language is no error, and error texts fall back to the en_US text", async () => {
    for (const language of ["de_DE", "fr_FR", "xx_XX"]) {
      expectOk(await cards({ [t.header("Language")]: language }), { req: "HDR-004", what: `with ${t.header("Language")}: ${language}` });
    }
    // The same refused call (no authentication) in en_US and in an unsupported language: the translated texts match.
    const english = await cards({ [t.header("Language")]: "en_US" }, null);
    expectRefused(english, { req: "HDR-004", what: "without authentication, in en_US" });
    for (const language of ["de_DE", "fr_FR"]) {
      const other = await cards({ [t.header("Language")]: language }, null);
      expectRefused(other, { req: "HDR-004", what: `without authentication, in ${language}` });
      const want = errorEntries(english.json)?.map((e) => e.error_description_translated);
      const got = errorEntries(other.json)?.map((e) => e.error_description_translated);
      // Error texts may carry per-request detail (a request or trace id): the answer's own English text counts too.
      const ownEnglish = errorEntries(other.json)?.every((e) => e.error_description_translated === e.error_description) ?? false;
      if (JSON.stringify(want) !== JSON.stringify(got) && !ownEnglish) {
        failPlain({ req: "HDR-004", what: `GET ${t.userPath(t.primary(), "/card")} without authentication in ${language}` }, `expected error_description_translated ${JSON.stringify(want)} (the en_US text), got ${JSON.stringify(got)}`);
      }
    }
  });

  test("HDR-007 X-Service-Region in language format is accepted", async () => {
    for (const region of ["nl_NL", "en_US"]) {
      expectOk(await cards({ [t.header("Region")]: region }), { req: "HDR-007", what: `with ${t.header("Region")}: ${region}` });
    }
  });

  test("HDR-005 a zero-valued X-Service-Geolocation is accepted", async () => {
    expectOk(await cards({ [t.header("Geolocation")]: "0 0 0 0 000" }), { req: "HDR-005", what: `with ${t.header("Geolocation")}: 0 0 0 0 000` });
    expectOk(await cards({ [t.header("Geolocation")]: "4.89 52.37 12 100 NL" }), { req: "HDR-005", what: `with a real ${t.header("Geolocation")} (control)` });
  });

  test("HDR-009 requests without a client signature are served where the profile does not sign", async ({ skip }) => {
    skip(t.profile.signing?.requests === true, "the profile signs every request (signing.requests): the target may require signatures");
    expectOk(await cards({ [t.header("Client-Signature")]: null }), { req: "HDR-009", what: `without ${t.header("Client-Signature")}` });
  });

  test("HDR-008 requests without Cache-Control are served", async () => {
    expectOk(await cards({ "Cache-Control": null }), { req: "HDR-008", what: "without Cache-Control" });
  });
});

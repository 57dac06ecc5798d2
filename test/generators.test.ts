// Self-test of generators/: every valid arbitrary's output validates against its schema, every invalid
// one's does not (or is not JSON at all), the realistic values are what they claim to be, and the
// card commands' model is the specification's table.
import { X509Certificate, createPublicKey } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AUTH_ENDPOINTS, ENDPOINTS, INSTALLATION_TOKEN_ENDPOINTS } from "../harness/endpoints.js";
import { schemaNames, validateSchema } from "../harness/schemas.js";
import {
  BODIES,
  BODY_NAMES,
  emptyBody,
  invalidJsonBody,
  malformedJson,
  missingRequired,
  notAnObject,
  outsideEnum,
  oversizedBody,
  validBody,
  wrongType,
} from "../generators/bodies.js";
import { statusVerdict, requestPendingVerdict, type CardState } from "../generators/commands/card-table.js";
import { unknownStatus } from "../generators/commands/put-status-unknown.js";
import { absentId, hugeId, integerId, negativeId, nonIntegerId } from "../generators/path-ids.js";
import { countAboveMax, invalidCount, validCount } from "../generators/query.js";
import {
  amount,
  certificateChain,
  COUNTRY_CODES,
  imageFile,
  LANGUAGE_TAGS,
  languageTag,
  RSA_PUBLIC_KEY_PEM,
  SUPPORTED_LANGUAGES,
} from "../generators/realistic.js";
import { bodyNameOf, fill, listPathOf } from "../generators/requests.js";
import { schemaFields } from "../generators/schema-fields.js";

const RUNS = { numRuns: 200, seed: 20261122 };

/** fc.assert over a check that asserts with expect (its return value is ignored). */
function holds<T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => unknown, runs: fc.Parameters<[T]> = RUNS): void {
  fc.assert(
    fc.property(arbitrary, (value) => {
      check(value);
    }),
    runs,
  );
}

describe("request bodies", () => {
  it.each(BODY_NAMES)("every valid %s body validates against its schema", (name) => {
    holds(validBody(name), (body) => expect(validateSchema(BODIES[name].schema, body).errors).toEqual([]));
  });

  it.each(BODY_NAMES)("every structured invalid %s body fails its schema", (name) => {
    const invalid = invalidJsonBody(name);
    if (invalid)
      holds(invalid, (body) =>
        expect(validateSchema(BODIES[name].schema, body.json).valid, `${body.what}: ${JSON.stringify(body.json).slice(0, 200)}`).toBe(
          false,
        ),
      );
  });

  it.each(BODY_NAMES)("an empty %s body is offered only where the schema has required members", (name) => {
    const empty = emptyBody(name);
    expect(empty !== undefined).toBe(schemaFields(BODIES[name].schema).required.length > 0 && missingRequired(name) !== undefined);
    if (empty) holds(empty, (body) => expect(body.raw).toBe(""));
  });

  it.each(BODY_NAMES)("every malformed %s body is not JSON", (name) => {
    holds(malformedJson(name), (body) => {
      expect(() => JSON.parse(body.raw!), body.what).toThrow();
      expect(body.req).toBe("ERR-005");
    });
  });

  it.each(BODY_NAMES)(
    "an invalid %s body breaks one member only: put a valid value back (or leave an optional one out) and it validates",
    (name) => {
      const { schema } = BODIES[name];
      for (const kind of [missingRequired(name), wrongType(name), outsideEnum(name)]) {
        if (!kind) continue;
        holds(fc.tuple(kind, validBody(name)), ([body, valid]) => {
          expect(body.req).toMatch(/^[A-Z]+-\d{3}$/);
          const { [body.field!]: _broken, ...rest } = body.json as Record<string, unknown>;
          const repaired = body.field! in valid ? { ...rest, [body.field!]: valid[body.field!] } : rest;
          expect(validateSchema(schema, repaired).errors, body.what).toEqual([]);
        });
      }
      const notObject = notAnObject(name);
      if (notObject)
        holds(notObject, (body) => expect(typeof body.json === "object" && body.json !== null && !Array.isArray(body.json)).toBe(false));
    },
  );

  it.each(BODY_NAMES)("the oversized %s bodies, where there are any, still validate (the schemas set no maximum)", (name) => {
    const oversized = oversizedBody(name);
    if (!oversized) return;
    holds(
      oversized,
      ({ json }) => {
        expect(validateSchema(BODIES[name].schema, json).valid).toBe(true);
        expect(Math.max(...Object.values(json).map((v) => (typeof v === "string" ? v.length : 0)))).toBeGreaterThanOrEqual(4096);
      },
      { ...RUNS, numRuns: 20 },
    );
  });

  it("every body schema named exists, and every endpoint with a JSON body has one", () => {
    const names = new Set(schemaNames());
    for (const name of BODY_NAMES) expect(names).toContain(BODIES[name].schema);
    const withBody = [...ENDPOINTS, ...INSTALLATION_TOKEN_ENDPOINTS].filter((e) => e.body !== undefined && !e.raw);
    const unmapped = withBody.filter((e) => !bodyNameOf(e)).map((e) => `${e.method} ${e.path}`);
    expect(unmapped).toEqual([]);
    // The one endpoint table names each body schema; the generators make every one but the test-user call's.
    for (const endpoint of [...AUTH_ENDPOINTS, ...ENDPOINTS].filter(
      (e) => e.request !== undefined && e.request !== "sandbox-user-request",
    )) {
      expect(bodyNameOf(endpoint), `${endpoint.method} ${endpoint.path}`).toBe(endpoint.request);
    }
  });
});

describe("realistic values", () => {
  it("country codes are ISO 3166-1 alpha-2 and languages language_REGION of known regions", () => {
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    const regions = new Intl.DisplayNames(["en"], { type: "region" });
    for (const code of COUNTRY_CODES) expect(regions.of(code), code).not.toBe(code);
    expect(LANGUAGE_TAGS).toEqual(expect.arrayContaining(SUPPORTED_LANGUAGES));
    holds(languageTag, (tag) => expect(LANGUAGE_TAGS).toContain(tag));
    for (const tag of LANGUAGE_TAGS) {
      expect(tag).toMatch(/^[a-z]{2}_[A-Z]{2}$/);
      expect(COUNTRY_CODES).toContain(tag.slice(3));
    }
  });

  it("amounts are two-decimal strings with an ISO 4217 currency", () => {
    fc.assert(
      fc.property(amount, (a) => {
        expect(a.value).toMatch(/^\d+\.\d{2}$/);
        expect(Intl.supportedValuesOf("currency")).toContain(a.currency);
        expect(validateSchema("amount", a).valid).toBe(true);
      }),
      RUNS,
    );
  });

  it("certificate chains are real PEM certificates, and the installation key a real RSA-2048 key", () => {
    holds(certificateChain, (chain) => chain.map(({ certificate }) => expect(() => new X509Certificate(certificate)).not.toThrow()), {
      numRuns: 10,
    });
    const key = createPublicKey(RSA_PUBLIC_KEY_PEM);
    expect(key.asymmetricKeyType).toBe("rsa");
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it("image files start with their format's signature", () => {
    const magic: Record<string, string> = { "image/png": "89504e47", "image/jpeg": "ffd8ff", "image/gif": "47494638" };
    fc.assert(
      fc.property(imageFile, (file) => {
        expect(file.bytes.subarray(0, 4).toString("hex")).toMatch(new RegExp(`^${magic[file.contentType]}`));
      }),
      { numRuns: 30 },
    );
  });
});

describe("path ids and counts", () => {
  it("non-integer ids and invalid counts are never integers; negative ids are; huge ids exceed 64 bits", () => {
    const isInteger = (s: string) => /^-?\d+$/.test(decodeURIComponent(s));
    holds(nonIntegerId, (id) => expect(isInteger(id), id).toBe(false));
    holds(nonIntegerId, (id) => expect(id).not.toMatch(/[/?#]/));
    holds(invalidCount, (c) => expect(/^\d+$/.test(c) && Number(c) >= 1, c).toBe(false));
    holds(negativeId, (id) => expect(Number(id)).toBeLessThan(0));
    holds(integerId, (id) => expect(Number.isInteger(id) && id >= 1 && id < 2 ** 31).toBe(true));
    holds(absentId, (id) => expect(Number.isSafeInteger(Number(id)) && Number(id) >= 9e14).toBe(true));
    holds(hugeId, (id) => expect(BigInt(id) > 2n ** 64n).toBe(true));
    holds(validCount, (c) => expect(c >= 1 && c <= 200).toBe(true));
    holds(countAboveMax, (c) => expect(c > 200 && c <= 1_000_000).toBe(true));
  });

  it("templates fill, and item paths map to their lists", () => {
    expect(fill("/user/{userID}/card/{itemId}", { userID: 7, itemId: "abc" })).toBe("/user/7/card/abc");
    expect(fill("/user/{userID}/card/{itemId}", { userID: 7 })).toBeUndefined();
    expect(listPathOf("/user/{userID}/card/{itemId}/replace")).toBe("/user/{userID}/card");
    expect(listPathOf("/user/{userID}/card")).toBeUndefined();
  });
});

describe("the card model is the specification's table", () => {
  const card = (status: string, order: string, activated: boolean | undefined): CardState => ({
    status,
    order,
    activated,
    since: "CARD-007",
  });
  const cases: [CardState, string, string, string][] = [
    [card("DEACTIVATED", "ACCEPTED_FOR_PRODUCTION", false), "ACTIVE", "allowed", "CARD-013"],
    [card("ACTIVE", "DELIVERED_TO_CUSTOMER", true), "LOST", "allowed", "CARD-014"],
    [card("DEACTIVATED", "ACCEPTED_FOR_PRODUCTION", false), "CANCELLED", "allowed", "CARD-014"],
    [card("LOST", "DELIVERED_TO_CUSTOMER", true), "ACTIVE", "forbidden", "CARD-015"],
    [card("CANCELLED", "CARD_UPDATE_SENT", true), "STOLEN", "forbidden", "CARD-015"],
    [card("ACTIVE", "CARD_UPDATE_ACCEPTED", true), "DEACTIVATED", "allowed", "CARD-016"],
    [card("DEACTIVATED", "DELIVERED_TO_CUSTOMER", true), "ACTIVE", "allowed", "CARD-017"],
    // The spec never shows a card's past: a card waiting in ACCEPTED_FOR_PRODUCTION may be a re-issue (GAP-10).
    [card("DEACTIVATED", "ACCEPTED_FOR_PRODUCTION", false), "DEACTIVATED", "undecided", "CARD-018"],
    [card("ACTIVE", "ACCEPTED_FOR_PRODUCTION", true), "DEACTIVATED", "undecided", "CARD-020"],
    [card("DEACTIVATED", "CARD_REQUEST_PENDING", undefined), "ACTIVE", "undecided", "CARD-020"],
    [card("ACTIVE", "CARD_REQUEST_PENDING", true), "LOST", "undecided", "CARD-020"],
    [card("LOST", "DELIVERED_TO_CUSTOMER", true), "LOST", "undecided", "CARD-020"],
    [card("ACTIVE", "DELIVERED_TO_CUSTOMER", true), "BLOCKED", "forbidden", "CARD-010"],
  ];
  it.each(cases)("%j, PUT status %s: %s (%s)", (state, to, kind, req) => {
    expect(statusVerdict(state, to)).toMatchObject({ kind, req });
  });

  it("order_status CARD_REQUEST_PENDING is allowed from every state, the permanent ones included (row 4: any)", () => {
    expect(requestPendingVerdict(card("ACTIVE", "DELIVERED_TO_CUSTOMER", true))).toMatchObject({ kind: "allowed", req: "CARD-019" });
    expect(requestPendingVerdict(card("STOLEN", "DELIVERED_TO_CUSTOMER", true))).toMatchObject({ kind: "allowed", req: "CARD-019" });
  });

  it("unknown statuses are never one of the five", () => {
    holds(unknownStatus, (s) => expect(["ACTIVE", "DEACTIVATED", "LOST", "STOLEN", "CANCELLED"]).not.toContain(s));
  });
});

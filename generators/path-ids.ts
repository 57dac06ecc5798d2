// Path ids (userID, itemId, cardID, monetary-accountID, oauth-clientID are "integers and required"):
// well-formed ones, and the malformed ones a conformant server must refuse (conventions §6).
import fc from "fast-check";

/** A positive 32-bit id, the shape ids take on the wire. */
export const integerId = fc.integer({ min: 1, max: 2 ** 31 - 1 });

/** A negative integer: no server hands out such an id, so it names nothing (ERR-014). */
export const negativeId = fc.integer({ min: -(2 ** 31), max: -1 }).map(String);

/**
 * Text that is not an integer, as a path segment (already URL-safe): a decimal, a word, hexadecimal,
 * exponent notation, digits followed by letters, a signed decimal. Each is refused (ERR-006).
 */
export const nonIntegerId = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 1, max: 99 })).map(([a, b]) => `${a}.${b}`),
  fc.stringMatching(/^[a-z]{1,12}$/),
  fc.integer({ min: 1, max: 0xffff }).map((n) => `0x${n.toString(16)}`),
  fc.integer({ min: 1, max: 9 }).map((n) => `1e${n}`),
  fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.stringMatching(/^[a-z]{1,4}$/)).map(([n, s]) => `${n}${s}`),
  fc.integer({ min: 1, max: 999 }).map((n) => `-${n}.5`),
  fc.constantFrom("null", "undefined", "NaN", "Infinity", "true", "%20", "1%2C2"),
);

/**
 * A well-formed id far beyond any a server hands out (900 trillion and up, still within 2^53): it names
 * no item (ERR-014), and unlike a negative id it passes a server's integer check and reaches the lookup.
 */
export const absentId = fc.integer({ min: 900_000_000_000_000, max: 999_999_999_999_999 }).map(String);

/** An integer far beyond 64 bits: a well-formed id no server can hold (accepted as "not found" or refused, never a crash). */
export const hugeId = fc.integer({ min: 20, max: 40 }).map((digits) => "9".repeat(digits));

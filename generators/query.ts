// The count query parameter of list requests (spec: Limits; wire conventions §5): counts a server must
// honour, counts above the maximum of 200, and values that are not a count at all.
import fc from "fast-check";

export const MAX_COUNT = 200;
export const DEFAULT_COUNT = 10;

/** A count in 1..200, small ones (several pages per list) as often as any. */
export const validCount = fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: MAX_COUNT }));

/** No count (the default of 10), or a valid one. */
export const optionalCount = fc.option(validCount, { nil: undefined, freq: 4 });

/** Above the maximum, up to a million: refused with 4XX, or at most 200 items (LENIENT). */
export const countAboveMax = fc.oneof(
  fc.integer({ min: MAX_COUNT + 1, max: MAX_COUNT + 10 }),
  fc.integer({ min: MAX_COUNT + 1, max: 1_000_000 }),
);

/**
 * A count below 1 or not an integer (conventions §5: refused with 4XX): zero, negatives, decimals,
 * words, and digits with trailing letters.
 */
export const invalidCount = fc.oneof(
  fc.constant("0"),
  fc.integer({ min: -1_000_000, max: -1 }).map(String),
  fc.tuple(fc.integer({ min: 0, max: 199 }), fc.integer({ min: 1, max: 9 })).map(([n, d]) => `${n}.${d}`),
  fc.stringMatching(/^[a-z]{1,8}$/),
  fc.tuple(fc.integer({ min: 1, max: 199 }), fc.stringMatching(/^[a-z]{1,3}$/)).map(([n, s]) => `${n}${s}`),
);

// Files at once follow the round trip the preflight measured: the embedded reference gets one, any other loopback
// target four, a distant one more (never more than the files selected, nor than the cap), a rate-limited profile stays
// at four, and a run whose writes all land on the primary user's data goes one file at a time.
import { describe, expect, it } from "vitest";
import { BASE_FILES, EMBEDDED_FILES, fileConcurrency, LOOPBACK_ROUND_TRIP_MS, MAX_FILES } from "../../cli/file-concurrency.js";

describe("files at once", () => {
  it("stays at the base count without a measured round trip, on a loopback target, and under a rate limit", () => {
    expect(fileConcurrency({ embedded: false, files: 22, rateLimited: false, sharedWrites: false })).toBe(BASE_FILES);
    for (const roundTripMs of [0, 0.4, 3, LOOPBACK_ROUND_TRIP_MS])
      expect(fileConcurrency({ embedded: false, roundTripMs, files: 22, rateLimited: false, sharedWrites: false })).toBe(BASE_FILES);
    expect(fileConcurrency({ embedded: false, roundTripMs: 50, files: 22, rateLimited: true, sharedWrites: false })).toBe(BASE_FILES);
    expect(fileConcurrency({ embedded: false, roundTripMs: Number.NaN, files: 22, rateLimited: false, sharedWrites: false })).toBe(
      BASE_FILES,
    );
  });

  it("is one file at a time against the embedded reference (it makes no check wait but for CPU)", () => {
    expect(EMBEDDED_FILES).toBe(1);
    expect(fileConcurrency({ embedded: true, files: 22, rateLimited: false, sharedWrites: false })).toBe(EMBEDDED_FILES);
    expect(fileConcurrency({ embedded: true, roundTripMs: 50, files: 22, rateLimited: false, sharedWrites: false })).toBe(EMBEDDED_FILES);
  });

  it("grows with the round trip, up to the cap and the number of files", () => {
    const at = (roundTripMs: number, files = 22) =>
      fileConcurrency({ embedded: false, roundTripMs, files, rateLimited: false, sharedWrites: false });
    expect(at(15)).toBe(6);
    expect(at(20)).toBe(MAX_FILES);
    expect(at(50)).toBe(MAX_FILES);
    expect(at(5_000)).toBe(MAX_FILES);
    expect(at(50, 6)).toBe(6);
    expect(at(12, 22)).toBe(5);
    expect(at(50, 2)).toBe(BASE_FILES);
    for (let ms = 0; ms < 200; ms += 7) expect(at(ms + 1)).toBeGreaterThanOrEqual(at(ms));
  });

  it("is one where every file writes to the primary user's data (no fresh users), however distant the target", () => {
    for (const roundTripMs of [undefined, 1, 50, 5_000])
      for (const rateLimited of [false, true])
        expect(fileConcurrency({ embedded: false, roundTripMs, files: 22, rateLimited, sharedWrites: true })).toBe(1);
  });
});

// What a file's tests share is made once (suites/support/shared-once.ts); a failure to make it is not kept, so the run
// again of a test that met weather makes it anew.
import { describe, expect, it } from "vitest";
import { sharedOnce } from "../../suites/support/shared-once.js";

describe("sharedOnce", () => {
  it("makes it once for every caller, side by side or later", async () => {
    let made = 0;
    const shared = sharedOnce(async () => ++made);
    expect(await Promise.all([shared(), shared(), shared()])).toEqual([1, 1, 1]);
    expect(await shared()).toBe(1);
    expect(made).toBe(1);
  });

  it("forgets a rejection: the callers waiting share it, the next caller makes it anew", async () => {
    let tries = 0;
    const shared = sharedOnce(async () => {
      tries++;
      if (tries === 1) throw new Error("the server closed the connection");
      return "made";
    });
    const [a, b] = await Promise.allSettled([shared(), shared()]);
    expect([a.status, b.status]).toEqual(["rejected", "rejected"]);
    expect(await shared()).toBe("made");
    expect(await shared()).toBe("made");
    expect(tries).toBe(2);
  });
});

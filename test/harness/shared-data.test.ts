import { describe, expect, it } from "vitest";
import { SharedData } from "../../suites/support/shared-data.js";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("SharedData (tests of a file side by side that share data)", () => {
  it("lets readers overlap, runs a writer alone and in the order handed in, and survives a failing call", async () => {
    const gate = new SharedData();
    const log: string[] = [];
    let inFlight = 0;
    let most = 0;
    const call =
      (name: string, ms: number, fail = false) =>
      async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        log.push(`${name}+`);
        await wait(ms);
        log.push(`${name}-`);
        inFlight--;
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      gate.read(call("r1", 20)),
      gate.read(call("r2", 5, true)),
      gate.write(call("w1", 5)),
      gate.read(call("r3", 5)),
      gate.read(call("r4", 5)),
      gate.write(call("w2", 5)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    // r1 and r2 overlap; w1 starts after both ended; r3 and r4 after w1 and together; w2 last, alone.
    expect(log.slice(0, 2).sort()).toEqual(["r1+", "r2+"]);
    expect(log.indexOf("w1+")).toBeGreaterThan(Math.max(log.indexOf("r1-"), log.indexOf("r2-")));
    expect(log.indexOf("w1-")).toBe(log.indexOf("w1+") + 1);
    expect(log.indexOf("r3+")).toBeGreaterThan(log.indexOf("w1-"));
    expect(log.indexOf("r4+")).toBeLessThan(log.indexOf("r3-"));
    expect(log.indexOf("w2+")).toBeGreaterThan(Math.max(log.indexOf("r3-"), log.indexOf("r4-")));
    expect(log.at(-1)).toBe("w2-");
    expect(most).toBe(2);
  });
});

// A run starts its suites in a fixed order (harness/run/suite-order.ts): every suite has its place, so a new one is
// placed by whoever adds it, not left to start last.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SUITE_ORDER, suiteRank } from "../../harness/run/suite-order.js";

describe("the suites' start order", () => {
  it("places every suite once, and nothing that is not a suite", () => {
    const suites = readdirSync(new URL("../../suites/", import.meta.url))
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => f.replace(/\.test\.ts$/, ""));
    expect([...SUITE_ORDER].sort()).toEqual(suites.sort());
  });

  it("ranks a suite file by its place, and other files after every suite", () => {
    expect(suiteRank("/work/x/suites/pagination.test.ts")).toBe(0);
    expect(suiteRank("/work/x/suites/signatures.test.ts")).toBe(SUITE_ORDER.length - 1);
    expect(suiteRank("/work/x/test/cli.test.ts")).toBe(SUITE_ORDER.length);
    expect(suiteRank("/tmp/km/faults/card-lost-reversible/pagination.test.ts")).toBe(SUITE_ORDER.length);
  });
});

// harness/http/undici-lean.ts loads three undici dispatchers without undici's index: they must be undici's own
// classes, with the request API the index would have given them.
import * as undici from "undici";
import { describe, expect, it } from "vitest";
import { Agent, EnvHttpProxyAgent, Pool } from "../../harness/http/undici-lean.js";

describe("undici, loaded lean", () => {
  it("gives undici's own Agent, Pool and EnvHttpProxyAgent, each with request()", () => {
    expect(Agent).toBe(undici.Agent);
    expect(Pool).toBe(undici.Pool);
    expect(EnvHttpProxyAgent).toBe(undici.EnvHttpProxyAgent);
    const agent = new Agent();
    expect(typeof agent.request).toBe("function");
    void agent.close();
  });
});

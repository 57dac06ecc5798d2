// Each legal variant of the reference really changes what the server answers: a variant that changes
// nothing would let the kill matrix's "every variant passes" prove nothing. One probe per variant, each
// looking for the variant's own mark, and the same probe against the plain reference must not find it.
// Probes live in test/variant-probes/ (one file per area, each exporting PROBES).
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Exchange } from "../harness/http/exchange.js";
import { openSession } from "../harness/session/session.js";
import { suiteFileNames } from "../catalogue/test-titles.js";
import { faultCatalogue, variantCatalogue } from "../faults/catalogue.js";
import { startReferenceServer } from "../reference/server.js";
import { variantGroups } from "../faults/variant-groups.js";
import { probeClient, type Probe, type ProbeFn } from "./variant-probes/support.js";

const PROBES: Record<string, ProbeFn> = {};
// The probes of the variants written by hand, and (blind/) those of the variants the blind fault rounds made legal.
for (const folder of ["./variant-probes/", "./variant-probes/blind/"]) {
  const probeDir = new URL(folder, import.meta.url);
  for (const file of readdirSync(probeDir)
    .filter((f) => f.endsWith(".ts") && f !== "support.ts")
    .sort()) {
    const probes = ((await import(new URL(file, probeDir).href)) as { PROBES: Record<string, ProbeFn> }).PROBES;
    for (const [name, probe] of Object.entries(probes)) {
      if (PROBES[name]) throw new Error(`variant probe ${name} is declared twice (test/${folder.slice(2)}${file})`);
      PROBES[name] = probe;
    }
  }
}

async function probeWith(variants: string[]): Promise<Probe & { close(): Promise<void> }> {
  const server = await startReferenceServer({ variants });
  const seen: Exchange[] = [];
  const client = probeClient(server.baseUrl, (e) => void seen.push(e));
  const session = await openSession(client, { apiKey: server.apiKey });
  const send = (method: string, path: string, json?: unknown) =>
    client.request({ method, path, token: session.sessionToken, ...(json === undefined ? {} : { json }) });
  return {
    client,
    session,
    server,
    seen,
    get: (path) => send("GET", path),
    send,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

describe("legal variants of the reference", () => {
  let plain: Awaited<ReturnType<typeof probeWith>>;
  beforeAll(async () => {
    plain = await probeWith([]);
  });
  afterAll(async () => plain?.close());

  it("every variant has a probe, a description and where it is allowed; no name is also a fault's", () => {
    const faults = new Set(faultCatalogue().map((f) => f.name));
    for (const v of variantCatalogue()) {
      expect(PROBES[v.name], `no probe for variant ${v.name}`).toBeDefined();
      expect(v.description.length, v.name).toBeGreaterThan(10);
      expect(v.allowedBy.length, v.name).toBeGreaterThan(3);
      expect(faults.has(v.name), `${v.name} is also a fault's name`).toBe(false);
      for (const suite of v.suites ?? []) expect(suiteFileNames(), `${v.name} scopes unknown suite ${suite}`).toContain(suite);
    }
    expect(Object.keys(PROBES).sort()).toEqual(
      variantCatalogue()
        .map((v) => v.name)
        .sort(),
    );
  });

  it("a variant that plays a fault plays a strict-only one (the default profile passes it, the strict one fails it)", () => {
    const faults = new Map(faultCatalogue().map((f) => [f.name, f]));
    const played = variantCatalogue().filter((v) => v.plays !== undefined);
    expect(played.filter((v) => faults.get(v.plays!)?.target !== "reference-strict").map((v) => v.name)).toEqual([]);
  });

  it("a fault that plays a variant is judged strictly and plays a catalogued variant", () => {
    const variants = new Set(variantCatalogue().map((v) => v.name));
    const playing = faultCatalogue().filter((f) => f.plays !== undefined);
    expect(playing.filter((f) => f.target !== "reference-strict" || !variants.has(f.plays!)).map((f) => f.name)).toEqual([]);
  });

  // The kill matrix clears variants in groups (faults/variant-groups.ts): with the others of its group on, each
  // member still shows its own mark, so no member is hidden by another and the group's pass speaks for each.
  for (const group of variantGroups(variantCatalogue())) {
    const names = group.map((v) => v.name);
    it.skipIf(names.length < 2)(
      `the kill-matrix group ${names.join(" + ")}: each member still shows its mark with the others on`,
      async () => {
        const on = await probeWith(names);
        try {
          const hidden: string[] = [];
          for (const name of names) if (!(await PROBES[name]!(on))) hidden.push(name);
          expect(hidden, `hidden by another member of the group (declare the pair in VARIANT_CONFLICTS)`).toEqual([]);
        } finally {
          await on.close();
        }
      },
    );
  }

  for (const variant of variantCatalogue()) {
    it(`${variant.name}: ${variant.description}`, async () => {
      const probe = PROBES[variant.name]!;
      expect(await probe(plain), `the plain reference already shows the mark of ${variant.name}`).toBe(false);
      const on = await probeWith([variant.name]);
      try {
        expect(await probe(on), `the reference with ${variant.name} on does not show it`).toBe(true);
      } finally {
        await on.close();
      }
    });
  }
});

// Field types every response object shares (banking-api.md "Resources and their fields": ids are integers,
// timestamps strings; wire conventions §2: the provider's timestamp form, checked only with strict).
import { describe, test } from "vitest";
import { failPlain } from "../harness/checks.js";
import { responseItems } from "../harness/envelope.js";
import { LenientLog } from "../harness/lenient.js";
import { useTarget } from "../harness/run/target.js";

const t = useTarget();
const from = t.profile.sourceAddresses[0];
const PROVIDER_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;

/** Every object inside the Response elements of the lists every user has, with where it came from. */
async function sampleObjects(): Promise<{ where: string; object: Record<string, unknown> }[]> {
  const session = t.primary();
  const found: { where: string; object: Record<string, unknown> }[] = [];
  for (const list of ["/card", "/company", "/certificate-pinned", "/share-invite-monetary-account-response"]) {
    const exchange = await t.client.request({ path: t.userPath(session, list), token: session.sessionToken, from, query: { count: 200 } });
    if (exchange.status !== 200) continue; // whether each list works is its own suite's business
    for (const item of responseItems(exchange.json) ?? []) {
      for (const inner of Object.values(item)) {
        if (inner && typeof inner === "object")
          found.push({ where: `GET ${exchange.request.path}`, object: inner as Record<string, unknown> });
      }
    }
  }
  return found;
}

function* fields(value: unknown, path: string): Generator<[string, string, unknown]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* fields(item, `${path}/${i}`);
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      yield [`${path}/${key}`, key, inner];
      yield* fields(inner, `${path}/${key}`);
    }
  }
}

// Independent: reads only.
describe.concurrent("common field types", () => {
  test("ERR-012 in every object of every list, id fields are integers and created and updated are strings", async ({ skip }) => {
    const objects = await sampleObjects();
    skip(objects.length === 0, "no list answered with objects to inspect");
    for (const { where, object } of objects) {
      for (const [path, key, value] of fields(object, "")) {
        if (key === "id" && !Number.isInteger(value))
          failPlain({ req: "ERR-012", what: where }, `expected ${path} to be an integer, got ${JSON.stringify(value)}`);
        if ((key === "created" || key === "updated") && typeof value !== "string")
          failPlain({ req: "ERR-012", what: where }, `expected ${path} to be a string, got ${JSON.stringify(value)}`);
      }
    }
  });

  test("ERR-013 timestamps are strings; strict: in the provider's form YYYY-MM-DD HH:MM:SS.ffffff", async ({ annotate }) => {
    const log = new LenientLog(t.profile.strict);
    for (const { where, object } of await sampleObjects()) {
      for (const [path, key, value] of fields(object, "")) {
        if ((key !== "created" && key !== "updated") || typeof value !== "string" || PROVIDER_TIMESTAMP.test(value)) continue;
        log.note(
          { req: "ERR-013", what: where },
          `${path.replace(/\/\d+/g, "/*")} is not in the provider's timestamp form (e.g. ${JSON.stringify(value)})`,
          "YYYY-MM-DD HH:MM:SS.ffffff in UTC",
        );
      }
    }
    await log.report(annotate);
  });
});

#!/usr/bin/env node
// Entry point: TypeScript sources run through tsx, so the package needs no build step.
import { register } from "tsx/esm/api";
import { startClientKeyPair } from "./early-keys.js";

// Dependencies load natively before the TypeScript loader is registered: through its thread, each of an ES module
// package's hundreds of modules costs a round trip (vitest's node API: 0.4 s natively, 1.4 s through the loader). The
// CLI's own modules load the first few for any command; vitest's API only for the commands that start vitest. A
// CommonJS package costs the loader one round trip whatever its size (its own requires are native): fastify is left to
// the embedded reference's first start, so a run against a remote target does not load it (0.07 s sooner at its
// preflight; no slower against the reference). ajv is required (natively) only where a validator must be compiled,
// which kept code mostly spares (harness/ajv.ts).
// Colour only on a terminal: piped logs (CI, `| tee`) stay plain unless the caller asks (FORCE_COLOR). Set before any
// module loads: colour libraries (vitest's among them) decide when they are first imported, and workers inherit it.
if (!process.stdout.isTTY && process.env.FORCE_COLOR === undefined && process.env.NO_COLOR === undefined) process.env.NO_COLOR = "1";
const command = process.argv[2] ?? "";
const startsVitest = ["run", "rerun", "kill-matrix", "list"].includes(command);
startClientKeyPair(command);
await Promise.all(
  [
    "undici",
    "yaml",
    "allure-js-commons",
    ...(startsVitest ? ["vitest/node", "allure-vitest/reporter"] : []),
    ...(command === "serve" ? ["fastify"] : []),
  ].map((name) => import(name)),
);
register();
// A reader that stops early (`conformance faults | head`) is not an error of ours.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});
const { main } = await import("../cli/main.ts");
const code = await main(process.argv.slice(2));
// Target servers may keep sockets open; the verdict is known, so leave now, once what was
// written to a pipe has drained (an early exit would cut long output such as `list --json`).
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write("", resolve))));
process.exit(code);

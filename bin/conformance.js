#!/usr/bin/env node
// Entry point: TypeScript sources run through tsx, so the package needs no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
const code = await main(process.argv.slice(2));
// Target servers keep sockets open; the verdict is known, so leave now.
process.exit(code);

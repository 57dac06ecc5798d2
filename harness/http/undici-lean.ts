import { createRequire } from "node:module";
import type * as Undici from "undici";

/**
 * The three undici dispatchers the client uses, loaded without undici's index: that one also loads fetch,
 * WebSocket, the mocks and the caches, about 380 ms in every test worker thread (the kill matrix starts hundreds
 * of them); these files and the request API take about 70 ms. undici is pinned in package.json, and
 * test/harness/undici-lean.test.ts checks that these are undici's own classes with its request API.
 */
const require = createRequire(import.meta.url);
const Dispatcher = require("undici/lib/dispatcher/dispatcher.js") as { prototype: object };
// What undici's index does: the request/stream/pipeline API lives on every dispatcher.
Object.assign(Dispatcher.prototype, require("undici/lib/api/index.js") as object);

export const Agent = require("undici/lib/dispatcher/agent.js") as typeof Undici.Agent;
export const Pool = require("undici/lib/dispatcher/pool.js") as typeof Undici.Pool;
export const EnvHttpProxyAgent = require("undici/lib/dispatcher/env-http-proxy-agent.js") as typeof Undici.EnvHttpProxyAgent;
export type Agent = Undici.Agent;
export type Pool = Undici.Pool;
export type EnvHttpProxyAgent = Undici.EnvHttpProxyAgent;
export type Dispatcher = Undici.Dispatcher;

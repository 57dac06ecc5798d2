import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { stringify } from "yaml";
import { ConfigError } from "../../harness/profile/config-error.js";
import { REQUIRE_SIGNATURES, type RequireSignatures } from "../../reference/signing.js";
import { integerFlag, parseFlags } from "../args.js";

/**
 * conformance serve [--port N] [--host H] [--header-prefix P] [--api-key K] [--fault NAME…] [--variant NAME…]
 *   [--sign-responses] [--require-signatures [session-server|all]] [--list-items N]
 * The last two speak the provider's signing dialect (reference/signing.ts; docs/offline-sandbox.md).
 */
export async function serveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("serve", withOptionalValue(args, "--require-signatures", "session-server"), {
    port: { type: "string", short: "p" },
    host: { type: "string" },
    "header-prefix": { type: "string" },
    "api-key": { type: "string" },
    fault: { type: "string", multiple: true },
    variant: { type: "string", multiple: true },
    "sign-responses": { type: "boolean" },
    "require-signatures": { type: "string" },
    "write-profile": { type: "string" },
    "list-items": { type: "string" },
  });
  if (positionals.length > 0) throw new ConfigError(`conformance serve: unexpected argument "${positionals[0]}"`);
  const port = integerFlag("serve", "port", values.port) ?? 8080;
  const listItems = integerFlag("serve", "list-items", values["list-items"]);
  if (listItems !== undefined && (listItems < 0 || listItems > 1000))
    throw new ConfigError(`conformance serve: --list-items must be between 0 and 1000, got ${listItems}`);
  if (port < 0 || port > 65535) throw new ConfigError(`conformance serve: --port must be between 0 and 65535, got ${port}`);
  const faults = [
    ...(values.fault ?? []),
    ...(process.env.FAULTS ?? "")
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean),
  ];
  const prefix = values["header-prefix"];
  if (prefix !== undefined && !/^[A-Za-z][A-Za-z0-9-]*-$/.test(prefix)) {
    throw new ConfigError(`conformance serve: --header-prefix must end in "-" (e.g. X-Bunq-), got "${prefix}"`);
  }
  const required = values["require-signatures"] ?? "off";
  if (!(REQUIRE_SIGNATURES as readonly string[]).includes(required)) {
    throw new ConfigError(`conformance serve: --require-signatures expects session-server or all, got "${required}"`);
  }
  const { faultCatalogue, variantCatalogue } = await import("../../faults/catalogue.js");
  const { startReferenceServer } = await import("../../reference/server.js");
  const variants = values.variant ?? [];
  const badVariant = variants.find((v) => !variantCatalogue().some((c) => c.name === v));
  if (badVariant) throw new ConfigError(`conformance serve: unknown variant "${badVariant}" (see: conformance variants)`);
  const names = new Set(faultCatalogue().map((f) => f.name));
  const bad = faults.find((f) => !names.has(f));
  if (bad) throw new ConfigError(`conformance serve: unknown fault "${bad}" (see: conformance faults)`);
  let server;
  try {
    server = await startReferenceServer({
      port,
      host: values.host ?? "127.0.0.1",
      faults,
      variants,
      apiKey: values["api-key"] ?? "reference-primary-key",
      ...(listItems === undefined ? {} : { listItems }),
      ...(prefix ? { headerPrefix: prefix } : {}),
      signResponses: values["sign-responses"] ?? false,
      requireSignatures: required as RequireSignatures,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new ConfigError(`conformance serve: port ${port} is already in use`);
    if (code === "EACCES") throw new ConfigError(`conformance serve: no permission to listen on port ${port}`);
    throw error;
  }
  if (values["write-profile"] !== undefined) {
    const file = resolve(values["write-profile"]);
    writeFileSync(file, profileFor(server.baseUrl, server.apiKey, server.fixtures, prefix ?? "X-Service-"));
    process.stderr.write(`wrote ${file}: npx conformance run --targets ${file} --target local\n`);
  }
  // First line: one JSON object, so scripts can start the server and read where it is.
  process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, apiKey: server.apiKey, fixtures: server.fixtures })}\n`);
  process.stdout.write(
    `Reference server at ${server.baseUrl}\n  API key: ${server.apiKey}\n  fixtures: ${JSON.stringify(server.fixtures)}\n` +
      `${faults.length > 0 ? `  faults on: ${faults.join(", ")}\n` : ""}` +
      `${variants.length > 0 ? `  variants on: ${variants.join(", ")}\n` : ""}` +
      `${signingLine(prefix ?? "X-Service-", values["sign-responses"] ?? false, required)}` +
      `  fresh users: POST ${server.baseUrl}/sandbox-user-person\n  Ctrl-C to stop.\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close();
  return 0;
}

/** A ready targets file for this server: the `local` profile with its address, key and fixtures. */
function profileFor(baseUrl: string, apiKey: string, fixtures: object, headerPrefix: string): string {
  const profile = {
    description: `Reference server started with conformance serve (${baseUrl})`,
    baseUrl,
    apiKey,
    ...(headerPrefix === "X-Service-" ? {} : { headerPrefix }),
    provisioning: "sandbox-user",
    // A third address for the lock-out checks: a lock-out may hold for the caller's address, whatever the key.
    sourceAddresses: ["127.0.0.1", "127.0.0.2", "127.0.0.3"],
    allowDestructive: true,
    capabilities: { ideal: true, pdfAttachments: true },
    encryption: true,
    fixtures,
  };
  return (
    "# Written by conformance serve --write-profile; the server keeps its data in memory, so rewrite it after a restart.\n" +
    stringify({ default: "local", targets: { local: profile } })
  );
}

/** `--flag` given without a value (last, or followed by another flag) gets `fallback`: parseArgs has no optional values. */
function withOptionalValue(args: string[], flag: string, fallback: string): string[] {
  return args.flatMap((arg, i) =>
    arg === flag && (i === args.length - 1 || args[i + 1]!.startsWith("-")) ? [`${flag}=${fallback}`] : [arg],
  );
}

function signingLine(prefix: string, signResponses: boolean, required: string): string {
  const parts = [
    ...(signResponses ? [`every answer carries ${prefix}Server-Signature`] : []),
    ...(required === "session-server" ? [`POST /session-server needs ${prefix}Client-Signature`] : []),
    ...(required === "all" ? [`every request with a body needs ${prefix}Client-Signature`] : []),
  ];
  return parts.length > 0 ? `  signing: ${parts.join("; ")}\n` : "";
}

// The provider's signing dialect (wire conventions §3, "Request signing"; the provider's published rules):
// RSA PKCS#1 v1.5 with SHA-256 over the exact body bytes, base64, in <prefix>Client-Signature (requests,
// made with the key the client installed) and <prefix>Server-Signature (responses, made with the key
// POST /installation hands out). Off unless the server is started with the options below.
import { createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { badRequest, unauthorized } from "./http-error.js";
import type { ReferenceContext } from "./module.js";
import { serverKey } from "./server-key.js";

/** Which requests must carry a valid client signature. */
export type RequireSignatures = "off" | "session-server" | "all";
export const REQUIRE_SIGNATURES: readonly RequireSignatures[] = ["off", "session-server", "all"];

export interface SigningOptions {
  /** Every response carries <prefix>Server-Signature over its exact body bytes. */
  signResponses?: boolean;
  /**
   * "session-server": POST /session-server must be signed (the provider's rule); "all": also every other
   * request with a body that is made with an installation or session token; "off" (default): nothing is checked.
   */
  requireSignatures?: RequireSignatures;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The request body exactly as received (set by the body parsers in server.ts), for signature checks. */
    rawBody?: Buffer;
  }
}

/** The body bytes of a reply payload as Fastify is about to send them (undefined: a stream, not signed). */
function payloadBytes(payload: unknown): Buffer | undefined {
  if (payload === null || payload === undefined) return Buffer.alloc(0);
  if (typeof payload === "string") return Buffer.from(payload, "utf8");
  if (Buffer.isBuffer(payload)) return payload;
  return undefined;
}

/** The fault's "different body": the same JSON, indented. */
function reserialised(body: Buffer): Buffer {
  try {
    return Buffer.from(JSON.stringify(JSON.parse(body.toString("utf8")), null, 2), "utf8");
  } catch {
    return Buffer.concat([body, Buffer.from("\n")]);
  }
}

export function registerSigning(app: FastifyInstance, ctx: ReferenceContext, options: SigningOptions): void {
  const { faults, variants, state } = ctx;
  const required = options.requireSignatures ?? "off";
  const clientHeader = ctx.header("Client-Signature").toLowerCase();
  app.decorateRequest("rawBody", undefined);

  // The client's installed key for this request: installation token, or session → device → installation.
  const keyCache = new Map<string, KeyObject>();
  const keyOf = (pem: string): KeyObject | undefined => {
    let key = keyCache.get(pem);
    if (!key) {
      try {
        key = createPublicKey(pem);
      } catch {
        return undefined;
      }
      keyCache.set(pem, key);
    }
    return key;
  };
  const installedPem = (request: FastifyRequest): string | undefined => {
    if (request.installationToken) return state.installations.get(request.installationToken)?.publicKeyPem;
    const device = request.session ? state.devices.get(request.session.deviceId) : undefined;
    return device ? state.installations.get(device.installationToken)?.publicKeyPem : undefined;
  };
  const mustBeSigned = (request: FastifyRequest): boolean => {
    // Variant client-signature-checked-when-sent: a signature that is sent is verified, even where none is required.
    if (variants.on("client-signature-checked-when-sent") && typeof request.headers[clientHeader] === "string") return true;
    if (required === "off") return false;
    if (request.method === "POST" && request.routeOptions.url === "/v1/session-server") return true;
    // "all": every other request with a body whose caller has an installed key (not POST /installation).
    return (
      required === "all" && (request.rawBody?.length ?? 0) > 0 && (request.installationToken !== undefined || request.session !== undefined)
    );
  };

  // After the body is parsed and the token checked (auth-hook.ts, onRequest): the caller's key is known.
  app.addHook("preHandler", async (request) => {
    if (!mustBeSigned(request)) return;
    const name = ctx.header("Client-Signature");
    const signature = request.headers[clientHeader];
    if (typeof signature !== "string" || signature === "") {
      // HDR-013 is LENIENT: variant client-signature-optional serves an unsigned call (the fault fails strict only).
      if (faults.on("request-signature-not-required") || variants.on("client-signature-optional")) return;
      throw badRequest(`The request signature header ${name} is missing.`);
    }
    // HDR-014 is LENIENT: variant client-signature-presence-only does not verify (the fault fails strict only).
    if (faults.on("tampered-request-signature-accepted") || variants.on("client-signature-presence-only")) return;
    const body = request.rawBody ?? Buffer.alloc(0);
    const bytes = Buffer.from(signature, "base64");
    const pems = faults.on("request-signature-any-installed-key")
      ? [...state.installations.values()].map((i) => i.publicKeyPem)
      : [installedPem(request)];
    const valid = pems.some((pem) => {
      const key = pem ? keyOf(pem) : undefined;
      try {
        return key !== undefined && verify("sha256", body, key, bytes);
      } catch {
        return false;
      }
    });
    if (!valid) {
      if (installedPem(request) === undefined) throw unauthorized("No installed client key to verify the request signature with.");
      throw badRequest(`The request signature (${name}) does not match the request body and the installed client key.`);
    }
  });

  app.addHook("onSend", async (_request, reply: FastifyReply, payload) => {
    // The provider labels JSON "application/json" without parameters (RFC 8259 defines no charset); some
    // clients compare the header exactly before they verify the body.
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && /^application\/json;\s*charset=utf-8$/i.test(type)) reply.header("content-type", "application/json");
    if (!options.signResponses) return payload;
    if (reply.statusCode >= 400 && faults.on("error-answers-unsigned")) return payload;
    const body = payloadBytes(payload);
    if (body === undefined) return payload;
    const signed = faults.on("server-signs-other-body") ? reserialised(body) : body;
    // Fault server-signature-sha1: the digest name copied from the encryption HMAC (SHA-1), not SHA-256.
    const digest = faults.on("server-signature-sha1") ? "sha1" : "sha256";
    reply.header(ctx.header("Server-Signature"), sign(digest, signed, serverKey().privateKey).toString("base64"));
    return payload;
  });
}

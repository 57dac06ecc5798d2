import type { ClientOptions } from "./client.js";
import type { KeyPair } from "../session/keys.js";
import type { TargetProfile } from "../profile/profile.js";
import { workerShare } from "./rate-limit.js";
import { tlsConnectOptions } from "./tls.js";

/**
 * The client settings a profile asks for, in one place for the global setup and the test workers:
 * time and size limits, read-only guard, this worker's share of the rate limit, TLS and proxy use, and
 * request signing with the run's client key where the profile asks for it (signing.requests).
 */
export function profileClientOptions(
  profile: TargetProfile & { baseUrl: string },
  extra: Partial<ClientOptions> = {},
  clientKey?: KeyPair,
): ClientOptions {
  const rate = workerShare(profile.rateLimit?.requestsPerSecond, profile.workers);
  const tls = tlsConnectOptions(profile.tls);
  return {
    baseUrl: profile.baseUrl,
    headerPrefix: profile.headerPrefix,
    userAgent: profile.userAgent,
    requestMs: profile.timeouts.requestMs,
    maxResponseBytes: profile.maxResponseBytes,
    mode: profile.mode,
    retries: profile.retries,
    maxTransportErrors: profile.maxTransportErrors,
    ...(profile.rateLimit ? { rateLimit: { ...profile.rateLimit, ...(rate === undefined ? {} : { requestsPerSecond: rate }) } } : {}),
    ...(tls ? { tls } : {}),
    // The embedded reference is this process's own loopback server: never through a proxy.
    proxy: profile.embedded ? "none" : "env",
    ...(profile.signing?.requests && clientKey ? { signingKey: clientKey.privateKeyPem } : {}),
    ...extra,
  };
}

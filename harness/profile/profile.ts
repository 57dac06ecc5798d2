import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createRequire } from "node:module";
import { createAjv, keptValidators, type ErrorObject } from "../ajv.js";
import { ConfigError } from "./config-error.js";
import { interpolateEnv } from "./interpolate.js";
import { processWide } from "../run/process-wide.js";
import { RATE_LIMIT_DEFAULTS, type RateLimitOptions } from "../http/rate-limit.js";
import { fileProblem, loadTlsFiles, type TlsFiles } from "../http/tls.js";
import { SUITE_VERSION } from "../version.js";

export interface Fixtures {
  monetaryAccountId?: number;
  oauthClientId?: number;
  challengeRequestIds?: number[];
  featureAnnouncementIds?: number[];
}

interface Capabilities {
  ideal?: boolean;
  pdfAttachments?: boolean;
}

/** The provider's signing dialect (wire conventions §3): what the harness signs and what the suite verifies. */
interface Signing {
  /** Sign every request body (<prefix>Client-Signature); the signatures suite checks refusals. */
  requests: boolean;
  /** The signatures suite checks <prefix>Server-Signature on a sample of answers. */
  verifyResponses: boolean;
}

/**
 * Values the target chooses for request-body fields whose allowed values the specification does not show
 * (spec/gaps.md GAP-02, GAP-35): every body the suite sends carries these. A refusal of a default the
 * profile did not set is not blamed on the target (the check is skipped and says which field to set).
 */
export interface BodyValues {
  /** Company legal_form (default BV). */
  companyLegalForm: string;
  /** Company subscription_type (default COMPANY_V2). */
  companySubscriptionType: string;
  /** Company country: the first for creates, the second for the update that changes it (default NL, BE). */
  companyCountries: [string, string];
  /** Category status, an active one (default ACTIVE). */
  categoryStatus: string;
}

export const BODY_VALUE_DEFAULTS: BodyValues = {
  companyLegalForm: "BV",
  companySubscriptionType: "COMPANY_V2",
  companyCountries: ["NL", "BE"],
  categoryStatus: "ACTIVE",
};

/** A target profile with every default applied: what the harness and the suites work with. */
export interface TargetProfile {
  name: string;
  description?: string;
  embedded: boolean;
  baseUrl?: string;
  headerPrefix: string;
  userAgent: string;
  apiKey?: string;
  secondaryApiKey?: string;
  /** Keys of throw-away users that checks may lock out (IP binding); each is used up by one check. */
  spareApiKeys: string[];
  provisioning: "none" | "sandbox-user";
  sourceAddresses: string[];
  fixtures: Fixtures;
  /** `fixtures: discover`: the ids come from the target's sandbox-only GET /user/{userID}/sandbox-fixtures. */
  discoverFixtures?: boolean;
  mode: "full" | "read-only";
  allowDestructive: boolean;
  strict: boolean;
  capabilities: Capabilities;
  conventionsOff: string[];
  timeouts: { requestMs: number; testMs: number };
  maxResponseBytes: number;
  propertyRuns: number;
  /**
   * How many at once: tests of a file marked concurrent (vitest's maxConcurrency), runs of a property that each use
   * their own fresh user, and a check's independent requests (suites/support/concurrent-property.ts).
   */
  concurrency: number;
  seed?: number;
  faults: string[];
  /** Embedded targets: legal variants of the reference switched on (faults/variants.ts, switched in reference/variants.ts). */
  variants: string[];
  /** Request pacing and 429 handling (defaults applied: no pacing, Retry-After up to 10 s, 3 retries). */
  rateLimit?: RateLimitOptions;
  /** How often a safe request (GET, the session bootstrap) is retried after a dropped connection or a 502/503/504 (default 2). */
  retries: number;
  /** Requests in a row that got no answer after which the run sends nothing more and marks the rest not run (default 10; 0: never). */
  maxTransportErrors: number;
  /** Values the target chooses for body fields the specification leaves open (defaults applied). */
  bodyValues: BodyValues;
  /** The bodyValues keys the profile sets itself (a refusal of one of those is the target's). */
  bodyValuesGiven: (keyof BodyValues)[];
  /** Request signing and response verification (defaults applied: both off). */
  signing?: Signing;
  /** The target takes the provider's request encryption (harness/http/encryption.ts); default false. */
  encryption: boolean;
  /** TLS files (absolute paths, checked at load) for an https:// target. */
  tls?: TlsFiles;
  /** Set by the run, not the file: how many test workers share rateLimit.requestsPerSecond. */
  workers?: number;
}

export interface TargetsFile {
  file: string;
  defaultName?: string;
  profiles: Record<string, TargetProfile>;
}

const SCHEMA_FILE = new URL("../../schemas/targets.schema.json", import.meta.url);

export const PROFILE_DEFAULTS = {
  headerPrefix: "X-Service-",
  userAgent: `banking-api-conformance/${SUITE_VERSION}`,
  provisioning: "none",
  mode: "full",
  allowDestructive: false,
  strict: false,
  requestMs: 10_000,
  testMs: 60_000,
  maxResponseBytes: 5 * 1024 * 1024,
  propertyRuns: 25,
  concurrency: 8,
  retries: 2,
  maxTransportErrors: 10,
} as const;

function validate(data: unknown): ErrorObject[] {
  // Compiled once per thread: the kill matrix's global setups load a profile for each of hundreds of projects.
  const validator = processWide(`targets-schema:${SCHEMA_FILE.href}`, () => {
    const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as Record<string, unknown>;
    const key = String(schema.$id);
    // Kept code: compiling took a tenth of a second of every command's start, before the preflight.
    return keptValidators([{ schema, key }], { verbose: true })?.get(key) ?? createAjv({ verbose: true }).compile(schema);
  });
  return validator(data) ? [] : [...(validator.errors ?? [])];
}

/**
 * Whether the run may make fresh users (POST /sandbox-user-person): the profile provisions them and may write. Where
 * it cannot, every write of the run lands on the primary user's data.
 */
export function provisionsUsers(profile: Pick<TargetProfile, "provisioning" | "mode">): boolean {
  return profile.provisioning === "sandbox-user" && profile.mode === "full";
}

/** Which targets file to read: --targets, else CONFORMANCE_TARGETS, else ./targets.yaml. */
export function targetsFilePath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return resolve(cwd, flag ?? env.CONFORMANCE_TARGETS ?? "targets.yaml");
}

export function loadTargetsFile(file: string, env: NodeJS.ProcessEnv = process.env): TargetsFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the targets file (${fileProblem(error)})`);
  }
  let raw: unknown;
  try {
    // Required here, not imported: test workers load this module for its defaults and never read a targets file.
    const { parse } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
    raw = parse(text, { prettyErrors: false });
  } catch (error) {
    // yaml's errors carry where they are: name the line and column, as an editor would (file:line:col).
    const offset = (error as { pos?: [number, number] }).pos?.[0];
    const before = offset === undefined ? undefined : text.slice(0, offset).split("\n");
    const linePos = before ? { line: before.length, col: before.at(-1)!.length + 1 } : undefined;
    const message = (error as Error).message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new ConfigError(
      `${file}${linePos ? `:${linePos.line}:${linePos.col}` : ""}: not valid ` +
        `YAML${linePos ? ` (line ${linePos.line}, column ${linePos.col})` : ""}: ${message}`,
    );
  }
  if (raw === null || raw === undefined) throw new ConfigError(`${file}: the file is empty; expected "default:" and "targets:"`);
  // Interpolate first, so the values the schema checks are the ones the run will use.
  const where = (path: string[]) => {
    if (path[0] === "targets" && path.length >= 2) {
      return `${file}: profile "${path[1]}"${path.length > 2 ? `: field "${path.slice(2).join(".")}"` : ""}`;
    }
    return `${file}: field "${path.join(".")}"`;
  };
  raw = interpolateEnv(raw, env, where);
  const errors = validate(raw);
  if (errors.length > 0) throw new ConfigError(`${file}: ${describeSchemaError(pickError(errors), raw)}`);
  const parsed = raw as { default?: string; targets: Record<string, Record<string, unknown>> };
  if (parsed.default !== undefined && !(parsed.default in parsed.targets)) {
    throw new ConfigError(
      `${file}: field "default": names profile "${parsed.default}", which is not under "targets" (have: ` +
        `${Object.keys(parsed.targets).join(", ")})`,
    );
  }
  const profiles: Record<string, TargetProfile> = {};
  for (const [name, rawProfile] of Object.entries(parsed.targets)) profiles[name] = withDefaults(name, rawProfile, file);
  return { file, defaultName: parsed.default, profiles };
}

export function selectProfile(targets: TargetsFile, name: string | undefined): TargetProfile {
  const chosen = name ?? targets.defaultName;
  if (chosen === undefined) {
    const names = Object.keys(targets.profiles);
    if (names.length === 1) return targets.profiles[names[0]!]!;
    throw new ConfigError(`${targets.file}: no --target given and no "default:" profile (have: ${names.join(", ")})`);
  }
  const profile = targets.profiles[chosen];
  if (!profile) {
    throw new ConfigError(`${targets.file}: no profile named "${chosen}" (have: ${Object.keys(targets.profiles).join(", ")})`);
  }
  return profile;
}

function withDefaults(name: string, raw: Record<string, unknown>, file: string): TargetProfile {
  const p = raw as Omit<Partial<TargetProfile>, "rateLimit" | "signing" | "bodyValues" | "fixtures"> & {
    fixtures?: Fixtures | "discover";
    bodyValues?: Partial<BodyValues>;
    timeouts?: Partial<TargetProfile["timeouts"]>;
    rateLimit?: Partial<RateLimitOptions>;
    signing?: Partial<Signing>;
  };
  if (!p.embedded && p.baseUrl === undefined) {
    throw new ConfigError(`${file}: profile "${name}": field "baseUrl": required unless "embedded: true" (expected a URL ending in /v1)`);
  }
  if (!p.embedded && p.apiKey === undefined) {
    throw new ConfigError(`${file}: profile "${name}": field "apiKey": required unless "embedded: true"`);
  }
  if (p.tls !== undefined && (p.embedded || !p.baseUrl?.startsWith("https://"))) {
    throw new ConfigError(
      `${file}: profile "${name}": field "tls": TLS settings need an https:// baseUrl (got ` +
        `${p.embedded ? "an embedded target" : p.baseUrl})`,
    );
  }
  if (p.faults !== undefined && p.faults.length > 0 && !p.embedded) {
    throw new ConfigError(`${file}: profile "${name}": field "faults": only an embedded target can have reference faults switched on`);
  }
  if (p.variants !== undefined && p.variants.length > 0 && !p.embedded) {
    throw new ConfigError(`${file}: profile "${name}": field "variants": only an embedded target can have reference variants switched on`);
  }
  return {
    name,
    description: p.description,
    embedded: p.embedded ?? false,
    baseUrl: p.baseUrl,
    headerPrefix: p.headerPrefix ?? PROFILE_DEFAULTS.headerPrefix,
    userAgent: p.userAgent ?? PROFILE_DEFAULTS.userAgent,
    apiKey: p.apiKey,
    secondaryApiKey: p.secondaryApiKey,
    spareApiKeys: p.spareApiKeys ?? [],
    provisioning: p.provisioning ?? PROFILE_DEFAULTS.provisioning,
    sourceAddresses: p.sourceAddresses ?? [],
    fixtures: p.fixtures === undefined || p.fixtures === "discover" ? {} : p.fixtures,
    ...(p.fixtures === "discover" ? { discoverFixtures: true } : {}),
    mode: p.mode ?? PROFILE_DEFAULTS.mode,
    allowDestructive: p.allowDestructive ?? PROFILE_DEFAULTS.allowDestructive,
    strict: p.strict ?? PROFILE_DEFAULTS.strict,
    capabilities: p.capabilities ?? {},
    conventionsOff: p.conventionsOff ?? [],
    timeouts: {
      requestMs: p.timeouts?.requestMs ?? PROFILE_DEFAULTS.requestMs,
      testMs: p.timeouts?.testMs ?? PROFILE_DEFAULTS.testMs,
    },
    maxResponseBytes: p.maxResponseBytes ?? PROFILE_DEFAULTS.maxResponseBytes,
    propertyRuns: p.propertyRuns ?? PROFILE_DEFAULTS.propertyRuns,
    concurrency: p.concurrency ?? PROFILE_DEFAULTS.concurrency,
    seed: p.seed,
    faults: p.faults ?? [],
    variants: p.variants ?? [],
    rateLimit: {
      ...(p.rateLimit?.requestsPerSecond === undefined ? {} : { requestsPerSecond: p.rateLimit.requestsPerSecond }),
      maxRetryAfterMs: p.rateLimit?.maxRetryAfterMs ?? RATE_LIMIT_DEFAULTS.maxRetryAfterMs,
      maxRetries: p.rateLimit?.maxRetries ?? RATE_LIMIT_DEFAULTS.maxRetries,
    },
    retries: p.retries ?? PROFILE_DEFAULTS.retries,
    maxTransportErrors: p.maxTransportErrors ?? PROFILE_DEFAULTS.maxTransportErrors,
    signing: { requests: p.signing?.requests ?? false, verifyResponses: p.signing?.verifyResponses ?? false },
    encryption: p.encryption ?? false,
    bodyValues: { ...BODY_VALUE_DEFAULTS, ...p.bodyValues },
    bodyValuesGiven: Object.keys(p.bodyValues ?? {}) as (keyof BodyValues)[],
    ...(p.tls === undefined ? {} : { tls: loadTlsFiles(p.tls, file, `${file}: profile "${name}"`) }),
  };
}

/** The most specific error: deepest path first, and "additionalProperties"/"required" over the anyOf noise. */
function pickError(errors: ErrorObject[]): ErrorObject {
  const ranked = [...errors].sort((a, b) => depth(b) - depth(a) || rank(a) - rank(b));
  return ranked[0]!;
}
const depth = (e: ErrorObject) =>
  e.instancePath.split("/").length + (e.keyword === "additionalProperties" || e.keyword === "required" ? 1 : 0);
const rank = (e: ErrorObject) => (e.keyword === "anyOf" ? 2 : e.keyword === "format" ? 1 : 0);

function describeSchemaError(error: ErrorObject, data: unknown): string {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  let prefix = "";
  let fieldPath = segments;
  if (segments[0] === "targets" && segments.length >= 2) {
    prefix = `profile "${segments[1]}": `;
    fieldPath = segments.slice(2);
  }
  const params = error.params as Record<string, unknown>;
  const field = (extra?: string) => {
    const parts = extra === undefined ? fieldPath : [...fieldPath, extra];
    return parts.length > 0 ? `field "${parts.join(".")}"` : "top level";
  };
  const got = JSON.stringify(valueAt(data, segments));
  switch (error.keyword) {
    case "additionalProperties":
      return `${prefix}${field(String(params.additionalProperty))}: unknown field (allowed here: ${allowedKeys(error)})`;
    case "required":
      return `${prefix}${field(String(params.missingProperty))}: required field is missing`;
    case "type":
      return `${prefix}${field()}: expected ${String(params.type)}, got ${got}`;
    case "enum":
      return (
        `${prefix}${field()}: expected one of ` +
        `${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}, got ${got}`
      );
    case "pattern":
      return `${prefix}${field()}: ${patternHint(fieldPath)}, got ${got}`;
    case "minimum":
      return `${prefix}${field()}: expected a number >= ${String(params.limit)}, got ${got}`;
    case "anyOf":
    case "format":
      return `${prefix}${field()}: expected an IPv4 or IPv6 address, got ${got}`;
    case "uniqueItems":
      return `${prefix}${field()}: expected no duplicate entries, got ${got}`;
    case "propertyNames":
      return `${prefix}${field()}: profile names may use letters, digits, ".", "_" and "-" only`;
    default:
      return `${prefix}${field()}: ${error.message ?? "is invalid"}, got ${got}`;
  }
}

function patternHint(path: string[]): string {
  const last = path[path.length - 1];
  if (last === "baseUrl") return "expected an http(s) URL ending in /v1";
  if (last === "headerPrefix") return 'expected a header-name prefix ending in "-" (e.g. "X-Service-")';
  return "expected a requirement ID like HDR-003";
}

function allowedKeys(error: ErrorObject): string {
  const schema = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(schema?.properties ?? {}).join(", ");
}

function valueAt(data: unknown, path: string[]): unknown {
  let current = data;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The profile with secrets replaced, for `conformance targets` and reports. */
export function maskProfile(profile: TargetProfile): Record<string, unknown> {
  const mask = (s: string | undefined) => (s === undefined ? undefined : `${"*".repeat(4)}${s.length > 8 ? s.slice(-4) : ""}`);
  return {
    ...profile,
    apiKey: mask(profile.apiKey),
    secondaryApiKey: mask(profile.secondaryApiKey),
    spareApiKeys: profile.spareApiKeys.map((key) => mask(key)!),
  };
}

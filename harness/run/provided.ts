import type { TargetProfile } from "../profile/profile.js";
import type { KeyPair } from "../session/keys.js";
import type { Session } from "../session/session.js";

/** What the global setup hands every test file (vitest provide/inject): plain, serialisable data. */
export interface ConformanceRun {
  /** The profile, with baseUrl, apiKey and fixtures filled in for embedded targets. */
  profile: TargetProfile & { baseUrl: string };
  /** The primary user's shared session, opened from sourceAddresses[0]. */
  primary?: Session;
  /** Why the primary session could not be opened: every check then fails with this message. */
  bootstrapError?: string;
  /**
   * How it failed, typed: "unreachable" when the target gave no usable answer (a TransportError), "bootstrap" when
   * it answered and refused. Checks that needed the session carry it into the report (harness/run/target.ts).
   */
  bootstrapFailure?: "unreachable" | "bootstrap";
  /** The second user's session (secondaryApiKey or a provisioned user). */
  secondary?: Session;
  secondaryError?: string;
  /** fast-check seed for this run (profile seed, --seed, or drawn at start and reported). */
  seed: number;
  /** The client's RSA key pair for installations (made once per run). */
  clientKey: KeyPair;
  /** The target keeps one installation per client key: each installation gets a key pair of its own (session/keys.ts). */
  keyPerInstallation?: true;
  /** Where this run writes its reports. */
  reportsDir: string;
  /** `fixtures: discover` found nothing: why (skip messages for missing fixtures add it). */
  fixturesProblem?: string;
  /** Log every exchange to <reportsDir>/exchanges.ndjson (a vendor's run; not the kill matrix's fault and variant projects). */
  logExchanges?: boolean;
}

declare module "vitest" {
  export interface ProvidedContext {
    conformance: ConformanceRun;
    /** The run writes Allure results (provided by its reporter, report/reporters/allure-reporter.ts): else nothing is attached. */
    allure: boolean;
  }
}

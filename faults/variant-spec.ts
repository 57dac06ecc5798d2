/**
 * A legal variant is the mirror of a fault: a behaviour the specification or the conventions allow but
 * the reference does not show by default (another 4XX, descending pages, ids that restart per user, …).
 * The kill matrix runs the whole suite against the reference with each one on and requires zero failures:
 * a check that fails a conformant server is as bad as one that misses a fault.
 */
export interface VariantSpec {
  /** kebab-case name used with --variant. */
  name: string;
  /** What the server does differently, in one sentence. */
  description: string;
  /** Where the specification or the conventions allow it (section, GAP id). */
  allowedBy: string;
  /**
   * The LENIENT requirements (and "any 4XX" rules) whose other reading this variant plays; the catalogue
   * self-test requires every LENIENT requirement to be named by at least one variant.
   */
  requirements?: readonly string[];
  /**
   * The suites whose answers the variant can change (suites/<name>.test.ts without .test.ts): the kill matrix
   * runs only those with it on. Absent: every suite (cross-cutting variants: envelope, ids, transport, auth).
   */
  suites?: readonly string[];
  /**
   * A strict-only fault (FaultSpec.target "reference-strict") whose behaviour this variant switches on unchanged: the
   * readers found no sentence against it, so the strict profile must fail it and the default one pass it.
   */
  plays?: string;
}

/**
 * Suites that read every resource (object-level checks, error sweeps, list rules, envelopes, versions): a
 * resource's variant is run against them and its own suites. A variant that reaches further declares no scope.
 */
const EVERY_RESOURCE = [
  "authorisation",
  "errors",
  "error-bodies",
  "envelope",
  "pagination",
  "list-sizes",
  "versioning",
  "headers",
] as const;
const CARD_SUITES = ["cards", "card-state-machine", "card-replacement", "pin-code", "authentication", "signatures"] as const;

export const VARIANT_SCOPE = {
  cards: [...CARD_SUITES, ...EVERY_RESOURCE],
  replacement: ["card-replacement", "cards", ...EVERY_RESOURCE],
  companies: ["companies", ...EVERY_RESOURCE],
  categories: ["categories", ...EVERY_RESOURCE],
  companiesAndCategories: ["companies", "categories", ...EVERY_RESOURCE],
  attachments: ["attachments", ...EVERY_RESOURCE],
  announcements: ["feature-announcements", ...EVERY_RESOURCE],
  announcementsAndAttachments: ["feature-announcements", "attachments", ...EVERY_RESOURCE],
  certificates: ["certificate-pinned", ...EVERY_RESOURCE],
  shares: ["share-invites", ...EVERY_RESOURCE],
  challenges: ["challenge-requests", ...EVERY_RESOURCE],
  resources: ["attachments", "certificate-pinned", "oauth-callback-urls", "share-invites", "challenge-requests", ...EVERY_RESOURCE],
  versioning: ["versioning", ...EVERY_RESOURCE],
} as const satisfies Record<string, readonly string[]>;

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
  requirements?: string[];
}

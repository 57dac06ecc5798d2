/** A requirement ID of spec/requirements.yaml (CARD-010, AUTH-002, …). */
export type RequirementId = `${Uppercase<string>}-${number}`;

/**
 * A fault breaks exactly one rule of the specification or the conventions, so the project's own
 * tests can prove the suite notices. Each area declares its faults `as const` in a file of faults/
 * (faults/catalogue.ts joins the lists and makes FaultName of them); the reference switches them at named seams.
 */
export interface FaultSpec<Name extends string = string> {
  /** kebab-case name used with --fault. */
  name: Name;
  /** The requirement ID this fault breaks (spec/requirements.yaml). */
  requirement: string;
  /** What the faulty server does, in one sentence. */
  description: string;
  /** Suites (file names under suites/ without .test.ts) whose checks can see this fault. */
  suites: string[];
  /**
   * The target profile the kill matrix runs this fault against (default: "reference"), for faults that
   * only show where a profile switches something on (signing: "reference-signed").
   */
  target?: string;
  /**
   * Only checks on fresh users can see this fault (they skip where the target provisions none): a kill matrix under a
   * profile without provisioning reports it as not checked rather than as a survivor.
   */
  freshUsers?: true;
  /**
   * A legal variant whose behaviour this fault switches on unchanged, judged under the strict profile (target
   * "reference-strict"): the reading is noted by default and failed by strict, and this proves strict fails it.
   */
  plays?: string;
}

/** The options of a fault only checks on fresh users can see (FaultSpec.freshUsers). */
export const FRESH_USERS = { freshUsers: true } as const;
/** The options of a fault that breaks only a first reading: the kill matrix runs it against the strict profile. */
export const STRICT_ONLY = { target: "reference-strict" } as const;

/**
 * Declares one fault: `fault("card-lost-reactivable", "CARD-015", "A LOST card can be set ACTIVE again.", CARD_SUITES)`.
 * The name's literal type is kept, so a module's `[fault(…), …] as const` list feeds FaultName.
 */
export function fault<Name extends string>(
  name: Name,
  requirement: RequirementId,
  description: string,
  suites: readonly string[],
  options: { target?: string; freshUsers?: true; plays?: string } = {},
): FaultSpec<Name> {
  return {
    name,
    requirement,
    description,
    suites: [...suites],
    ...(options.target === undefined ? {} : { target: options.target }),
    ...(options.freshUsers ? { freshUsers: true as const } : {}),
    ...(options.plays === undefined ? {} : { plays: options.plays }),
  };
}

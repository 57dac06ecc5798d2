import type { FaultName, VariantName } from "./catalogue.js";

/** A requirement ID of spec/requirements.yaml (CARD-010, AUTH-002, …). */
export type RequirementId = `${Uppercase<string>}-${number}`;

/**
 * A fault breaks exactly one rule of the specification or the conventions, so the project's own
 * tests can prove the suite notices. Each module declares the faults it can switch on, `as const`,
 * beside the code they switch (reference/faults/catalogue.ts joins the lists and makes FaultName of them).
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
}

/**
 * Declares one fault: `fault("card-lost-reactivable", "CARD-015", "A LOST card can be set ACTIVE again.", CARD_SUITES)`.
 * The name's literal type is kept, so a module's `[fault(…), …] as const` list feeds FaultName.
 */
export function fault<Name extends string>(
  name: Name,
  requirement: RequirementId,
  description: string,
  suites: readonly string[],
  options: { target?: string } = {},
): FaultSpec<Name> {
  return { name, requirement, description, suites: [...suites], ...(options.target === undefined ? {} : { target: options.target }) };
}

/** The switches that are on, by name: `ctx.faults.on("card-lost-reactivable")`, `ctx.variants.on("pages-descending")`. */
export class Switches<Name extends string> {
  private readonly active: ReadonlySet<string>;
  /** Names are checked against the catalogue by the caller (buildReferenceServer). */
  constructor(names: Iterable<string>) {
    this.active = new Set(names);
  }
  /** True when the named switch is on. */
  on(name: Name): boolean {
    return this.active.has(name);
  }
  /** True when any of the named switches is on. */
  any(...names: Name[]): boolean {
    return names.some((name) => this.active.has(name));
  }
  list(): string[] {
    return [...this.active];
  }
}

/** The faults switched on (ctx.faults): only catalogued fault names compile. */
export type FaultSet = Switches<FaultName>;
/** The legal variants switched on (ctx.variants): only catalogued variant names compile. */
export type VariantSet = Switches<VariantName>;

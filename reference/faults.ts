/**
 * A fault breaks exactly one rule of the specification or the conventions, so the project's own
 * tests can prove the suite notices. Each resource module declares the faults it can switch on.
 */
export interface FaultSpec {
  /** kebab-case name used with --fault. */
  name: string;
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

export class FaultSet {
  private readonly active: ReadonlySet<string>;
  constructor(names: Iterable<string>) {
    this.active = new Set(names);
  }
  /** True when the named fault is switched on. */
  on(name: string): boolean {
    return this.active.has(name);
  }
  list(): string[] {
    return [...this.active];
  }
}

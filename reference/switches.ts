import type { FaultName, VariantName } from "../faults/catalogue.js";

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

// What a run uses up of the target's own data where it cannot make fresh users: cards moved to a permanent state,
// cards replaced (billed after the first free one of the year), keys locked out, share invites answered. Each check
// records what it consumed in its test's metadata; summary.json carries it per test and conformance.md lists it.
import { currentTest } from "./run/test-scope.js";

export type ConsumedKind = "card made permanent" | "card replaced" | "key locked out" | "share invite answered";

/** One thing a check used up of the target's data: its kind and which (ids, never secrets). */
export interface Consumption {
  kind: ConsumedKind;
  what: string;
}

declare module "vitest" {
  interface TaskMeta {
    /** What this test used up of the target's own data (harness/consumption.ts). */
    consumed?: Consumption[];
  }
}

/** Records that the running test used something up; fresh users' data is theirs to spend and is not recorded. */
export function recordConsumed(kind: ConsumedKind, what: string): void {
  const test = currentTest();
  if (!test) return;
  const list = (test.meta.consumed ??= []);
  if (!list.some((c) => c.kind === kind && c.what === what)) list.push({ kind, what });
}

/**
 * What each consuming check may use up at most where the target provisions no users (by the requirement its title
 * leads with): `conformance run --plan` adds these up for a selection without sending anything. Keep in step with the
 * checks (test/consumption-plan.test.ts compares a run's records with it).
 */
export const PLANNED_CONSUMPTION: Readonly<Record<string, { kind: ConsumedKind; upTo: number }>> = {};

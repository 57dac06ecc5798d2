// What a run uses up of the target's own data where it cannot make fresh users: cards moved to a permanent state,
// cards replaced (billed after the first free one of the year), keys locked out, share invites answered. Each check
// records what it consumed in its test's metadata; summary.json carries it per test and conformance.md lists it.
import { currentTest } from "./run/test-scope.js";

export type ConsumedKind = "card made permanent" | "card replaced" | "spare key used up" | "share invite answered";

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
 * What the checks led by each requirement may use up at most, together, where the target provisions no users:
 * `conformance run --plan` adds these up for a selection without sending anything. Kept in step with the checks by
 * test/safety/no-factory.test.ts, which compares a run's records with it.
 */
export const PLANNED_CONSUMPTION: Readonly<Record<string, { kind: ConsumedKind; upTo: number }>> = {
  // Cards made LOST, STOLEN or CANCELLED: row 2 of the state table from each order status it lists (the last card
  // of each kind is kept back), the refusals out of a permanent state (cards already permanent serve first), the
  // write-only cancellation_reason.
  "CARD-014": { kind: "card made permanent", upTo: 15 },
  "CARD-015": { kind: "card made permanent", upTo: 6 },
  "CARD-024": { kind: "card made permanent", upTo: 1 },
  "CARD-033": { kind: "card made permanent", upTo: 1 },
  // Replacements (billed after the first free one of the year).
  "ERR-003": { kind: "card replaced", upTo: 1 },
  "REPL-001": { kind: "card replaced", upTo: 1 },
  "REPL-002": { kind: "card replaced", upTo: 1 },
  "REPL-008": { kind: "card replaced", upTo: 2 },
  "REPL-014": { kind: "card replaced", upTo: 1 },
  "REPL-017": { kind: "card replaced", upTo: 3 },
  // Keys bound for good or locked out (spareApiKeys): the lock-out and the empty permitted_ips, two addresses.
  "AUTH-012": { kind: "spare key used up", upTo: 2 },
  "AUTH-013": { kind: "spare key used up", upTo: 1 },
  // Invitations answered for good.
  "SHARE-001": { kind: "share invite answered", upTo: 2 },
  "SHARE-006": { kind: "share invite answered", upTo: 1 },
  "SHARE-007": { kind: "share invite answered", upTo: 1 },
  "SHARE-008": { kind: "share invite answered", upTo: 1 },
  "SHARE-010": { kind: "share invite answered", upTo: 1 },
  "SHARE-012": { kind: "share invite answered", upTo: 1 },
};

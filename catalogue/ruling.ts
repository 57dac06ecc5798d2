// The blind ruling of a requirement (spec/rulings.md): two readers who saw only banking-api.md and
// wire-conventions.md, never the suite, each said whether a sentence states the constraint the case's
// behaviour breaks. The level follows from the two verdicts alone; this is the one place that says how.
import type { Level } from "./requirements.js";

type SpecFile = "banking-api.md" | "wire-conventions.md";

export interface Verdict {
  verdict: "STATED" | "OPEN";
  in?: SpecFile;
  quote: string;
}

export interface Ruling {
  date: string;
  /** The case put to both readers: "Server: <behaviour>. Suite wants: <demand>." */
  asked: string;
  /** The requirement's statement when it was ruled (a changed statement is ruled again). */
  statement: string;
  certifier: Verdict;
  vendor: Verdict;
}

/**
 * MUST where both readers find the constraint stated in banking-api.md; CONVENTION where both find it stated
 * and a deciding sentence is in wire-conventions.md; LENIENT where they split or both find it open.
 */
export function levelOfRuling(ruling: Pick<Ruling, "certifier" | "vendor">): Level {
  const both = [ruling.certifier, ruling.vendor];
  if (!both.every((v) => v.verdict === "STATED")) return "LENIENT";
  return both.every((v) => v.in === "banking-api.md") ? "MUST" : "CONVENTION";
}

// How to replay one failure alone: a rerun command (same target, seed, faults, exact title) and a curl line
// for the failing exchange, secrets as $ENV placeholders, so an engineer can paste either into a shell.
import type { LoggedExchange } from "../harness/run/exchange-log.js";

/** Written by every run: how to run the same target, seed and reference switches again (conformance rerun). */
export const RERUN_FILE = "rerun.json";

export interface RerunContext {
  target: string;
  /** --targets as the caller gave it (absent: the default lookup finds the same file again). */
  targetsFlag?: string;
  seed: number | null;
  faults: string[];
  variants: string[];
}

/** A POSIX shell word: single-quoted, with ' written as '\''. */
function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `npx conformance run cards --target staging --seed 42 --test '<title>'` */
export function rerunCommand(context: RerunContext, suite: string, title: string): string {
  const words = ["npx", "conformance", "run", suite, "--target", context.target];
  if (context.targetsFlag !== undefined) words.push("--targets", context.targetsFlag);
  if (context.seed !== null) words.push("--seed", String(context.seed));
  for (const fault of context.faults) words.push("--fault", fault);
  for (const variant of context.variants) words.push("--variant", variant);
  words.push("--test", title);
  return words.map(shellQuote).join(" ");
}

/** Redaction marks and the variables a reader sets instead. */
const PLACEHOLDERS: [RegExp, string][] = [
  [/«session token»/g, "$CONFORMANCE_SESSION_TOKEN"],
  [/«installation token»/g, "$CONFORMANCE_INSTALLATION_TOKEN"],
  [/«api key»/g, "$CONFORMANCE_API_KEY"],
  [/«redacted private key»/g, "$CONFORMANCE_PRIVATE_KEY"],
  [/«[^»]*»/g, "$CONFORMANCE_SECRET"],
];

/** A double-quoted shell word in which the redaction marks become $VARIABLES and nothing else expands. */
function withVariables(text: string): string {
  let out = text.replace(/[\\"$`]/g, (c) => `\\${c}`);
  for (const [mark, variable] of PLACEHOLDERS) out = out.replace(mark, variable);
  return `"${out}"`;
}

const word = (text: string) => (/«[^»]*»/.test(text) ? withVariables(text) : shellQuote(text));

/** The exchange as a curl command; headers curl sets itself are left out. */
export function curlCommand(e: LoggedExchange): string {
  const parts = ["curl", "-sS", "-i", "-X", e.method, word(e.url)];
  if (e.from) parts.push("--interface", e.from);
  for (const [name, value] of Object.entries(e.requestHeaders)) {
    if (/^(content-length|host|connection)$/i.test(name)) continue;
    // The authentication header is redacted by name: its value is whichever token the call used.
    const shown = /client-authentication$/i.test(name) && value === "«redacted»" ? "«session token»" : value;
    parts.push("-H", word(`${name}: ${shown}`));
  }
  if (e.requestBody !== undefined) {
    if (/^«\d+ bytes/.test(e.requestBody)) parts.push("--data-binary", "@FILE");
    else parts.push("--data-binary", word(e.requestBody));
  }
  return parts.join(" ");
}

import { ConfigError } from "../../harness/profile/config-error.js";
import { parseFlags } from "../args.js";
import { runPreflight, stepLines } from "../preflight.js";
import { resolveTarget } from "../targets-resolve.js";

export const DOCTOR_HELP = `conformance doctor [--target NAME] [--targets FILE]
  The preflight on its own: the target answers under /v1 (TLS included), the profile's keys open sessions,
  every source address binds, the fixtures exist and belong to the primary user, provisioning works.
  Exit 0 when all is well, 2 when the profile is wrong, 1 when the target is unreachable or breaks a rule.`;

export async function doctorCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("doctor", args, { target: { type: "string", short: "t" }, targets: { type: "string" } });
  if (positionals.length > 0)
    throw new ConfigError(`conformance doctor: unexpected argument "${positionals[0]}" (see: conformance doctor --help)`);
  const { profile } = resolveTarget("doctor", values);
  let stop: (() => Promise<void>) | undefined;
  let target = profile;
  if (profile.embedded) {
    const { startReferenceServer } = await import("../../reference/server.js");
    const server = await startReferenceServer({ faults: profile.faults, variants: profile.variants, headerPrefix: profile.headerPrefix });
    stop = server.close;
    target = { ...profile, baseUrl: server.baseUrl, apiKey: server.apiKey, fixtures: { ...server.fixtures, ...profile.fixtures } };
  }
  try {
    const result = await runPreflight({ ...target, baseUrl: target.baseUrl! });
    process.stdout.write(`preflight of target ${profile.name}${profile.embedded ? " (embedded reference)" : ` (${target.baseUrl})`}\n`);
    for (const step of result.steps) process.stdout.write(`${stepLines(step).join("\n")}\n`);
    if (result.blocking?.kind === "config") return 2;
    return result.steps.every((s) => s.ok) ? 0 : 1;
  } finally {
    await stop?.();
  }
}

import { HttpClient } from "../harness/http/client.js";
import { profileClientOptions } from "../harness/http/client-options.js";
import { sharedKeyPair } from "../harness/session/keys.js";
import { preflight, type PreflightResult, type PreflightStep } from "../harness/session/preflight.js";
import type { TargetProfile } from "../harness/profile/profile.js";
import { redactText } from "../harness/redact.js";

/** The preflight against a profile's target (the CLI's own client: nothing is recorded). */
export async function runPreflight(profile: TargetProfile & { baseUrl: string }): Promise<PreflightResult> {
  const key = await sharedKeyPair();
  const client = new HttpClient(profileClientOptions({ ...profile, workers: 1 }, {}, key));
  try {
    return await preflight(profile, client);
  } finally {
    await client.close();
  }
}

/** "✗ problem\n    hint: …", secrets redacted. */
export function stepLines(step: PreflightStep): string[] {
  if (step.ok) return [`✓ ${step.check}`];
  return [redactText(`✗ ${step.problem ?? step.check}`), ...(step.hint ? [`    hint: ${step.hint}`] : [])];
}

/**
 * Skips for optional parts of the API the profile says the target does not offer (a capability, request
 * signing, request encryption): the verdict counts them as not applicable rather than as unchecked. Their reasons
 * start with this, so they read the same everywhere.
 */
export const NOT_APPLICABLE = "not applicable:";

/** The skip reason for an optional part the profile says the target does not offer. */
export const notApplicable = (reason: string): string => `${NOT_APPLICABLE} ${reason}`;

/**
 * Whether a skip's reason is a not-applicable one. Asked once, by the harness, as a check skips
 * (harness/setup/setup-requirements.ts records it typed in the test's metadata); the reports read that record, never the
 * reason's words. (Reasons are worded by the harness: SKIP in harness/run/target.ts, ENCRYPTION_OFF in harness/http/encryption.ts.)
 */
export const isNotApplicable = (reason: string | undefined): boolean => reason?.startsWith(NOT_APPLICABLE) === true;

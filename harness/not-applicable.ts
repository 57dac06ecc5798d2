/**
 * Skips for optional parts of the API the profile says the target does not offer (a capability, request
 * signing) start with this: the verdict counts them as not applicable rather than as unchecked.
 */
export const NOT_APPLICABLE = "not applicable:";

/**
 * "paused", with what paused it when that is more than a pause asked for: "paused (exhaustion)", "paused (timeout)".
 * A pause asked for (by a person, a hook) says its reason after it instead; so does a usage limit's, whose reason
 * ("usage limit, resets at ...") says the limit already.
 */
export const pausedBy = (trigger: string | null | undefined): string =>
  trigger && trigger !== 'pause' && trigger !== 'usage_limit' ? `paused (${trigger})` : 'paused';

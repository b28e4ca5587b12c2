/**
 * "paused", with what paused it when that is more than a pause asked for: "paused (exhaustion)", "paused (timeout)".
 * A pause asked for (by a person, a hook, a usage limit) says its reason after it instead.
 */
export const pausedBy = (trigger: string | null | undefined): string =>
  trigger && trigger !== 'pause' ? `paused (${trigger})` : 'paused';

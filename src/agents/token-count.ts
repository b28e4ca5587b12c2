import { z } from 'zod';

/**
 * A token count as an agent writes it: a number, never negative, kept whole (a fraction some writer left is rounded:
 * every figure Baton stores from it is a whole number of tokens).
 */
export const tokenCount = z
  .number()
  .nonnegative()
  .transform((n) => Math.round(n));

/** A count that may be missing; one that is not a number (a capture's "<USAGE>") reads as missing. */
export const optionalTokenCount = tokenCount.optional().catch(undefined);

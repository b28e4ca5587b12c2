import type { Context, MiddlewareHandler } from 'hono';
import { invalidInput } from '../../core/index.js';
import { IdentityHeader } from '../api/request-schemas.js';

/** Runs `work` for the person whose git identity is `identity` (BatonService.askedBy). */
export type AskedByRun = <T>(identity: string | null, work: () => T) => T;

/**
 * The git identity of the person asking, from X-Baton-Identity (the CLI sends its own, percent-encoded; empty: none is
 * set where they are); undefined without the header (the dashboard, a CLI older than it).
 */
export function identityOf(c: Context): string | null | undefined {
  const raw = c.req.header('x-baton-identity');
  if (raw === undefined) return undefined;
  let decoded: string | null;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = null;
  }
  const parsed = decoded === null ? null : IdentityHeader.safeParse(decoded);
  if (!parsed?.success) {
    const message = parsed?.error.issues[0]?.message ?? 'is not percent-encoded';
    throw invalidInput(`header X-Baton-Identity ${message} (a git email, percent-encoded; empty: none)`, {
      issues: [{ path: 'header.X-Baton-Identity', message }],
    });
  }
  return parsed.data === '' ? null : parsed.data;
}

/**
 * Whose work is whose, for a request, is told by the person asking (X-Baton-Identity): on a server a team shares,
 * each person's CLI is answered as them (the workflow `current` means in their clone, whose clone a pause or a
 * checkpoint reads git state from), not as the identity the server runs under. Without the header, as the server sees
 * the worktrees.
 */
export function identityHeader(askedBy: AskedByRun): MiddlewareHandler {
  return async (c, next) => {
    const identity = identityOf(c);
    if (identity === undefined) return next();
    await askedBy(identity, () => next());
  };
}

import type { MiddlewareHandler } from 'hono';
import { invalidInput } from '../../core/index.js';
import { ActorHeader } from '../api/request-schemas.js';

/** Runs `work` with `actor` acting in every command it runs (CommandRunner.actingAs). */
export type ActingAs = <T>(actor: string, work: () => T) => T;

/**
 * Who acts in what a request changes: the X-Baton-Actor a client names (the CLI sends the actor it would act as on a
 * database of its own: a person's `user`, an agent's hooks the agent, `--actor`), else the server's. A command that
 * names its own actor still does (records read from an agent's transcript are the agent's).
 */
export function actorHeader(actingAs: ActingAs): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.header('x-baton-actor');
    if (raw === undefined) return next();
    const parsed = ActorHeader.safeParse(raw);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'is invalid';
      throw invalidInput(`header X-Baton-Actor ${message} (as --actor and BATON_ACTOR are)`, {
        issues: [{ path: 'header.X-Baton-Actor', message }],
      });
    }
    await actingAs(parsed.data, () => next());
  };
}

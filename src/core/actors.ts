/**
 * Who acts in the event log (each event's `actor`, and the run folder's `events/<actor>/`): a person's command is
 * `user`, what Baton does driving agents (`baton run`, `baton worker`) is `baton`, and what an agent does (its hooks,
 * what it reports while Baton runs it, the `baton` commands it runs in a task) is the agent's, by its name. `--actor`
 * (BATON_ACTOR) names another.
 */
export const USER_ACTOR = 'user';
export const BATON_ACTOR = 'baton';

/** What an actor's name may hold (it names a folder of the run folder too). */
export const ACTOR_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The actor of an agent: its name (`claude-code`, `codex`, a profile's), made to fit ACTOR_PATTERN. */
export function agentActor(name: string): string {
  const fit = name
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return fit || 'agent';
}

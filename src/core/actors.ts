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

/** The agent that writes each transcript format (src/agents/transcript-types.ts names the formats). */
const writerOf = new Map<string, string>([
  ['claude-code-transcript', 'claude-code'],
  ['claude-code-stream-json', 'claude-code'],
  ['codex-rollout', 'codex'],
  ['codex-exec-json', 'codex'],
]);

/**
 * Who acts in the records read from an agent's words (a transcript imported, its task list among them, the output
 * of an agent `baton run` drove): the agent who wrote them, whoever reads them, so the history never gives a person
 * the agent's decisions, commits, errors and tasks. `writer`: the run's agent (its profile's name, as its live output is recorded); else the agent
 * whose format the transcript is in. Null when neither is known (a format of no agent Baton knows): the reader's.
 */
export function readFromActor(read: { format?: string | null; writer?: string | null }): string | null {
  if (read.writer) return agentActor(read.writer);
  return (read.format && writerOf.get(read.format)) || null;
}

import { teammateGoesOn, type Teammate } from './owner-words.js';
import type { ResumeResult } from './types.js';

/** What a resume of a workflow an agent's hooks follow does: the server starts no agent; the agent goes on with it. */
export const hookedResume =
  'no agent is started here: the next prompt or session of the agent whose hooks follow it goes on with it';

/**
 * What a resume started, for its toast: the session, the workers' queue when it went back there, and the command
 * that runs a workflow `baton run` drives, which nothing runs until then (the server starts no agent on a resume); of
 * a workflow an agent's hooks follow (`hooked`), that the agent's next prompt or session goes on with it; of a
 * teammate's (`teammate`), whose it is and where it goes on: their agent, in their worktree.
 */
export function resumedWords(r: ResumeResult, hooked = false, teammate: Teammate | null = null): string {
  const queued = r.requeued ? ', queued again for the workers' : '';
  const next = r.next_step?.command
    ? `; nothing runs it until \`${r.next_step.command}\``
    : hooked && !teammate
      ? `; ${hookedResume}`
      : '';
  const theirs = teammate ? `; not yours: ${teammateGoesOn(teammate)}` : '';
  return `session ${r.session_number} started${queued}${next}${theirs}`;
}

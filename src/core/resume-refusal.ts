import { z } from 'zod';
import { agentLabel } from './agent-label.js';
import { followingAgent, followingAgents } from './agent-turn.js';
import { WorkflowStatus } from './schemas/workflow.js';
import type { WorkflowState } from './schemas/state.js';
import { importedAtRest } from './runtime/run-driven.js';
import { cliWord } from './surface-words.js';

/**
 * Why a workflow that is not stopped is not resumed, and what goes on with it instead, as data: carried in the
 * refusal's details (`resume_refusal`), so an edge that knows whose the workflow is says it in its own words
 * (`resumeRefusalText` with the owner) without reading the message. `instead`: `next_session` (the hooks follow it: the
 * next session of `agents` in its worktree continues it), `imported` (read in from a transcript by `baton import`, no
 * agent at work on it), `nothing` (in progress, nothing follows it: nothing to resume), `start` (not started), `over`
 * (finished).
 */
export const ResumeRefusal = z.object({
  workflow_id: z.string(),
  status: WorkflowStatus,
  worktree: z.string(),
  instead: z.enum(['next_session', 'imported', 'nothing', 'start', 'over']),
  /** The agents whose next session goes on with it (`nextTakers`), for `next_session`; else null. */
  agents: z.string().nullable(),
});
export type ResumeRefusal = z.infer<typeof ResumeRefusal>;

/**
 * The agents whose next session in the worktree goes on with a workflow the hooks follow, in words: "Codex", or, when
 * conversations of several agents followed it, each ("Codex or Claude Code", the one that follows it now first): any
 * of them may take it up at its next prompt, and which comes first is not known. `baton resume` and every surface
 * that says who goes on with it (`resumability`) name them so.
 */
export const nextTakers = (s: WorkflowState) => followingAgents(s).map(agentLabel).join(' or ') || 'agent';

/**
 * What to do instead of resuming a workflow that is not stopped: one in progress needs nothing, whether or not an agent
 * is at work in it (its briefing is what a new session gets); a finished one is over. One the hooks follow is not said
 * to run: its agent may have quit, and the agent's next session in the worktree takes it up.
 */
export function resumeRefusal(s: WorkflowState): ResumeRefusal {
  const base = { workflow_id: s.id, status: s.status, worktree: s.worktree };
  if (s.status === 'in_progress' || s.status === 'blocked')
    return followingAgent(s)
      ? { ...base, instead: 'next_session', agents: nextTakers(s) }
      : { ...base, instead: importedAtRest(s) ? 'imported' : 'nothing', agents: null };
  return { ...base, instead: s.status === 'pending' ? 'start' : 'over', agents: null };
}

/**
 * The refusal in words (`action`: `resume`, `recover`...). `owner`: whose the workflow is when it is not the reader's
 * (a teammate's, on a database a team shares), said by an edge that knows the reader: the workflow is named theirs,
 * and so is the worktree its agent goes on in; without it, `the workflow` and `its worktree`.
 */
export function resumeRefusalText(r: ResumeRefusal, action: string, owner: string | null = null): string {
  const what = owner ? `${r.workflow_id} is ${owner}'s and` : 'the workflow is';
  const where = owner ? `${owner}'s worktree` : 'its worktree';
  // a teammate's briefing is read by naming it: without -w, `baton context` here gives the reader's own
  const briefing = owner ? `\`baton context -w ${r.workflow_id}\` prints it` : cliWord('briefing');
  const instead =
    r.instead === 'next_session'
      ? `its agent sessions are followed by hooks: the next ${r.agents ?? 'agent'} session in ${where} ${r.worktree} continues it with its briefing (${briefing}); nothing to resume`
      : r.instead === 'imported'
        ? `it was read in from a transcript (\`baton import\`) and no agent works on it: an agent session in ${where} ${r.worktree} with Baton's hooks (\`baton init\`) goes on with it, or \`baton run -w ${r.workflow_id}\` drives it; nothing to resume`
        : r.instead === 'nothing'
          ? `it is not stopped: nothing to resume (the briefing a new session gets: ${briefing})`
          : r.instead === 'start'
            ? `it has not started: ${cliWord('start')}`
            : 'it is over: a new session starts a new workflow';
  return `cannot ${action}: ${what} ${r.status} (only a paused or interrupted workflow can); ${instead}`;
}

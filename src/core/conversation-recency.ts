import { agentLabel } from './agent-label.js';
import { followingAgent } from './agent-turn.js';
import { clip } from './clip.js';
import type { WorkflowState } from './schemas/state.js';
import type { AgentSessionRef, WorkflowStatus } from './schemas/workflow.js';
import { cliWord } from './surface-words.js';

/**
 * When the agent conversation that follows the workflow was last at work, as its hooks recorded it: the latest start
 * of a Baton session that follows an agent session (SessionStart, a resume), request the user made in one (its
 * prompt's time, however late the transcript was read) or end of an agent's turn (Stop). A person's commands on the
 * workflow (a task moved, a record, `baton status` reading a transcript) leave it as it is: they are not the
 * conversation's. Null when no agent's hooks follow the workflow (made and driven by hand): no recency tells it
 * apart.
 */
export function conversationActiveAt(s: WorkflowState): string | null {
  if (!followingAgent(s)) return null;
  const followed = new Map(s.sessions.flatMap((x) => (x.agent ? [[x.number, x.agent.name] as const] : [])));
  // the agent's sightings of a request (its prompt hook's, its transcript's), not one a person recorded in its session
  const agents = (r: { session_number: number; source: string | null }) => {
    const name = followed.get(r.session_number);
    return name !== undefined && (r.source === name || r.source === `${name}:hook`);
  };
  const times = [
    ...s.sessions.flatMap((x) => (x.agent ? [x.started_at] : [])),
    ...(s.recent_requests ?? []).filter(agents).map((r) => r.at ?? r.timestamp),
    ...(s.turn_ended ? [s.turn_ended.at] : []),
  ]
    .map(Date.parse)
    .filter((t) => !Number.isNaN(t));
  // as times, not strings: a transcript's time may be written with another offset than the hooks' UTC
  return times.length ? new Date(Math.max(...times)).toISOString() : null;
}

/**
 * Another incomplete workflow of the worktree, named beside the one a command without an id took: that one's
 * conversation was at work after this one's (`latestAtWork`).
 */
export interface AlsoOpen {
  id: string;
  title: string;
  status: WorkflowStatus;
  /** The agent conversation it follows (its latest session's); null: none (made by hand). */
  follows: AgentSessionRef | null;
  /** When that conversation was last at work (`conversationActiveAt`); null: no conversation follows it. */
  last_active_at: string | null;
}

export const alsoOpen = (w: WorkflowState): AlsoOpen => ({
  id: w.id,
  title: w.issue?.title ?? w.title,
  status: w.status,
  follows: followingAgent(w) ?? null,
  last_active_at: conversationActiveAt(w),
});

/**
 * Of several incomplete workflows, the one whose conversation was at work last, when each follows one and one was at
 * work after all the others; else null (the choice is the person's: which workflow they work in, no record tells).
 */
export function latestAtWork(ws: readonly WorkflowState[]): WorkflowState | null {
  if (ws.length < 2) return null;
  const at = ws.map((w) => ({ w, at: conversationActiveAt(w) }));
  if (at.some((x) => x.at === null)) return null;
  const [first, second] = [...at].sort((a, b) => ((a.at as string) < (b.at as string) ? 1 : -1));
  return first && second && (first.at as string) > (second.at as string) ? first.w : null;
}

/**
 * The conversation a workflow follows and when it was last at work, said after its name (with a space before):
 * ` (follows Claude Code session <id>, last active <time> UTC)`; empty when none follows it.
 */
export function followsWords(a: Pick<AlsoOpen, 'follows' | 'last_active_at'>): string {
  const when = a.last_active_at ? `, last active ${a.last_active_at.slice(0, 16).replace('T', ' ')} UTC` : '';
  return a.follows ? ` (follows ${agentLabel(a.follows.name)} session ${a.follows.session_id}${when})` : '';
}

/** One other workflow open here, in a line: what it is, the conversation it follows and when, and how to see it. */
export function alsoOpenWords(a: AlsoOpen): string {
  return `${a.id} "${clip(a.title, 80)}"${followsWords(a)}: ${cliWord('status', a.id)}`;
}

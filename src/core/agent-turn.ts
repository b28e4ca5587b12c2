import { lastRequestAnswered } from './commands/finished-work.js';
import { listTotals } from './fold/bounds.js';
import type { WorkflowState } from './schemas/state.js';
import { turnStop } from './turn-stop.js';
import { interruptedTurn } from './interrupted-turn.js';

/**
 * The agent session whose hooks report into the workflow's current Baton session; null when none does (`baton run`
 * drives it, the CLI alone works on it, or it has no session yet).
 */
export const hookedAgent = (s: WorkflowState) => s.sessions.at(-1)?.agent ?? null;

/**
 * The agent whose hooks follow the workflow: the current session's (`hookedAgent`), or, while the latest session is one
 * a person started (`baton resume`, `baton recover`, the dashboard's Resume and Recover) and no agent has reported
 * into, the agent of the latest session one did: its next prompt or session goes on with the work. So also once that
 * session ended (paused again before the agent's next prompt): the workflow is still that agent's, not one made by
 * hand. Null when no agent's hooks ever reported.
 */
export function followingAgent(s: WorkflowState) {
  const cur = s.sessions.at(-1);
  if (cur?.agent || !cur || cur.origin === 'create') return cur?.agent ?? null;
  return s.sessions.findLast((x) => x.agent)?.agent ?? null;
}

/**
 * The agents whose conversations followed the workflow, the one that follows it now (`followingAgent`) first: a
 * conversation that followed it goes on with it at its next prompt, whichever agent's it is (another agent may have
 * taken over from it while its window stayed open), so any of them may take it up next.
 */
export function followingAgents(s: WorkflowState): string[] {
  const now = followingAgent(s)?.name;
  const before = s.sessions.flatMap((x) => (x.agent ? [x.agent.name] : [])).reverse();
  return [...new Set(now ? [now, ...before] : before)];
}

/** A conversation the hooks follow is open on the workflow: its current Baton session follows one and has not ended. */
export function conversationOpen(s: WorkflowState): boolean {
  const cur = s.sessions.at(-1);
  return !!cur?.agent && !cur.ended_at;
}

/** The requests recorded since the last end of an agent's turn a hook reported (all of them when none was). */
export const requestsSinceTurnEnd = (s: WorkflowState) =>
  listTotals(s).requests - (s.turn_ended?.requests ?? 0);

/**
 * Whether the agent's turn on the user's last request is over, as far as Baton saw: a hook reported its end (a
 * Stop, whether or not the last response had words), the agent's last message ended it, or something since explains
 * the stop (a usage limit or an API error, the user's interruption, a StopFailure's or a pause's snapshot). Null when the user asked nothing yet.
 */
export function turnOver(s: WorkflowState): boolean | null {
  const asked = (s.recent_requests ?? []).at(-1);
  if (!asked) return null;
  if (requestsSinceTurnEnd(s) <= 0) return true;
  if (lastRequestAnswered(s) === true || turnStop(s.summaries, asked) !== null) return true;
  // the user cut the turn off (Esc, Ctrl-C): it stopped, and no hook says so
  if (interruptedTurn(s.summaries, asked) !== null) return true;
  const snap = s.last_snapshot;
  return (
    !!snap &&
    ['pause', 'usage_limit', 'api_error', 'timeout', 'crash', 'stopped'].includes(snap.trigger) &&
    Date.parse(snap.created_at) >= Date.parse(asked.at ?? asked.timestamp)
  );
}

/** An agent's turn: the Baton session that follows the agent session, and the agent. */
export interface TurnRef {
  session_number: number;
  agent: string;
}

/**
 * The agent's turn under way, or null: the open session follows an agent session (its hooks), the user asked in it,
 * and that turn is not over (`turnOver`). Asked while it runs, a pause can wait for its end.
 */
export function turnUnderWay(s: WorkflowState): TurnRef | null {
  const cur = s.sessions.at(-1);
  if (!cur?.agent || !conversationOpen(s)) return null;
  const asked = (s.recent_requests ?? []).at(-1);
  if (asked?.session_number !== cur.number || turnOver(s) !== false) return null;
  return { session_number: cur.number, agent: cur.agent.name };
}

import { turnUnderWay } from './agent-turn.js';
import { errorInWords } from './commands/finished-work.js';
import { openErrorsOfState, openErrorsOfWork } from './errors-of-work.js';
import { pauseOverdue, pauseRequestedWords, pauseWaitsFor, type PauseWaits } from './commands/pause.js';
import type { WorkflowState } from './schemas/state.js';
import { limitHolding } from './turn-stop.js';
import { isTerminal } from './workflow-machine.js';

/** An agent gone with no SessionEnd, as a status names it ("Claude Code, session 1"). */
export interface GoneAgentNamed {
  name: string;
  pid: number;
  /** Its turn was under way when it went (no Stop came after the last prompt). */
  cut_off: boolean;
}

/**
 * An agent gone with no SessionEnd: cut off in the middle of its turn, or gone after it. The words `baton status`,
 * `baton context`, `baton recover` and the dashboard's list say it in.
 */
export const goneAgentWords = (a: GoneAgentNamed) =>
  `${a.name} (process ${a.pid}) no longer runs, ${
    a.cut_off
      ? 'cut off in the middle of its turn by a crash or a kill (no Stop came after the last prompt)'
      : 'and no SessionEnd came (a crash, a kill or a quit)'
  }`;

type ErrorWords = Parameters<typeof errorInWords>[0];

/** The open errors in short: how many, and the newest two (`baton status` adds where the rest are). */
export const openErrorsWords = (n: number, newestLast: readonly ErrorWords[]) =>
  `open errors: ${n} (newest: ${newestLast
    .slice(-2)
    .reverse()
    .map((e) => errorInWords(e, 70))
    .join('; ')})`;

/** What of a workflow's status says it waits for its user (the server's status with what the hooks saw). */
export interface NeedsYouStatus {
  workflow: { status: string; pause_requested: boolean; pause_overdue: boolean };
  pause_waits_for: PauseWaits | null;
  usage_limit: string | null;
  /** `open_api_failures`: how many of the open errors are the API failing under the agent, no errors of the work. */
  counts: { open_errors?: number | undefined; open_api_failures?: number | undefined };
  open_errors: readonly (ErrorWords & { api_failure?: string | undefined })[];
  gone_agents: readonly GoneAgentNamed[];
}

/**
 * What a workflow waits for its user to look at, one line each, in `baton status`'s words: a pause still waiting, a
 * usage limit that stopped the agent's last turn (when it lifts), an agent gone (cut off mid-turn), the open errors of
 * the work (a failing test run is one; the API failing under the agent is not). Empty: nothing needs them. The
 * dashboard's list says these on each row.
 */
export function needsYou(s: NeedsYouStatus): string[] {
  const { n, newest } = openErrorsOfWork(s);
  return [
    ...(s.workflow.pause_requested && s.workflow.status !== 'paused'
      ? [`${pauseRequestedWords(s.pause_waits_for)}${s.workflow.pause_overdue ? ', overdue' : ''}`]
      : []),
    ...(s.usage_limit ? [`agent: ${s.usage_limit}`] : []),
    ...s.gone_agents.map((a) => `agent: ${goneAgentWords(a)}`),
    ...(n > 0 ? [openErrorsWords(n, newest)] : []),
  ];
}

/** The agent session each Baton session of a workflow follows, when a hook tied them (a gone agent is named by it). */
export const agentSessionsOf = (s: WorkflowState) =>
  s.sessions.flatMap((x) =>
    x.agent ? [{ session_number: x.number, agent: x.agent.name, session_id: x.agent.session_id }] : [],
  );

/**
 * What the hooks' watch of this machine reads of a workflow to find its agents gone with no SessionEnd (the
 * `goneAgentsOf` of src/integrations/hooks/agent-watch.ts): a status holds it, and so does this, made from the state.
 */
export interface WatchedWorkflow {
  workflow: { id: string; status: string; worktree: string };
  turn_under_way: boolean;
  agent_sessions: { session_number: number; agent: string; session_id: string }[];
}

export const watchedOf = (s: WorkflowState): WatchedWorkflow => ({
  workflow: { id: s.id, status: s.status, worktree: s.worktree },
  turn_under_way: turnUnderWay(s) !== null,
  agent_sessions: agentSessionsOf(s),
});

/**
 * `needsYou` of a workflow from its folded state alone, as its status would say it: the Workflows page asks it of
 * every row at each refresh, so it reads only what these lines need (no snapshots, driver, queue or live state) from
 * the state the list loaded anyway. `agentGone`: the agent its hooks follow is gone (`ServiceOptions.agentGone`);
 * `goneAgents`: those the hooks saw go, named (asked only of a workflow not finished). A finished one needs nothing.
 */
export function needsYouOfState(
  s: WorkflowState,
  o: {
    now: string;
    pauseTimeoutMs: number;
    agentGone: boolean;
    goneAgents?: ((w: WatchedWorkflow) => readonly GoneAgentNamed[]) | undefined;
  },
): string[] {
  if (isTerminal(s.status)) return [];
  return needsYou({
    workflow: {
      status: s.status,
      pause_requested: s.pause_requested,
      pause_overdue: pauseOverdue(s, o.now, o.pauseTimeoutMs).overdue,
    },
    pause_waits_for: pauseWaitsFor(s, o.agentGone),
    usage_limit: limitHolding(s.summaries, s.recent_requests, new Date(o.now)),
    ...openErrorsOfState(s),
    gone_agents: o.goneAgents?.(watchedOf(s)) ?? [],
  });
}

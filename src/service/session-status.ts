import {
  currentTask,
  tasksUnderWay,
  isResumable,
  isTerminal,
  notRunningNote,
  notFound,
  resumability,
  worktreeBranch,
  type NextStep,
  type SessionInfo,
  type WorkflowState,
} from '../core/index.js';
import { agentLabel } from '../core/agent-label.js';
import { followingAgent, turnUnderWay } from '../core/agent-turn.js';
import { importedAtRest, runDriven } from '../core/runtime/run-driven.js';
import type { ExecutorRow } from '../storage/executor-registry.js';

/** Why a session is not running: the session-resumption design's `resume_reason`. */
export type ResumeReason = 'agent_not_running' | 'not_resumable' | 'superseded' | null;

/**
 * Where a session stands: its agent running, the workflow paused or interrupted, open without an agent (none seen: a
 * hand-tracked session, or one no agent has reported into yet), ended.
 */
export type SessionState = 'running' | 'paused' | 'interrupted' | 'open' | 'ended';

/**
 * The session status of the session-resumption design, derived from the folded state and, when Baton runs the
 * session's agent (`baton run`, `baton serve`), from its `executors_running` row: `executor_status`,
 * `agent_execution_id`, `runtime`, `agent_profile_id` and `is_agent_running` (the row's session is running). A
 * session without a row (an agent reporting through hooks or the API) counts as running when it is the workflow's
 * open session and the workflow is in progress (its state said `open` and its note "no agent seen" while no agent has
 * reported into it: nothing is known to run), unless Baton's own driver runs the workflow and none holds it now
 * (`next`: then the note says what goes on with it), or an agent's hooks follow it and no turn of that agent is under
 * way (it was quit, or waits for its user: an older Codex sends no SessionEnd). Whether and how it goes on is what `baton
 * sessions` says at `now` (`resumability`).
 */
export function sessionStatus(
  s: WorkflowState,
  now: string,
  sessionNumber = s.session_count,
  executors: readonly ExecutorRow[] = [],
  agentGone: (row: ExecutorRow) => boolean = () => false,
  /** The session when it is older than the recent sessions the state keeps (from its `session` record). */
  older: SessionInfo | null = null,
  /** What goes on with an in-progress workflow Baton's driver runs, when no driver holds it now (next-step.ts). */
  next: NextStep | null = null,
  /** The agent its hooks follow is gone: its process exited though no SessionEnd came (`ServiceOptions.agentGone`). */
  hookedGone = false,
) {
  const info =
    s.sessions.find((x) => x.number === sessionNumber) ?? (older?.number === sessionNumber ? older : null);
  if (!info)
    throw notFound(`workflow ${s.id} has no session ${sessionNumber} (it has ${s.session_count})`, {
      workflow_id: s.id,
      session_number: sessionNumber,
    });
  const latest = sessionNumber === s.session_count;
  const row = executors.find((r) => r.workflow_id === s.id && r.session_number === sessionNumber) ?? null;
  const open = latest && info.ended_at === null && s.status === 'in_progress';
  // A session the hooks follow is at work while its agent's turn is: after it, its agent was quit or waits for its user;
  // during it, unless its agent's process is gone (cut off in the middle of the turn).
  const cut = !row && open && !!info.agent && hookedGone && turnUnderWay(s) !== null;
  const hooked = !row && open && !!info.agent && (!turnUnderWay(s) || cut);
  // a session a person started (`baton resume`, the dashboard's Resume) on a workflow an agent's hooks follow: it waits
  // for that agent's next prompt or session, which reports into it
  const awaited = !row && open && !info.agent ? followingAgent(s) : null;
  // a transcript read in (`baton import`), its agent gone: nothing runs it, the agent's next session takes it up
  const imported = !row && open && importedAtRest(s);
  // An agent whose process is verifiably gone is never reported running, whatever its row still says; nor is one
  // never launched into the open session of a workflow whose driver is not there to launch it.
  const running = row
    ? open &&
      row.session_state === 'running' &&
      (row.status === 'starting' || row.status === 'ready') &&
      !agentGone(row)
    : open && !next && !hooked && !awaited && !imported;
  const idle = latest && !running ? next : null;
  const goesOn = latest
    ? resumability(s, now, cut)
    : { resumable: false, resume_by: null, continued_by: null };
  const resumable = goesOn.resumable;
  // the session's own task under way, else (for the latest session) one an earlier session started and left
  const underWay = tasksUnderWay(s);
  const current =
    currentTask(underWay.filter((t) => t.session_number === sessionNumber)) ??
    (latest ? currentTask(underWay) : null);
  // counted as running (nothing says it stopped) but with no agent seen: a hand-tracked session, said open, not running
  const unseen = running && !row && !info.agent;
  const state: SessionState = running
    ? unseen
      ? 'open'
      : 'running'
    : latest && isResumable(s.status)
      ? s.status
      : info.ended_at === null && latest
        ? 'open'
        : 'ended';
  // not resumable: the workflow is over, or the agent Baton ran in it cannot resume a session (its executor row says
  // so); else no agent runs it now (a workflow not begun, a hand-tracked one, one its agent left)
  const reason: ResumeReason = running
    ? null
    : !latest
      ? 'superseded'
      : resumable || idle || hooked || awaited || imported
        ? 'agent_not_running'
        : isTerminal(s.status) || (row !== null && !row.supports_session_resume)
          ? 'not_resumable'
          : 'agent_not_running';
  const agent = info.agent ? { name: info.agent.name, session_id: info.agent.session_id } : null;
  // how Baton knows the agent runs: its own process, an agent session a hook reported, or only an open session
  const runningNote = !running
    ? idle
      ? notRunningNote(idle)
      : hooked && agent
        ? `${cut ? `no (${agentLabel(agent.name)} session ${agent.session_id}: its process is gone, cut off in the middle of its turn)` : `no turn under way (${agentLabel(agent.name)} session ${agent.session_id}: quit, or waiting for its user)`}${goesOn.continued_by ? `; ${goesOn.continued_by} goes on with it` : ''}`
        : awaited
          ? `no (no ${agentLabel(awaited.name)} session has reported into it yet)${goesOn.continued_by ? `; ${goesOn.continued_by} goes on with it` : ''}`
          : imported
            ? `no (an imported session, which no agent works on)${goesOn.continued_by ? `; ${goesOn.continued_by} goes on with it` : ''}`
            : 'no'
    : row
      ? // a running row that carries a reason: the last process that looked could not check its agent
        row.error_message
        ? `unknown (${row.error_message})`
        : 'yes'
      : agent
        ? `yes (${agentLabel(agent.name)} session ${agent.session_id}, reported by its hooks)`
        : `no agent seen (none has reported into this open session; ${current ? `${current.id} in progress` : 'no task in progress'})`;
  return {
    session_id: `${s.id}#${sessionNumber}`,
    workflow_id: s.id,
    session_number: sessionNumber,
    task_id: current?.id ?? null,
    workflow_status: s.status,
    state,
    origin: info.origin,
    started_at: info.started_at,
    ended_at: info.ended_at,
    end_reason: info.end_reason,
    snapshot_id: info.snapshot_id,
    tasks_done: info.tasks_done,
    tasks_total: s.tasks.length,
    agent_profile_id: row?.agent ?? null,
    executor_status: row?.status ?? null,
    agent_execution_id: row?.execution_id ?? null,
    runtime: row?.runtime ?? null,
    /**
     * An agent is known to run it: never a hand-tracked session (`unseen`, of a workflow Baton's driver does not run),
     * which is open (nothing to resume, no resume reason) but runs no agent, as its note and the dashboard say.
     */
    is_agent_running: running && !(unseen && !runDriven(s)),
    /** Whether the agent runs, said with how Baton knows ("yes (Codex session ..., reported by its hooks)"). */
    agent_running_note: runningNote,
    /** The agent session a hook tied to this one (its name and id), null when none reported itself. */
    agent_session: agent,
    is_resumable: resumable,
    /** A resume is what it needs (`baton resume`, the dashboard's Resume), not the agent's next session. */
    needs_resume: !running && goesOn.resume_by === 'resume',
    resume_by: goesOn.resume_by,
    continued_by: goesOn.continued_by,
    resume_reason: reason,
    worktree_path: s.worktree,
    worktree_branch: worktreeBranch(s),
  };
}
export type SessionStatus = ReturnType<typeof sessionStatus>;

/**
 * Every session of a workflow, oldest first: the dashboard's session timeline. `older` are the sessions the state no
 * longer holds (from their `session` records); the state's recent ones are newer and current.
 */
export const sessionTimeline = (
  s: WorkflowState,
  now: string,
  executors: readonly ExecutorRow[] = [],
  agentGone: (row: ExecutorRow) => boolean = () => false,
  older: readonly SessionInfo[] = [],
  next: NextStep | null = null,
  /** The agent its hooks follow is gone (`sessionStatus`'s): the timeline judges the open session as its status does. */
  hookedGone = false,
) => {
  const held = new Set(s.sessions.map((x) => x.number));
  const all = [...older.filter((x) => !held.has(x.number)), ...s.sessions];
  return all.map((x) => sessionStatus(s, now, x.number, executors, agentGone, x, next, hookedGone));
};

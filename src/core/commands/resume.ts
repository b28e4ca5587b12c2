import { branchChangeWarning } from '../branch-change.js';
import { counted } from '../counted.js';
import type { Draft } from '../draft.js';
import { invalidInput, invalidTransition } from '../errors.js';
import { shortHash } from '../short-hash.js';
import type { GitCapture, GitState, WorkCommits } from '../schemas/git-state.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import type { TaskStatus } from '../schemas/workflow.js';
import { assertRecoverable } from '../recovery.js';
import { isResumable } from '../workflow-machine.js';
import { followingAgent, turnUnderWay } from '../agent-turn.js';
import { importedAtRest } from '../runtime/run-driven.js';
import { nextTakers, resumeRefusal, resumeRefusalText } from '../resume-refusal.js';
import { finishedWork } from './finished-work.js';
import type { WorkflowState } from '../schemas/state.js';
import { askedBy, type Asker } from '../teammate-act.js';

export interface ResumeInput {
  snapshot: SessionSnapshot | null;
  git: GitCapture;
  /** A pause older than this is warned about (default 7 days). */
  staleAfterMs: number;
  /** The commits HEAD's history gained since the snapshot's HEAD, read from git when HEAD moved. */
  commitsSinceSnapshot?: WorkCommits | null;
  /** The person whose command resumes it (recorded on `workflow.resumed`, `askedBy`); unset: no person. */
  by?: Asker;
}

/** How many of the commits made since the snapshot a warning lists (the newest; the rest are counted). */
const COMMITS_SINCE_LISTED = 10;

/**
 * What HEAD moving since the snapshot brought: the commits made since, newest first, each by its hash and subject
 * on a line of its own (the newest ten, then how many more and the `git log` that lists them); HEAD gone back
 * (it has no commit the snapshot's HEAD had not) said so.
 */
function headMoved(from: string, to: string, since: WorkCommits | null): string {
  const moved = `HEAD moved since the snapshot: ${shortHash(from)} -> ${shortHash(to)}`;
  if (!since) return moved;
  const total = since.listed.length + since.more;
  if (total === 0) return `${moved} (back: it has no commit the snapshot's HEAD had not)`;
  const shown = since.listed.slice(-COMMITS_SINCE_LISTED).reverse();
  const rest = total - shown.length;
  return [
    `${moved}, ${counted(total, 'commit')} since (newest first):`,
    ...shown.map((c) => `  ${shortHash(c.hash)} ${c.subject}`),
    ...(rest ? [`  and ${rest} more (\`git log --oneline ${shortHash(from)}..HEAD\`)`] : []),
  ].join('\n');
}

/**
 * Warnings for a worktree that moved on since the snapshot: branch, HEAD (with the commits made since, when they were
 * read), uncommitted files.
 */
export function gitDivergence(
  before: GitState | null,
  now: GitCapture,
  commitsSince: WorkCommits | null = null,
  snapshotAt = '',
): string[] {
  if (!before) return [];
  if (!now.state) return [`git state cannot be compared: ${now.note ?? 'not a git repository'}`];
  const after = now.state;
  const out: string[] = [];
  if (before.branch !== after.branch)
    out.push(
      branchChangeWarning({ from: before.branch, to: after.branch, since: 'snapshot', at: snapshotAt }),
    );
  if (
    before.commit_at_snapshot &&
    after.commit_at_snapshot &&
    before.commit_at_snapshot !== after.commit_at_snapshot
  ) {
    out.push(headMoved(before.commit_at_snapshot, after.commit_at_snapshot, commitsSince));
  }
  const was = new Set(before.files_modified);
  const is = new Set(after.files_modified);
  const added = [...is].filter((f) => !was.has(f));
  const gone = [...was].filter((f) => !is.has(f));
  if (before.has_uncommitted_changes !== after.has_uncommitted_changes) {
    out.push(
      `uncommitted changes: ${before.has_uncommitted_changes ? 'were present, now none' : 'none before, now present'}`,
    );
  }
  if (added.length || gone.length) {
    const parts = [];
    if (added.length)
      parts.push(
        `newly changed: ${added.slice(0, 10).join(', ')}${added.length > 10 ? ` (+${added.length - 10})` : ''}`,
      );
    if (gone.length)
      parts.push(
        `no longer changed: ${gone.slice(0, 10).join(', ')}${gone.length > 10 ? ` (+${gone.length - 10})` : ''}`,
      );
    out.push(`files differ from the snapshot: ${parts.join('; ')}`);
  }
  return out;
}

function staleness(d: Draft, staleAfterMs: number): string[] {
  const since = d.state.paused_at ?? d.state.interrupted_at;
  if (!since) return [];
  const age = Date.parse(d.ctx.now) - Date.parse(since);
  if (age < staleAfterMs) return [];
  const days = Math.floor(age / 86_400_000);
  return [
    `this workflow stopped ${counted(days, 'day')} ago (${since}); review the plan and the worktree before going on`,
  ];
}

/**
 * How a workflow goes on from where it stopped, or null when nothing resumes it: `resume` for a paused or interrupted
 * one (`baton resume`); `next_session` for one an agent's hooks follow, in progress with no turn of that agent under
 * way (it was quit, or waits for its user) or with its agent gone (`agentGone`: its process exited in the middle of a
 * turn, no SessionEnd came): the agent's next session in the worktree continues it, as `baton resume`
 * says of it (`resumeRefusal`); so does one whose last session is a transcript read in that no agent follows
 * (`importedAtRest`). Not one whose work that next session would find over (`finishedWork`, its
 * conversation taken as quit: an older Codex says no SessionEnd), which a new conversation completes instead.
 */
export function resumableBy(
  s: WorkflowState,
  now: string,
  agentGone = false,
): 'resume' | 'next_session' | null {
  if (isResumable(s.status)) return 'resume';
  // a transcript read in, its agent gone: the agent's next session in the worktree takes it up
  if ((s.status === 'in_progress' || s.status === 'blocked') && importedAtRest(s)) return 'next_session';
  const agent = followingAgent(s);
  // a turn under way is the agent's, unless its process is gone (cut off: the next session goes on from it)
  if ((s.status !== 'in_progress' && s.status !== 'blocked') || !agent || (turnUnderWay(s) && !agentGone))
    return null;
  return finishedWork(s, now, { [agent.session_id]: 'its agent was quit' }) === null ? 'next_session' : null;
}

/**
 * Whether and how a workflow goes on, as every surface says it (`baton sessions` and the dashboard, `baton
 * session-status`, the registry `sessions.json`): `resumableBy`, and for `next_session` who goes on with it, in words.
 */
export function resumability(s: WorkflowState, now: string, agentGone = false) {
  const by = resumableBy(s, now, agentGone);
  return {
    resumable: by !== null,
    /** `resume`: `baton resume` (the dashboard's Resume); `next_session`: the agent's next session continues it. */
    resume_by: by,
    /**
     * Who goes on with it when a resume does not (`next_session`): "the next Codex session in its worktree", or "the
     * next Codex or Claude Code session in its worktree" once conversations of both followed it (`nextTakers`).
     */
    continued_by: by === 'next_session' ? `the next ${nextTakers(s)} session in its worktree` : null,
  };
}

function assertResumable(d: Draft, action: string) {
  const s = d.state;
  if (!isResumable(s.status)) {
    const refusal = resumeRefusal(s);
    throw invalidTransition(
      resumeRefusalText(refusal, action),
      // the refusal as data: an edge that knows whose the workflow is says it in its words (a teammate's)
      { current_status: s.status, resume_refusal: refusal },
    );
  }
}

/** The number of the session a resume of this workflow starts (the one after its last). */
export const nextSessionNumber = (s: Pick<WorkflowState, 'session_count'>) => s.session_count + 1;

function startNextSession(
  d: Draft,
  input: ResumeInput,
  origin: 'resume' | 'recover',
): { session_number: number; warnings: string[] } {
  const warnings = [
    ...gitDivergence(
      input.snapshot?.git_state ?? null,
      input.git,
      input.commitsSinceSnapshot ?? null,
      input.snapshot?.created_at,
    ),
    ...staleness(d, input.staleAfterMs),
  ];
  d.emit({
    type: 'workflow.resumed',
    data: { from_snapshot_id: input.snapshot?.id ?? null, warnings, ...askedBy(input.by) },
  });
  const session_number = nextSessionNumber(d.state);
  d.emit({ type: 'session.started', session_number, data: { origin } });
  return { session_number, warnings };
}

/** Resume: only from paused or interrupted; starts session N+1 and reports what changed meanwhile. */
export function resume(d: Draft, input: ResumeInput) {
  assertResumable(d, 'resume');
  return startNextSession(d, input, 'resume');
}

export type RecoveryChoice = 'checkpoint' | 'live_state' | 'fresh';

/**
 * Recover an interrupted (or paused) workflow the Go Team way: restore the task state of a checkpoint, keep the
 * live state, or start fresh; then resume in a new session.
 */
export function recover(
  d: Draft,
  option: RecoveryChoice,
  input: ResumeInput & { checkpoint: string | null; checkpointSnapshot: SessionSnapshot | null },
) {
  assertRecoverable(d.state);
  let task_statuses: Record<string, TaskStatus> = {};
  if (option === 'checkpoint') {
    if (!input.checkpoint || !input.checkpointSnapshot)
      throw invalidInput('recovering from a checkpoint needs its name (--checkpoint)');
    task_statuses = Object.fromEntries(input.checkpointSnapshot.tasks.map((t) => [t.id, t.status]));
  } else if (option === 'fresh') {
    task_statuses = Object.fromEntries(d.state.tasks.map((t) => [t.id, 'pending' as const]));
  }
  d.emit({ type: 'workflow.recovered', data: { option, checkpoint: input.checkpoint, task_statuses } });
  return startNextSession(d, input, 'recover');
}

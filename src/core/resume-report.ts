import type { WorkflowState } from './schemas/state.js';
import type { Task } from './schemas/workflow.js';
import { laneProgress, leftBehind, leftBehindWords, nextTask, taskUnderWay } from './task-graph.js';
import { commitsSinceSaid, commitsSinceStarted } from './context/commits-since.js';
import { defaultLimits } from './context/resume-context.js';

/**
 * The Resume Protocol's report, mapped onto Baton's model: lanes are its task types (the lowest lane of a
 * multi-lane workflow is "bootstrap", the others "development"), the workflow mode follows from the lanes, and the
 * phase from the status and the task states.
 */
export type WorkflowMode = 'unified' | 'development-only';

export interface LaneReport {
  lane: number;
  name: string;
  done: number;
  total: number;
}

export interface ResumeReport {
  run_id: string;
  title: string;
  status: WorkflowState['status'];
  phase: string;
  workflow_mode: WorkflowMode;
  lanes: LaneReport[];
  last_activity: string;
  last_completed: { task_id: string; title: string; at: string | null } | null;
  /** Present when the snapshot resumed from had blocked tasks (the protocol's "dependency check"). */
  dependency_check: {
    previously_blocked: { task_id: string; title: string; reason: string | null }[];
    now_unblocked: string[];
    still_blocked: string[];
  } | null;
  next_action: string;
  warnings: string[];
}

const finished = (t: Task) => t.status === 'done' || t.status === 'skipped';

export const workflowMode = (tasks: readonly Task[]): WorkflowMode =>
  new Set(tasks.map((t) => t.lane)).size > 1 ? 'unified' : 'development-only';

export function lanesOf(tasks: readonly Task[]): LaneReport[] {
  const lanes = laneProgress(tasks);
  const multi = lanes.length > 1;
  return lanes.map((l, i) => ({
    ...l,
    name: !multi
      ? 'development'
      : i === 0
        ? 'bootstrap'
        : lanes.length > 2
          ? `development-${i}`
          : 'development',
  }));
}

/** The protocol's resume state: phase_3 (execution next), phase_4 (execution, bootstrap complete), phase_5 (cleanup). */
export function workflowPhase(s: WorkflowState): string {
  if (s.status === 'completed') return 'complete';
  if (s.status === 'failed' || s.status === 'cancelled') return s.status;
  if (s.tasks.length && s.tasks.every(finished)) return 'phase_5_cleanup';
  const lanes = laneProgress(s.tasks);
  const first = lanes[0];
  // Work began on a task (a blocked one that never started does not count).
  const touched = (t: Task) => t.started_at !== null || !['pending', 'blocked'].includes(t.status);
  if (lanes.length > 1 && first && first.done === first.total) {
    const later = s.tasks.filter((t) => t.lane > first.lane);
    if (!later.some(touched)) return 'phase_4_bootstrap_complete';
  }
  if (!s.tasks.some(touched)) return 'phase_3_dev_approved';
  return 'phase_4_execution';
}

function lastCompleted(tasks: readonly Task[]) {
  const done = tasks.filter((t) => t.status === 'done');
  const last = done.reduce<Task | null>(
    (best, t) => (!best || (t.ended_at ?? '') >= (best.ended_at ?? '') ? t : best),
    null,
  );
  return last ? { task_id: last.id, title: last.title, at: last.ended_at } : null;
}

function nextAction(s: WorkflowState, phase: string, briefing?: string): string {
  if (phase === 'complete' || phase === 'failed' || phase === 'cancelled')
    return `nothing to resume: the workflow is ${s.status}`;
  // every task done, or none kept (most imported transcripts): what comes next goes by what the user asked since and
  // where the agent left it (a pull request opened, a reply to the latest request: ask the user), which only the
  // briefing reads
  if (phase === 'phase_5_cleanup')
    return briefing ?? 'all tasks are done: clean up, prepare the PR, complete the workflow';
  if (!s.tasks.length)
    return (
      briefing ??
      "no task is recorded: go on from the user's latest request and the last state (the resume context)"
    );
  // only tasks left from an earlier plan are open: the list that moved on without them is done
  const left = leftBehind(s.tasks);
  if (left.length) return briefing ?? leftBehindWords(left.map((t) => t.id));
  const running = taskUnderWay(s.tasks);
  if (running) {
    // a commit made since it started: it may be done though the list does not say so (as the briefing says)
    const since = commitsSinceSaid(
      commitsSinceStarted(running, s.side_effects ?? [], defaultLimits.commit_subject_chars),
    );
    return `continue ${running.id} - ${running.title} (in progress${since ? `; ${since}` : ''})`;
  }
  const next = nextTask(s.tasks);
  if (next && phase === 'phase_4_bootstrap_complete')
    return `bootstrap tasks done: continue with development task ${next.id} - ${next.title}`;
  if (next) return `start ${next.id} - ${next.title}`;
  const blocked = s.tasks.filter((t) => t.status === 'blocked');
  if (blocked.length)
    return `nothing is runnable: unblock ${blocked.map((t) => t.id).join(', ')} (baton task unblock <id>)`;
  return 'nothing is runnable: look at the failed tasks (baton status)';
}

/**
 * The report for a workflow's state; `before` is the task list of the snapshot being resumed from, `briefing` the
 * next step of the context handed over with it (its What to Do Next), the next action of a workflow without tasks or
 * with every task done.
 */
export function buildResumeReport(
  s: WorkflowState,
  opts: { before?: readonly Task[] | null; warnings?: readonly string[]; briefing?: string } = {},
): ResumeReport {
  const phase = workflowPhase(s);
  const wasBlocked = (opts.before ?? []).filter((t) => t.status === 'blocked');
  const now = new Map(s.tasks.map((t) => [t.id, t]));
  return {
    run_id: s.id,
    title: s.title,
    status: s.status,
    phase,
    workflow_mode: workflowMode(s.tasks),
    lanes: lanesOf(s.tasks),
    last_activity: s.updated_at,
    last_completed: lastCompleted(s.tasks),
    dependency_check: wasBlocked.length
      ? {
          previously_blocked: wasBlocked.map((t) => ({ task_id: t.id, title: t.title, reason: t.note })),
          now_unblocked: wasBlocked.filter((t) => now.get(t.id)?.status !== 'blocked').map((t) => t.id),
          still_blocked: wasBlocked.filter((t) => now.get(t.id)?.status === 'blocked').map((t) => t.id),
        }
      : null,
    next_action: nextAction(s, phase, opts.briefing),
    warnings: [...(opts.warnings ?? [])],
  };
}

const rule = '═'.repeat(59);
const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The phase codes of the report (kept in `report.phase` for tools that follow the protocol) in plain words. */
const phaseWords: Record<string, string> = {
  phase_3_dev_approved: 'not started: no task has begun',
  phase_4_bootstrap_complete: 'set-up lane done, the next lane not started',
  phase_4_execution: 'tasks under way',
  phase_5_cleanup: 'every task done, the workflow not yet completed',
  complete: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

export const describePhase = (phase: string) => phaseWords[phase] ?? phase;

/** A workflow without tasks has not "not started" (its session may have done hours of work): it has no task list. */
const phaseOf = (r: ResumeReport) =>
  r.lanes.length === 0 && r.phase === 'phase_3_dev_approved' ? 'no task recorded' : describePhase(r.phase);

/** A lane's name in the terminal: the first of several lanes is the set-up lane ("bootstrap" in the JSON report). */
const laneTitle = (name: string) =>
  name === 'bootstrap' ? 'Set-up tasks (first lane)' : `${cap(name.replace('-', ' lane '))} tasks`;

/** The report as text, in the protocol's layout and plain words. */
export function renderResumeReport(r: ResumeReport, heading = 'RESUMING RUN'): string {
  const dep = r.dependency_check;
  return [
    rule,
    `${heading}: ${r.run_id}`,
    '',
    'Current State:',
    `- Title: ${r.title}`,
    `- Phase: ${phaseOf(r)} (status ${r.status})`,
    ...(r.lanes.length > 1 ? [`- Lanes: ${r.lanes.length}, each finished before the next starts`] : []),
    ...r.lanes.map((l) => `- ${laneTitle(l.name)}: ${l.done}/${l.total} complete`),
    `- Last activity: ${r.last_activity}`,
    `- Last completed: ${r.last_completed ? `${r.last_completed.task_id} - ${r.last_completed.title}` : 'none'}`,
    ...(dep
      ? [
          '',
          'Dependency Check:',
          `- Previously blocked: ${dep.previously_blocked.map((t) => `${t.task_id}${t.reason ? ` (${t.reason})` : ''}`).join(', ')}`,
          `- Now unblocked: ${dep.now_unblocked.join(', ') || 'none'}`,
          `- Still blocked: ${dep.still_blocked.join(', ') || 'None'}`,
        ]
      : []),
    ...(r.warnings.length ? ['', 'Warnings:', ...r.warnings.map((w) => `- ${w}`)] : []),
    '',
    'Next Action:',
    `- ${cap(r.next_action)}`,
    rule,
  ].join('\n');
}

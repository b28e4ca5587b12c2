import {
  lanesOf,
  progressLabel,
  progressPercent,
  recoveryOptions,
  resumability,
  taskCounts,
  workflowMode,
  workflowPhase,
  type RecoveryPlan,
  type WorkflowState,
} from '../core/index.js';
import { liveStateOf } from '../service/index.js';

/** The JSON documents of a run folder, each derived from the folded state (the events stay the truth). */
export const RUN_FOLDER_VERSION = 1;

export interface Manifest {
  schema_version: number;
  workflow_id: string;
  title: string;
  worktree: string;
  created_at: string;
  /** The last event seq written to `events/`: the mirror catches up from here when it lags the database. */
  last_seq: number;
  last_event_at: string;
  mirrored_at: string;
  actors: string[];
  /**
   * The size in bytes each event file had when the mirror last wrote it: a file that is missing or shorter (a cut
   * line, a deleted file) tells the mirror to repair the folder from the database.
   */
  event_files: Record<string, number>;
  files: Record<string, string>;
}

export function manifestDoc(
  s: WorkflowState,
  actors: string[],
  now: string,
  eventFiles: Record<string, number> = {},
): Manifest {
  return {
    schema_version: RUN_FOLDER_VERSION,
    workflow_id: s.id,
    title: s.title,
    worktree: s.worktree,
    created_at: s.created_at,
    last_seq: s.version,
    last_event_at: s.updated_at,
    mirrored_at: now,
    actors: [...actors].sort(),
    // in code-unit order (the keys differ), as `actors`: localeCompare would load ICU's collation, 10 to 30 ms of
    // a hook
    event_files: Object.fromEntries(Object.entries(eventFiles).sort(([a], [b]) => (a < b ? -1 : 1))),
    files: {
      'events/<actor>/<date>.jsonl':
        'the append-only event log, one BatonEvent per line with its CRC-32 as the last key "crc32" (the truth)',
      'workflow-state.json': 'status, phase, workflow mode, lanes, pause and interruption',
      'task-graph.json': 'the tasks with dependencies, lanes and derived statuses',
      'plan.md': 'the plan the workflow was created with',
      'state.json': 'the live state (last auto-save)',
      'checkpoints/cp-NN-<name>.json': 'named recovery points: checkpoint + snapshot',
      'snapshots/<session-number>.json': 'the latest snapshot of each session',
      'recovery.json': 'recovery options, present while the workflow is interrupted',
    },
  };
}

export function workflowStateDoc(s: WorkflowState) {
  const counts = taskCounts(s.tasks);
  return {
    schema_version: RUN_FOLDER_VERSION,
    workflow_id: s.id,
    title: s.title,
    issue: s.issue,
    worktree: s.worktree,
    status: s.status,
    phase: workflowPhase(s),
    workflow_mode: workflowMode(s.tasks),
    lanes: lanesOf(s.tasks),
    tasks: {
      done: counts.done,
      skipped: counts.skipped,
      total: counts.total,
      in_progress: counts.in_progress,
    },
    session_count: s.session_count,
    pause: s.paused_at ? { at: s.paused_at, reason: s.pause_reason, trigger: s.pause_trigger } : null,
    pause_requested: s.pause_requested,
    interruption: s.interrupted_at ? { at: s.interrupted_at, reason: s.interrupt_reason } : null,
    git_start: s.git_start,
    checkpoints: s.checkpoints.map((c) => c.name),
    last_snapshot: s.last_snapshot,
    warnings: s.warnings,
    version: s.version,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export const taskGraphDoc = (s: WorkflowState) => ({
  schema_version: RUN_FOLDER_VERSION,
  workflow_id: s.id,
  tasks: s.tasks,
});

/** The Go Team live state file. */
export const liveStateDoc = (s: WorkflowState, now: string, trigger: 'action' | 'checkpoint') => ({
  session_id: s.id,
  saved_at: now,
  save_trigger: trigger,
  version: s.version,
  state: liveStateOf(s),
});

/**
 * The Go Team recovery metadata, written while the workflow is interrupted, from the state alone: what a writer
 * without the service (an import) can say. The mirror of a running Baton writes the service's plan instead.
 */
export const recoveryDoc = (s: WorkflowState) => recoveryOptions(s, s.updated_at);

/** What `recovery.json` holds: a recovery plan, and why the service's could not be had when it could not. */
export type RecoveryDoc = RecoveryPlan & { planning_error?: string };

/**
 * One line of the registry (`sessions.json`), the Go Team session registry's shape; whether it is resumable as
 * `baton sessions` says it at `now` (`resumability`).
 */
export function registryEntry(s: WorkflowState, now: string) {
  const c = taskCounts(s.tasks);
  const last = s.checkpoints[s.checkpoints.length - 1];
  return {
    id: s.id,
    topic: s.title,
    status: s.status,
    created_at: s.created_at,
    updated_at: s.updated_at,
    // the registry's steps are the finished tasks (done or skipped), as its percentage; its step says them apart
    current_step: c.finished,
    total_steps: c.total,
    step: progressLabel(c, ''),
    current_checkpoint: last?.name ?? null,
    progress: {
      steps_completed: c.finished,
      total_steps: c.total,
      percentage: progressPercent(c),
    },
    git_branch: s.git_start?.branch ?? null,
    ...resumability(s, now),
    worktree: s.worktree,
  };
}
export type RegistryEntry = ReturnType<typeof registryEntry>;

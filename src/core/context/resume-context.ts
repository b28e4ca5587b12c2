import type { SessionSnapshot } from '../schemas/snapshot.js';

/**
 * How many items of each shrinkable part the compiled context shows before pointing at retrieval. What is never
 * shrunk: the next task, unresolved errors, pending tasks, the pause reason, the TDD phase and expected failures.
 */
export interface ContextLimits {
  completed_tasks: number;
  decisions: number;
  resolved_errors: number;
  feedback_comments: number;
  failing_tests: number;
  issue_chars: number;
  description_chars: number;
  side_effects: number;
}

/** Amelia's defaults: five decisions, three resolved errors, three comments per review. */
export const defaultLimits: ContextLimits = {
  completed_tasks: 1000,
  decisions: 5,
  resolved_errors: 3,
  feedback_comments: 3,
  failing_tests: 50,
  issue_chars: 500,
  description_chars: 500,
  side_effects: 20,
};

export interface ResumeContext {
  schema_version: 1;
  workflow_id: string;
  snapshot_id: string;
  session_number: number;
  total_sessions: number;
  issue: { id: string; title: string; description: string } | null;
  plan_status: { total: number; completed: number; remaining: number; current_task: string | null };
  completed_tasks: { id: string; title: string }[];
  completed_more: number;
  pending_tasks: { id: string; title: string; status: string; deps: string[] }[];
  decisions: { type: string; description: string; rationale: string }[];
  decisions_more: number;
  errors_unresolved: { type: string; message: string; context: string | null }[];
  errors_resolved: { type: string; message: string; resolution: string }[];
  errors_more: number;
  git: {
    branch: string | null;
    head: string | null;
    files_modified: number;
    has_uncommitted: boolean | null;
    summary: string | null;
    note: string | null;
  };
  test_state: {
    phase: string;
    failing: string[];
    failing_more: number;
    expected_failures: string[];
    command: string | null;
  } | null;
  next: { task_id: string | null; title: string | null; description: string | null; ended_because: string };
  reviewer_feedback: { reviewer: string; severity: string; comments: string[]; more: number }[];
  already_done: { task_id: string | null; kind: string; summary: string }[];
  already_done_more: number;
  retrieval: string[];
  warnings: string[];
}

/** The last `n` items (none for 0: `slice(-0)` would give them all). */
const last = <T>(list: readonly T[], n: number): T[] => (n > 0 ? list.slice(-n) : []);

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}... (${text.length - max} more characters: use retrieval)` : text;

/** Compiles the resume context of a snapshot for session `sessionNumber` (Amelia's template, schema first). */
export function compileResumeContext(
  snap: SessionSnapshot,
  sessionNumber: number,
  warnings: string[] = [],
  limits: ContextLimits = defaultLimits,
): ResumeContext {
  const SHOW = limits;
  const completed = snap.tasks.filter((t) => t.status === 'done' || t.status === 'skipped');
  const unresolved = snap.errors.filter((e) => e.resolution === 'unresolved');
  const resolved = snap.errors.filter((e) => e.resolution !== 'unresolved');
  const next = snap.tasks.find((t) => t.id === snap.next_task_id) ?? null;
  const base = `/workflows/${snap.workflow_id}/snapshots/${snap.id}`;
  return {
    schema_version: 1,
    workflow_id: snap.workflow_id,
    snapshot_id: snap.id,
    session_number: sessionNumber,
    total_sessions: sessionNumber,
    issue: snap.issue
      ? { ...snap.issue, description: clip(snap.issue.description, limits.issue_chars) }
      : null,
    plan_status: {
      total: snap.tasks.length,
      completed: snap.tasks_completed,
      remaining: snap.tasks_remaining,
      current_task: snap.current_task_id,
    },
    completed_tasks: last(completed, SHOW.completed_tasks).map((t) => ({ id: t.id, title: t.title })),
    completed_more: Math.max(0, completed.length - SHOW.completed_tasks),
    pending_tasks: snap.tasks
      .filter((t) => t.status !== 'done' && t.status !== 'skipped')
      .map((t) => ({ id: t.id, title: t.title, status: t.status, deps: t.deps })),
    decisions: last(snap.decisions, SHOW.decisions).map((d) => ({
      type: d.decision_type,
      description: d.description,
      rationale: d.rationale,
    })),
    decisions_more: Math.max(0, snap.decisions_total - Math.min(SHOW.decisions, snap.decisions.length)),
    errors_unresolved: unresolved.map((e) => ({
      type: e.error_type,
      message: e.error_message,
      context: e.context,
    })),
    errors_resolved: last(resolved, SHOW.resolved_errors).map((e) => ({
      type: e.error_type,
      message: e.error_message,
      resolution: e.resolution,
    })),
    errors_more: Math.max(
      0,
      snap.errors_total - unresolved.length - Math.min(SHOW.resolved_errors, resolved.length),
    ),
    git: {
      branch: snap.git_state?.branch ?? null,
      head: snap.git_state?.commit_at_snapshot ?? null,
      files_modified: snap.git_state?.files_modified.length ?? 0,
      has_uncommitted: snap.git_state?.has_uncommitted_changes ?? null,
      summary: snap.git_state?.uncommitted_summary ?? null,
      note: snap.git_note,
    },
    test_state: snap.test_state
      ? {
          phase: snap.test_state.phase,
          failing: snap.test_state.failing_tests.slice(0, SHOW.failing_tests),
          failing_more: Math.max(0, snap.test_state.failing_tests.length - SHOW.failing_tests),
          expected_failures: snap.test_state.expected_failures,
          command: snap.test_state.last_test_command,
        }
      : null,
    next: {
      task_id: next?.id ?? null,
      title: next?.title ?? null,
      description: next?.description ? clip(next.description, limits.description_chars) : null,
      ended_because: `${snap.trigger}${snap.pause_reason ? `: ${snap.pause_reason}` : ''}`,
    },
    reviewer_feedback: (snap.reviewer_feedback ?? [])
      .filter((f) => !f.addressed)
      .map((f) => ({
        reviewer: f.reviewer_persona,
        severity: f.severity,
        comments: f.comments.slice(0, SHOW.feedback_comments),
        more: Math.max(0, f.comments.length - SHOW.feedback_comments),
      })),
    already_done: last(snap.side_effects ?? [], SHOW.side_effects).map((e) => ({
      task_id: e.task_id,
      kind: e.kind,
      summary: e.summary,
    })),
    already_done_more: Math.max(0, (snap.side_effects ?? []).length - SHOW.side_effects),
    retrieval: ['decisions', 'errors', 'git-changes', 'reviewer-feedback', 'test-state'].map(
      (c) => `GET ${base}/${c}`,
    ),
    warnings,
  };
}

import type { SessionSnapshot } from './schemas/snapshot.js';

/** How many items of each long list the compiled context shows before pointing at retrieval. */
const SHOW = { decisions: 5, resolved_errors: 3, feedback_comments: 3 };

export interface ResumeContext {
  schema_version: 1;
  workflow_id: string;
  snapshot_id: string;
  session_number: number;
  total_sessions: number;
  issue: { id: string; title: string; description: string } | null;
  plan_status: { total: number; completed: number; remaining: number; current_task: string | null };
  completed_tasks: { id: string; title: string }[];
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
    expected_failures: string[];
    command: string | null;
  } | null;
  next: { task_id: string | null; title: string | null; description: string | null; ended_because: string };
  reviewer_feedback: { reviewer: string; severity: string; comments: string[]; more: number }[];
  retrieval: string[];
  warnings: string[];
}

/** Compiles the resume context of a snapshot for session `sessionNumber` (Amelia's template, schema first). */
export function compileResumeContext(
  snap: SessionSnapshot,
  sessionNumber: number,
  warnings: string[] = [],
): ResumeContext {
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
    issue: snap.issue,
    plan_status: {
      total: snap.tasks.length,
      completed: snap.tasks_completed,
      remaining: snap.tasks_remaining,
      current_task: snap.current_task_id,
    },
    completed_tasks: snap.tasks
      .filter((t) => t.status === 'done' || t.status === 'skipped')
      .map((t) => ({ id: t.id, title: t.title })),
    pending_tasks: snap.tasks
      .filter((t) => t.status !== 'done' && t.status !== 'skipped')
      .map((t) => ({ id: t.id, title: t.title, status: t.status, deps: t.deps })),
    decisions: snap.decisions
      .slice(-SHOW.decisions)
      .map((d) => ({ type: d.decision_type, description: d.description, rationale: d.rationale })),
    decisions_more: Math.max(0, snap.decisions_total - Math.min(SHOW.decisions, snap.decisions.length)),
    errors_unresolved: unresolved.map((e) => ({
      type: e.error_type,
      message: e.error_message,
      context: e.context,
    })),
    errors_resolved: resolved
      .slice(-SHOW.resolved_errors)
      .map((e) => ({ type: e.error_type, message: e.error_message, resolution: e.resolution })),
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
          failing: snap.test_state.failing_tests,
          expected_failures: snap.test_state.expected_failures,
          command: snap.test_state.last_test_command,
        }
      : null,
    next: {
      task_id: next?.id ?? null,
      title: next?.title ?? null,
      description: next?.description || null,
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
    retrieval: ['decisions', 'errors', 'git-changes', 'reviewer-feedback', 'test-state'].map(
      (c) => `GET ${base}/${c}`,
    ),
    warnings,
  };
}

const list = (items: string[], empty: string) => (items.length ? items.join('\n') : empty);

/** The markdown rendering handed to an agent. */
export function renderResumeContext(c: ResumeContext): string {
  const out: string[] = [];
  out.push('## Session Resume Context', '');
  out.push(
    `You are resuming workflow ${c.workflow_id} (session ${c.session_number} of ${c.total_sessions}).`,
    '',
  );
  if (c.warnings.length) out.push('### Warnings', ...c.warnings.map((w) => `- ${w}`), '');
  out.push('### Original Issue');
  out.push(
    c.issue ? `${c.issue.id}: ${c.issue.title}\n${c.issue.description.slice(0, 500)}` : '(no issue recorded)',
    '',
  );
  out.push('### Plan Status');
  out.push(`- Total tasks: ${c.plan_status.total}`, `- Completed: ${c.plan_status.completed}`);
  out.push(
    `- Remaining: ${c.plan_status.remaining}`,
    `- Current task: ${c.plan_status.current_task ?? 'None'}`,
    '',
  );
  out.push(
    '<completed_tasks>',
    list(
      c.completed_tasks.map((t) => `  [x] [${t.id}] ${t.title}`),
      '  (none yet)',
    ),
    '</completed_tasks>',
    '',
  );
  out.push(
    '<pending_tasks>',
    list(
      c.pending_tasks.map(
        (t) =>
          `  [ ] [${t.id}] ${t.title}${t.status !== 'pending' ? ` (${t.status})` : ''}${t.deps.length ? ` after ${t.deps.join(', ')}` : ''}`,
      ),
      '  (all complete)',
    ),
    '</pending_tasks>',
    '',
  );
  out.push('### Key Decisions Made');
  const decisions = c.decisions.flatMap((d) => [
    `  - [${d.type}] ${d.description}`,
    `    Rationale: ${d.rationale || '(none given)'}`,
  ]);
  if (c.decisions_more) decisions.push(`  ... and ${c.decisions_more} more (use retrieval)`);
  out.push(list(decisions, '  (no significant decisions recorded)'), '');
  out.push('### Errors Encountered');
  const errors = [
    ...c.errors_unresolved.map(
      (e) => `  ! UNRESOLVED: ${e.type}: ${e.message}${e.context ? ` (while ${e.context})` : ''}`,
    ),
    ...c.errors_resolved.map((e) => `  - ${e.type}: ${e.message} [${e.resolution}]`),
  ];
  if (c.errors_more) errors.push(`  ... and ${c.errors_more} more (use retrieval)`);
  out.push(list(errors, '  (no errors encountered)'), '');
  out.push('### Git State');
  if (c.git.branch === null) out.push(`- ${c.git.note ?? 'no git state recorded'}`);
  else {
    out.push(
      `- Branch: ${c.git.branch}`,
      `- HEAD: ${c.git.head ?? '(no commits)'}`,
      `- Files modified: ${c.git.files_modified}`,
    );
    out.push(
      `- Uncommitted changes: ${c.git.has_uncommitted ? `yes${c.git.summary ? ` (${c.git.summary})` : ''}` : 'no'}`,
    );
  }
  out.push('');
  if (c.test_state) {
    out.push('### TDD State', `- Phase: ${c.test_state.phase}`);
    out.push(`- Failing tests: ${c.test_state.failing.join(', ') || 'none'}`);
    out.push(`- Expected failures (red phase): ${c.test_state.expected_failures.join(', ') || 'none'}`);
    if (c.test_state.command) out.push(`- Test command: ${c.test_state.command}`);
    out.push('');
  }
  out.push('### What to Do Next');
  const task = c.next.task_id
    ? `Continue from task "${c.next.task_id}: ${c.next.title}"`
    : 'No task is runnable';
  out.push(`${task}. The previous session ended because: ${c.next.ended_because}.`);
  if (c.next.description) out.push(c.next.description.slice(0, 500));
  out.push('');
  if (c.reviewer_feedback.length) {
    out.push('### Unaddressed Reviewer Feedback');
    for (const f of c.reviewer_feedback) {
      out.push(`  From ${f.reviewer} (${f.severity}):`, ...f.comments.map((x) => `    - ${x}`));
      if (f.more) out.push(`    ... and ${f.more} more`);
    }
    out.push('');
  }
  out.push(
    '---',
    'NOTE: Use the retrieval API to get more detail on any section if needed:',
    ...c.retrieval.map((r) => `- ${r}`),
  );
  return out.join('\n') + '\n';
}

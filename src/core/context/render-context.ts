import type { ResumeContext } from './resume-context.js';

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
    c.issue ? `${c.issue.id}: ${c.issue.title}\n${c.issue.description}`.trimEnd() : '(no issue recorded)',
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
      [
        ...(c.completed_more ? [`  ... ${c.completed_more} earlier completed tasks (use retrieval)`] : []),
        ...c.completed_tasks.map((t) => `  [x] [${t.id}] ${t.title}`),
      ],
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
    out.push(
      `- Failing tests: ${c.test_state.failing.join(', ') || 'none'}${c.test_state.failing_more ? ` ... and ${c.test_state.failing_more} more (use retrieval)` : ''}`,
    );
    out.push(`- Expected failures (red phase): ${c.test_state.expected_failures.join(', ') || 'none'}`);
    if (c.test_state.command) out.push(`- Test command: ${c.test_state.command}`);
    out.push('');
  }
  out.push('### What to Do Next');
  const task = c.next.task_id
    ? `Continue from task "${c.next.task_id}: ${c.next.title}"`
    : 'No task is runnable';
  out.push(`${task}. The previous session ended because: ${c.next.ended_because}.`);
  if (c.next.description) out.push(c.next.description);
  out.push('');
  if (c.already_done.length) {
    out.push('### Already Done (do not redo)');
    if (c.already_done_more) out.push(`  ... ${c.already_done_more} earlier side effects (use retrieval)`);
    for (const e of c.already_done)
      out.push(`  - [${e.kind}]${e.task_id ? ` ${e.task_id}:` : ''} ${e.summary}`);
    out.push('');
  }
  if (c.reviewer_feedback.length) {
    out.push('### Unaddressed Reviewer Feedback');
    for (const f of c.reviewer_feedback) {
      out.push(`  From ${f.reviewer} (${f.severity}):`, ...f.comments.map((x) => `    - ${x}`));
      if (f.more) out.push(`    ... and ${f.more} more (use retrieval)`);
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

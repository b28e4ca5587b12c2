import { emptyUsage } from '../../src/core/schemas/records.js';
import type { SessionSnapshot } from '../../src/core/schemas/snapshot.js';

/**
 * A snapshot of a workflow holding nothing (no task, decision, error, test or git state), for tests of the context
 * compiler: `over` gives what the test is about.
 */
export function bareSnapshot(over: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    schema_version: 1,
    id: 'snap-1',
    workflow_id: 'wf-1',
    session_number: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    trigger: 'manual',
    pause_reason: null,
    through_seq: 10,
    issue: null,
    plan: '',
    tasks: [],
    current_task_id: null,
    next_task_id: null,
    tasks_completed: 0,
    tasks_remaining: 0,
    git_state: null,
    git_note: 'not a git repository',
    decisions: [],
    decisions_total: 0,
    errors: [],
    errors_total: 0,
    reviewer_feedback: [],
    test_state: null,
    usage: emptyUsage(),
    recent_history: [],
    requests: [],
    summaries: { compaction: null, last_message: null },
    warnings: [],
    side_effects: [],
    ...over,
  };
}

import { describe, expect, it } from 'vitest';
import { countTokens } from '../../tokens/count-tokens.js';
import { emptyUsage } from '../schemas/records.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import { fitResumeContext } from './fit-budget.js';

const task = (i: number, status: 'done' | 'pending' | 'in_progress') => ({
  id: `T${i}`,
  title: `task number ${i} with a reasonably descriptive title`,
  description: i === 41 ? 'Implement the login endpoint. '.repeat(80) : '',
  deps: [],
  lane: 0,
  status,
  started_at: null,
  ended_at: null,
  session_number: null,
  note: null,
});

function bigSnapshot(): SessionSnapshot {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    schema_version: 1,
    id: 'snap-1',
    workflow_id: 'wf-1',
    session_number: 3,
    created_at: at,
    trigger: 'exhaustion',
    pause_reason: 'context 86% full',
    through_seq: 500,
    issue: { id: 'ISSUE-7', title: 'Add login', description: 'Users must log in. '.repeat(300) },
    plan: '',
    tasks: [
      ...Array.from({ length: 40 }, (_, i) => task(i + 1, 'done')),
      task(41, 'pending'),
      task(42, 'pending'),
    ],
    current_task_id: null,
    next_task_id: 'T41',
    tasks_completed: 40,
    tasks_remaining: 2,
    git_state: null,
    git_note: 'not a git repository',
    decisions: Array.from({ length: 10 }, (_, i) => ({
      id: `d${i}`,
      timestamp: at,
      task_id: null,
      decision_type: 'approach' as const,
      description: `decision ${i}: use the repository pattern for the persistence layer of module ${i}`,
      rationale: 'keeps the domain free of I/O and makes the tests fast '.repeat(3),
      alternatives_considered: null,
    })),
    decisions_total: 60,
    errors: [
      ...Array.from({ length: 4 }, (_, i) => ({
        id: `u${i}`,
        timestamp: at,
        task_id: null,
        error_type: 'TypeError',
        error_message: `unresolved failure ${i}: cannot read properties of undefined`,
        context: null,
        resolution: 'unresolved' as const,
        resolution_notes: null,
      })),
      ...Array.from({ length: 10 }, (_, i) => ({
        id: `r${i}`,
        timestamp: at,
        task_id: null,
        error_type: 'Error',
        error_message: `resolved failure ${i}: ${'stack frame '.repeat(20)}`,
        context: null,
        resolution: 'fixed' as const,
        resolution_notes: null,
      })),
    ],
    errors_total: 30,
    reviewer_feedback: [
      {
        review_id: 'rev1',
        reviewer_persona: 'security reviewer',
        timestamp: at,
        approved: false,
        severity: 'high',
        comments: Array.from(
          { length: 12 },
          (_, i) => `comment ${i}: ${'please validate the input '.repeat(4)}`,
        ),
        addressed: false,
      },
    ],
    test_state: {
      phase: 'red',
      failing_tests: Array.from({ length: 30 }, (_, i) => `auth.spec.ts > case ${i}`),
      expected_failures: ['auth.spec.ts > case 0'],
      last_test_run_at: at,
      last_test_command: 'npm test',
      last_test_output_summary: null,
    },
    usage: emptyUsage(),
    recent_history: [],
    requests: [],
    side_effects: [
      {
        id: 'se1',
        timestamp: at,
        task_id: 'T40',
        kind: 'push',
        tool: 'Bash',
        summary: 'git push origin feature/login',
      },
      {
        id: 'se2',
        timestamp: at,
        task_id: 'T40',
        kind: 'migration',
        tool: 'Bash',
        summary: 'npm run migrate',
      },
    ],
    warnings: [],
  };
}

describe('resume context within a token budget', () => {
  it('shows everything when the budget allows', () => {
    const fitted = fitResumeContext(bigSnapshot(), 4, [], 100_000, countTokens);
    expect(fitted.over_budget).toBe(false);
    expect(fitted.context.completed_tasks).toHaveLength(40);
    expect(fitted.context.errors_resolved).toHaveLength(10);
  });

  it('shrinks lower-priority parts first and keeps what must never be dropped', () => {
    const snap = bigSnapshot();
    for (const budget of [3000, 1500, 900]) {
      const fitted = fitResumeContext(snap, 4, [], budget, countTokens);
      expect(fitted.tokens).toBeLessThanOrEqual(budget);
      expect(fitted.tokens).toBe(countTokens(fitted.markdown));
      const md = fitted.markdown;
      expect(md).toContain('Continue from task "T41');
      for (let i = 0; i < 4; i++) expect(md).toContain(`UNRESOLVED: TypeError: unresolved failure ${i}`);
      expect(md).toContain('[T42]');
      expect(md).toContain('context 86% full');
      expect(md).toContain('- Phase: red');
      expect(md).toContain('Expected failures (red phase): auth.spec.ts > case 0');
      expect(md).toMatch(/\.\.\. and \d+ more \(use retrieval\)/);
      expect(md).toContain('### Already Done (do not redo)');
      expect(md).toContain('[push] T40: git push origin feature/login');
    }
    const tight = fitResumeContext(snap, 4, [], 900, countTokens);
    expect(tight.context.completed_tasks.length).toBeLessThan(40);
  });

  it('says so when even the parts it must keep do not fit', () => {
    const fitted = fitResumeContext(bigSnapshot(), 4, [], 200, countTokens);
    expect(fitted.over_budget).toBe(true);
    expect(fitted.markdown).toContain('UNRESOLVED: TypeError: unresolved failure 3');
  });
});

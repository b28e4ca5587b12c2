import { describe, expect, it } from 'vitest';
import { bareSnapshot } from '../../../test/helpers/session-snapshot.js';
import { countTokens } from '../../tokens/count-tokens.js';
import type { SideEffect } from '../schemas/runtime.js';
import type { Task } from '../schemas/workflow.js';
import { commitsSinceSaid, commitsSinceStarted } from './commits-since.js';
import { fitResumeContext } from './fit-budget.js';
import { compileResumeContext, defaultLimits } from './resume-context.js';

const task = (id: string, title: string, status: Task['status'], started_at: string | null): Task => ({
  id,
  title,
  description: '',
  deps: [],
  lane: 0,
  status,
  started_at,
  ended_at: status === 'done' ? started_at : null,
  session_number: 1,
  note: null,
});

let n = 0;
const commit = (timestamp: string, summary: string, task_id: string | null = null): SideEffect => ({
  id: `se${++n}`,
  timestamp,
  task_id,
  kind: 'commit',
  tool: 'Bash',
  summary,
});

const started = '2026-01-01T10:00:00.000Z';
const before = '2026-01-01T09:59:00.000Z';
const after = '2026-01-01T10:01:00.000Z';
const later = '2026-01-01T10:02:00.000Z';

describe('the commits made since the task in progress started', () => {
  const t4 = task('T4', 'Commit divide', 'in_progress', started);

  it('are those recorded after it started, for it or for no task; the latest named by its short hash', () => {
    const effects = [
      commit(before, '1111111aaaa Add divide'),
      commit(after, '4f6f15f0c2d9 divide'),
      commit(after, '2222222 Other work', 'T2'),
    ];
    expect(commitsSinceStarted(t4, effects, 100)).toEqual({ count: 1, latest: '4f6f15f divide' });
    expect(commitsSinceSaid(commitsSinceStarted(t4, effects, 100))).toBe(
      'a commit was made since it started: 4f6f15f divide; check whether it is done',
    );
    // an amend replaces the commit it amends: one commit still, the latest its replacement
    const amended = [...effects, commit(later, '3333333 divide: docs (amends 4f6f15f)', 'T4')];
    expect(commitsSinceSaid(commitsSinceStarted(t4, amended, 100))).toBe(
      'a commit was made since it started: 3333333 divide: docs; check whether it is done',
    );
    // another commit, recorded before an older one (a transcript imported late): the latest is the one made last
    const two = [commit(later, '5555555 divide: docs'), ...effects];
    expect(commitsSinceSaid(commitsSinceStarted(t4, two, 100))).toBe(
      '2 commits were made since it started, the latest 5555555 divide: docs; check whether it is done',
    );
  });

  it('are none for a task not in progress, not started, or with no commit since', () => {
    const effects = [commit(after, '4f6f15f divide')];
    expect(commitsSinceStarted(task('T4', 'Commit divide', 'pending', null), effects, 100)).toBeNull();
    expect(commitsSinceStarted(task('T4', 'Commit divide', 'done', started), effects, 100)).toBeNull();
    expect(commitsSinceStarted(t4, [commit(before, '4f6f15f divide')], 100)).toBeNull();
    expect(commitsSinceStarted(null, effects, 100)).toBeNull();
    expect(commitsSinceSaid(null)).toBeNull();
  });

  it("names a runner's commit git printed no line for by its command, cut to the subject's room", () => {
    const effects = [commit(after, 'git commit -am "divide: handle a zero divisor and say so in the docs"')];
    expect(commitsSinceStarted(t4, effects, 30)).toEqual({
      count: 1,
      latest: 'git commit -am "divide…',
    });
  });

  it('are said with the task in What to Do Next, as the next step of the briefing', () => {
    const snap = bareSnapshot({
      created_at: later,
      issue: { id: 'ISSUE-1', title: 'Add divide', description: 'Add divide to math.js and commit it.' },
      tasks: [task('T3', 'Test divide', 'done', before), t4],
      current_task_id: 'T4',
      next_task_id: 'T4',
      tasks_completed: 1,
      tasks_remaining: 1,
      side_effects: [commit(after, '4f6f15f0c2d9 divide')],
    });
    expect(compileResumeContext(snap, 2).next.commits_since_start).toEqual({
      count: 1,
      latest: '4f6f15f divide',
    });
    const md = fitResumeContext(snap, 2, [], 4000, countTokens).markdown;
    expect(md).toContain(
      '### What to Do Next\nContinue from task "T4: Commit divide" (a commit was made since it started: 4f6f15f divide; check whether it is done).',
    );
    // without a commit since it started, the step is as before
    const none = fitResumeContext({ ...snap, side_effects: [] }, 2, [], 4000, countTokens).markdown;
    expect(none).toContain('### What to Do Next\nContinue from task "T4: Commit divide".\n');
    // a finished workflow's task left open is nobody's to go on with: nothing is said of it
    const recap = compileResumeContext(snap, 2, [], defaultLimits, { worktree: '/w', status: 'completed' });
    expect(recap.next.commits_since_start).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { GitState } from '../schemas/git-state.js';
import type { SideEffect } from '../schemas/runtime.js';
import type { WorkflowState } from '../schemas/state.js';
import { earlierShown, earlierWork } from './earlier-work.js';
import { defaultLimits } from './resume-context.js';

const effect = (kind: SideEffect['kind'], summary: string, n: number): SideEffect => ({
  id: `se-${n}`,
  timestamp: `2026-11-30T10:00:0${n}Z`,
  task_id: null,
  kind,
  tool: 'exec_command',
  summary,
});
const workflow = (effects: SideEffect[]) =>
  ({ id: 'wf-1', title: 'add a --json flag', side_effects: effects }) as unknown as WorkflowState;

describe('earlierWork: what a completed workflow left done, said in the one that follows it', () => {
  it('says its pull requests (merged once), its last push and its last commits', () => {
    const w = workflow([
      effect('commit', '1111111 first', 1),
      effect('commit', '2222222 second', 2),
      effect('push', 'pushed main -> main', 3),
      effect('commit', '3333333 third', 4),
      effect('commit', '4444444 fourth', 5),
      effect('commit', '5555555 fifth', 6),
      effect('pr', 'https://github.com/acme/x/pull/7', 7),
      effect('pr', 'merged PR #7', 8),
      effect('file_write', 'edited src/a.ts', 9),
    ]);
    expect(earlierWork(w, null)).toEqual({
      workflow_id: 'wf-1',
      title: 'add a --json flag',
      done: [
        'pull request https://github.com/acme/x/pull/7 (merged)',
        'pushed main',
        'commit 2222222 second',
        'commit 3333333 third',
        'commit 4444444 fourth',
        'commit 5555555 fifth',
      ],
    });
  });

  it("reads its commits against git's state as the new workflow begins: one reset away is said to be off the branch", () => {
    const w = workflow([effect('commit', '1111111 first', 1), effect('commit', '2222222 second', 2)]);
    // git lists the commits made since the earlier workflow began: the second was reset away since
    const git: GitState = {
      branch: 'main',
      commit_at_workflow_start: 'a'.repeat(40),
      commit_at_snapshot: `1111111${'b'.repeat(33)}`,
      files_modified: [],
      files_staged: [],
      has_uncommitted_changes: false,
      uncommitted_summary: null,
      head_subject: 'first',
      work_commits: {
        listed: [{ hash: `1111111${'b'.repeat(33)}`, subject: 'first' }],
        more: 0,
        began_at: '2026-11-30T09:00:00Z',
      },
    };
    expect(earlierWork(w, git).done).toEqual([
      'commit 1111111 first',
      'commit 2222222 second (not on main now)',
    ]);
    // without git's word the transcript's is kept
    expect(earlierWork(w, null).done).toEqual(['commit 1111111 first', 'commit 2222222 second']);
  });

  it('records no list when nothing was left done', () => {
    expect(earlierWork(workflow([effect('file_write', 'edited src/a.ts', 1)]), null)).toEqual({
      workflow_id: 'wf-1',
      title: 'add a --json flag',
    });
  });

  it('gives the list up with the pushes and pull requests when room runs out', () => {
    const done = ['pull request https://github.com/acme/x/pull/7', 'pushed main', 'commit 1111111 first'];
    const e = { workflow_id: 'wf-1', title: 'add a --json flag', done };
    expect(earlierShown(e, defaultLimits).done).toEqual(done);
    // the pull request and the push before the commits
    expect(earlierShown(e, { ...defaultLimits, pushes_prs: 2 }).done).toEqual(done.slice(0, 2));
    expect(earlierShown(e, { ...defaultLimits, pushes_prs: 0 }).done).toEqual([]);
    // recorded before the list was kept
    expect(earlierShown({ workflow_id: 'wf-1', title: 't' }, defaultLimits).done).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { bareSnapshot } from '../../../test/helpers/session-snapshot.js';
import { alreadyDone } from './context-parts.js';
import { defaultLimits } from './resume-context.js';

const write = (summary: string) => ({
  id: `se-${summary}`,
  kind: 'file_write' as const,
  task_id: null,
  tool: 'Edit',
  summary,
  timestamp: '2026-01-01T10:00:00.000Z',
});

describe('the files Already Done lists', () => {
  it('says which of them git shows changed since their last commit: a change under way, not one to leave alone', () => {
    const snap = bareSnapshot({
      side_effects: [
        write('edited /w/app/math.js'),
        write('created /w/app/math.test.js'),
        write('edited /w/app/README.md'),
      ],
      git_state: {
        branch: 'main',
        commit_at_workflow_start: 'a1',
        commit_at_snapshot: 'b2',
        files_modified: ['math.js'],
        files_staged: [],
        has_uncommitted_changes: true,
        uncommitted_summary: '1 file changed',
        uncommitted_files: ['math.js'],
      },
    });
    expect(alreadyDone(snap, defaultLimits, '/w/app').files).toEqual([
      'edited math.js (uncommitted)',
      'created math.test.js',
      'edited README.md',
    ]);
    // without git's word (a snapshot of another machine's session), nothing is said of it
    expect(alreadyDone({ ...snap, git_state: null }, defaultLimits, '/w/app').files[0]).toBe(
      'edited math.js',
    );
  });
});

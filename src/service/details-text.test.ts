import { describe, expect, it } from 'vitest';
import type { GitState, Summary, TestState } from '../core/index.js';
import { detailsText } from './details-text.js';
import { emptyDetailsWords } from './empty-details.js';

const at = '2026-05-11T10:00:00.000Z';

const testState = (over: Partial<TestState> = {}): TestState => ({
  phase: 'red',
  failing_tests: [],
  expected_failures: [],
  last_test_run_at: at,
  last_test_command: 'npm test',
  last_test_output_summary: '1 failed',
  ...over,
});

describe('detailsText', () => {
  it('prints every record of a category whole, each under its heading, oldest first', () => {
    const text = detailsText(
      'errors',
      [
        {
          id: 'err-1',
          timestamp: at,
          task_id: 'T1',
          error_type: 'TypeError',
          error_message: 'x is undefined\n  at f (a.ts:1)',
          context: 'running the tests',
          resolution: 'unresolved',
          resolution_notes: null,
        },
        {
          id: 'err-2',
          timestamp: at,
          task_id: null,
          error_type: 'build',
          error_message: 'tsc failed',
          context: null,
          resolution: 'fixed',
          resolution_notes: 'succeeded later (transcript line 40)',
          evidence: { transcript: '/home/a/.claude/projects/p/s.jsonl', line: 31 },
        },
      ],
      'snap-1',
    );
    expect(text).toBe(
      [
        '2 errors (as of snapshot snap-1), oldest first:',
        '',
        `err-1  ${at}  task T1  TypeError  UNRESOLVED`,
        '  x is undefined',
        '    at f (a.ts:1)',
        '  context: running the tests',
        '',
        `err-2  ${at}  build  FIXED`,
        '  tsc failed',
        '  resolution: succeeded later (transcript line 40)',
        '  seen at: line 31 of /home/a/.claude/projects/p/s.jsonl',
      ].join('\n'),
    );
  });

  it('keeps a long text whole: the briefing says `baton details` gives every record', () => {
    const long = 'word '.repeat(2000).trim();
    const summary: Summary = {
      id: 'sum-1',
      timestamp: at,
      kind: 'usage_limit',
      text: long,
      source: 'claude-code',
      session_number: 2,
      resets_at: '2026-05-11T15:00:00.000Z',
    };
    const text = detailsText('summaries', [summary], null);
    expect(text.split('\n').slice(0, 3)).toEqual([
      '1 summary (the workflow as it stands), oldest first:',
      '',
      `sum-1  ${at}  session 2  usage_limit  claude-code  resets at 2026-05-11T15:00:00.000Z`,
    ]);
    expect(text).toContain(`\n  ${long}`);
  });

  it('says when there is none', () => {
    // history is not the event log: an empty one says what it holds and where the rest is
    expect(detailsText('history', [], null)).toBe(
      `no history entries (the workflow as it stands): ${emptyDetailsWords('history')}`,
    );
    expect(emptyDetailsWords('history')).toMatch(
      /^history holds the agent's own steps .* requests, decisions, errors/,
    );
    expect(detailsText('reviewer-feedback', [], 'snap-1')).toBe('no reviews (as of snapshot snap-1)');
    // a live id names no stored snapshot: it reads the workflow now, and says so
    expect(detailsText('requests', [], 'live-159')).toBe(
      'no requests (the workflow as it stands now; live-159 names it live, so records since are included)',
    );
  });

  it('prints the git changes, and the note when there is no repository', () => {
    const g: GitState = {
      branch: 'main',
      commit_at_workflow_start: 'a'.repeat(40),
      commit_at_snapshot: 'b'.repeat(40),
      files_modified: ['src/a.ts'],
      files_staged: [],
      has_uncommitted_changes: true,
      uncommitted_summary: '1 modified',
      head_subject: 'Add a',
      work_commits: { listed: [{ hash: 'b'.repeat(12), subject: 'Add a' }], more: 2, began_at: at },
    };
    const text = detailsText('git-changes', { git_state: g, note: null }, null).split('\n');
    expect(text[0]).toBe('git changes (the workflow as it stands):');
    expect(text).toContain('branch: main');
    expect(text).toContain('uncommitted: 1 modified');
    expect(text).toContain('changed since the workflow began:');
    expect(text).toContain('  - src/a.ts');
    expect(text).toContain(`commits since the workflow began (${at}), the newest 1 of 3, oldest first:`);
    expect(detailsText('git-changes', { git_state: null, note: '/tmp/x is not a git repository' }, 's')).toBe(
      'git changes (as of snapshot s):\ngit: /tmp/x is not a git repository',
    );
  });

  it('prints the test state and every run', () => {
    const now = testState({ failing_tests: ['login works'], passed: 3, failed: 1 });
    const text = detailsText('test-state', { test_state: now, runs: [testState(), now] }, null).split('\n');
    expect(text).toEqual([
      'test state (the workflow as it stands):',
      'phase: red',
      `last run: ${at}  npm test  -> 1 failed  (red, 3 passed, 1 failed)`,
      'failing:',
      '  - login works',
      '2 test runs, oldest first:',
      `  ${at}  npm test  -> 1 failed  (red)`,
      `  ${at}  npm test  -> 1 failed  (red, 3 passed, 1 failed)`,
    ]);
  });
});

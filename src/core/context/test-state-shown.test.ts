import { describe, expect, it } from 'vitest';
import { changedSince, tddOf } from './context-parts.js';

const ran = '2026-01-01T10:00:00.000Z';
const write = (summary: string, timestamp = '2026-01-01T10:05:00.000Z') => ({
  kind: 'file_write',
  timestamp,
  summary,
});

describe('the files changed after a test run that its result no longer vouches for', () => {
  it('counts code and configuration changed after the run, not before it', () => {
    expect(
      changedSince(
        [
          write('edited src/app.py'),
          write('created pyproject.toml'),
          write('edited src/old.py', '2026-01-01T09:00:00.000Z'),
        ],
        ran,
      ),
    ).toBe(2);
  });

  it('leaves out what no test run reads: prose, and the CI service’s own configuration', () => {
    const notRead = [
      'edited README.md',
      'created docs/adr/0015-lineage.md',
      'edited /repo/.github/workflows/ci.yml',
      'edited .gitlab-ci.yml',
      'created .circleci/config.yml',
    ];
    expect(
      changedSince(
        notRead.map((s) => write(s)),
        ran,
      ),
    ).toBe(0);
    // a GitHub setting that is not a workflow is counted (a test may read it)
    expect(changedSince([write('edited .github/CODEOWNERS')], ran)).toBe(1);
  });
});

describe('the last test command as the TDD state shows it', () => {
  const state = (last_test_command: string) => ({
    phase: 'green' as const,
    failing_tests: [],
    expected_failures: [],
    last_test_run_at: ran,
    last_test_command,
    last_test_output_summary: '2297 passed, 0 failed, 1 skipped',
  });
  it('drops the cd to the recording machine’s worktree; a cd to a package of the repository stays', () => {
    const command = (c: string) => tddOf(state(c), 5)?.command;
    expect(command('cd /Users/a/entirecontext-mcp && uv run pytest --tb=short -q')).toBe(
      'uv run pytest --tb=short -q',
    );
    expect(command('cd "/Users/a/my app"; npm test')).toBe('npm test');
    expect(command('cd packages/api && npm test')).toBe('cd packages/api && npm test');
  });
});

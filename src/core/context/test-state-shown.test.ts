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
    // nor what the test tools write themselves: coverage data, their caches
    const made = ['deleted .coverage', 'deleted /repo/htmlcov', 'edited src/__pycache__/app.cpython-312.pyc'];
    expect(
      changedSince(
        made.map((s) => write(s)),
        ran,
      ),
    ).toBe(0);
    expect(changedSince([write('edited src/coverage.py')], ran)).toBe(1);
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

describe('a run that failed by its coverage threshold alone', () => {
  it('says every test passed and names the threshold, with no failing test', () => {
    const tdd = tddOf(
      {
        phase: 'red',
        failing_tests: ['FAIL Required test coverage of 85.0% not reached. Total coverage: 75.65%'],
        expected_failures: [],
        failed: 0,
        last_test_run_at: ran,
        last_test_command: 'make test',
        last_test_output_summary: '11 passed, 0 failed, coverage 76%',
      },
      5,
    );
    expect(tdd).toMatchObject({
      failing_total: 0,
      unexpected: [],
      coverage_unmet: 'FAIL Required test coverage of 85.0% not reached. Total coverage: 75.65%',
    });
    // a test failing beside it is a failing test as ever
    const failing = tddOf(
      {
        phase: 'red',
        failing_tests: ['tests/test_app.py::test_one'],
        expected_failures: [],
        failed: 1,
        last_test_run_at: ran,
        last_test_command: 'make test',
        last_test_output_summary: '10 passed, 1 failed',
      },
      5,
    );
    expect(failing).toMatchObject({ failing_total: 1, coverage_unmet: null });
  });
});

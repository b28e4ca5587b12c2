import { describe, expect, it } from 'vitest';
import { changedSince } from './context-parts.js';

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

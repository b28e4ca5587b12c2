import { describe, expect, it } from 'vitest';
import type { CiState } from '../schemas/records.js';
import { bareSnapshot } from '../../../test/helpers/session-snapshot.js';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import { compileResumeContext, defaultLimits } from './resume-context.js';
import { renderResumeContext } from './render-context.js';

/**
 * The hk session's shape: the last local run (cargo test, green), then files changed, committed and pushed, then CI
 * read all green on the push. TDD State says the run is older than the changes and that CI passed on them.
 */
const ran = '2026-07-16T03:59:39.824Z';
const effect = (id: string, timestamp: string, kind: 'file_write' | 'push', summary: string) => ({
  id,
  timestamp,
  task_id: null,
  kind,
  tool: 'exec',
  summary,
});
const edits = [
  effect('e1', '2026-07-16T04:06:36.053Z', 'file_write', 'edited src/cli/install.rs'),
  effect('e2', '2026-07-16T04:07:19.096Z', 'file_write', 'edited src/cli/util/no_commit_to_branch.rs'),
];
const push = effect('p1', '2026-07-16T04:08:12.792Z', 'push', 'pushed codex/fix -> codex/fix');
const ci = (over: Partial<CiState> = {}): CiState => ({
  outcome: 'pass',
  passed: 18,
  failed: 0,
  failing: [],
  command: 'gh pr checks 1075 --repo jdx/hk',
  commit: null,
  at: '2026-07-16T04:19:30.818Z',
  ...over,
});

function snapshot(side_effects: SessionSnapshot['side_effects'], ci_state: CiState | null): SessionSnapshot {
  return bareSnapshot({
    created_at: '2026-07-16T04:20:00.000Z',
    issue: { id: 'ISSUE-1', title: 'Fix CI', description: '' },
    test_state: {
      phase: 'green',
      failing_tests: [],
      expected_failures: [],
      last_test_run_at: ran,
      last_test_command: 'cargo test test_get_current_branch',
      last_test_output_summary: '2 passed, 0 failed',
    },
    ci_state,
    side_effects,
  });
}

const tdd = (snap: SessionSnapshot, ci_report = defaultLimits.ci_report) => {
  const md = renderResumeContext(compileResumeContext(snap, 1, [], { ...defaultLimits, ci_report }));
  return md.slice(md.indexOf('### TDD State')).split('\n\n')[0];
};

describe('TDD State with the CI reports read after the last local run', () => {
  it('says CI passed on the changes pushed after the run, not to run it again before trusting it', () => {
    const said = tdd(snapshot([...edits, push], ci()));
    expect(said).toContain(
      '- 2 files changed after this run, then pushed: CI passed on them since (18 of 18 checks passed, read by `gh pr checks 1075 --repo jdx/hk`); the local run is older than them',
    );
    expect(said).not.toContain('before trusting it');
  });

  it('keeps "run it again" when the changes were not pushed before the CI report', () => {
    const said = tdd(snapshot(edits, ci()));
    expect(said).toContain(
      '- 2 files changed after this run: run it again before trusting it (CI passed after it',
    );
    expect(said).toContain('no push of these changes was seen before that report');
  });

  it('says a failing CI after the last local pass, with its failed checks and commit', () => {
    const failed = ci({
      outcome: 'fail',
      passed: 16,
      failed: 2,
      failing: ['msrv', 'lint'],
      commit: 'ba28c632f148',
    });
    const said = tdd(snapshot([...edits, push], failed));
    expect(said).toContain('- 2 files changed after this run: run it again before trusting it\n');
    expect(said).toContain(
      '- CI failed after this run: 2 of 18 checks failed (msrv, lint) on ba28c63, read by `gh pr checks 1075 --repo jdx/hk`',
    );
  });

  it('says a CI pass with no change since the run, and nothing of a CI report older than the run', () => {
    expect(tdd(snapshot([], ci()))).toContain('- CI passed after this run too: 18 of 18 checks passed');
    expect(tdd(snapshot([], ci({ at: '2026-07-16T03:00:00.000Z' })))).not.toContain('CI');
  });

  it('short of room, loses the command first, then a pass that only confirms the run; never what changes its reading', () => {
    expect(tdd(snapshot([], ci()), 2)).toMatch(/- CI passed after this run too: 18 of 18 checks passed$/m);
    expect(tdd(snapshot([], ci()), 1)).not.toContain('CI');
    expect(tdd(snapshot([...edits, push], ci()), 1)).toContain(
      '- 2 files changed after this run, then pushed: CI passed on them since (18 of 18 checks passed); the local run is older than them',
    );
    const failed = ci({ outcome: 'fail', passed: 16, failed: 2, failing: ['msrv', 'lint'] });
    expect(tdd(snapshot([], failed), 1)).toMatch(
      /- CI failed after this run: 2 of 18 checks failed \(msrv, lint\)$/m,
    );
  });

  it('counts only what a cut report kept', () => {
    expect(tdd(snapshot([...edits, push], ci({ passed: 9, cut: true })))).toContain(
      'CI passed on them since (9 checks passed, of those its cut output kept, read by',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { bash, say } from '../../../../test/helpers/tool-results.js';
import { ciChecks, ciFailureOf, failedJobLogs, findCiFailures } from './ci-checks.js';
import { resolveKnown } from './resolve-known.js';

/** `gh run view <id>` as gh prints it for a person (jobs with their time and ID, steps indented under them). */
const runView = (deploy: '✓' | 'X') =>
  [
    `${deploy} main Fly Deploy · 33276290574`,
    'Triggered via push about 3 minutes ago',
    '',
    'JOBS',
    '✓ Test and Build in 40s (ID 99163493552)',
    `${deploy} Deploy app in 1m3s (ID 99163574759)`,
    '  ✓ Set up job',
    `  ${deploy} Deploy to Fly.io`,
    '',
    'ANNOTATIONS',
    'X Process completed with exit code 1.',
  ].join('\n');

/** `gh run view --log-failed`, kept through `grep -n`: job, step, time and the log line. */
const failedLog = [
  '281:Deploy app\tDeploy to Fly.io\t2026-08-29T21:33:08.0282356Z #14 6.118 npm error code EUSAGE',
  '283:Deploy app\tDeploy to Fly.io\t2026-08-29T21:33:08.2032038Z #14 6.139 npm error `npm ci` can only install packages when your package.json and package-lock.json are in sync.',
].join('\n');

describe('CI failures read with the GitHub CLI', () => {
  it("reads a run's jobs from gh run view as a person sees it, not its steps", () => {
    expect(ciChecks(runView('X'))).toEqual([
      { name: 'Test and Build', status: 'pass' },
      { name: 'Deploy app', status: 'fail' },
    ]);
  });

  it('reads the failed jobs of --log-failed and the log line that explains the failure', () => {
    expect(failedJobLogs(failedLog)).toEqual({
      jobs: ['Deploy app'],
      cause: 'npm error code EUSAGE',
    });
    expect(failedJobLogs('no log lines here')).toEqual({ jobs: [], cause: null });
  });

  it("takes the cause from a later read of the logs when the first one showed only the runner's set-up", () => {
    const line = (time: string, text: string) =>
      `type-check\tUNKNOWN STEP\t2026-08-19T02:44:${time}Z ${text}`;
    const setUp = [
      line('20.0585554', "Current runner version: '2.336.0'"),
      line('20.0609629', '##[group]Runner Image Provisioner'),
      line('20.0617871', '24.04.4'),
    ].join('\n');
    expect(failedJobLogs(setUp)).toEqual({ jobs: ['type-check'], cause: null });
    const grepped = [
      line('26.5735035', '##[group]Run uv run mypy src/app/'),
      line(
        '29.6371572',
        'src/app/server.py:13: error: Cannot find implementation or library stub for module named "mcp.server"',
      ),
      line('29.7687507', '##[error]Process completed with exit code 1.'),
    ].join('\n');
    const found = findCiFailures(
      [
        say('check the failing PR checks', 'user'),
        ...bash('gh run view 32209621538 --log-failed 2>/dev/null | head -200', 0, setUp),
        ...bash("gh run view 32209621538 --log-failed | grep -E '(error|mypy)'", 0, grepped),
      ],
      null,
    );
    expect(found.map((e) => e.error_message)).toEqual([
      'CI check failed: type-check: src/app/server.py:13: error: Cannot find implementation or library stub for module named "mcp.server"',
    ]);
  });

  it("is one error a turn, said with the failed job's log read after the run, fixed when the job passes", () => {
    const found = findCiFailures(
      [
        say('fix CI', 'user'),
        ...bash('gh run view 33276290574 2>&1 | head -50', 0, runView('X')),
        ...bash('gh run view 33276290574 --log-failed 2>&1 | grep -n "npm error" | head', 0, failedLog),
        say('it passes now, check', 'user'),
        ...bash('gh run watch 33276638069 --exit-status', 0, runView('✓')),
      ],
      null,
    );
    expect(found.map((e) => [e.error_type, e.error_message, e.resolution])).toEqual([
      ['ci_failure', 'CI check failed: Deploy app: npm error code EUSAGE', 'fixed'],
    ]);
  });

  it('fixes a failure the same job got past: its later run failed for another cause, which stays open', () => {
    const laterLog = (at: string) =>
      `104:Deploy app\tDeploy to Fly.io\t2026-08-29T21:41:${at}Z #16 ERROR: process "/bin/sh -c vp build" did not complete successfully: exit code: 127`;
    const found = findCiFailures(
      [
        say('fix CI', 'user'),
        ...bash('gh run view 33276290574 --log-failed 2>&1 | grep -n "npm error" | head', 0, failedLog),
        say('<task-notification>the watch ended</task-notification>', 'user'),
        ...bash('gh run watch 33276638069 --exit-status', 1, runView('X')),
        ...bash('gh run view 33276638069 --log-failed | grep -n ERROR', 0, laterLog('06.39')),
        say('try again', 'user'),
        // the same cause again, with other times and numbers: not another cause
        ...bash('gh run view 33276999999 --log-failed | grep -n ERROR', 0, laterLog('59.01')),
      ],
      null,
    );
    expect(found.map((e) => [e.error_message, e.resolution, e.resolution_notes])).toEqual([
      [
        'CI check failed: Deploy app: npm error code EUSAGE',
        'fixed',
        expect.stringMatching(
          /^check Deploy app got past it: its next failure has another cause \(transcript line \d+\)$/,
        ),
      ],
      [
        'CI check failed: Deploy app: ERROR: process "/bin/sh -c vp build" did not complete successfully: exit code: 127',
        'unresolved',
        null,
      ],
      [
        'CI check failed: Deploy app: ERROR: process "/bin/sh -c vp build" did not complete successfully: exit code: 127',
        'unresolved',
        null,
      ],
    ]);
  });

  it('fixes a failure an earlier import recorded as one import of both pieces would: the check passing, or moving on', () => {
    const first = [
      say('fix CI', 'user'),
      ...bash('gh run view 33276290574 --log-failed 2>&1 | grep -n "npm error" | head', 0, failedLog),
    ];
    const [open] = findCiFailures(first, null);
    expect(ciFailureOf(open?.error_message ?? '')).toEqual({
      names: ['Deploy app'],
      cause: 'npm error code EUSAGE',
    });
    const known = [{ id: 'e1', error_type: 'ci_failure', error_message: open?.error_message ?? '' }];
    const passes = [
      say('it passes now, check', 'user'),
      ...bash('gh run watch 33276638069', 0, runView('✓')),
    ];
    const whole = findCiFailures([...first, ...passes], null);
    const [later] = resolveKnown(known, passes);
    expect(later?.notes).toBe(whole[0]?.resolution_notes);
    expect(later?.notes).toMatch(/^check Deploy app passed later \(transcript line \d+\)$/);
    // another cause for the same job: got past it
    const movedOn = [
      say('try again', 'user'),
      ...bash(
        'gh run view 33276638069 --log-failed | grep -n ERROR',
        0,
        'Deploy app\tDeploy to Fly.io\t2026-08-29T21:41:06.39Z ERROR: process "/bin/sh -c vp build" did not complete successfully: exit code: 127',
      ),
    ];
    expect(resolveKnown(known, movedOn)[0]?.notes).toMatch(/^check Deploy app got past it/);
    // still failing for the same cause, or another check passing: still open
    expect(
      resolveKnown(known, [say('again', 'user'), ...bash('gh run view 1 --log-failed', 0, failedLog)]),
    ).toEqual([]);
    expect(resolveKnown(known, bash('gh pr checks 5', 0, 'lint\tpass\t1m\thttps://x\n'))).toEqual([]);
  });
});

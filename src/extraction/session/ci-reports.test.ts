import { describe, expect, it } from 'vitest';
import { bash, cell } from '../../../test/helpers/tool-results.js';
import { findCiReports } from './ci-reports.js';

/**
 * CI reports as real sessions read them (codex/hk: `gh pr checks --json` while checks start and once all passed, and
 * `gh run view --json jobs` mid-run; claude-code/entirecontext: `gh pr checks --jq '"\(.name): \(.state)"'` mid-run
 * and done, `gh run list --json` with a failed workflow).
 */
const prChecks = (bucket: string, state: string, names: string[]) =>
  JSON.stringify(
    names.map((name) => ({ bucket, link: 'https://github.com/jdx/hk/actions/runs/1', name, state })),
  );

describe('CI reports read with the GitHub CLI', () => {
  it('reads every check passing as a passing CI, with its counts and the command', () => {
    const cmd = 'gh pr checks 1075 --repo jdx/hk --json name,state,bucket,link,workflow';
    const out = `CHECKS\n${prChecks('pass', 'SUCCESS', ['final', 'msrv', 'ci-windows', 'build-windows'])}`;
    const [report] = findCiReports([cell([cmd], out)]);
    expect(report).toMatchObject({ outcome: 'pass', passed: 4, failed: 0, failing: [], command: cmd });
  });

  it('leaves out a report of checks still running, none failed yet (JSON, a job mid-run, name: STATE lines)', () => {
    const starting = prChecks('pending', 'IN_PROGRESS', ['Cursor Bugbot', 'Socket Security: Project Report']);
    const jobs = JSON.stringify({
      conclusion: '',
      jobs: [
        { conclusion: 'success', name: 'build-windows', status: 'completed' },
        { conclusion: '', name: 'msrv', status: 'in_progress' },
      ],
      status: 'queued',
    });
    const lines = 'type-check: SUCCESS\nclaude-review: IN_PROGRESS\nlint: SUCCESS\ntest (3.12): IN_PROGRESS';
    const entries = [
      cell(['gh pr checks 1075 --repo jdx/hk --json name,state,bucket,link'], starting),
      cell(['gh run view 29470622663 --repo jdx/hk --json status,conclusion,url,jobs'], jobs),
      ...bash(`gh pr checks 233 --json name,state --jq '.[] | "\\(.name): \\(.state)"'`, 0, lines),
    ];
    expect(findCiReports(entries)).toEqual([]);
  });

  it('reads name: STATE lines all SUCCESS as passing, and a failed workflow as failing CI', () => {
    const done = 'CodeQL: SUCCESS\ntype-check: SUCCESS\nlint: SUCCESS\ntest (3.12): SUCCESS';
    const runs = [
      '{"conclusion":"success","databaseId":32209621550,"name":"Tidy Pilot","status":"completed"}',
      '{"conclusion":"failure","databaseId":32209621538,"name":"CI","status":"completed"}',
    ].join('\n');
    const reports = findCiReports([
      ...bash(`gh pr checks 233 --json name,state --jq '.[] | "\\(.name): \\(.state)"'`, 0, done),
      ...bash(
        'gh run list --branch dependabot/uv/mcp-2.0.0 --limit 3 --json databaseId,name,status,conclusion',
        0,
        runs,
      ),
    ]);
    expect(reports.map((r) => [r.outcome, r.passed, r.failed, r.failing])).toEqual([
      ['pass', 4, 0, []],
      ['fail', 1, 1, ['CI']],
    ]);
  });

  it('says a failure even while other checks still run, and the commit gh run list names', () => {
    const out =
      '[{"conclusion":"failure","headSha":"ba28c632f14856f6a6fec32d99c5cbabb7ccf070","status":"completed","workflowName":"ci"},' +
      '{"conclusion":"","headSha":"55c7b812f56899f7b38cb95eff42230c534c969f","status":"in_progress","workflowName":"lint"}]';
    const [report] = findCiReports([
      cell(['gh run list --repo jdx/hk --limit 5 --json headSha,status,conclusion'], out),
    ]);
    expect(report).toMatchObject({
      outcome: 'fail',
      failing: ['ci'],
      commit: 'ba28c632f14856f6a6fec32d99c5cbabb7ccf070',
    });
  });

  it('marks a report whose output the transcript cut: its counts are of what it kept', () => {
    const entry = {
      ...cell(['gh pr checks 12 --json name,state,bucket'], prChecks('pass', 'SUCCESS', ['a', 'b'])),
      truncated: true,
    };
    expect(findCiReports([entry])[0]).toMatchObject({ outcome: 'pass', passed: 2, cut: true });
  });
});

import { describe, expect, it } from 'vitest';
import { bash } from '../../../../test/helpers/tool-results.js';
import { ciChecks } from './ci-checks.js';
import { findErrors } from './error-rules.js';
import { statusAnswers } from './exit-status.js';

/**
 * Exit statuses that answer what the command asked (POSIX questions, `timeout`, `xargs`, `gh pr checks`), with
 * outputs as the programs print them, and the same statuses when the output says something went wrong.
 */
describe('a non-zero status that is the answer, not a failure', () => {
  it('a question guarding an && chain said no and nothing was printed', () => {
    expect(statusAnswers('[ -f .env ] && cat .env', 1, '')).toBe(true);
    expect(statusAnswers('which docker && docker --version', 1, 'Exit code 1')).toBe(true);
    expect(statusAnswers('command -v uv >/dev/null && uv --version', 1, '')).toBe(true);
    // the chain went on and its program failed, saying so
    expect(
      statusAnswers('which docker && docker compose up', 1, 'no configuration file provided: not found'),
    ).toBe(false);
    expect(statusAnswers('test -d node_modules && npm run build', 1, 'error TS2304: Cannot find name')).toBe(
      false,
    );
  });

  it('ls naming files that may be missing: which are there is its answer, a read error is not', () => {
    expect(
      statusAnswers('ls bun.lock* package-lock.json pnpm-lock.yaml 2>/dev/null', 2, 'Exit code 2\nbun.lock'),
    ).toBe(true);
    const missing = "ls: cannot access 'yarn.lock': No such file or directory\npackage-lock.json";
    expect(statusAnswers('cat package.json && ls package-lock.json yarn.lock', 2, missing)).toBe(true);
    expect(statusAnswers('ls docs/', 1, 'ls: docs/: No such file or directory')).toBe(true);
    expect(
      statusAnswers('ls /root/secrets', 2, "ls: cannot open directory '/root/secrets': Permission denied"),
    ).toBe(false);
    expect(statusAnswers('ls missing && npm run build', 2, 'error TS2304: Cannot find name')).toBe(false);
  });

  it('diff and git diff --exit-code: the differing lines are the files, not a complaint', () => {
    const patch = [
      '--- a/src/load.ts',
      '+++ b/src/load.ts',
      '@@ -10,3 +10,3 @@',
      '-    throw new Error(`invalid config: ${path}`);',
      '+    return null;',
    ].join('\n');
    expect(statusAnswers('diff -u a/src/load.ts b/src/load.ts', 1, patch)).toBe(true);
    expect(
      statusAnswers(
        'git diff --exit-code',
        1,
        `diff --git a/src/load.ts b/src/load.ts\nindex 1..2 100644\n${patch}`,
      ),
    ).toBe(true);
    expect(statusAnswers('diff old.txt new.txt', 1, '3c3\n< fatal: old\n---\n> fatal: new')).toBe(true);
    expect(statusAnswers('diff -u a.txt b.txt', 2, 'diff: b.txt: No such file or directory')).toBe(false);
  });

  it('timeout 124 around a server that ran until stopped is a smoke test; a test run timing out hangs', () => {
    const vite = '  VITE v5.4.2  ready in 312 ms\n\n  ➜  Local:   http://localhost:5173/';
    expect(statusAnswers('timeout 10 npm run dev', 124, vite)).toBe(true);
    expect(statusAnswers('timeout 60 npm test', 124, ' RUN  v1.6.0 /app')).toBe(false);
    expect(
      statusAnswers(
        'timeout 10 node server.js',
        124,
        'Error: listen EADDRINUSE: address already in use :::3000',
      ),
    ).toBe(false);
    expect(statusAnswers('timeout 5 ./bin/worker', 124, '')).toBe(false);
  });

  it('nothing to stop: pkill matching no process, xargs kill fed by a lookup that found none', () => {
    expect(statusAnswers('pkill -f vite', 1, '')).toBe(true);
    expect(statusAnswers('lsof -ti:3000 | xargs kill -9', 123, '')).toBe(true);
    expect(statusAnswers('lsof -ti:3000 | xargs kill -9', 123, 'kill: (4121): Operation not permitted')).toBe(
      false,
    );
    expect(statusAnswers('pkill -f vite', 2, 'pkill: invalid option -- z')).toBe(false);
  });

  it('1 from a search whose program was never found is no "no match": the shell says so', () => {
    const powershell =
      'rg: \nLine |\n   2 |  rg -n "OnSpawn|OnDespawn" Source\n     |  ~~\n     | The term \'rg\' is not recognized as a name of a cmdlet, function, script file, or executable program.';
    expect(statusAnswers('rg -n "OnSpawn|OnDespawn" Source', 1, powershell)).toBe(false);
    expect(statusAnswers('rg -l TODO src', 1, 'bash: line 1: rg: command not found')).toBe(false);
    const [error] = findErrors(bash('rg -n "OnSpawn|OnDespawn" Source', 1, powershell), null);
    expect(error?.error_message).toContain("The term 'rg' is not recognized");
    // near miss: a match that quotes the words is the files' text, and a search that found nothing said nothing
    expect(statusAnswers('grep -rn "not found" docs', 1, '')).toBe(true);
    expect(statusAnswers('rg -c "command not found" logs', 1, '')).toBe(true);
  });

  it("xargs kill given no pid prints kill's usage and ends 123: still nothing to stop", () => {
    const bashUsage =
      'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]';
    expect(statusAnswers('lsof -t -i tcp:5173 | xargs kill', 123, `Exit code 123\n${bashUsage}`)).toBe(true);
    const bsdUsage = 'usage: kill [-s signal_name] pid ...\n       kill -l [exit_status]';
    expect(statusAnswers('pgrep -f "celery worker" | xargs kill -TERM', 123, bsdUsage)).toBe(true);
    // near misses: a pid that could not be killed, and a list that is no question (cat always has something)
    expect(statusAnswers('lsof -t -i tcp:5173 | xargs kill', 123, 'kill: (991): No such process')).toBe(
      false,
    );
    expect(statusAnswers('cat run/pids | xargs kill', 123, bashUsage)).toBe(false);
    expect(findErrors(bash('lsof -t -i tcp:5173 | xargs kill', 123, bashUsage), null)).toEqual([]);
  });
});

describe('gh: the exit status of a CI report is the report', () => {
  const table =
    'build\tfail\t1m2s\thttps://github.com/o/r/actions/runs/1\nlint\tpass\t20s\thttps://github.com/o/r/actions/runs/2';
  it('gh pr checks 1 listing a failing check is one CI error, not a failed command too; 8 is pending', () => {
    expect(statusAnswers('gh pr checks 12', 1, table)).toBe(true);
    expect(
      statusAnswers('gh pr checks 12', 8, 'build\tpending\t0\thttps://github.com/o/r/actions/runs/1'),
    ).toBe(true);
    expect(findErrors(bash('gh pr checks 12', 1, table), null).map((e) => e.error_type)).toEqual([
      'ci_failure',
    ]);
    // no checks listed: gh itself failed
    expect(statusAnswers('gh pr checks 12', 1, "no checks reported on the 'fix-x' branch")).toBe(false);
    expect(
      statusAnswers('gh run view 42 --exit-status', 1, 'X main CI · 42\nJOBS\nX build\ntest: fail'),
    ).toBe(true);
  });

  it('gh run list: the newest run of each workflow stands; the plain table is read too', () => {
    const json =
      '[{"conclusion":"success","name":"CI"},{"conclusion":"failure","name":"CI"},{"conclusion":"failure","name":"Deploy"}]';
    expect(ciChecks(json)).toEqual([
      { name: 'CI', status: 'pass' },
      { name: 'Deploy', status: 'fail' },
    ]);
    const plain = [
      'completed\tsuccess\tFix parser\tCI\tmain\tpush\t9911\t2m3s\t1h',
      'completed\tfailure\tAdd parser\tCI\tmain\tpush\t9907\t1m58s\t3h',
      'completed\tfailure\tRelease 1.2\tRelease\tmain\tpush\t9900\t4m1s\t5h',
    ].join('\n');
    expect(ciChecks(plain)).toEqual([
      { name: 'CI', status: 'pass' },
      { name: 'Release', status: 'fail' },
    ]);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude } from '../helpers/agent-workspace.js';
import { batonBin } from '../helpers/cli.js';
import { startDaemonProcess, type DaemonProcess } from '../helpers/raw-http.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';

const daemons: DaemonProcess[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of daemons.splice(0)) await d.stop();
});

const until = async (what: string, probe: () => boolean) => {
  const end = Date.now() + 30_000;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Baton's own client (run, recovery) sends the executor token, and says which one a daemon refused. */
describe('the executor token on the Baton side', () => {
  it('`baton run --executor remote` sends BATON_EXECUTOR_TOKEN or $BATON_HOME/executor-token, and names the one refused', async () => {
    const w = agentWorkspace({ BATON_AGENT_BIN: fakeClaude, BATON_EXECUTOR_TOKEN: '' });
    expect((await w.create()).code).toBe(0);
    const d = await startDaemonProcess(w.home);
    daemons.push(d);
    const file = join(w.home, 'executor-token');
    const token = readFileSync(file, 'utf8').trim();
    const run = (env: Record<string, string> = {}) =>
      w.cli(
        [
          'run',
          '--agent',
          'claude-code',
          '--max-tasks',
          '1',
          '--executor',
          'remote',
          '--executor-url',
          d.url,
        ],
        env,
      );

    const wrongVar = await run({ BATON_EXECUTOR_TOKEN: 'not-the-executor-token-0000' });
    expect(wrongVar.code).toBe(2);
    expect(wrongVar.stderr).toContain(
      `baton: the executor ${d.url} answered /health with 401: it refused the token from the variable BATON_EXECUTOR_TOKEN; set BATON_EXECUTOR_TOKEN to the token \`baton executor token\` prints`,
    );
    renameSync(file, `${file}.moved`);
    const none = await run();
    renameSync(`${file}.moved`, file);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`it needs a token and Baton has none (the file ${file} does not exist)`);
    writeFileSync(file, 'a-stale-token-of-another-daemon\n');
    const wrongFile = await run();
    writeFileSync(file, `${token}\n`);
    expect(wrongFile.stderr).toContain(`it refused the token from the file ${file}`);
    expect(w.count('task.completed')).toBe(0);

    // The file the daemon created (same BATON_HOME), then the variable: both work.
    const byFile = await run();
    expect(byFile.stderr).toBe('');
    expect(byFile.code).toBe(0);
    expect(w.count('task.completed')).toBe(1);
    const byVar = await run({ BATON_EXECUTOR_TOKEN: token, BATON_HOME: w.home });
    expect(byVar.code).toBe(0);
    expect(w.count('task.completed')).toBe(2);
    const rows = (await w.cli(['executors', 'list'])).json<{ runtime: string; endpoint: string }[]>();
    expect(rows.every((r) => r.runtime === 'remote' && r.endpoint === d.url)).toBe(true);
  }, 90_000);

  it('`baton run --executor remote` at a host that is not there says so before anything starts', async () => {
    const w = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
    expect((await w.create()).code).toBe(0);
    // a port nothing listens on any more
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((r) => closed.close(r));
    const r = await w.cli(['run', '--agent', 'claude-code', '--executor', 'remote', '--executor-url', url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `baton: cannot reach the agent host ${url} (ECONNREFUSED): start \`baton executor serve\` there, or point --executor-url (variable BATON_EXECUTOR_URL) at it. Nothing was changed`,
    );
    expect(w.count('task.started')).toBe(0);
    expect((await w.cli(['status'])).json<{ workflow: { status: string } }>().workflow.status).toBe(
      'pending',
    );
  });

  it('`baton executors recover` reports a refused token as the reason, not as an unreachable host', async () => {
    const w = agentWorkspace({ BATON_AGENT_BIN: fakeClaude, FAKE_DELAY_MS: '400' });
    expect((await w.create()).code).toBe(0);
    const d = await startDaemonProcess(w.home);
    daemons.push(d);
    const runner = spawn(
      process.execPath,
      [
        batonBin,
        'run',
        '--agent',
        'claude-code',
        '--heartbeat',
        '200ms',
        '--executor',
        'remote',
        '--executor-url',
        d.url,
      ],
      { cwd: w.repo, env: hermeticEnv(w.env), stdio: 'ignore' },
    );
    children.push(runner);
    await until('the agent running on the executor', () => w.count('agent.token_saved') >= 1);
    const gone = new Promise((r) => runner.once('exit', r));
    runner.kill('SIGKILL');
    await gone;

    const r = await w.cli(['executors', 'recover', '--auto-resume', 'none'], {
      BATON_EXECUTOR_TOKEN: 'not-the-executor-token-0000',
    });
    expect(r.code).toBe(0);
    const report = r.json<{ executors: { action: string; reason: string | null }[] }>();
    expect(report.executors).toHaveLength(1);
    expect(report.executors[0]?.action).toBe('error');
    expect(report.executors[0]?.reason).toContain(
      `the executor ${d.url} answered /health with 401: it refused the token from the variable BATON_EXECUTOR_TOKEN`,
    );
    const rows = (await w.cli(['executors', 'list'])).json<{ error_message: string }[]>();
    expect(rows[0]?.error_message).toContain('BATON_EXECUTOR_TOKEN');
  }, 90_000);
});

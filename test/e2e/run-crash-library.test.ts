import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBaton } from '../../src/open-baton.js';
import { agentWorkspace, fakeClaude, pidAlive, until } from '../helpers/agent-workspace.js';

/**
 * The library reads through the same recipe as the CLI: a program that opens Baton after `baton run` was SIGKILLed
 * finds the workflow interrupted, the orphaned agent stopped, and gets the one line saying so.
 */
/** A `baton run` SIGKILLed while its agent (the fake Claude Code, with `env`) runs a command mid-task. */
async function crashedRun(env: Record<string, string> = {}) {
  const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude });
  expect((await ws.create()).code).toBe(0);
  const pidFile = join(ws.home, 'agent-child.pid');
  const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--heartbeat', '200ms'], {
    FAKE_HANG_MS: '60000',
    FAKE_CHILD_PIDFILE: pidFile,
    ...env,
  });
  const agent = await until('the agent to be mid-task', async () => {
    const rows = (await ws.cli(['executors', 'list'])).json<
      { pid: number | null; resume_token: string | null; session_state: string }[]
    >();
    return rows.find((r) => r.resume_token && r.pid && r.session_state === 'running') ?? null;
  });
  const started = await until('the agent to start a command', async () =>
    existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : null,
  );
  run.child.kill('SIGKILL');
  await run.exited;
  const lines: string[] = [];
  const client = await openBaton({
    home: ws.home,
    database: join(ws.home, 'baton.db'),
    cwd: ws.repo,
    env: {},
    warn: (l) => lines.push(l),
  });
  return { ws, run, agent: agent.pid as number, started, lines, client };
}

describe('a crashed `baton run` seen from the library (openBaton)', () => {
  it('reports the workflow interrupted and stops the orphaned agent, as any CLI command does', async () => {
    const { ws, run, agent, started, lines, client } = await crashedRun();
    try {
      const st = (await client.status({ cwd: ws.repo })) as {
        workflow: { status: string; interrupt_reason: string };
        driver: unknown;
      };
      expect(st.workflow.status).toBe('interrupted');
      expect(st.workflow.interrupt_reason).toContain(`pid ${run.child.pid}`);
      expect(st.driver).toBeNull();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^baton: wf-\S+: the driver `baton run --agent claude-code`/);
      expect(lines[0]).toContain(`its orphaned agent (pid ${agent}) was stopped`);
      await until('the orphaned agent to be gone', async () => !pidAlive(agent), 10_000);
      // and what it started: the agent leads its own process group, which is stopped whole
      await until(
        'the command the orphaned agent started to be gone',
        async () => !pidAlive(started),
        10_000,
      );
    } finally {
      await client.close();
    }
  });

  it('an orphaned agent that ignores SIGTERM gets SIGKILL: gone when it is said stopped', async () => {
    const { ws, agent, lines, client } = await crashedRun({ FAKE_IGNORE_TERM: '1' });
    try {
      await client.status({ cwd: ws.repo });
      expect(lines[0]).toContain(`its orphaned agent (pid ${agent}) was stopped`);
      expect(pidAlive(agent)).toBe(false);
    } finally {
      await client.close();
    }
  });
});

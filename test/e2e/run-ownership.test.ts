import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace, fakeClaude, pidAlive, until } from '../helpers/agent-workspace.js';
import { freshPostgresUrl } from '../helpers/postgres.js';
import { tempDir } from '../helpers/git-repo.js';

interface Executor {
  pid: number | null;
  resume_token: string | null;
  session_state: string;
  status: string;
}
interface Status {
  workflow: { id: string; status: string; interrupt_reason: string | null };
  driver: { pid: number; host: string; command: string; liveness: string } | null;
  tasks: { id: string; status: string }[];
}

const backends = [
  { name: 'SQLite', database: async () => undefined },
  { name: 'PostgreSQL', database: () => freshPostgresUrl('baton_run') },
];

/** A workspace whose agent is mid-task (it hangs after its first tool call) once `started` resolves. */
async function midTask(database: string | undefined, extra: string[] = []) {
  const ws = agentWorkspace({ BATON_AGENT_BIN: fakeClaude }, { database });
  expect((await ws.create()).code).toBe(0);
  const run = ws.spawnRun(['--json', 'run', '--agent', 'claude-code', '--heartbeat', '200ms', ...extra], {
    FAKE_HANG_MS: '60000',
  });
  const agent = await until('the agent to be mid-task', async () => {
    const rows = (await ws.cli(['executors', 'list'])).json<Executor[]>();
    const row = rows.find((r) => r.resume_token && r.pid && r.session_state === 'running');
    return row ?? null;
  });
  return { ws, run, agentPid: agent.pid as number };
}

describe.each(backends)('one owner per workflow, crashes noticed by any command ($name)', ({ database }) => {
  it('a second `baton run` is refused with exit 3 and a line naming the owner, its host and pid, and --take-over', async () => {
    const { ws, run, agentPid } = await midTask(await database());
    try {
      const second = await ws.cli(['run', '--agent', 'claude-code']);
      expect(second.code, second.stderr).toBe(3);
      const line = second.stderr.trim();
      expect(line.split('\n')).toHaveLength(1);
      expect(line).toContain('already has a driver');
      expect(line).toContain(`pid ${run.child.pid} on ${hostname()}`);
      expect(line).toContain('baton run --agent claude-code');
      expect(line).toMatch(/baton run -w wf-\S+ --agent claude-code --take-over/);
      // The second driver started nothing: one agent, still the first one.
      expect(pidAlive(agentPid)).toBe(true);
      const st = (await ws.cli(['status'])).json<Status>();
      expect(st.driver).toMatchObject({ pid: run.child.pid, host: hostname(), liveness: 'alive' });
      // and said to a person
      expect((await ws.said(['status'])).stdout).toMatch(
        new RegExp(
          `^driver: \`baton run --agent claude-code\` \\(pid ${run.child.pid} on ${hostname()}, alive, last heartbeat (?:just now|\\dm\\d\\ds ago)\\)$`,
          'm',
        ),
      );
    } finally {
      run.child.kill('SIGKILL');
      await run.exited;
    }
  });

  it('a `baton run` on another workflow of the same worktree is refused (exit 3) while the first runs; --share-worktree runs it, warned', async () => {
    const { ws, run, agentPid } = await midTask(await database());
    try {
      const first = (await ws.cli(['status'])).json<Status>().workflow.id;
      const other = (await ws.cli(['create', '--title', 'Other', '--task', 'T1:Other'])).json<{
        id: string;
      }>().id;
      const second = await ws.cli(['run', '-w', other, '--agent', 'claude-code']);
      expect(second.code, second.stderr).toBe(3);
      const line = second.stderr.trim();
      expect(line.split('\n')).toHaveLength(1);
      expect(line).toContain(
        `\`baton run --agent claude-code\` (pid ${run.child.pid} on ${hostname()}, last heartbeat`,
      );
      expect(line).toContain(
        `drives workflow ${first} in this worktree: both agents would edit the same files`,
      );
      expect(line).toContain(`\`baton run -w ${other} --agent claude-code --share-worktree\``);
      // nothing started for the second workflow, and it is free for a later run
      expect((await ws.storedEvents(other)).map((e) => e.type)).not.toContain('agent.launched');
      expect((await ws.cli(['status', '-w', other])).json<Status>().driver).toBeNull();
      const shared = await ws.cli(['run', '-w', other, '--agent', 'claude-code', '--share-worktree']);
      expect(shared.code, shared.stderr).toBe(0);
      expect(shared.stderr).toContain(
        `baton run: warning: \`baton run --agent claude-code\` (pid ${run.child.pid} on ${hostname()}`,
      );
      expect(shared.stderr).toContain(
        `drives workflow ${first} in this worktree: both agents will edit the same files (--share-worktree)`,
      );
      expect(shared.json<{ status: string }>().status).toBe('completed');
      // the first run's agent was left alone
      expect(pidAlive(agentPid)).toBe(true);
      // a third workflow, driven beside it (--share-worktree): taking the first over is refused before it stops
      // the first driver, not after
      const third = (await ws.cli(['create', '--title', 'Third', '--task', 'T1:Third'])).json<{
        id: string;
      }>().id;
      const beside = ws.spawnRun(
        ['--json', 'run', '-w', third, '--agent', 'claude-code', '--heartbeat', '200ms', '--share-worktree'],
        { FAKE_HANG_MS: '60000' },
      );
      try {
        await until('the third workflow to be driven', async () => {
          const d = (await ws.cli(['status', '-w', third])).json<Status>().driver;
          return d?.liveness === 'alive' ? d : null;
        });
        const takeOver = await ws.cli(['run', '-w', first, '--agent', 'claude-code', '--take-over']);
        expect(takeOver.code, takeOver.stderr).toBe(3);
        expect(takeOver.stderr).toContain(`drives workflow ${third} in this worktree`);
        expect(takeOver.stderr).not.toContain('taking over');
        expect(pidAlive(agentPid)).toBe(true);
        expect((await ws.cli(['status', '-w', first])).json<Status>().workflow.status).toBe('in_progress');
      } finally {
        beside.child.kill('SIGKILL');
        await beside.exited;
      }
    } finally {
      run.child.kill('SIGKILL');
      await run.exited;
    }
  });

  it('SIGKILL of `baton run` (no server): the next command reports the workflow interrupted, stops the orphaned agent and says so in one line', async () => {
    const { ws, run, agentPid } = await midTask(await database());
    run.child.kill('SIGKILL');
    await run.exited;
    expect(pidAlive(agentPid)).toBe(true); // orphaned: nobody reads its output any more
    const status = await ws.cli(['status']);
    expect(status.code, status.stderr).toBe(0);
    const st = status.json<Status>();
    expect(st.workflow.status).toBe('interrupted');
    expect(st.workflow.interrupt_reason).toContain(`pid ${run.child.pid} on ${hostname()}`);
    expect(st.driver).toBeNull();
    const notice = status.stderr.trim().split('\n');
    expect(notice).toHaveLength(1);
    expect(notice[0]).toContain('the workflow is now interrupted');
    expect(notice[0]).toContain(`its orphaned agent (pid ${agentPid}) was stopped`);
    await until('the orphaned agent to be gone', async () => !pidAlive(agentPid), 10_000);
    // Never an agent reported running that is not.
    const ss = (await ws.cli(['session-status', '--session', '1'])).json<{ is_agent_running: boolean }>();
    expect(ss.is_agent_running).toBe(false);
    const events = await ws.storedEvents(st.workflow.id);
    const interrupted = events.find((e) => e.type === 'workflow.interrupted');
    expect(interrupted?.data.recovery).toMatchObject({ detected_by: 'lease' });
    expect(events.filter((e) => e.type === 'snapshot.taken').length).toBeGreaterThan(0);
    // A second command finds nothing more to do: the crash was handled once.
    const again = await ws.cli(['status']);
    expect(again.stderr).toBe('');
    // `baton run` again resumes with the compiled context and the agent's own session, and finishes.
    const rerun = await ws.cli(['run', '--agent', 'claude-code']);
    expect(rerun.code, rerun.stderr).toBe(0);
    const report = rerun.json<{ status: string }>();
    expect(report.status).toBe('completed');
    const launched = (await ws.storedEvents(st.workflow.id)).filter((e) => e.type === 'agent.launched');
    expect(launched.at(-3)?.data.resume_token).toBeTruthy();
  });

  it('--take-over stops the live driver first, then goes on with the workflow', async () => {
    const { ws, run, agentPid } = await midTask(await database());
    const taken = await ws.cli(['run', '--agent', 'claude-code', '--take-over']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(await run.exited).not.toBeNull();
    expect(taken.stderr).toContain(`stopping \`baton run --agent claude-code\` (pid ${run.child.pid}`);
    expect(pidAlive(agentPid)).toBe(false);
    expect(taken.json<{ status: string }>().status).toBe('completed');
  });

  it("SIGKILL of the agent: the task fails with the real cause, `baton run` exits 1, and a new run finishes it in the agent's own session", async () => {
    const { ws, run, agentPid } = await midTask(await database());
    process.kill(agentPid, 'SIGKILL');
    const code = await run.exited;
    expect(code).toBe(1);
    const finished = run.out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const failed = finished.find((e) => e.event === 'task.finished');
    expect(failed).toMatchObject({ task_id: 'T1', outcome: 'killed' });
    expect(String(failed?.detail)).toContain(`pid ${agentPid}) was killed by SIGKILL`);
    const ss = (await ws.cli(['session-status'])).json<{ is_agent_running: boolean }>();
    expect(ss.is_agent_running).toBe(false);
    // killed from outside, it did nothing known to be wrong: the next session goes on from what it left
    const context = (await ws.cli(['context'])).json<{ markdown: string }>().markdown;
    expect(context).toContain(
      'Task "T1: First" was cut off: its agent was killed (by SIGKILL) before it finished. Check what it left',
    );
    // its conversation is whole up to the kill: the next run goes on in it, told where it was cut
    const token = (await ws.cli(['executors', 'list']))
      .json<Executor[]>()
      .find((r) => r.resume_token)?.resume_token;
    const prompts = tempDir('baton-prompts-');
    const rerun = await ws.cli(['--json', 'run', '--agent', 'claude-code'], { FAKE_PROMPT_DIR: prompts });
    expect(rerun.code, rerun.stderr).toBe(0);
    const said = rerun.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(said.find((e) => e.event === 'note')?.message).toBe(
      `the last run's agent was cut off in the middle of its turn on T1: going on in its own session (${token}; for a fresh one, \`baton pause -w ${String(said.at(-1)?.workflow_id)}\` before the run)`,
    );
    expect(said.at(-1)).toMatchObject({ status: 'completed' });
    const launched = (await ws.storedEvents(String(said.at(-1)?.workflow_id))).filter(
      (e) => e.type === 'agent.launched',
    );
    expect(launched.at(-3)?.data).toMatchObject({ resume_token: token, fallback: null });
    const first = readdirSync(prompts)
      .sort()
      .map((f) => readFileSync(join(prompts, f), 'utf8'))[0];
    expect(first).toContain(
      `An earlier attempt at this task failed: the agent (pid ${agentPid}) was killed by SIGKILL`,
    );
    expect(first).not.toContain('## Resume context');
  });
});

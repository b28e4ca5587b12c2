import { describe, expect, it } from 'vitest';
import type { Settings } from '../../src/config/settings.js';
import { continueRecovered } from '../../src/cli/agent-runs.js';
import type { agentSetup } from '../../src/cli/agent-setup.js';
import { LocalExecutor } from '../../src/executors/local/local-executor.js';
import {
  CrashWatch,
  executorRowFor,
  recoverAtStartup,
  sweepSilentSessions,
  type AgentProfile,
  type Executor,
  type ProcessPorts,
} from '../../src/service/runtime/index.js';
import type { ExecutorRow } from '../../src/storage/executor-registry.js';
import type { LeaseHolder } from '../../src/storage/lease-registry.js';
import { executorRow } from '../helpers/executor-row.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';
import { makeService, sqliteStore, TestClock } from '../helpers/service.js';

/**
 * Executor rows of sessions that are over: a row left `ready` by a crash (or a recovery that resumed nothing) is not a
 * live session once its workflow went on to a later one, nor once the heartbeat monitor interrupted it. Each is
 * closed the way every ended session is, and no later `baton serve` resumes its workflow from it.
 */
const factory = { forRow: () => new LocalExecutor() };
const ports: ProcessPorts = {
  hostname: 'here',
  holder: (kind, command): LeaseHolder => ({
    owner: 'here:100:1:me',
    host: 'here',
    pid: 100,
    pid_start_time: '1',
    kind,
    command,
  }),
  liveness: (p) => (p.host === 'here' ? 'alive' : 'unknown'),
  stop: async () => false,
};

async function setup(clock = new TestClock()) {
  const svc = makeService(sqliteStore(), { now: clock.now, watch: { ports, factory } });
  const repo = makeRepo();
  const wf = await svc.create({ title: 'sessions', tasks: [{ id: 'T1', title: 'one' }], worktree: repo });
  const ref = { workflowId: wf.id };
  await svc.startTask(ref, 'T1');
  const insert = async (session: number, over: Partial<ExecutorRow> = {}) => {
    const row = executorRow(
      wf.id,
      repo,
      {
        id: `ex-${session}`,
        session_number: session,
        session_state: 'waiting_for_input',
        resume_token: 'tok',
      },
      clock.now().toISOString(),
    );
    await svc.store.executors!.insert({ ...row, ...over });
  };
  /** The workflow goes on to its next session (a crash, then a resume). */
  const nextSession = async () => {
    await svc.interrupt(ref, 'the driver stopped');
    await svc.resume(ref);
  };
  const row = async (session: number) => svc.store.executors!.get(`ex-${session}`);
  return { svc, ref, id: wf.id, repo, insert, nextSession, row, clock };
}

/** The agent and executor a session starts with (`executorRowFor`). */
const claudeCode = {
  name: 'claude-code',
  supports_session_resume: true,
  supports_workspace_only: true,
} as AgentProfile;
const localExecutor = {
  runtime: 'local',
  endpoint: null,
  capabilities: async () => ({ supports_session_resume: true, supports_workspace_only: true }),
} as unknown as Executor;

const recover = (svc: ReturnType<typeof makeService>, autoResume: 'all' | 'waiting' = 'all') =>
  recoverAtStartup(svc, { factory, autoResume, isOwnerAlive: () => false });

describe("an earlier session's executor row is closed once the workflow went on", () => {
  it('startup recovery closes it and never resumes a workflow paused since', async () => {
    const { svc, ref, insert, nextSession, row } = await setup();
    // session 1's row, left ready/waiting_for_input by a server that resumed nothing
    await insert(1);
    await nextSession();
    await svc.pause(ref, { reason: 'lunch', force: true });
    const report = await recover(svc);
    expect(report.executors).toHaveLength(1);
    expect(report.executors[0]).toMatchObject({
      executor_id: 'ex-1',
      auto_resume: false,
      interrupted: false,
      executor_status: 'stopped',
      session_state: 'ended',
    });
    expect(await row(1)).toMatchObject({ status: 'stopped', session_state: 'ended' });
    expect((await svc.resolve(ref)).status).toBe('paused');
  });

  it('a session starting closes the rows of the earlier ones, saying why', async () => {
    const { svc, id, insert, nextSession, row } = await setup();
    await insert(1);
    await nextSession();
    const current = await executorRowFor(svc, id, claudeCode, localExecutor);
    expect(current).toMatchObject({ session_number: 2, status: 'starting' });
    expect(await row(1)).toMatchObject({ status: 'stopped', session_state: 'ended' });
    const changed = (await svc.store.readEvents(id, 0)).filter((e) => e.type === 'executor.changed');
    expect(changed.at(-1)?.data).toEqual({
      executor_id: 'ex-1',
      status: 'stopped',
      session_state: 'ended',
      reason: 'session 1 is over: the workflow went on to session 2',
    });
  });

  it("a session's row names the branch the worktree's work was last seen on, not the one the workflow began on", async () => {
    const { svc, id, repo, nextSession } = await setup();
    gitIn(repo, 'switch', '-q', '-c', 'feature');
    await nextSession();
    expect(await executorRowFor(svc, id, claudeCode, localExecutor)).toMatchObject({
      worktree_branch: 'feature',
    });
  });

  it('a crash a command notices closes them with the dead agent’s row', async () => {
    const { svc, ref, id, insert, nextSession, row } = await setup();
    await insert(1);
    await nextSession();
    await insert(2, { session_state: 'running', owner: 'there:42:7:them' });
    const leases = svc.store.leases!;
    await leases.acquire(
      id,
      {
        owner: 'there:42:7:them',
        host: 'there',
        pid: 42,
        pid_start_time: '7',
        kind: 'run',
        command: 'baton run',
      },
      1,
    );
    while (!(await leases.get(id))?.expired) await new Promise((r) => setTimeout(r, 5));
    expect(svc.watch).toBeInstanceOf(CrashWatch);
    expect((await svc.resolve(ref)).status).toBe('interrupted');
    expect(await row(2)).toMatchObject({ status: 'stopped', session_state: 'waiting_for_input' });
    expect(await row(1)).toMatchObject({ status: 'stopped', session_state: 'ended' });
    // a later server finds nothing left running of it
    expect((await recover(svc)).executors).toEqual([]);
  });

  it('a server that closes a stale row still names the workflow interrupted since, with what goes on', async () => {
    const { svc, id, insert, nextSession, row } = await setup();
    await insert(1);
    await nextSession();
    // session 2's driver died, noticed by a command: its row closed, the workflow interrupted; session 1's row stale
    await svc.interrupt({ workflowId: id }, 'the driver stopped');
    const report = await recover(svc);
    expect(await row(1)).toMatchObject({ status: 'stopped', session_state: 'ended' });
    expect(report.executors[0]?.reason).toBe('session 1 is over: the workflow went on to session 2');
    const lines: string[] = [];
    const home = tempDir('baton-home-');
    const settings = { home, runsDir: home, database: null } as unknown as Settings;
    const agent = { dockerImage: null, dockerEnv: [], owner: 'test' } as unknown as ReturnType<
      typeof agentSetup
    >;
    await continueRecovered(svc, report, agent, settings, {}, {}, (l) => lines.push(l));
    expect(lines).toEqual([
      `${id} was interrupted before this server started (its crash noticed by another command, or its run stopped) and is not resumed here: continue with \`baton run -w ${id}\``,
    ]);
  });
});

describe('a session the heartbeat monitor interrupts', () => {
  it('has its row closed, the reason kept on it; a later server resumes nothing from it', async () => {
    const clock = new TestClock();
    const { svc, ref, id, insert, row } = await setup(clock);
    await insert(1, { session_state: 'running' });
    clock.advance(120_000);
    const swept = await sweepSilentSessions(svc, { silenceMs: 60_000, factory });
    expect(swept).toEqual({ silent: ['ex-1'], interrupted: [id] });
    expect((await svc.resolve(ref)).status).toBe('interrupted');
    const closed = await row(1);
    expect(closed).toMatchObject({ status: 'stopped', session_state: 'waiting_for_input' });
    expect(closed?.error_message).toContain('heartbeat_timeout');
    const changed = (await svc.store.readEvents(id, 0)).filter((e) => e.type === 'executor.changed');
    expect(changed.map((e) => e.data)).toEqual([
      expect.objectContaining({ executor_id: 'ex-1', status: 'stopped', session_state: 'waiting_for_input' }),
    ]);
    expect((await recover(svc, 'waiting')).executors).toEqual([]);
  });
});

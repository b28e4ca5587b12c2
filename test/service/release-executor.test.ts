import { describe, expect, it } from 'vitest';
import { releaseExecutorRow } from '../../src/service/runtime/release-executor.js';
import type { ExecutorRow } from '../../src/storage/executor-registry.js';
import { executorRow } from '../helpers/executor-row.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService, sqliteStore } from '../helpers/service.js';

async function withExecutor(release: (row: ExecutorRow) => Promise<void>) {
  const svc = makeService(sqliteStore(), { releaseExecutor: release });
  const wf = await svc.create({
    title: 'release me',
    tasks: [{ id: 'T1', title: 'One' }],
    worktree: makeRepo(),
  });
  const row = executorRow(wf.id, '/work', { runtime: 'docker', container_id: 'c0ffee' });
  await svc.store.executors!.insert(row);
  return { svc, row, id: wf.id };
}

const changes = async (svc: ReturnType<typeof makeService>, id: string) =>
  (await svc.store.readEvents(id, 0)).filter((e) => e.type === 'executor.changed').map((e) => e.data);

describe('releasing an executor whose session is over (one way for a run end and `baton executors stop`)', () => {
  it('removes what Baton created, marks the row stopped and says why in an event', async () => {
    const released: string[] = [];
    const { svc, row, id } = await withExecutor(async (r) => void released.push(r.container_id ?? ''));
    expect(await releaseExecutorRow(svc, row, { sessionState: 'ended', reason: 'the run ended' })).toBeNull();
    expect(released).toEqual(['c0ffee']);
    expect(await svc.store.executors!.get('ex-1')).toMatchObject({
      status: 'stopped',
      session_state: 'ended',
    });
    expect(await changes(svc, id)).toEqual([
      { executor_id: 'ex-1', status: 'stopped', session_state: 'ended', reason: 'the run ended' },
    ]);
  });

  it('keeps a failure to remove it on the row, with the command that retries, and in the event', async () => {
    const { svc, row, id } = await withExecutor(async () => {
      throw new Error('engine gone');
    });
    const error = await releaseExecutorRow(svc, row, { sessionState: 'ended', reason: 'the run ended' });
    expect(error).toBe('could not remove what Baton created for it: engine gone');
    expect(await svc.store.executors!.get('ex-1')).toMatchObject({
      status: 'error',
      session_state: 'running',
      error_message: `${error}; retry with \`baton executors stop ex-1\``,
    });
    expect((await changes(svc, id))[0]).toMatchObject({ status: 'error', reason: error });
    // at a run's end the agent is known to have ended, whatever became of its container
    const row2 = { ...row, id: 'ex-2' };
    await svc.store.executors!.insert(row2);
    await releaseExecutorRow(svc, row2, {
      sessionState: 'waiting_for_input',
      reason: 'the run ended',
      exited: true,
    });
    expect(await svc.store.executors!.get('ex-2')).toMatchObject({
      status: 'error',
      session_state: 'waiting_for_input',
    });
  });
});

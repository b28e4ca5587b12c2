import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutorRegistry, ExecutorRow } from '../../src/storage/executor-registry.js';
import type { Store } from '../../src/storage/store.js';
import type { StoreBackend } from './backend.js';

const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();

export const executorRow = (id: string, over: Partial<ExecutorRow> = {}): ExecutorRow => ({
  id,
  workflow_id: 'wf-1',
  session_number: 1,
  runtime: 'local',
  agent: 'claude-code',
  status: 'starting',
  session_state: 'running',
  execution_id: null,
  resume_token: null,
  supports_session_resume: true,
  supports_workspace_only: false,
  pid: 4242,
  pid_start_time: '123456',
  endpoint: null,
  run_id: null,
  container_id: null,
  workspace_path: '/tmp/ws',
  worktree_branch: 'main',
  owner: null,
  last_seen_at: at(0),
  error_message: null,
  created_at: at(0),
  updated_at: at(0),
  ...over,
});

/** The `executors_running` registry: the same contract on every backend that runs agents. */
export function executorCases(backend: StoreBackend) {
  describe(`ExecutorRegistry on ${backend.name}`, () => {
    const opened: Store[] = [];
    const open = async (location: string) => {
      const store = await backend.open(location);
      opened.push(store);
      return store;
    };
    const registry = (s: Store): ExecutorRegistry => {
      if (!s.executors) throw new Error(`${backend.name} has no executors registry`);
      return s.executors;
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    it('inserts, reads back every field (booleans, nulls, pid), lists by status and workflow, updates', async () => {
      const reg = registry(await open(await backend.newLocation()));
      const a = executorRow('ex-a', { endpoint: 'http://h:1', run_id: 'run-1' });
      const b = executorRow('ex-b', {
        workflow_id: 'wf-2',
        status: 'ready',
        supports_session_resume: false,
        created_at: at(1),
      });
      await reg.insert(a);
      await reg.insert(b);
      expect(await reg.get('ex-a')).toEqual(a);
      expect(await reg.get('ex-missing')).toBeNull();
      expect((await reg.list()).map((r) => r.id)).toEqual(['ex-a', 'ex-b']);
      expect((await reg.list({ status: ['ready'] })).map((r) => r.id)).toEqual(['ex-b']);
      expect((await reg.list({ status: [] })).length).toBe(0);
      expect((await reg.list({ workflowId: 'wf-1' })).map((r) => r.id)).toEqual(['ex-a']);
      await reg.update('ex-a', { status: 'error', error_message: 'gone', supports_workspace_only: true });
      const after = await reg.get('ex-a');
      expect(after?.status).toBe('error');
      expect(after?.supports_workspace_only).toBe(true);
      await reg.updateMany?.([
        { id: 'ex-a', patch: { status: 'ready', error_message: null } },
        { id: 'ex-b', patch: { session_state: 'waiting_for_input' } },
      ]);
      expect((await reg.get('ex-a'))?.status).toBe('ready');
      expect((await reg.get('ex-b'))?.session_state).toBe('waiting_for_input');
      await reg.heartbeat('ex-b', at(30));
      expect((await reg.get('ex-b'))?.last_seen_at).toBe(at(30));
    });

    it('two controllers racing to launch one session: exactly one claims it', async () => {
      const location = await backend.newLocation();
      const one = registry(await open(location));
      const two = registry(await open(location));
      await one.insert(executorRow('ex-race'));
      const results = await Promise.all([
        one.claimExecution('ex-race', null, 'exec-1', 'host:1:1', at(5)),
        two.claimExecution('ex-race', null, 'exec-2', 'host:2:2', at(5)),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const row = await one.get('ex-race');
      const winner = results[0] ? 'exec-1' : 'exec-2';
      expect(row?.execution_id).toBe(winner);
      expect(row?.owner).toBe(results[0] ? 'host:1:1' : 'host:2:2');
      // The loser's view is stale: claiming again from `null` fails; from the winner's id it succeeds.
      expect(await two.claimExecution('ex-race', null, 'exec-3', 'host:2:2', at(6))).toBe(false);
      expect(await two.claimExecution('ex-race', winner, 'exec-3', 'host:2:2', at(6))).toBe(true);
    });

    it('writes a resume token only while the execution id is current, and never deletes it on a refused write', async () => {
      const reg = registry(await open(await backend.newLocation()));
      await reg.insert(executorRow('ex-t'));
      expect(await reg.claimExecution('ex-t', null, 'exec-1', 'me', at(1))).toBe(true);
      expect(await reg.saveToken('ex-t', 'exec-1', 'tok-1', at(2))).toBe(true);
      expect(await reg.claimExecution('ex-t', 'exec-1', 'exec-2', 'me', at(3))).toBe(true);
      // A late write from the previous launch is refused; the token stays.
      expect(await reg.saveToken('ex-t', 'exec-1', 'tok-stale', at(4))).toBe(false);
      expect((await reg.get('ex-t'))?.resume_token).toBe('tok-1');
      // Claiming a new execution keeps the token (it may still resume the session).
      expect(await reg.saveToken('ex-t', 'exec-2', 'tok-2', at(5))).toBe(true);
      expect((await reg.get('ex-t'))?.resume_token).toBe('tok-2');
    });
  });
}

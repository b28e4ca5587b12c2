import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalExecutor } from '../dist/executors/local/local-executor.js';
import { isOwnerAlive } from '../dist/executors/process-identity.js';
import * as git from '../dist/git/git.js';
import { BatonService } from '../dist/service/index.js';
import { recoverAtStartup } from '../dist/service/runtime/index.js';
import { SqliteStore } from '../dist/storage/sqlite/sqlite-store.js';
import { makeRepo } from './git-repo.js';

/**
 * N workflows left `in_progress` by a Baton process that died (each with a running task and an executor row
 * whose owner is gone), then one timed startup recovery on a fresh open of the store at `full` durability:
 * every executor re-marked, every workflow interrupted with a crash snapshot, in batched commits.
 */
async function one(n) {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-recovery-'));
  try {
    const repo = makeRepo(dir);
    const file = join(dir, 'baton.db');
    const setup = new SqliteStore(file, { durability: 'normal' });
    const svc = new BatonService(setup, git, {});
    const at = new Date().toISOString();
    for (let i = 0; i < n; i++) {
      const w = await svc.create({ title: `wf ${i}`, tasks: [{ id: 'T1', title: 'one' }], worktree: repo });
      await svc.startTask({ workflowId: w.id }, 'T1');
      await setup.executors.insert({
        id: `ex-${i}`,
        workflow_id: w.id,
        session_number: 1,
        runtime: 'local',
        agent: 'claude-code',
        status: 'ready',
        session_state: 'running',
        execution_id: `exec-${i}`,
        resume_token: `tok-${i}`,
        supports_session_resume: true,
        supports_workspace_only: true,
        pid: null,
        pid_start_time: null,
        endpoint: null,
        run_id: null,
        container_id: null,
        workspace_path: repo,
        worktree_branch: null,
        owner: 'a-dead-host:1:1',
        last_seen_at: at,
        error_message: null,
        created_at: at,
        updated_at: at,
      });
    }
    await setup.close();
    const store = new SqliteStore(file, { durability: 'full' });
    const service = new BatonService(store, git, {});
    const t0 = performance.now();
    const report = await recoverAtStartup(service, {
      factory: { forRow: () => new LocalExecutor() },
      autoResume: 'none',
      isOwnerAlive: (owner) => isOwnerAlive(owner, hostname()),
    });
    const ms = performance.now() - t0;
    await store.close();
    if (report.interrupted !== n) throw new Error(`expected ${n} interrupted, got ${report.interrupted}`);
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchStartupRecovery({ quick = false } = {}) {
  const rows = [];
  for (const n of quick ? [1000] : [1000, 10_000]) {
    const ms = await one(n);
    rows.push({
      name: `startup recovery, ${n.toLocaleString('en')} sessions left in progress (SQLite, full)`,
      value: `${Math.round(ms)} ms`,
      note: `${n.toLocaleString('en')} workflows interrupted with a crash snapshot${n === 10_000 ? '; target < 2,000 ms' : ''}`,
    });
  }
  return rows;
}

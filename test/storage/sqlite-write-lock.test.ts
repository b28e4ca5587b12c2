import { once } from 'node:events';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteLangGraphTables } from '../../src/storage/sqlite/sqlite-langgraph-tables.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { SILENT_WAIT_MS, WriteLock } from '../../src/storage/sqlite/write-lock.js';
import { executorRow } from '../conformance/executor-cases.js';
import { createWorkflow, historyBatch, loaded, rejection } from '../conformance/fixtures.js';
import { holder } from '../conformance/lease-cases.js';
import { tempDir } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';
import { holdWriteLock, releaseLocks } from '../helpers/sqlite-lock.js';

// Another process holds the SQLite file's write lock (a `sqlite3` shell with a transaction open, a long import): every
// write of Baton's stores waits for it, says so once it has waited a while, and, refused all its wait, fails naming
// the file and how to find that process, having applied nothing.

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  releaseLocks();
  for (const s of opened.splice(0)) await s.close();
});

const work = (id: string) => ({
  workflow_id: id,
  worktree: '/srv/work',
  label: null,
  priority: 0,
  profile: { agent: 'claude-code', agent_bin: null, context_window: null, max_sessions: null },
  submitted_by: 'tester',
});
const reach = { roots: ['/'], labels: [] };
const checkpoint = (id: string) => ({
  thread_id: 't',
  checkpoint_ns: '',
  checkpoint_id: id,
  parent_checkpoint_id: null,
  type: 'json',
  checkpoint: Buffer.from('{}'),
  metadata: '{}',
  channel_versions: '{}',
});

/** Every row of every table, read by a connection of its own (what another process would find in the file). */
function contents(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all();
    return Object.fromEntries(tables.map((t) => [t.name, db.prepare(`SELECT * FROM "${t.name}"`).all()]));
  } finally {
    db.close();
  }
}

/** A store on a new file with a workflow, a lease, queued work, a worker and an executor in it. */
async function filledStore(options: ConstructorParameters<typeof SqliteStore>[1]) {
  const path = join(tempDir('baton-lock-'), 'baton.db');
  const store = new SqliteStore(path, options);
  opened.push(store);
  const wf = await createWorkflow(makeService(store));
  await store.leases.acquire(wf.id, holder('a'), 60_000);
  await store.workQueue.submit(work(wf.id));
  await store.workers.heartbeat(holder('w'), reach, 60_000);
  await store.executors.insert(executorRow('ex-1', { workflow_id: wf.id }));
  return { path, store, wf: await loaded(store, wf.id) };
}

const refused = (path: string) =>
  `cannot write to the SQLite database ${path}: database is locked: another process kept it locked all the time this one waited`;

describe('a SQLite write while another process holds the write lock', () => {
  it('fails, whichever write it is, naming the file and how to find the holder; none is half-applied', async () => {
    const said: string[] = [];
    const { path, store, wf } = await filledStore({ busyTimeoutMs: 150, onLockWait: (l) => said.push(l) });
    const tables = new SqliteLangGraphTables(path, { busyTimeoutMs: 150, onLockWait: (l) => said.push(l) });
    opened.push(tables);
    await tables.putCheckpoint(checkpoint('c1'), []);
    const before = contents(path);
    const lockHolder = await holdWriteLock(path);

    const writes: Record<string, () => Promise<unknown>> = {
      commit: () => store.commit(historyBatch(wf, 2)),
      commitMany: () => store.commitMany([historyBatch(wf, 1)]),
      saveLiveState: () =>
        store.saveLiveState({
          workflow_id: wf.id,
          saved_at: wf.updated_at,
          trigger: 'auto',
          version: 1,
          data: {},
        }),
      replaceProjection: () => store.replaceProjection(wf.id, { ...wf, title: 'rebuilt' }, []),
      deleteWorkflow: () => store.deleteWorkflow(wf.id),
      'leases.acquire': () => store.leases.acquire('wf-other', holder('b'), 60_000),
      'leases.renew': () => store.leases.renew(wf.id, holder('a').owner, 60_000),
      'leases.release': () => store.leases.release(wf.id, holder('a').owner),
      'workQueue.submit': () => store.workQueue.submit(work('wf-other')),
      'workQueue.claim': () => store.workQueue.claim(holder('w'), 60_000, reach, 1),
      'workQueue.finish': () => store.workQueue.finish(wf.id, null, 'completed'),
      'workers.heartbeat': () => store.workers.heartbeat(holder('w'), reach, 60_000),
      'workers.remove': () => store.workers.remove(holder('w').owner),
      'executors.insert': () => store.executors.insert(executorRow('ex-2')),
      'executors.update': () => store.executors.update('ex-1', { status: 'ready' }),
      'executors.updateMany': () =>
        store.executors.updateMany([
          { id: 'ex-1', patch: { status: 'ready' } },
          { id: 'ex-1', patch: { pid: 7 } },
        ]),
      'executors.claimExecution': () =>
        store.executors.claimExecution('ex-1', null, 'e1', 'me', wf.updated_at),
      'executors.saveToken': () => store.executors.saveToken('ex-1', 'e1', 'token', wf.updated_at),
      'executors.heartbeat': () => store.executors.heartbeat('ex-1', wf.updated_at),
      'langgraph.putCheckpoint': () => tables.putCheckpoint(checkpoint('c2'), []),
      'langgraph.putWrites': () =>
        tables.putWrites(
          [
            {
              thread_id: 't',
              checkpoint_ns: '',
              checkpoint_id: 'c1',
              task_id: 'task',
              idx: 0,
              channel: 'a',
              type: 'json',
              value: Buffer.from('1'),
              task_path: '',
            },
          ],
          'insert',
        ),
      'langgraph.deleteThread': () => tables.deleteThread('t'),
      'langgraph.clear': () => tables.clear(),
    };
    for (const [name, write] of Object.entries(writes)) {
      const e = await rejection(write());
      expect(e.code, name).toBe('unavailable');
      expect(e.message, name).toContain(refused(path));
      expect(e.message, name).toContain(
        `(\`lsof ${path}\` names the processes that have it open), then try again`,
      );
    }
    // a wait shorter than SILENT_WAIT_MS says nothing while it waits
    expect(said).toEqual([]);
    expect(contents(path)).toEqual(before);

    lockHolder.kill('SIGKILL');
    await once(lockHolder, 'exit');
    await store.commit(historyBatch(wf, 2));
    expect((await loaded(store, wf.id)).version).toBe(wf.version + 2);
  });

  it('says once, after a second and a half, that it waits; then writes once the holder lets go', async () => {
    const said: { line: string; at: number }[] = [];
    const { path, store, wf } = await filledStore({
      onLockWait: (line) => said.push({ line, at: Date.now() }),
    });
    await holdWriteLock(path, { forMs: 3000 });
    const started = Date.now();
    await store.commit(historyBatch(wf, 1));
    const took = Date.now() - started;

    expect(said.map((s) => s.line)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^waiting for the write lock on ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(held by another process\\) for up to [89] s more \\.\\.\\.$`,
        ),
      ),
    ]);
    expect(said[0]!.at - started).toBeGreaterThanOrEqual(SILENT_WAIT_MS - 50);
    expect(said[0]!.at - started).toBeLessThan(SILENT_WAIT_MS + 1000);
    expect(took).toBeGreaterThan(2000);
    expect((await loaded(store, wf.id)).version).toBe(wf.version + 1);
  });

  it('a registry write that waits out its whole time says so once, then fails as the others do', async () => {
    const said: string[] = [];
    const { path, store, wf } = await filledStore({ busyTimeoutMs: 2500, onLockWait: (l) => said.push(l) });
    await holdWriteLock(path);
    const e = await rejection(store.leases.renew(wf.id, holder('a').owner, 60_000));
    expect(e.message).toContain(refused(path));
    expect(said).toHaveLength(1);
  });
});

describe('the wait of a WriteLock', () => {
  it("ends by its waitUntil (a hook's budget) when that comes first, even before the silent part of it", async () => {
    const { path, store } = await filledStore({ onLockWait: () => undefined });
    await store.close();
    await holdWriteLock(path);
    for (const ms of [800, 2500]) {
      const started = Date.now();
      const lock = new WriteLock(path, { waitUntil: started + ms, onLockWait: () => undefined });
      expect(() => lock.write(() => lock.db.prepare('DELETE FROM events').run())).toThrow(refused(path));
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(ms - 50);
      expect(took).toBeLessThan(ms + 1000);
      // past it, a write tries once without waiting
      const again = Date.now();
      expect(() => lock.write(() => lock.db.prepare('DELETE FROM events').run())).toThrow(refused(path));
      expect(Date.now() - again).toBeLessThan(500);
      lock.db.close();
    }
    releaseLocks();
    expect((contents(path).events ?? []).length).toBeGreaterThan(0);
  });

  it('runs again until the lock is free, where SQLite answers busy at once', async () => {
    const path = join(tempDir('baton-busy-'), 'baton.db');
    await holdWriteLock(path, { forMs: 300 });
    const lock = new WriteLock(path, { busyTimeoutMs: 5_000, onLockWait: () => undefined });
    // no busy timeout: SQLite answers busy at once, as it does to two processes deadlocked on switching to WAL
    lock.db.pragma('busy_timeout = 0');
    expect(() => lock.db.pragma('journal_mode = WAL')).toThrow(/locked/);
    expect(lock.waitFor(() => lock.db.pragma('journal_mode = WAL', { simple: true }))).toBe('wal');
    lock.db.close();
  });

  it('where busy comes at once, pauses between tries (longer each time) and runs the write again', () => {
    const lock = new WriteLock(join(tempDir('baton-busy-'), 'baton.db'), {
      busyTimeoutMs: 5_000,
      onLockWait: () => undefined,
    });
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const at: number[] = [];
    const result = lock.waitFor(() => {
      at.push(performance.now());
      if (at.length < 4) throw busy;
      return 'written';
    });
    expect(result).toBe('written');
    expect(at).toHaveLength(4);
    // pauses of 5-10 ms, 10-20 ms, 20-40 ms: at least 35 ms in all, none skipped
    expect(at[3]! - at[0]!).toBeGreaterThanOrEqual(34);
    lock.db.close();
  });

  it('gives up after its time, and never runs again a write that failed otherwise', () => {
    const lock = new WriteLock(join(tempDir('baton-busy-'), 'baton.db'), {
      busyTimeoutMs: 50,
      onLockWait: () => undefined,
    });
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    let tries = 0;
    expect(() =>
      lock.waitFor(() => {
        tries++;
        throw busy;
      }),
    ).toThrow(busy);
    expect(tries).toBeGreaterThan(1);
    tries = 0;
    const other = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    expect(() =>
      lock.write(() => {
        tries++;
        throw other;
      }),
    ).toThrow(other);
    expect(tries).toBe(1);
    lock.db.close();
  });
});

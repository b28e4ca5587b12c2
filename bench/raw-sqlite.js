import Database from 'better-sqlite3';
import { SqliteStore } from '../dist/storage/sqlite/sqlite-store.js';

/**
 * The peer baseline for batched appends: better-sqlite3 alone writing the rows one Baton commit of `perCommit`
 * history records writes (the events, the record rows, the workflow's state row: same schema, same sizes, one
 * multi-row INSERT per table) in one transaction at synchronous=FULL. No service, no fold, no validation: what
 * SQLite itself costs on this machine, measured in the same run as Baton.
 */
export async function rawSqliteBatches(file, perCommit) {
  await new SqliteStore(file).close(); // the schema, by Baton's own migrations
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('wal_autocheckpoint = 10000'); // as SqliteStore
  const wf = 'wf-00000000000000000000000000000000';
  const state = JSON.stringify({ padding: 'x'.repeat(2_900) });
  db.prepare(
    "INSERT INTO workflows (id, status, worktree, title, version, created_at, updated_at, state) VALUES (?, 'in_progress', '/tmp', 'raw', 0, '', '', ?)",
  ).run(wf, state);
  const rows = (n, width) => Array.from({ length: n }, () => `(${'?, '.repeat(width - 1)}?)`).join(', ');
  const events = db.prepare(
    `INSERT INTO events (position, workflow_id, seq, type, at, actor, session_number, task_id, v, data) VALUES ${rows(perCommit, 10)}`,
  );
  const records = db.prepare(
    `INSERT INTO records (workflow_id, kind, id, seq, task_id, session_number, created_at, data) VALUES ${rows(perCommit, 8)}`,
  );
  const update = db.prepare('UPDATE workflows SET version = ?, updated_at = ?, state = ? WHERE id = ?');
  let seq = 0;
  const commit = db.transaction(() => {
    const at = new Date().toISOString();
    const e = [];
    const r = [];
    for (let k = 0; k < perCommit; k++) {
      seq++;
      const entry = {
        id: `hist-${String(seq).padStart(15, '0')}`,
        timestamp: at,
        task_id: null,
        session_number: 1,
        text: `step ${seq}: ran the tests, 3 failing`,
        source: 'bench',
      };
      e.push(seq, wf, seq, 'history.recorded', at, 'user', 1, null, 1, JSON.stringify({ entry }));
      r.push(wf, 'history', entry.id, seq, null, 1, at, JSON.stringify(entry));
    }
    events.run(e);
    records.run(r);
    update.run(seq, at, state, wf);
  });
  return {
    commit: () => (commit.immediate(), perCommit),
    close: () => db.close(),
  };
}

import type Database from 'better-sqlite3';
import { conflict } from '../../core/index.js';
import { EVENT_COLUMNS, eventValues, RECORD_COLUMNS, RECORD_UPSERT, recordValues, widthOf } from '../rows.js';
import type { CommitBatch } from '../store.js';
import { MultiRowInsert } from './multi-row-insert.js';
import { newRev } from './state-cache.js';

/**
 * The writing half of the SQLite store: a batch's workflow row, events and record rows, inside the caller's
 * write transaction. Event positions are handed out here, not by AUTOINCREMENT (which rewrote sqlite_sequence in
 * every commit): one past the newest event, or past `store_meta.position_floor`, which a delete raises to the
 * newest position first, so no position is ever handed out twice.
 */
export class BatchWriter {
  private readonly stmts;

  constructor(db: Database.Database) {
    this.stmts = {
      version: db.prepare<[string], { version: number }>('SELECT version FROM workflows WHERE id = ?'),
      insertWorkflow: db.prepare(
        'INSERT INTO workflows (id, status, worktree, title, version, created_at, updated_at, state, rev) VALUES (@id, @status, @worktree, @title, @version, @created_at, @updated_at, @state, @rev)',
      ),
      updateWorkflow: db.prepare(
        'UPDATE workflows SET version = @version, updated_at = @updated_at, state = @state, rev = @rev WHERE id = @id AND version = @expected AND (@base IS NULL OR state = @base)',
      ),
      // Apart, and only when one changed (a new status, or a workflow moved to another worktree): setting an indexed
      // column rewrites its index pages even to the same value.
      updatePlace: db.prepare(
        'UPDATE workflows SET status = @status, worktree = @worktree WHERE id = @id AND (status <> @status OR worktree <> @worktree)',
      ),
      insertEvents: new MultiRowInsert(
        db,
        `INSERT INTO events (position, ${EVENT_COLUMNS})`,
        1 + widthOf(EVENT_COLUMNS),
      ),
      // One past the newest event, or past what a delete removed (positions are never handed out twice).
      nextPosition: db
        .prepare<[], number>(
          "SELECT max(coalesce((SELECT max(position) FROM events), 0), coalesce((SELECT value FROM store_meta WHERE key = 'position_floor'), 0)) + 1",
        )
        .pluck(),
      raiseFloor: db.prepare(
        `INSERT INTO store_meta (key, value) SELECT 'position_floor', max(position) FROM events WHERE true HAVING max(position) IS NOT NULL
         ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)`,
      ),
      upsertRecords: new MultiRowInsert(
        db,
        `INSERT INTO records (${RECORD_COLUMNS})`,
        widthOf(RECORD_COLUMNS),
        RECORD_UPSERT,
      ),
    };
  }

  /** The first position not yet handed out (inside the write transaction). */
  nextPosition(): number {
    return this.stmts.nextPosition.get() ?? 1;
  }

  /** Keeps the newest position from being handed out again once the events holding it are deleted. */
  raiseFloor(): void {
    this.stmts.raiseFloor.run();
  }

  /** Writes one batch inside the caller's transaction, its events at positions from `position` on; returns the row's new rev. */
  write(b: CommitBatch, position: number): number {
    const s = b.state;
    const row = {
      rev: newRev(),
      id: b.workflowId,
      status: s.status,
      worktree: s.worktree,
      title: s.title,
      version: s.version,
      created_at: s.created_at,
      updated_at: s.updated_at,
      state: JSON.stringify(s),
      expected: b.expectedVersion,
      base: b.unloadedBase ? JSON.stringify(b.unloadedBase) : null,
    };
    if (b.expectedVersion === 0) {
      if (this.stmts.version.get(b.workflowId))
        throw conflict(`workflow ${b.workflowId} already exists`, { workflow_id: b.workflowId });
      const { expected: _, base: __, ...insert } = row;
      this.stmts.insertWorkflow.run(insert);
    } else if (this.stmts.updateWorkflow.run(row).changes === 1) {
      this.stmts.updatePlace.run({ id: row.id, status: row.status, worktree: row.worktree });
    } else {
      const current = this.stmts.version.get(b.workflowId)?.version;
      throw conflict(
        `workflow ${b.workflowId} changed while this command ran (expected version ${b.expectedVersion}, found ${current ?? 'none'}); reload and try again`,
        { workflow_id: b.workflowId, expected_version: b.expectedVersion, current_version: current ?? null },
      );
    }
    // Positional parameters in one flat list per table: binding by name costs an object and a key lookup per
    // column, per row, and a statement per row costs a call into SQLite per row.
    const events: unknown[] = [];
    for (const e of b.events) events.push(position++, ...eventValues(e));
    this.stmts.insertEvents.run(events);
    const records: unknown[] = [];
    for (const w of b.writes) records.push(...recordValues(w));
    this.stmts.upsertRecords.run(records);
    return row.rev;
  }
}

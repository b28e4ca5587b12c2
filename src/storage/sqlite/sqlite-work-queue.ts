import type Database from 'better-sqlite3';
import type { WorkFilter } from '../../core/index.js';
import { leaseFromRow, type LeaseDbRow, type LeaseHolder } from '../lease-registry.js';
import {
  filterSql,
  QUEUE_ORDER,
  skipSql,
  queueEntryFromRow,
  REFUSAL_ORDER,
  type ClaimedWork,
  type QueueDbRow,
  type QueueEntry,
  type RefusalDbRow,
  type SubmitInput,
  type WorkQueue,
} from '../work-queue.js';
import { NOW, type SqliteLeases } from './sqlite-leases.js';
import type { WriteLock } from './write-lock.js';

type Candidate = QueueDbRow & { lease: string | null };

/**
 * `work_queue` on SQLite: the same contract as on PostgreSQL for workers sharing one file on one machine. A claim
 * is one immediate transaction (the file's write lock), so two claimers never get the same row.
 */
export class SqliteWorkQueue implements WorkQueue {
  private readonly db: Database.Database;

  constructor(
    private readonly lock: WriteLock,
    private readonly leases: SqliteLeases,
  ) {
    this.db = lock.db;
  }

  /** The refusals of one workflow, or of every one (null). */
  private refusals(workflowId: string | null): RefusalDbRow[] {
    return workflowId === null
      ? this.db.prepare<[], RefusalDbRow>(`SELECT * FROM work_refusals ORDER BY ${REFUSAL_ORDER}`).all()
      : this.db
          .prepare<[string], RefusalDbRow>(
            `SELECT * FROM work_refusals WHERE workflow_id = ? ORDER BY ${REFUSAL_ORDER}`,
          )
          .all(workflowId);
  }

  async submit(i: SubmitInput): Promise<QueueEntry> {
    const insert = this.db.prepare<unknown[], QueueDbRow>(
      `INSERT INTO work_queue (workflow_id, state, priority, worktree, label, profile, submitted_at, submitted_by)
         VALUES (?, 'queued', ?, ?, ?, ?, ${NOW}, ?)
         ON CONFLICT (workflow_id) DO UPDATE SET state = 'queued', priority = excluded.priority,
           worktree = excluded.worktree, label = excluded.label, profile = excluded.profile,
           submitted_at = excluded.submitted_at, submitted_by = excluded.submitted_by, finished_at = NULL,
           outcome = NULL
         RETURNING *`,
    );
    // submitted again (once fixed): every worker tries it again
    const forget = this.db.prepare('DELETE FROM work_refusals WHERE workflow_id = ?');
    const row = this.lock.write(() =>
      this.db
        .transaction(() => {
          forget.run(i.workflow_id);
          return insert.get(
            i.workflow_id,
            i.priority,
            i.worktree,
            i.label,
            JSON.stringify(i.profile),
            i.submitted_by,
          );
        })
        .immediate(),
    );
    return queueEntryFromRow(row as QueueDbRow);
  }

  async claim(
    holder: LeaseHolder,
    ttlMs: number,
    filter: WorkFilter,
    limit: number,
    skip: readonly string[] = [],
  ): Promise<ClaimedWork[]> {
    if (limit <= 0) return [];
    const where = filterSql(filter, () => '?', 1);
    const left = skipSql(skip, () => '?', 1);
    const pick = this.db.prepare<unknown[], Candidate>(
      `SELECT q.*, CASE WHEN l.workflow_id IS NULL THEN NULL ELSE json_object(
           'workflow_id', l.workflow_id, 'owner', l.owner, 'host', l.host, 'pid', l.pid,
           'pid_start_time', l.pid_start_time, 'kind', l.kind, 'command', l.command, 'acquired_at', l.acquired_at,
           'heartbeat_at', l.heartbeat_at, 'expires_at', l.expires_at, 'now', ${NOW}) END AS lease
       FROM work_queue q LEFT JOIN workflow_leases l ON l.workflow_id = q.workflow_id
       WHERE q.state = 'queued' AND (l.workflow_id IS NULL OR l.expires_at <= ${NOW}) AND ${where.sql} AND ${left.sql}
       ORDER BY ${QUEUE_ORDER}
       LIMIT ?`,
    );
    const mark = this.db.prepare<unknown[], QueueDbRow>(
      `UPDATE work_queue SET claimed_by = ?, claimed_at = ${NOW}, attempts = attempts + 1, outcome = NULL
       WHERE workflow_id = ? RETURNING *`,
    );
    // the claimer tries again: its own refusal no longer stands (the other workers' do)
    const retry = this.db.prepare('DELETE FROM work_refusals WHERE workflow_id = ? AND owner = ?');
    return this.lock.write(() =>
      this.db
        .transaction(() => {
          const out: ClaimedWork[] = [];
          for (const c of pick.all(...where.params, ...left.params, limit)) {
            const previous = c.lease ? leaseFromRow(JSON.parse(c.lease) as LeaseDbRow) : null;
            const taken = this.leases.acquireNow(
              c.workflow_id,
              holder,
              ttlMs,
              previous ? { replace: { owner: previous.owner, onlyIfExpired: true } } : {},
            );
            if (!taken.acquired) continue;
            retry.run(c.workflow_id, holder.owner);
            out.push({
              entry: queueEntryFromRow(
                mark.get(holder.owner, c.workflow_id) as QueueDbRow,
                this.refusals(c.workflow_id),
              ),
              previous,
            });
          }
          return out;
        })
        .immediate(),
    );
  }

  async finish(workflowId: string, owner: string | null, outcome: string): Promise<boolean> {
    const finish = this.db.prepare(
      `UPDATE work_queue SET state = 'done', finished_at = ${NOW}, outcome = ?
       WHERE workflow_id = ? AND (claimed_by = ? OR ? IS NULL) AND state = 'queued'`,
    );
    const forget = this.db.prepare('DELETE FROM work_refusals WHERE workflow_id = ?');
    return this.lock.write(() =>
      this.db
        .transaction(() => {
          const done = finish.run(outcome, workflowId, owner, owner).changes === 1;
          if (done) forget.run(workflowId);
          return done;
        })
        .immediate(),
    );
  }

  async refuse(workflowId: string, owner: string, outcome: string): Promise<boolean> {
    const refuse = this.db.prepare(
      `INSERT INTO work_refusals (workflow_id, owner, reason, refused_at)
         SELECT workflow_id, claimed_by, ?, ${NOW} FROM work_queue
         WHERE workflow_id = ? AND claimed_by = ? AND state = 'queued'
       ON CONFLICT (workflow_id, owner) DO UPDATE SET reason = excluded.reason, refused_at = excluded.refused_at`,
    );
    return this.lock.write(() => refuse.run(outcome, workflowId, owner)).changes === 1;
  }

  async get(workflowId: string): Promise<QueueEntry | null> {
    const row = this.db
      .prepare<[string], QueueDbRow>('SELECT * FROM work_queue WHERE workflow_id = ?')
      .get(workflowId);
    return row ? queueEntryFromRow(row, this.refusals(workflowId)) : null;
  }

  async list(): Promise<QueueEntry[]> {
    const refusals = this.refusals(null);
    return this.db
      .prepare<[], QueueDbRow>(
        `SELECT * FROM work_queue q
         ORDER BY q.state = 'done', CASE WHEN q.state = 'done' THEN -q.finished_at END, ${QUEUE_ORDER}`,
      )
      .all()
      .map((r) => queueEntryFromRow(r, refusals));
  }
}

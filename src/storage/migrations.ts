import { POSITIONER_MIGRATION } from './postgres/event-positioner.js';

/**
 * One migration list for every backend: each step has its SQL per dialect, applied in order and recorded in
 * `schema_migrations`. Adding a step means adding both dialects. PostgreSQL keeps JSON as TEXT (exactly what
 * SQLite keeps: same key order, and no JSONB refusal of \u0000) and compares text with COLLATE "C" (byte order,
 * as SQLite does), so both backends return the same rows in the same order.
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'event log, workflows, records, live states',
    sqlite: `
      CREATE TABLE workflows (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        worktree TEXT NOT NULL,
        title TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        state TEXT NOT NULL
      );
      CREATE INDEX workflows_worktree ON workflows (worktree, status);
      CREATE INDEX workflows_status ON workflows (status);
      CREATE TABLE events (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        workflow_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        session_number INTEGER,
        task_id TEXT,
        v INTEGER NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (workflow_id, seq)
      );
      CREATE TABLE records (
        workflow_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        task_id TEXT,
        session_number INTEGER,
        created_at TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (workflow_id, kind, id)
      ) WITHOUT ROWID;
      CREATE INDEX records_kind_created ON records (workflow_id, kind, created_at);
      CREATE INDEX records_by_id ON records (kind, id) WHERE kind = 'snapshot';
      CREATE TABLE live_states (
        workflow_id TEXT PRIMARY KEY,
        saved_at TEXT NOT NULL,
        trigger TEXT NOT NULL,
        version INTEGER NOT NULL,
        data TEXT NOT NULL
      );`,
    postgres: `
      CREATE TABLE workflows (
        id TEXT COLLATE "C" PRIMARY KEY,
        status TEXT COLLATE "C" NOT NULL,
        worktree TEXT COLLATE "C" NOT NULL,
        title TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL,
        state TEXT NOT NULL
      );
      CREATE INDEX workflows_worktree ON workflows (worktree, status);
      CREATE INDEX workflows_status ON workflows (status);
      CREATE TABLE events (
        position BIGSERIAL PRIMARY KEY,
        workflow_id TEXT COLLATE "C" NOT NULL,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        session_number INTEGER,
        task_id TEXT,
        v INTEGER NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (workflow_id, seq)
      );
      CREATE TABLE records (
        workflow_id TEXT COLLATE "C" NOT NULL,
        kind TEXT COLLATE "C" NOT NULL,
        id TEXT COLLATE "C" NOT NULL,
        seq INTEGER NOT NULL,
        task_id TEXT,
        session_number INTEGER,
        created_at TEXT COLLATE "C" NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (workflow_id, kind, id)
      );
      CREATE INDEX records_kind_created ON records (workflow_id, kind, created_at);
      CREATE INDEX records_by_id ON records (kind, id) WHERE kind = 'snapshot';
      CREATE TABLE live_states (
        workflow_id TEXT PRIMARY KEY,
        saved_at TEXT NOT NULL,
        trigger TEXT NOT NULL,
        version INTEGER NOT NULL,
        data TEXT NOT NULL
      );`,
  },
  {
    version: 2,
    name: 'executors_running (agent runtime: executors, resume tokens, heartbeats)',
    sqlite: `
      CREATE TABLE executors_running (
        id TEXT PRIMARY KEY,
        workflow_id TEXT NOT NULL,
        session_number INTEGER NOT NULL,
        runtime TEXT NOT NULL,
        agent TEXT NOT NULL,
        status TEXT NOT NULL,
        session_state TEXT NOT NULL,
        execution_id TEXT,
        resume_token TEXT,
        supports_session_resume INTEGER NOT NULL,
        supports_workspace_only INTEGER NOT NULL,
        pid INTEGER,
        pid_start_time TEXT,
        endpoint TEXT,
        run_id TEXT,
        container_id TEXT,
        workspace_path TEXT NOT NULL,
        worktree_branch TEXT,
        owner TEXT,
        last_seen_at TEXT NOT NULL,
        error_message TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX executors_running_status ON executors_running (status);
      CREATE INDEX executors_running_workflow ON executors_running (workflow_id, session_number);`,
    postgres: `
      CREATE TABLE executors_running (
        id TEXT PRIMARY KEY,
        workflow_id TEXT NOT NULL,
        session_number INTEGER NOT NULL,
        runtime TEXT NOT NULL,
        agent TEXT NOT NULL,
        status TEXT NOT NULL,
        session_state TEXT NOT NULL,
        execution_id TEXT,
        resume_token TEXT,
        supports_session_resume BOOLEAN NOT NULL,
        supports_workspace_only BOOLEAN NOT NULL,
        pid INTEGER,
        pid_start_time TEXT,
        endpoint TEXT,
        run_id TEXT,
        container_id TEXT,
        workspace_path TEXT NOT NULL,
        worktree_branch TEXT,
        owner TEXT,
        last_seen_at TEXT NOT NULL,
        error_message TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX executors_running_status ON executors_running (status);
      CREATE INDEX executors_running_workflow ON executors_running (workflow_id, session_number);`,
  },
  {
    version: 3,
    name: 'LangGraph checkpoints, channel values once per version, pending writes',
    // Channel values live in lg_blobs, once per (thread, namespace, channel, version); a row is either whole
    // (base_version NULL) or a delta on an older version of the same channel: base[0, prefix_len) + value +
    // base[len - suffix_len, len). Checkpoint rows keep the checkpoint without its channel values.
    sqlite: `
      CREATE TABLE lg_checkpoints (
        thread_id TEXT NOT NULL,
        checkpoint_ns TEXT NOT NULL,
        checkpoint_id TEXT NOT NULL,
        parent_checkpoint_id TEXT,
        type TEXT NOT NULL,
        checkpoint BLOB NOT NULL,
        metadata TEXT NOT NULL,
        channel_versions TEXT NOT NULL,
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
      ) WITHOUT ROWID;
      CREATE TABLE lg_blobs (
        thread_id TEXT NOT NULL,
        checkpoint_ns TEXT NOT NULL,
        channel TEXT NOT NULL,
        version TEXT NOT NULL,
        type TEXT NOT NULL,
        value BLOB,
        base_version TEXT,
        prefix_len INTEGER NOT NULL DEFAULT 0,
        suffix_len INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
      );
      CREATE TABLE lg_writes (
        thread_id TEXT NOT NULL,
        checkpoint_ns TEXT NOT NULL,
        checkpoint_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        channel TEXT NOT NULL,
        type TEXT NOT NULL,
        value BLOB,
        task_path TEXT NOT NULL,
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
      );`,
    postgres: `
      CREATE TABLE lg_checkpoints (
        thread_id TEXT COLLATE "C" NOT NULL,
        checkpoint_ns TEXT COLLATE "C" NOT NULL,
        checkpoint_id TEXT COLLATE "C" NOT NULL,
        parent_checkpoint_id TEXT COLLATE "C",
        type TEXT NOT NULL,
        checkpoint BYTEA NOT NULL,
        metadata TEXT NOT NULL,
        channel_versions TEXT NOT NULL,
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
      );
      CREATE TABLE lg_blobs (
        thread_id TEXT COLLATE "C" NOT NULL,
        checkpoint_ns TEXT COLLATE "C" NOT NULL,
        channel TEXT COLLATE "C" NOT NULL,
        version TEXT COLLATE "C" NOT NULL,
        type TEXT NOT NULL,
        value BYTEA,
        base_version TEXT COLLATE "C",
        prefix_len INTEGER NOT NULL DEFAULT 0,
        suffix_len INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
      );
      CREATE TABLE lg_writes (
        thread_id TEXT COLLATE "C" NOT NULL,
        checkpoint_ns TEXT COLLATE "C" NOT NULL,
        checkpoint_id TEXT COLLATE "C" NOT NULL,
        task_id TEXT COLLATE "C" NOT NULL,
        idx INTEGER NOT NULL,
        channel TEXT NOT NULL,
        type TEXT NOT NULL,
        value BYTEA,
        task_path TEXT NOT NULL,
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
      );`,
  },
  {
    version: 4,
    name: 'records listed through their primary key: the created_at index goes',
    // Record ids sort in creation order, so the primary key (workflow_id, kind, id) already serves listings; the
    // extra index cost one more B-tree write for every record of every commit.
    sqlite: 'DROP INDEX IF EXISTS records_kind_created;',
    postgres: 'DROP INDEX IF EXISTS records_kind_created;',
  },
  {
    version: 5,
    name: 'event positions without AUTOINCREMENT: a floor kept at deletes instead of a counter at every insert',
    // AUTOINCREMENT rewrote sqlite_sequence in every commit (one more page, one more WAL frame). Positions are now
    // given by the store: one past the larger of the newest event and `position_floor`, which a delete raises
    // to the position it removes, so a live subscriber's cursor never sees a position handed out twice.
    // PostgreSQL's BIGSERIAL never reuses a value: nothing to change there.
    sqlite: `
      CREATE TABLE store_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO store_meta (key, value)
        SELECT 'position_floor', seq FROM sqlite_sequence WHERE name = 'events';
      CREATE TABLE events_v5 (
        position INTEGER PRIMARY KEY,
        workflow_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        session_number INTEGER,
        task_id TEXT,
        v INTEGER NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (workflow_id, seq)
      );
      INSERT INTO events_v5 SELECT * FROM events ORDER BY position;
      DROP TABLE events;
      ALTER TABLE events_v5 RENAME TO events;`,
    postgres: 'SELECT 1;',
  },
  {
    version: 6,
    name: 'workflows.rev: a stamp of every write of the row, so a process can keep its parsed state until it changes',
    // SQLite only: there, parsing the state is most of a load, and the store keeps the parsed state while the
    // row's rev is unchanged. The version alone cannot tell, since a rebuild rewrites the row at the same version.
    // A PostgreSQL load is a network round trip either way; it keeps no cache and needs no column.
    sqlite: 'ALTER TABLE workflows ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;',
    postgres: 'SELECT 1;',
  },
  {
    version: 7,
    name: "workflow_leases: one owner per workflow, heartbeat and expiry by the store's clock",
    // Times are milliseconds since the epoch written by the database itself (SQLite julianday('now'), PostgreSQL
    // clock_timestamp()), so drivers on hosts whose clocks disagree still agree on when a lease expired.
    sqlite: `
      CREATE TABLE workflow_leases (
        workflow_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        pid_start_time TEXT,
        kind TEXT NOT NULL,
        command TEXT NOT NULL,
        acquired_at INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX workflow_leases_expires ON workflow_leases (expires_at);`,
    postgres: `
      CREATE TABLE workflow_leases (
        workflow_id TEXT COLLATE "C" PRIMARY KEY,
        owner TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        pid_start_time TEXT,
        kind TEXT NOT NULL,
        command TEXT NOT NULL,
        acquired_at BIGINT NOT NULL,
        heartbeat_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX workflow_leases_expires ON workflow_leases (expires_at);`,
  },
  {
    version: 8,
    name: 'PostgreSQL event positions handed out after commit by followers (no lock on the write path)',
    // SQLite has one writer at a time: its positions are already in commit order. PostgreSQL: event-positioner.ts.
    sqlite: 'SELECT 1;',
    postgres: POSITIONER_MIGRATION,
  },
  {
    // Idempotent (IF NOT EXISTS): a development database that recorded this step under number 8 (before the event
    // positioner took 8) takes it again unharmed.
    version: 9,
    name: 'work_queue: workflows submitted to be run by any worker, with their agent profile',
    // A row stays `queued` while the workflow is to be run; whoever holds its lease (workflow_leases) runs it, and a
    // row whose lease is missing or expired by the store's clock is claimable. `done` once a worker finished with it.
    // Times are milliseconds since the epoch by the store's clock, like the leases'.
    sqlite: `
      CREATE TABLE IF NOT EXISTS work_queue (
        workflow_id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        priority INTEGER NOT NULL,
        worktree TEXT NOT NULL,
        label TEXT,
        profile TEXT NOT NULL,
        submitted_at INTEGER NOT NULL,
        submitted_by TEXT NOT NULL,
        claimed_by TEXT,
        claimed_at INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        finished_at INTEGER,
        outcome TEXT
      );
      CREATE INDEX IF NOT EXISTS work_queue_order ON work_queue (state, priority DESC, submitted_at, workflow_id);`,
    postgres: `
      CREATE TABLE IF NOT EXISTS work_queue (
        workflow_id TEXT COLLATE "C" PRIMARY KEY,
        state TEXT NOT NULL,
        priority INTEGER NOT NULL,
        worktree TEXT COLLATE "C" NOT NULL,
        label TEXT COLLATE "C",
        profile TEXT NOT NULL,
        submitted_at BIGINT NOT NULL,
        submitted_by TEXT NOT NULL,
        claimed_by TEXT,
        claimed_at BIGINT,
        attempts INTEGER NOT NULL DEFAULT 0,
        finished_at BIGINT,
        outcome TEXT
      );
      CREATE INDEX IF NOT EXISTS work_queue_order ON work_queue (state, priority DESC, submitted_at, workflow_id);`,
  },
  {
    version: 10,
    name: "workers: the workers that take queued work, what each reaches, heartbeat and expiry by the store's clock",
    // A reader asks it whether anything can take queued work (`baton status`, the dashboard). Roots and labels are
    // JSON arrays; times are milliseconds since the epoch by the store's clock, like the leases'.
    sqlite: `
      CREATE TABLE IF NOT EXISTS workers (
        owner TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        command TEXT NOT NULL,
        roots TEXT NOT NULL,
        labels TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );`,
    postgres: `
      CREATE TABLE IF NOT EXISTS workers (
        owner TEXT COLLATE "C" PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        command TEXT NOT NULL,
        roots TEXT NOT NULL,
        labels TEXT NOT NULL,
        started_at BIGINT NOT NULL,
        heartbeat_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
      );`,
  },
  {
    version: 11,
    name: 'work_refusals: why each worker that claimed queued work could not start it, one row per worker',
    // Two workers that both fail to start the same work each keep their reason (the queue row held only the last
    // one's). A refusal recorded before this step (the queued row's outcome, by its claimer) moves here. Times are
    // milliseconds since the epoch by the store's clock, like the queue's.
    sqlite: `
      CREATE TABLE IF NOT EXISTS work_refusals (
        workflow_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        reason TEXT NOT NULL,
        refused_at INTEGER NOT NULL,
        PRIMARY KEY (workflow_id, owner)
      );
      INSERT OR IGNORE INTO work_refusals (workflow_id, owner, reason, refused_at)
        SELECT workflow_id, claimed_by, outcome, COALESCE(claimed_at, submitted_at) FROM work_queue
        WHERE state = 'queued' AND outcome IS NOT NULL AND claimed_by IS NOT NULL;
      UPDATE work_queue SET outcome = NULL WHERE state = 'queued';`,
    postgres: `
      CREATE TABLE IF NOT EXISTS work_refusals (
        workflow_id TEXT COLLATE "C" NOT NULL,
        owner TEXT COLLATE "C" NOT NULL,
        reason TEXT NOT NULL,
        refused_at BIGINT NOT NULL,
        PRIMARY KEY (workflow_id, owner)
      );
      INSERT INTO work_refusals (workflow_id, owner, reason, refused_at)
        SELECT workflow_id, claimed_by, outcome, COALESCE(claimed_at, submitted_at) FROM work_queue
        WHERE state = 'queued' AND outcome IS NOT NULL AND claimed_by IS NOT NULL
        ON CONFLICT DO NOTHING;
      UPDATE work_queue SET outcome = NULL WHERE state = 'queued';`,
  },
];

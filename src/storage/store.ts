import type { ExecutorRegistry } from './executor-registry.js';
import type { LeaseRegistry } from './lease-registry.js';
import type { WorkQueue } from './work-queue.js';
import type { WorkerRegistry } from './worker-registry.js';
import type { BatonEvent, RecordKind, RecordRow, WorkflowState, WorkflowStatus } from '../core/index.js';

/** An event as stored: its envelope plus the store-wide position used by live subscribers to catch up. */
export type StoredEvent = BatonEvent & { position: number };

/** One command's outcome, written in one transaction: events, the folded state, and the record rows. */
export interface CommitBatch {
  workflowId: string;
  /** The version (last event seq) the command decided on; 0 for a new workflow. A mismatch is a conflict. */
  expectedVersion: number;
  events: readonly BatonEvent[];
  state: WorkflowState;
  writes: readonly RecordRow[];
  /**
   * Set when the command decided on the state this process itself last committed, without loading it again
   * (`CommandRunner`, record appends on PostgreSQL, where a load is a round trip): the store then also refuses the
   * commit (conflict) unless the stored row is still exactly that state, so a row rebuilt or re-created in between
   * at the same version is never written over.
   */
  unloadedBase?: WorkflowState;
}

export interface WorkflowFilter {
  status?: readonly WorkflowStatus[];
  worktree?: string;
  updatedBefore?: string;
  limit?: number;
}

/**
 * The Go Team live state file: a periodic auto-save of a running workflow written by long-lived processes. The
 * folded state row itself is current after every commit; this adds when it was last saved and by what trigger.
 */
export interface LiveState {
  workflow_id: string;
  saved_at: string;
  trigger: 'auto' | 'action' | 'checkpoint';
  version: number;
  data: unknown;
}

export interface RecordQuery {
  /** Only rows first recorded at or before this time (a snapshot's view; later updates still show). */
  createdThrough?: string;
  limit?: number;
  newestFirst?: boolean;
}

export type Durability = 'full' | 'normal';

/**
 * Everything the service knows about persistence. Implementations: storage/sqlite, storage/postgres.
 * Every method is atomic on its own; `commit` rejects with a `conflict` BatonError when another writer moved the
 * workflow past `expectedVersion`.
 */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly location: string;
  commit(batch: CommitBatch): Promise<void>;
  /** Group commit: several batches in one transaction (all or none). */
  commitMany(batches: readonly CommitBatch[]): Promise<void>;
  loadState(workflowId: string): Promise<WorkflowState | null>;
  listWorkflows(filter?: WorkflowFilter): Promise<WorkflowState[]>;
  readEvents(workflowId: string, afterSeq?: number, limit?: number): Promise<BatonEvent[]>;
  /** Events of every workflow (or one) after a store-wide position, in commit order. */
  readEventsSince(position: number, limit: number, workflowId?: string): Promise<StoredEvent[]>;
  getRecord(workflowId: string, kind: RecordKind, id: string): Promise<RecordRow | null>;
  /** A snapshot's record by its id alone (snapshot ids are unique across workflows). */
  findSnapshot(snapshotId: string): Promise<RecordRow | null>;
  listRecords(workflowId: string, kind: RecordKind, query?: RecordQuery): Promise<RecordRow[]>;
  saveLiveState(live: LiveState): Promise<void>;
  loadLiveState(workflowId: string): Promise<LiveState | null>;
  /** Replaces a workflow's state and records by what its events fold to (rebuild). */
  replaceProjection(workflowId: string, state: WorkflowState, writes: readonly RecordRow[]): Promise<void>;
  deleteWorkflow(workflowId: string): Promise<void>;
  listWorkflowIds(): Promise<string[]>;
  close(): Promise<void>;
  /** The `executors_running` table (agent runtime); a store without it cannot run agents (`baton run`). */
  readonly executors?: ExecutorRegistry;
  /** `workflow_leases`: one owner per workflow, by the store's clock (the agent runtime needs it). */
  readonly leases?: LeaseRegistry;
  /** `work_queue`: workflows submitted to be run by any worker (`baton submit`, `baton worker`). */
  readonly workQueue?: WorkQueue;
  /** `workers`: the workers that take queued work, what each reaches, and whether it is gone. */
  readonly workers?: WorkerRegistry;
}

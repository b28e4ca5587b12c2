import { BatonError } from '../core/index.js';
import type { CommitBatch, Store } from './store.js';

interface Waiting {
  batch: CommitBatch;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export interface GroupCommitStats {
  commits: number;
  groups: number;
}

/**
 * Group commit for concurrent appenders in one process (a server with many agents): `commit` calls that arrive
 * while a transaction is being written, or within the same turn of the event loop, are written together by one
 * `commitMany` (one transaction, one fsync). Every caller still gets its own outcome: when the group is refused
 * because one batch conflicts, its batches are committed one by one so only the stale one fails.
 */
export class GroupCommitStore implements Store {
  private queue: Waiting[] = [];
  private flushing = false;
  private scheduled = false;
  readonly stats: GroupCommitStats = { commits: 0, groups: 0 };

  constructor(
    private readonly inner: Store,
    private readonly maxGroup = 256,
  ) {}

  get dialect() {
    return this.inner.dialect;
  }
  get location() {
    return this.inner.location;
  }
  get executors() {
    return this.inner.executors;
  }
  get leases() {
    return this.inner.leases;
  }

  get workQueue() {
    return this.inner.workQueue;
  }

  get workers() {
    return this.inner.workers;
  }

  commit(batch: CommitBatch): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      this.schedule();
    });
  }

  commitMany(batches: readonly CommitBatch[]): Promise<void> {
    return this.inner.commitMany(batches);
  }

  private schedule() {
    if (this.flushing || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length) {
        const group = this.queue.splice(0, this.maxGroup);
        this.stats.groups++;
        this.stats.commits += group.length;
        try {
          await this.inner.commitMany(group.map((w) => w.batch));
          for (const w of group) w.resolve();
        } catch (e) {
          if (group.length === 1 || !BatonError.isInstance(e) || e.code !== 'conflict') {
            for (const w of group) w.reject(e);
            continue;
          }
          for (const w of group) await this.inner.commit(w.batch).then(w.resolve, w.reject);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  // Everything else is the inner store's own; reads do not wait for the queue.
  loadState: Store['loadState'] = (...a) => this.inner.loadState(...a);
  listWorkflows: Store['listWorkflows'] = (...a) => this.inner.listWorkflows(...a);
  readEvents: Store['readEvents'] = (...a) => this.inner.readEvents(...a);
  readEventsSince: Store['readEventsSince'] = (...a) => this.inner.readEventsSince(...a);
  getRecord: Store['getRecord'] = (...a) => this.inner.getRecord(...a);
  findSnapshot: Store['findSnapshot'] = (...a) => this.inner.findSnapshot(...a);
  listRecords: Store['listRecords'] = (...a) => this.inner.listRecords(...a);
  saveLiveState: Store['saveLiveState'] = (...a) => this.inner.saveLiveState(...a);
  loadLiveState: Store['loadLiveState'] = (...a) => this.inner.loadLiveState(...a);
  replaceProjection: Store['replaceProjection'] = (...a) => this.inner.replaceProjection(...a);
  deleteWorkflow: Store['deleteWorkflow'] = (...a) => this.inner.deleteWorkflow(...a);
  listWorkflowIds: Store['listWorkflowIds'] = () => this.inner.listWorkflowIds();

  /** Writes what is queued, then closes the inner store. */
  async close(): Promise<void> {
    while (this.queue.length || this.flushing || this.scheduled) await new Promise((r) => setImmediate(r));
    return this.inner.close();
  }
}

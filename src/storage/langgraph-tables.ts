import type { Durability } from './store.js';

/** A LangGraph checkpoint as stored: the checkpoint without its channel values, which live in blobs. */
export interface LgCheckpointRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  /** The serializer's type tag of `checkpoint`. */
  type: string;
  checkpoint: Uint8Array;
  /** The metadata as JSON text (filtered on by `list`). */
  metadata: string;
  /** JSON object channel -> version (as text): which blob holds each channel's value. */
  channel_versions: string;
}

/** The columns of lg_checkpoints, in LgCheckpointRow's order (both stores select and insert them so). */
export const lgCheckpointColumns =
  'thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata, channel_versions';

/**
 * One channel value, stored once per (thread, namespace, channel, version). Whole when `base_version` is null;
 * otherwise a delta: base[0, prefix_len) + value + base[len - suffix_len, len), where base is the version named.
 */
export interface LgBlobRow {
  thread_id: string;
  checkpoint_ns: string;
  channel: string;
  version: string;
  /** The serializer's type tag, or `empty` for a channel that has a version but no value. */
  type: string;
  value: Uint8Array | null;
  base_version: string | null;
  prefix_len: number;
  suffix_len: number;
}

/**
 * A blob row as read back. The value may come as text when the storage could read it so exactly: JSON written
 * whole, or a delta that starts with a comma (an appended run of elements), which are UTF-8 from end to end.
 */
export interface LgBlobRead extends Omit<LgBlobRow, 'thread_id' | 'checkpoint_ns' | 'value'> {
  value: Uint8Array | string | null;
  /** The value's size in bytes. */
  size: number;
}

/** A pending write of a task against a checkpoint. */
export interface LgWriteRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  task_id: string;
  idx: number;
  channel: string;
  type: string;
  value: Uint8Array | null;
  task_path: string;
}

export interface LgListQuery {
  thread_id?: string;
  checkpoint_ns?: string;
  checkpoint_id?: string;
  /** Only checkpoints whose id sorts before this one. */
  before?: string;
  /** Top-level metadata keys and the JSON text their values must equal. */
  filter?: ReadonlyArray<readonly [key: string, json: string]>;
  limit?: number;
}

export interface LgChannelRef {
  channel: string;
  version: string;
}

/**
 * The storage LangGraph's checkpointer needs, dialect-free. Implementations: storage/sqlite, storage/postgres.
 * Each method is atomic on its own.
 */
export interface LangGraphTables {
  readonly dialect: 'sqlite' | 'postgres';
  readonly location: string;
  /** Writes the blobs (kept when already there) and the checkpoint (replaced when already there) at once. */
  putCheckpoint(row: LgCheckpointRow, blobs: readonly LgBlobRow[]): Promise<void>;
  /** `upsert` replaces writes at the same key (special writes); `insert` keeps the first. */
  putWrites(rows: readonly LgWriteRow[], mode: 'insert' | 'upsert'): Promise<void>;
  /** The checkpoint with that id, or the newest one of the thread and namespace when `checkpointId` is absent. */
  getCheckpoint(threadId: string, ns: string, checkpointId?: string): Promise<LgCheckpointRow | undefined>;
  /** Checkpoints matching the query, newest id first. */
  listCheckpoints(query: LgListQuery): Promise<LgCheckpointRow[]>;
  /** The blobs named, with every blob their deltas rest on (in any order). */
  getBlobs(threadId: string, ns: string, refs: readonly LgChannelRef[]): Promise<LgBlobRead[]>;
  /** The pending writes of these checkpoints of one thread and namespace (in any order). */
  getWrites(threadId: string, ns: string, checkpointIds: readonly string[]): Promise<LgWriteRow[]>;
  deleteThread(threadId: string): Promise<void>;
  /** Empties every LangGraph table (tests). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export interface LangGraphTablesOptions {
  durability?: Durability;
}

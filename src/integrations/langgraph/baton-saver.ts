import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  TASKS,
  WRITES_IDX_MAP,
  compareWritesSortKeys,
  copyCheckpoint,
  maxChannelVersion,
  writesSortKey,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import { invalidInput } from '../../core/index.js';
import type {
  LangGraphTables,
  LgBlobRow,
  LgCheckpointRow,
  LgWriteRow,
} from '../../storage/langgraph-tables.js';
import { openLangGraphTables } from '../../storage/open-langgraph-tables.js';
import type { Durability } from '../../storage/store.js';
import { assembleBlobs, blobKey, encodeDelta } from './blob-codec.js';
import { RecentValues } from './recent-values.js';

export interface BatonSaverOptions {
  /** `full` (default) fsyncs every checkpoint; `normal` survives a crash of the process, not of the machine. */
  durability?: Durability;
  serde?: SerializerProtocol;
}

/** Deltas per chain before a value is stored whole again: bounds the rows one read joins. */
const MAX_DELTA_DEPTH = 20;
const LIST_PAGE = 100;
const text = new TextDecoder();

function need(config: RunnableConfig, what: string) {
  const c = config.configurable;
  if (!c) throw invalidInput(`${what}: config.configurable is missing (it needs a thread_id)`);
  const thread_id: unknown = c.thread_id;
  if (thread_id === undefined || thread_id === null || thread_id === '')
    throw invalidInput(`${what}: config.configurable.thread_id is missing`);
  return { thread_id: String(thread_id), checkpoint_ns: String(c.checkpoint_ns ?? '') };
}

/**
 * A LangGraph checkpointer whose checkpoints, channel values and pending writes live in Baton's database (SQLite
 * or PostgreSQL), beside Baton's workflows. Channel values are stored once per (thread, namespace, channel,
 * version), and a new version that differs little from the last one this process wrote is stored as a delta.
 */
export class BatonSaver extends BaseCheckpointSaver {
  private readonly recent = new RecentValues();

  private readonly opened: Promise<LangGraphTables>;

  /** Takes the tables, or the promise of them (the database opens while the saver is already in hand). */
  constructor(tables: LangGraphTables | Promise<LangGraphTables>, serde?: SerializerProtocol) {
    super(serde);
    this.opened = Promise.resolve(tables);
    // A failure to open surfaces on first use (and in setup()); it must not be an unhandled rejection meanwhile.
    this.opened.catch(() => undefined);
  }

  /**
   * A saver on a SQLite file path or a postgres:// URL, returned at once like LangGraph's own savers; the database
   * opens (and the shared migrations run) in the background. `await saver.setup()` waits for it and reports a
   * database that cannot be opened.
   */
  static fromConnString(pathOrPostgresUrl: string, options: BatonSaverOptions = {}): BatonSaver {
    if (typeof pathOrPostgresUrl !== 'string' || !pathOrPostgresUrl.trim())
      throw invalidInput('BatonSaver.fromConnString needs a SQLite file path or a postgres:// URL');
    return new BatonSaver(
      openLangGraphTables(pathOrPostgresUrl, { durability: options.durability }),
      options.serde,
    );
  }

  /** Waits until the database is open and migrated (PostgresSaver has the same method). */
  async setup(): Promise<void> {
    await this.opened;
  }

  /** The storage behind the saver (once the database is open). */
  get tables(): Promise<LangGraphTables> {
    return this.opened;
  }

  /**
   * Versions are numbers with a random fraction (3.52..., then 4.07...): ordered like LangGraph's integers, and
   * unique across forks, so a version names one value even after time travel replays from an older checkpoint.
   */
  override getNextVersion(current: number | undefined): number {
    const whole = current === undefined ? 0 : Math.floor(Number(String(current).split('.')[0]) || 0);
    return whole + 1 + Math.random();
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const c = config.configurable ?? {};
    if (c.thread_id === undefined || c.thread_id === null) return undefined;
    const checkpointId: unknown = c.checkpoint_id;
    const row = await (
      await this.tables
    ).getCheckpoint(
      String(c.thread_id),
      String(c.checkpoint_ns ?? ''),
      checkpointId ? String(checkpointId) : undefined,
    );
    if (!row) return undefined;
    const [tuple] = await this.toTuples([row]);
    return tuple;
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const c = config.configurable ?? {};
    const filter = Object.entries(options.filter ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, JSON.stringify(v)] as const);
    let remaining = options.limit ?? Infinity;
    let before: string | undefined = options.before?.configurable?.checkpoint_id;
    while (remaining > 0) {
      const rows = await (
        await this.tables
      ).listCheckpoints({
        thread_id: c.thread_id ? String(c.thread_id) : undefined,
        checkpoint_ns:
          c.checkpoint_ns === undefined || c.checkpoint_ns === null ? undefined : String(c.checkpoint_ns),
        checkpoint_id: c.checkpoint_id ? String(c.checkpoint_id) : undefined,
        before,
        filter,
        limit: Math.min(remaining, LIST_PAGE),
      });
      for (const tuple of await this.toTuples(rows)) yield tuple;
      remaining -= rows.length;
      if (rows.length < LIST_PAGE) return;
      before = rows[rows.length - 1]!.checkpoint_id;
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const { thread_id, checkpoint_ns } = need(config, 'BatonSaver.put');
    const parentId: unknown = config.configurable?.checkpoint_id;
    const { channel_values: values, ...rest } = copyCheckpoint(checkpoint);
    const blobs: LgBlobRow[] = [];
    const remember: Array<() => void> = [];
    for (const [channel, v] of Object.entries(newVersions)) {
      const version = String(v);
      const row: LgBlobRow = {
        thread_id,
        checkpoint_ns,
        channel,
        version,
        type: 'empty',
        value: null,
        base_version: null,
        prefix_len: 0,
        suffix_len: 0,
      };
      if (channel in values) {
        const [type, bytes] = await this.serde.dumpsTyped((values as Record<string, unknown>)[channel]);
        row.type = type;
        row.value = bytes;
        const last = this.recent.get(thread_id, checkpoint_ns, channel);
        let depth = 0;
        if (last && last.type === type && last.version !== version && last.depth < MAX_DELTA_DEPTH) {
          const delta = encodeDelta(last.bytes, bytes);
          if (delta) {
            Object.assign(row, {
              value: delta.middle,
              base_version: last.version,
              prefix_len: delta.prefix,
              suffix_len: delta.suffix,
            });
            depth = last.depth + 1;
          }
        }
        remember.push(() =>
          this.recent.set(thread_id, checkpoint_ns, channel, { version, type, bytes, depth }),
        );
      }
      blobs.push(row);
    }
    const [type, serialized] = await this.serde.dumpsTyped(rest);
    const versions = Object.fromEntries(
      Object.entries(checkpoint.channel_versions).map(([k, v]) => [k, String(v)]),
    );
    const row: LgCheckpointRow = {
      thread_id,
      checkpoint_ns,
      checkpoint_id: checkpoint.id,
      parent_checkpoint_id: parentId ? String(parentId) : null,
      type,
      checkpoint: serialized,
      metadata: await this.dumpMetadata(metadata),
      channel_versions: JSON.stringify(versions),
    };
    await (await this.tables).putCheckpoint(row, blobs);
    for (const r of remember) r();
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath = '',
  ): Promise<void> {
    const { thread_id, checkpoint_ns } = need(config, 'BatonSaver.putWrites');
    const checkpointId: unknown = config.configurable?.checkpoint_id;
    if (!checkpointId)
      throw invalidInput('BatonSaver.putWrites: config.configurable.checkpoint_id is missing');
    const rows: LgWriteRow[] = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        return {
          thread_id,
          checkpoint_ns,
          checkpoint_id: String(checkpointId),
          task_id: taskId,
          idx: WRITES_IDX_MAP[channel] ?? idx,
          channel,
          type,
          value: bytes,
          task_path: taskPath,
        };
      }),
    );
    const special = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    await (await this.tables).putWrites(rows, special ? 'upsert' : 'insert');
  }

  async deleteThread(threadId: string): Promise<void> {
    await (await this.tables).deleteThread(String(threadId));
    this.recent.forgetThread(String(threadId));
  }

  /** Closes the database connection(s). */
  async end(): Promise<void> {
    await (await this.tables).close();
  }

  private async dumpMetadata(metadata: CheckpointMetadata): Promise<string> {
    const [type, bytes] = await this.serde.dumpsTyped(metadata);
    return type === 'json' ? text.decode(bytes) : JSON.stringify(metadata);
  }

  /** Tuples for checkpoint rows: channel values and writes fetched per (thread, namespace) group at once. */
  private async toTuples(rows: readonly LgCheckpointRow[]): Promise<CheckpointTuple[]> {
    const out: CheckpointTuple[] = [];
    let i = 0;
    while (i < rows.length) {
      const first = rows[i]!;
      let j = i;
      while (
        j < rows.length &&
        rows[j]!.thread_id === first.thread_id &&
        rows[j]!.checkpoint_ns === first.checkpoint_ns
      )
        j++;
      out.push(...(await this.groupTuples(rows.slice(i, j))));
      i = j;
    }
    return out;
  }

  private async groupTuples(rows: readonly LgCheckpointRow[]): Promise<CheckpointTuple[]> {
    const { thread_id, checkpoint_ns } = rows[0]!;
    const versions = rows.map((r) => JSON.parse(r.channel_versions) as Record<string, string>);
    const refs = new Map<string, { channel: string; version: string }>();
    for (const v of versions)
      for (const [channel, version] of Object.entries(v))
        refs.set(blobKey(channel, version), { channel, version });
    const checkpoints = await Promise.all(
      rows.map(async (r) => (await this.serde.loadsTyped(r.type, r.checkpoint)) as Checkpoint),
    );
    // Checkpoints before format 4 take their pending sends from their parent's writes.
    const parents = rows.flatMap((r, n) =>
      checkpoints[n]!.v < 4 && r.parent_checkpoint_id !== null ? [r.parent_checkpoint_id] : [],
    );
    const [blobRows, writeRows] = await Promise.all([
      (await this.tables).getBlobs(thread_id, checkpoint_ns, [...refs.values()]),
      (await this.tables).getWrites(thread_id, checkpoint_ns, [
        ...new Set([...rows.map((r) => r.checkpoint_id), ...parents]),
      ]),
    ]);
    const blobs = assembleBlobs([...refs.values()], blobRows);
    const writes = new Map<string, LgWriteRow[]>();
    for (const w of writeRows) writes.set(w.checkpoint_id, [...(writes.get(w.checkpoint_id) ?? []), w]);
    for (const list of writes.values())
      list.sort((a, b) =>
        compareWritesSortKeys(
          writesSortKey(a.task_path, a.task_id, a.idx),
          writesSortKey(b.task_path, b.task_id, b.idx),
        ),
      );
    return Promise.all(
      rows.map(async (row, n) => {
        const checkpoint = checkpoints[n]!;
        const channelValues: Record<string, unknown> = {};
        for (const [channel, version] of Object.entries(versions[n]!)) {
          const blob = blobs.get(blobKey(channel, version));
          if (blob?.bytes) channelValues[channel] = await this.serde.loadsTyped(blob.type, blob.bytes);
        }
        checkpoint.channel_values = channelValues;
        const parent = row.parent_checkpoint_id;
        if (checkpoint.v < 4 && parent !== null) {
          const sends = (writes.get(parent) ?? []).filter((w) => w.channel === TASKS);
          checkpoint.channel_values[TASKS] = await Promise.all(sends.map((w) => this.load(w)));
          const known = Object.values(checkpoint.channel_versions);
          checkpoint.channel_versions[TASKS] = known.length
            ? maxChannelVersion(...known)
            : this.getNextVersion(undefined);
        }
        const pendingWrites = await Promise.all(
          (writes.get(row.checkpoint_id) ?? []).map(async (w): Promise<CheckpointPendingWrite> => [
            w.task_id,
            w.channel,
            await this.load(w),
          ]),
        );
        const tuple: CheckpointTuple = {
          config: { configurable: { thread_id, checkpoint_ns, checkpoint_id: row.checkpoint_id } },
          checkpoint,
          metadata: (await this.serde.loadsTyped('json', row.metadata)) as CheckpointMetadata,
          pendingWrites,
        };
        if (parent !== null)
          tuple.parentConfig = { configurable: { thread_id, checkpoint_ns, checkpoint_id: parent } };
        return tuple;
      }),
    );
  }

  private load(w: LgWriteRow): Promise<unknown> {
    return this.serde.loadsTyped(w.type, w.value ?? new Uint8Array());
  }
}

import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  WRITES_IDX_MAP,
  copyCheckpoint,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
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
import { dumpTyped } from './fast-serde.js';
import { RecentValues } from './recent-values.js';
import { readTuple, readTuples, type TupleReaderDeps } from './tuple-reader.js';

export interface BatonSaverOptions {
  /** `full` (default) fsyncs every checkpoint; `normal` survives a crash of the process, not of the machine. */
  durability?: Durability;
  serde?: SerializerProtocol;
}

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
    return row ? readTuple(await this.readerDeps(), row) : undefined;
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
      yield* readTuples(await this.readerDeps(), rows);
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
        const [type, bytes] = await dumpTyped(this.serde, (values as Record<string, unknown>)[channel]);
        row.type = type;
        row.value = bytes;
        const { delta, next } = this.recent.encode(thread_id, checkpoint_ns, channel, version, type, bytes);
        if (delta) {
          row.value = delta.middle;
          row.base_version = delta.base;
          row.prefix_len = delta.prefix;
          row.suffix_len = delta.suffix;
        }
        remember.push(() => this.recent.set(thread_id, checkpoint_ns, channel, next));
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
        const [type, bytes] = await dumpTyped(this.serde, value);
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

  private async readerDeps(): Promise<TupleReaderDeps> {
    return {
      tables: await this.tables,
      serde: this.serde,
      nextVersion: () => this.getNextVersion(undefined),
    };
  }
}

import {
  TASKS,
  compareWritesSortKeys,
  maxChannelVersion,
  writesSortKey,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import type { LangGraphTables, LgCheckpointRow, LgWriteRow } from '../../storage/langgraph-tables.js';
import { assembleBlobs, blobKey } from './stored-values.js';
import { loadTyped } from './fast-serde.js';
import { ValueLoader } from './value-loader.js';

export interface TupleReaderDeps {
  tables: LangGraphTables;
  serde: SerializerProtocol;
  /** A fresh channel version (for checkpoints before format 4, whose pending sends join their values). */
  nextVersion: () => number;
}

/**
 * The tuples of checkpoint rows, in their order: the channel values and writes of each (thread, namespace) group
 * are fetched with one query each, then the tuples are built and yielded one at a time.
 */
export async function* readTuples(
  deps: TupleReaderDeps,
  rows: readonly LgCheckpointRow[],
): AsyncGenerator<CheckpointTuple> {
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
    const group = await openGroup(deps, rows.slice(i, j));
    for (let n = 0; n < j - i; n++) yield await group.tuple(n);
    i = j;
  }
}

/** The tuple of one checkpoint row. */
export async function readTuple(deps: TupleReaderDeps, row: LgCheckpointRow): Promise<CheckpointTuple> {
  return (await openGroup(deps, [row])).tuple(0);
}

/** Fetches what the rows of one thread and namespace need; `tuple(n)` then builds the tuple of row n, once. */
async function openGroup({ tables, serde, nextVersion }: TupleReaderDeps, rows: readonly LgCheckpointRow[]) {
  const { thread_id, checkpoint_ns } = rows[0]!;
  const versions = rows.map((r) => JSON.parse(r.channel_versions) as Record<string, string>);
  const refs = new Map<string, { channel: string; version: string }>();
  for (const v of versions)
    for (const [channel, version] of Object.entries(v))
      refs.set(blobKey(channel, version), { channel, version });
  const checkpoints: (Checkpoint | undefined)[] = [];
  for (const r of rows) checkpoints.push((await loadTyped(serde, r.type, r.checkpoint)) as Checkpoint);
  // Checkpoints before format 4 take their pending sends from their parent's writes.
  const ids = new Set(rows.map((r) => r.checkpoint_id));
  for (const [n, r] of rows.entries())
    if (checkpoints[n]!.v < 4 && r.parent_checkpoint_id !== null) ids.add(r.parent_checkpoint_id);
  const [blobRows, writeRows] = await Promise.all([
    tables.getBlobs(thread_id, checkpoint_ns, [...refs.values()]),
    tables.getWrites(thread_id, checkpoint_ns, [...ids]),
  ]);
  const blobs = assembleBlobs([...refs.values()], blobRows);
  const writes = writesByCheckpoint(writeRows);
  const loader = new ValueLoader(serde);
  const load = (w: LgWriteRow) => loadTyped(serde, w.type, w.value ?? new Uint8Array());
  const tuple = async (n: number): Promise<CheckpointTuple> => {
    const row = rows[n]!;
    const checkpoint = checkpoints[n]!;
    // the tuple owns it from here: the group must not keep every tuple it yielded alive
    checkpoints[n] = undefined;
    const channelValues: Record<string, unknown> = {};
    for (const [channel, version] of Object.entries(versions[n]!)) {
      const blob = blobs.get(blobKey(channel, version));
      if (blob && blob.type !== 'empty') channelValues[channel] = await loader.load(blob);
    }
    checkpoint.channel_values = channelValues;
    const parent = row.parent_checkpoint_id;
    if (checkpoint.v < 4 && parent !== null) {
      const sends = (writes.get(parent) ?? []).filter((w) => w.channel === TASKS);
      checkpoint.channel_values[TASKS] = await Promise.all(sends.map(load));
      const known = Object.values(checkpoint.channel_versions);
      checkpoint.channel_versions[TASKS] = known.length ? maxChannelVersion(...known) : nextVersion();
    }
    const pendingWrites = await Promise.all(
      (writes.get(row.checkpoint_id) ?? []).map(async (w): Promise<CheckpointPendingWrite> => [
        w.task_id,
        w.channel,
        await load(w),
      ]),
    );
    const out: CheckpointTuple = {
      config: { configurable: { thread_id, checkpoint_ns, checkpoint_id: row.checkpoint_id } },
      checkpoint,
      metadata: (await loadTyped(serde, 'json', row.metadata)) as CheckpointMetadata,
      pendingWrites,
    };
    if (parent !== null)
      out.parentConfig = { configurable: { thread_id, checkpoint_ns, checkpoint_id: parent } };
    return out;
  };
  return { tuple };
}

/** Writes by checkpoint id, each list in the order a superstep applies them. */
function writesByCheckpoint(rows: readonly LgWriteRow[]): Map<string, LgWriteRow[]> {
  const out = new Map<string, LgWriteRow[]>();
  for (const w of rows) {
    const list = out.get(w.checkpoint_id);
    if (list) list.push(w);
    else out.set(w.checkpoint_id, [w]);
  }
  for (const list of out.values())
    list.sort((a, b) =>
      compareWritesSortKeys(
        writesSortKey(a.task_path, a.task_id, a.idx),
        writesSortKey(b.task_path, b.task_id, b.idx),
      ),
    );
  return out;
}

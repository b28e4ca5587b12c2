import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import type { WorkflowState } from '../core/index.js';
import { readJsonFile } from './read-json.js';
import { runPaths } from './run-paths.js';
import { lastContiguousSeq } from './run-reader.js';

export interface FolderCheck {
  /** The last seq the folder holds by its manifest (or, without one, its readable log). */
  lastSeq: number;
  /** The event file sizes the manifest recorded (files the mirror has written since it began recording them). */
  eventFiles: Record<string, number>;
  actors: string[];
  /** What is wrong with the folder, in words; empty when it looks intact. */
  damage: string[];
}

const statOf = (path: string) => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};

/**
 * A cheap look at a run folder before the mirror writes it (a few stats, no event file read): a manifest that is
 * unreadable, an `events/` folder or event file that is gone or shorter than the manifest recorded (a cut line), a
 * JSON document that is missing. Any of these makes the mirror repair the folder from the database.
 */
export function inspectFolder(dir: string, state: WorkflowState): FolderCheck {
  if (!existsSync(dir)) return { lastSeq: 0, eventFiles: {}, actors: [], damage: [] };
  const p = runPaths(dir);
  const damage: string[] = [];
  const m = readJsonFile(p.manifest);
  // A folder holding neither a manifest nor events is one being made (or emptied): written whole, not repaired.
  if (!m.ok && m.reason === 'missing' && !existsSync(p.events))
    return { lastSeq: 0, eventFiles: {}, actors: [], damage: [] };
  const v = (m.ok ? m.value : null) as { last_seq?: unknown; event_files?: unknown; actors?: unknown } | null;
  if (!m.ok)
    damage.push(`manifest.json is ${m.reason === 'missing' ? 'missing' : `unreadable (${m.message})`}`);
  const lastSeq =
    typeof v?.last_seq === 'number'
      ? v.last_seq
      : existsSync(p.events)
        ? lastContiguousSeq(dir, state.id)
        : 0;
  const eventFiles: Record<string, number> = {};
  if (v?.event_files && typeof v.event_files === 'object')
    for (const [rel, size] of Object.entries(v.event_files as Record<string, unknown>))
      if (typeof size === 'number') eventFiles[rel] = size;
  const actors = Array.isArray(v?.actors) ? v.actors.map(String) : [];
  if (lastSeq === 0) return { lastSeq, eventFiles, actors, damage };

  if (!existsSync(p.events)) damage.push('events/ is missing');
  else
    for (const [rel, size] of Object.entries(eventFiles)) {
      const st = statOf(join(dir, rel));
      if (!st?.isFile()) damage.push(`${rel} is missing`);
      else if (st.size < size) damage.push(`${rel} was cut (${st.size} bytes, ${size} written)`);
    }
  // Only what the folder should already hold: the documents of events it has mirrored (through lastSeq). A
  // checkpoint or snapshot taken after that is what this sync is about to write, not damage.
  const docs: [string, string][] = [
    ['workflow-state.json', p.workflowState],
    ['task-graph.json', p.taskGraph],
    ['plan.md', p.plan],
    ['state.json', p.liveState],
    ...state.checkpoints
      .filter((c) => c.seq <= lastSeq)
      .map((c): [string, string] => [`checkpoints/${c.name}.json`, p.checkpoint(c.name)]),
  ];
  if (state.last_snapshot && state.last_snapshot.seq <= lastSeq)
    docs.push([
      `snapshots/${state.last_snapshot.session_number}.json`,
      p.snapshot(state.last_snapshot.session_number),
    ]);
  if (state.status === 'interrupted' && state.version <= lastSeq) docs.push(['recovery.json', p.recovery]);
  for (const [name, path] of docs) if (!statOf(path)?.isFile()) damage.push(`${name} is missing`);
  return { lastSeq, eventFiles, actors, damage };
}

/** Every regular `.jsonl` file under `events/`, relative to the run folder. */
export function eventFilesOf(dir: string): string[] {
  const root = join(dir, 'events');
  let names: string[];
  try {
    names = readdirSync(root, { recursive: true }).map(String);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.jsonl') && statOf(join(root, n))?.isFile())
    .map((n) => relative(dir, join(root, n)))
    .sort();
}

/** The sizes of the given event files now. */
export function sizesOf(dir: string, files: Iterable<string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const rel of files) {
    const st = statOf(join(dir, rel));
    if (st?.isFile()) out[rel] = st.size;
  }
  return out;
}

/**
 * Removes an unfinished last line (a line cut short) from an event file, so the lines appended after it start
 * clean. Only whole lines are kept; called under the run folder's lock, so no other writer is appending.
 */
export function dropUnfinishedLine(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch {
    return;
  }
  try {
    const size = fstatSync(fd).size;
    if (!size) return;
    const lastByte = Buffer.alloc(1);
    readSync(fd, lastByte, 0, 1, size - 1);
    if (lastByte[0] === 0x0a) return;
    const chunk = Buffer.alloc(Math.min(size, 1 << 16));
    let end = size;
    let keep = -1;
    while (end > 0 && keep < 0) {
      const start = Math.max(0, end - chunk.length);
      const n = readSync(fd, chunk, 0, end - start, start);
      const at = chunk.subarray(0, n).lastIndexOf(0x0a);
      if (at >= 0) keep = start + at + 1;
      end = start;
    }
    const cut = keep < 0 ? 0 : keep;
    if (cut < size) ftruncateSync(fd, cut);
  } finally {
    closeSync(fd);
  }
}

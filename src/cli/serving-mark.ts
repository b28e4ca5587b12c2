import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeJsonAtomic } from '../disk/atomic-file.js';
import { processLiveness, processStartTime } from '../executors/process-identity.js';

/** What a running `baton serve` leaves under its BATON_HOME, one file per server (`serving/<pid>.json`). */
interface ServingMark {
  pid: number;
  pid_start_time: string | null;
  host: string;
  started_at: string;
  url: string;
  store: string;
}

const folderOf = (home: string) => join(home, 'serving');

function readMark(path: string): ServingMark | null {
  try {
    const m = JSON.parse(readFileSync(path, 'utf8')) as Partial<ServingMark>;
    return typeof m.pid === 'number' && typeof m.host === 'string' ? (m as ServingMark) : null;
  } catch {
    return null;
  }
}

/**
 * The servers of this BATON_HOME on this host that ended without stopping (killed, crashed, the machine went down):
 * their mark is left, and their process is verifiably gone (`processLiveness`: a pid the kernel gave another process
 * since is gone too). Each is said once, in words: its mark is removed.
 */
export function serversGoneWords(home: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folderOf(home)).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(folderOf(home), name);
    const m = readMark(path);
    if (m && (m.host !== hostname() || processLiveness(m.pid, m.pid_start_time) !== 'dead')) return [];
    rmSync(path, { force: true });
    if (!m) return [];
    return [
      `the \`baton serve\` before this one (pid ${m.pid}, started ${m.started_at.slice(0, 19).replace('T', ' ')} UTC, ${m.url}, store ${m.store}) ended without stopping (killed, crashed, or the machine went down): startup recovery says next what it left running`,
    ];
  });
}

/** Marks this server as running under `home`; the function returned removes the mark, at a clean stop. */
export function markServing(home: string, at: { url: string; store: string }, now: string): () => void {
  const path = join(folderOf(home), `${process.pid}.json`);
  const mark: ServingMark = {
    pid: process.pid,
    pid_start_time: processStartTime(process.pid),
    host: hostname(),
    started_at: now,
    ...at,
  };
  // whole or not at all: a server starting beside it never reads half of it (and takes it for a stale one)
  writeJsonAtomic(path, mark);
  return () => rmSync(path, { force: true });
}

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { BatonError } from '../core/errors.js';

export interface LockOptions {
  /** How long to wait for another holder before giving up (ms). */
  timeoutMs?: number;
  /** A lock older than this is stale whoever holds it (ms): a holder keeps it for milliseconds. */
  staleMs?: number;
}

interface Holder {
  pid: number;
  host: string;
  at: number;
  token: string;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

function readHolder(path: string): { text: string; holder: Holder | null } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null; // released meanwhile
  }
  try {
    return { text, holder: JSON.parse(text) as Holder };
  } catch {
    return { text, holder: null }; // a holder that died between creating and writing it
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A lock nobody holds any more: its process is gone (same host), it is older than `staleMs`, or it is unreadable. */
function isStale(found: { text: string; holder: Holder | null }, staleMs: number, mtime: () => number) {
  const h = found.holder;
  if (!h || typeof h.pid !== 'number') return Date.now() - mtime() > 1000;
  if (h.host === hostname() && !alive(h.pid)) return true;
  return Date.now() - h.at > staleMs;
}

/**
 * Runs `fn` holding a lock file (created with O_EXCL beside what it protects), so read-modify-write cycles of
 * several processes take turns. A lock left by a process that died (SIGKILL, power loss) is stale when its process
 * no longer exists on this host or when it is older than `staleMs` (30 s), and is then broken: renamed aside
 * atomically, checked to be the stale one, and removed.
 */
export function withLock<T>(path: string, fn: () => T, options: LockOptions = {}): T {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const token = randomBytes(8).toString('hex');
  const deadline = Date.now() + timeoutMs;
  let wait = 1;
  for (;;) {
    let fd: number | null = null;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (fd !== null) {
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), token }));
      } finally {
        closeSync(fd);
      }
      try {
        return fn();
      } finally {
        const mine = readHolder(path);
        if (mine?.holder?.token === token) rmSync(path, { force: true });
      }
    }
    const found = readHolder(path);
    if (found && isStale(found, staleMs, () => mtimeOf(path))) breakLock(path, found.text);
    else {
      if (Date.now() > deadline)
        throw new BatonError(
          'unavailable',
          `${path} is locked by ${found?.text ?? 'another process'} for more than ${timeoutMs} ms; if no Baton process is running, delete it`,
        );
      sleep(wait);
      wait = Math.min(50, wait * 2);
    }
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** Moves a stale lock aside; if what was moved is not the stale lock (a new holder took it meanwhile), puts it back. */
function breakLock(path: string, staleText: string): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke it
  }
  let moved = '';
  try {
    moved = readFileSync(aside, 'utf8');
  } catch {
    // gone
  }
  if (moved !== staleText) {
    try {
      linkSync(aside, path); // fails if yet another holder exists: then that one holds it
    } catch {
      // nothing to put back
    }
  }
  rmSync(aside, { force: true });
}

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * What a liveness check can say. It never guesses: `dead` only when the process is verifiably gone (no process has
 * that pid, or the pid now belongs to a process that started at another time), `alive` only when pid and start
 * time both match, and `unknown` when the identity cannot be checked (another host, no start time).
 */
export type Liveness = 'alive' | 'dead' | 'unknown';

/** Linux: field 22 of /proc/<pid>/stat (clock ticks since boot) and the state letter (field 3). */
function procStat(pid: number): { start: string; state: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces; fields after it are space-separated.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = rest[19];
    return start ? { start, state: rest[0] ?? '' } : null;
  } catch {
    return null;
  }
}

/** macOS and the BSDs (no /proc): `ps -o stat= -o lstart= -p <pid>`, the start to the second. */
function psStat(pid: number): { start: string; state: string } | null {
  try {
    const out = execFileSync('ps', ['-o', 'stat=', '-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    }).trim();
    const m = /^(\S+)\s+(.+)$/.exec(out);
    return m ? { state: m[1] ?? '', start: (m[2] ?? '').replace(/\s+/g, ' ') } : null;
  } catch {
    return null;
  }
}

const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/** How this platform gives a process's start time: /proc on Linux, `ps` elsewhere (macOS). */
export const startTimeSource: 'proc' | 'ps' = hasProc ? 'proc' : 'ps';

const statOf = (pid: number, source = startTimeSource) => (source === 'proc' ? procStat(pid) : psStat(pid));

/**
 * A process's start time as the platform gives it (Linux /proc, macOS `ps`), so a pid the kernel reused for another
 * process is not mistaken for the one that was recorded. Null where it cannot be read.
 */
export function processStartTime(pid: number, source = startTimeSource): string | null {
  return statOf(pid, source)?.start ?? null;
}

/** Whether a process with this pid exists at all (EPERM: it exists, it is another user's). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The liveness of the process recorded as `pid` started at `startTime`, on this host. */
export function processLiveness(
  pid: number | null,
  startTime: string | null,
  source = startTimeSource,
): Liveness {
  if (!pid || pid <= 0) return 'unknown';
  if (!pidExists(pid)) return 'dead';
  const now = statOf(pid, source);
  if (!now || !startTime) return 'unknown';
  if (now.start !== startTime) return 'dead';
  return now.state.startsWith('Z') || now.state.startsWith('X') ? 'dead' : 'alive';
}

/** Waits until the process is verifiably gone, up to `ms`. */
export async function goneWithin(pid: number, start: string | null, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (processLiveness(pid, start) === 'dead') return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether the process with this identity is verifiably alive. */
export function isProcessAlive(pid: number | null, startTime: string | null): boolean {
  return processLiveness(pid, startTime) === 'alive';
}

const nonce = randomBytes(3).toString('hex');

/** This process's identity, `host:pid:start:nonce`: the owner of the leases and executions it takes. */
export function ownerId(hostname: string): string {
  return `${hostname}:${process.pid}:${processStartTime(process.pid) ?? '?'}:${nonce}`;
}

/** The parts of an owner id (`host:pid:start[:nonce]`); null for anything else. */
export function parseOwner(owner: string | null): { host: string; pid: number; start: string | null } | null {
  if (!owner) return null;
  const [host, pid, start] = owner.split(':');
  if (!host || !pid || !/^\d+$/.test(pid)) return null;
  return { host, pid: Number(pid), start: start && start !== '?' ? start : null };
}

/** The liveness of an owner from this host: another host's process cannot be checked (`unknown`). */
export function ownerLiveness(
  owner: { host: string; pid: number; start: string | null } | null,
  hostname: string,
): Liveness {
  if (!owner || owner.host !== hostname) return 'unknown';
  return processLiveness(owner.pid, owner.start);
}

/** Whether an owner id names a verifiably live process on this host. */
export function isOwnerAlive(owner: string | null, hostname: string): boolean {
  return ownerLiveness(parseOwner(owner), hostname) === 'alive';
}

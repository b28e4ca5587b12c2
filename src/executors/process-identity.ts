import { readFileSync } from 'node:fs';

/**
 * A process's identity is its pid plus its start time (field 22 of /proc/<pid>/stat, in clock ticks since boot),
 * so a pid the kernel reused for another process is not mistaken for a live agent.
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces; fields after it are space-separated.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19] ?? null; // field 22 overall = index 19 after the pid and the name
  } catch {
    return null;
  }
}

/** Whether the process with this identity is alive. A check that cannot decide answers false. */
export function isProcessAlive(pid: number | null, startTime: string | null): boolean {
  if (!pid || !startTime) return false;
  const now = processStartTime(pid);
  if (now === null || now !== startTime) return false;
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = state.slice(state.lastIndexOf(')') + 2).split(' ');
    return fields[0] !== 'Z' && fields[0] !== 'X';
  } catch {
    return false;
  }
}

/** This process's identity, `host:pid:start`, kept as the owner of the executions it launches. */
export function ownerId(hostname: string): string {
  return `${hostname}:${process.pid}:${processStartTime(process.pid) ?? '?'}`;
}

/** Whether an owner id names a live process on this host; another host's owner cannot be checked: not alive. */
export function isOwnerAlive(owner: string | null, hostname: string): boolean {
  if (!owner) return false;
  const [host, pid, start] = owner.split(':');
  if (host !== hostname || !pid || !start) return false;
  return isProcessAlive(Number(pid), start);
}

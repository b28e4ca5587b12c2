import { readFileSync } from 'node:fs';

/** The agent process that ran a hook: its id, and its start time so that a reused id is not taken for it. */
export interface AgentProcess {
  pid: number;
  /** Clock ticks since boot when it started (`/proc/<pid>/stat` field 22). */
  started: number;
}

/** Claude Code and Codex, as a native binary, a script or a package's entry point. */
const agentProgram = /(?:^|\/)(?:claude|codex)(?:\.exe|\.js)?$|@anthropic-ai\/claude-code\/|@openai\/codex\//;

/**
 * Ancestors looked at: the hook, a shell the agent ran it through, an `npx` and its shell. A process further up is
 * not the agent that ran the hook (a test run inside an agent's terminal).
 */
const MAX_DEPTH = 4;

interface Stat {
  ppid: number;
  state: string;
  started: number;
  comm: string;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** `/proc/<pid>/stat`: "pid (comm) state ppid ... starttime" (comm may hold spaces and parentheses). */
function statOf(pid: number): Stat | null {
  const raw = read(`/proc/${pid}/stat`);
  if (raw === null) return null;
  const close = raw.lastIndexOf(')');
  const fields = raw.slice(close + 2).split(' ');
  const started = Number(fields[19]);
  if (close < 0 || !Number.isFinite(started)) return null;
  return {
    comm: raw.slice(raw.indexOf('(') + 1, close),
    state: fields[0] ?? '',
    ppid: Number(fields[1]),
    started,
  };
}

const isAgent = (pid: number, comm: string) => {
  const argv = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').slice(0, 2);
  return [comm, ...argv].some((name) => agentProgram.test(name));
};

/** The command line of the agent process (its program first), or null when it cannot be read or is another's now. */
export function agentArgs(p: AgentProcess): string[] | null {
  const st = statOf(p.pid);
  if (!st || st.started !== p.started) return null;
  const raw = read(`/proc/${p.pid}/cmdline`);
  return raw === null ? null : raw.replace(/\0$/, '').split('\0');
}

/** Whether processes can be read here (Linux's /proc); elsewhere liveness falls back to the transcript's writes. */
export const canSeeProcesses = (): boolean => statOf(process.pid) !== null;

/**
 * The agent that ran this hook: the nearest process from `from` up (at most MAX_DEPTH) whose program is Claude Code or
 * Codex; null when none is, or where processes cannot be read (not Linux).
 */
export function agentProcess(from: number = process.ppid): AgentProcess | null {
  let pid = from;
  for (let depth = 0; depth < MAX_DEPTH && pid > 1; depth++) {
    const st = statOf(pid);
    if (!st) return null;
    if (isAgent(pid, st.comm)) return { pid, started: st.started };
    pid = st.ppid;
  }
  return null;
}

/** Whether the agent process still runs: true, false (gone, a zombie, or its id now another's), null if unknowable. */
export function isRunning(p: AgentProcess): boolean | null {
  if (!canSeeProcesses()) return null;
  const st = statOf(p.pid);
  return st !== null && st.started === p.started && st.state !== 'Z' && st.state !== 'X';
}

export const sameProcess = (a: AgentProcess | null | undefined, b: AgentProcess | null | undefined) =>
  !!a && !!b && a.pid === b.pid && a.started === b.started;

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type {
  AgentProcess,
  Executor,
  ExecutorRow,
  ExitStatus,
  LaunchSpec,
} from '../../service/runtime/runtime-ports.js';
import { goneWithin, isProcessAlive, processStartTime } from '../process-identity.js';
import { invalidInput } from '../../core/index.js';
import { withBatonOnPath } from './agent-path.js';

const groups = process.platform !== 'win32';

/** How long an agent Baton stops has to end on SIGTERM before it gets SIGKILL. */
const STOP_GRACE_MS = 5_000;

/**
 * Signals an agent and whatever it started (its shell commands, test runs, servers): the agent leads its own process
 * group (it is spawned detached), so the group is signalled; an agent that leads none (started by an older Baton) is
 * signalled alone.
 */
export function signalAgent(pid: number, signal: NodeJS.Signals) {
  if (groups) {
    try {
      process.kill(-pid, signal);
      return;
    } catch {
      // no such group: the process alone
    }
  }
  process.kill(pid, signal);
}

/**
 * What an agent that ended left running in its process group (a test watcher, a server, a `sleep` of a killed agent):
 * stopped (SIGTERM; SIGKILL after 3 s for what is still there, asked every 100 ms so that a group gone meanwhile is
 * never signalled again), so the next session does not meet it holding a port or a lock. Whether there was any.
 */
function stopLeftRunning(pid: number | undefined): boolean {
  if (!groups || !pid) return false;
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return false;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return false;
  }
  let waited = 0;
  const check = setInterval(() => {
    waited += 100;
    if (!alive()) return clearInterval(check);
    if (waited < 3_000) return;
    clearInterval(check);
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }, 100);
  // not unref'd: a `baton run` that ends meanwhile waits for this (at most 3 s), so nothing of the agent's outlives it
  return true;
}

/**
 * Runs an agent as a child process of Baton (its environment: `baseEnv` with the spec's on top, and `baton` on its
 * PATH), leading a process group of its own so that stopping it stops what it started; standard error's tail becomes
 * the error text when the run fails. Baton stops it itself on Ctrl-C (the terminal's signal reaches Baton's group
 * only).
 */
export function spawnAgent(spec: LaunchSpec, baseEnv: NodeJS.ProcessEnv = process.env): AgentProcess {
  const child = spawn(spec.bin, spec.args, {
    cwd: spec.cwd,
    env: withBatonOnPath({ ...baseEnv, ...spec.env }, spec.cwd),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: groups,
  });
  const listeners: ((chunk: string) => void)[] = [];
  const early: string[] = [];
  const errListeners: ((chunk: string) => void)[] = [];
  const earlyErr: string[] = [];
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    if (listeners.length === 0) early.push(d);
    for (const l of listeners) l(d);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
    if (errListeners.length === 0) earlyErr.push(d);
    for (const l of errListeners) l(d);
  });
  let stopping = false;
  let killedAfterGrace = false;
  const exited = new Promise<ExitStatus>((resolve) => {
    child.on('error', (e) => {
      const line = `cannot run ${spec.bin}: ${e.message}`;
      stderr += line;
      for (const l of errListeners) l(line);
      resolve({ code: 127, signal: null, stderr });
    });
    // at its exit, not at the close of its output: a process it left running may hold that output open
    let left = false;
    // a stop Baton asked for signalled the whole group already: nothing of the agent's own is "left" then
    child.on('exit', () => (left = !stopping && stopLeftRunning(child.pid)));
    child.on('close', (code, signal) => {
      resolve({
        code,
        signal,
        stderr: stderr.trim() || null,
        ...(left ? { left_running_stopped: true } : {}),
        ...(killedAfterGrace ? { killed_after_grace_s: STOP_GRACE_MS / 1000 } : {}),
      });
    });
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(spec.stdin ?? '');
  const pid = child.pid ?? null;
  return {
    pid,
    startTime: pid ? processStartTime(pid) : null,
    runId: null,
    onOutput(cb) {
      listeners.push(cb);
      for (const d of early.splice(0)) cb(d);
    },
    onStderr(cb) {
      errListeners.push(cb);
      for (const d of earlyErr.splice(0)) cb(d);
    },
    wait: () => exited,
    async stop() {
      if (stopping) return;
      stopping = true;
      const running = () => child.pid !== undefined && child.exitCode === null && child.signalCode === null;
      try {
        if (running()) signalAgent(child.pid as number, 'SIGTERM');
      } catch {
        return; // gone meanwhile
      }
      // an agent that does not end on SIGTERM (stuck, or ignoring it) gets SIGKILL after STOP_GRACE_MS, said in its
      // exit status: a stop never hangs, and nothing of the agent's outlives it
      const kill = setTimeout(() => {
        if (!running()) return;
        killedAfterGrace = true;
        try {
          signalAgent(child.pid as number, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }, STOP_GRACE_MS);
      child.once('exit', () => clearTimeout(kill));
    },
  };
}

/**
 * The local standalone executor: agents are children of this Baton process and do not survive it. After a
 * restart, the workspace is re-opened in workspace-only mode (it exists: git, files, shell work without an agent).
 */
export class LocalExecutor implements Executor {
  readonly runtime = 'local' as const;
  readonly endpoint = null;

  async health() {
    return true;
  }

  async capabilities() {
    return { supports_session_resume: true, supports_workspace_only: true };
  }

  async launch(spec: LaunchSpec): Promise<AgentProcess> {
    if (!existsSync(spec.cwd)) throw invalidInput(`the workspace ${spec.cwd} does not exist`);
    return spawnAgent(spec);
  }

  /** A local agent cannot be re-attached: its output went to the process that died. */
  async attach(): Promise<AgentProcess | null> {
    return null;
  }

  async isAlive(row: ExecutorRow) {
    return isProcessAlive(row.pid, row.pid_start_time);
  }

  /** Stops the row's agent and what it started, if it still runs (same pid and start time). */
  async release(row: ExecutorRow) {
    if (!row.pid || !isProcessAlive(row.pid, row.pid_start_time)) return;
    try {
      signalAgent(row.pid, 'SIGTERM');
    } catch {
      return; // gone meanwhile
    }
    // an orphan that does not end on SIGTERM (stuck, or ignoring it) gets SIGKILL, as a stop gives an agent
    if (await goneWithin(row.pid, row.pid_start_time, STOP_GRACE_MS)) return;
    try {
      signalAgent(row.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
    await goneWithin(row.pid, row.pid_start_time, STOP_GRACE_MS);
  }
}

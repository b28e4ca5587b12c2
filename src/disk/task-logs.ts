import {
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  closeSync,
  readdirSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { BatonError, errorLine, invalidInput, notFound } from '../core/index.js';
import type { TaskLogInfo, TaskLogs, TaskLogSink } from '../service/runtime/run-events.js';
import { runFolderName, runsDirFor } from './run-paths.js';

const LOG_NAME = /^([A-Za-z0-9._-]+)-s(\d+)-(\d+)\.log$/;
/** A task id as its logs' names spell it. */
const safeName = (taskId: string) => taskId.replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * Each task's agent output in the run folder: `<runs>/<workflow>/logs/<task>-s<session>-<n>.log`, one file per
 * agent run (n counts the runs of that task in that session), everything the agent printed, standard error lines
 * marked `[stderr]`. Appended as the agent writes, so the dashboard can follow a running task's log.
 */
export class TaskLogFiles implements TaskLogs {
  constructor(private readonly runsDir?: string | null) {}

  private dir(w: { id: string; worktree: string }) {
    return join(runsDirFor(w.worktree, this.runsDir), runFolderName(w.id), 'logs');
  }

  open(w: { id: string; worktree: string }, taskId: string, sessionNumber: number): TaskLogSink {
    const dir = this.dir(w);
    mkdirSync(dir, { recursive: true });
    const safeTask = safeName(taskId);
    let n = 1;
    while (existsSync(join(dir, `${safeTask}-s${sessionNumber}-${n}.log`))) n++;
    const path = join(dir, `${safeTask}-s${sessionNumber}-${n}.log`);
    const out = createWriteStream(path, { flags: 'a' });
    out.on('error', () => undefined);
    let errTail = '';
    return {
      path,
      write(stream, text) {
        if (stream === 'stdout') return void out.write(text);
        // Standard error, line by line, marked so it can be told from the agent's stream.
        const lines = (errTail + text).split('\n');
        errTail = lines.pop() ?? '';
        for (const l of lines) out.write(`[stderr] ${l}\n`);
      },
      close: () =>
        new Promise<void>((resolve) => {
          if (errTail) out.write(`[stderr] ${errTail}\n`);
          errTail = '';
          out.end(() => resolve());
        }),
    };
  }

  async list(w: { id: string; worktree: string }): Promise<TaskLogInfo[]> {
    const dir = this.dir(w);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => LOG_NAME.test(f))
      .map((name) => {
        const m = LOG_NAME.exec(name);
        const st = statSync(join(dir, name));
        return {
          name,
          task_id: m?.[1] ?? null,
          session_number: m ? Number(m[2]) : null,
          size: st.size,
          modified_at: st.mtime.toISOString(),
        };
      })
      .sort((a, b) => a.modified_at.localeCompare(b.modified_at) || a.name.localeCompare(b.name));
  }

  async latest(w: { id: string; worktree: string }, taskId: string, sessionNumber: number) {
    const runs = (await this.list(w)).flatMap((l) => {
      const m = LOG_NAME.exec(l.name);
      return m?.[1] === safeName(taskId) && Number(m[2]) === sessionNumber ? [{ l, n: Number(m[3]) }] : [];
    });
    return runs.sort((a, b) => b.n - a.n)[0]?.l ?? null;
  }

  async read(w: { id: string; worktree: string }, name: string, offset: number, limit: number) {
    if (!LOG_NAME.test(name)) throw invalidInput(`"${name}" is not a task log (<task>-s<session>-<n>.log)`);
    const path = join(this.dir(w), name);
    if (!existsSync(path)) throw notFound(`no log ${name} for workflow ${w.id}`);
    try {
      const size = statSync(path).size;
      const from = Math.max(0, Math.min(offset, size));
      const len = Math.max(0, Math.min(limit, size - from));
      const buf = Buffer.alloc(len);
      const fd = openSync(path, 'r');
      try {
        readSync(fd, buf, 0, len, from);
      } finally {
        closeSync(fd);
      }
      return { name, offset: from, next_offset: from + len, size, text: buf.toString('utf8') };
    } catch (e) {
      // the file named: the driver's error (EISDIR, EACCES) does not say which, and a reader may be far from it
      throw new BatonError('internal', `cannot read the task log ${path}: ${errorLine(e)}`, {}, { cause: e });
    }
  }
}

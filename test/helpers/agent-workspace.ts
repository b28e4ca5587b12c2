import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/storage/open-store.js';
import { batonBin, runCli } from './cli.js';
import { makeRepo, tempDir } from './git-repo.js';

/** Fake agent CLIs replaying real recorded streams from the corpus (see test/fixtures/agents/). */
export const fakeClaude = fileURLToPath(new URL('../fixtures/agents/fake-claude.mjs', import.meta.url));
export const fakeCodex = fileURLToPath(new URL('../fixtures/agents/fake-codex.mjs', import.meta.url));

export interface StoredEvent {
  type: string;
  data: Record<string, unknown>;
  /** Who acted (read from the SQLite file; absent when read through the Store). */
  actor?: string;
}

/**
 * A real git repository and Baton home for agent-runtime tests: the CLI (with --json) run as a child process, the
 * event log read back from the real SQLite file, and the three-task workflow the tests drive.
 */
export function agentWorkspace(env: Record<string, string> = {}, opts: { database?: string } = {}) {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const base: Record<string, string> = {
    BATON_HOME: home,
    ...(opts.database ? { BATON_DATABASE_URL: opts.database } : {}),
    ...env,
  };
  /** The CLI as a person reads it (no --json). */
  const said = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, { cwd: repo, env: { ...base, ...extra } });
  const cli = (args: string[], extra: Record<string, string> = {}) => said(['--json', ...args], extra);
  const events = (): StoredEvent[] => {
    const db = new Database(join(home, 'baton.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT type, actor, data FROM events ORDER BY position').all() as {
        type: string;
        actor: string;
        data: string;
      }[];
      return rows.map((r) => ({
        type: r.type,
        actor: r.actor,
        data: JSON.parse(r.data) as Record<string, unknown>,
      }));
    } finally {
      db.close();
    }
  };
  const count = (type: string) => events().filter((e) => e.type === type).length;
  /** The event log of every workflow, read through the Store (SQLite or PostgreSQL alike). */
  const storedEvents = async (workflowId: string): Promise<StoredEvent[]> => {
    const store = await openStore({ database: opts.database ?? join(home, 'baton.db') });
    try {
      return (await store.readEvents(workflowId)).map((e) => ({
        type: e.type,
        data: e.data as Record<string, unknown>,
      }));
    } finally {
      await store.close();
    }
  };
  /** `baton run ...` as a child process that keeps running: its output collected, killable for real. */
  const spawnRun = (args: string[], extra: Record<string, string> = {}) => {
    const child = spawn(process.execPath, [batonBin, ...args], {
      cwd: repo,
      env: { ...process.env, ...base, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '' };
    child.stdout?.on('data', (d: Buffer) => (out.stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out.stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    return { child, out, exited };
  };
  const create = () =>
    cli([
      'create',
      '--title',
      'Three tasks',
      '--task',
      'T1:First',
      '--task',
      'T2:Second:T1',
      '--task',
      'T3:Third:T2',
    ]);
  return { repo, home, env: base, cli, said, events, count, create, storedEvents, spawnRun };
}

/** Waits for a condition with a deadline (never a fixed sleep). */
export async function until<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether a process with this pid still runs (a zombie waiting for its parent to reap it does not). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return process.platform !== 'linux';
  }
}

export type { ChildProcess };

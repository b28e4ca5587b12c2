import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store.js';
import { fakeClaude } from './agent-workspace.js';
import { batonBin, runCli } from './cli.js';
import { makeRepo, tempDir } from './git-repo.js';
import { hermeticEnv } from './hermetic-env.js';

/** One line of a `baton worker --json` process: a worker event or a run event. */
export interface WorkerLine {
  event: string;
  workflow_id?: string;
  task_id?: string;
  [k: string]: unknown;
}

/** A `baton worker` child process (a machine of the team): its NDJSON lines collected, killable for real. */
export function spawnWorker(database: string, args: string[], env: Record<string, string> = {}) {
  return spawnBaton(database, ['--json', 'worker', ...args], env);
}

/** A long-running `baton ...` child process on this database, with its own home (another machine). */
export function spawnBaton(database: string, args: string[], env: Record<string, string> = {}) {
  const home = tempDir('baton-worker-home-');
  const child = spawn(process.execPath, [batonBin, ...args], {
    cwd: home,
    env: hermeticEnv({ BATON_HOME: home, BATON_DATABASE_URL: database, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  /** Resolves once the process exited and its output was read to the end. */
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  const lines = (): WorkerLine[] =>
    out.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as WorkerLine);
  return { child, out, exited, closed, lines, home };
}

export type WorkerProcess = ReturnType<typeof spawnWorker>;

/** Workflows of three tasks, each in its own git repository, created on one shared database (a team's work). */
export async function teamWork(database: string, count: number) {
  const home = tempDir('baton-team-home-');
  const env = { BATON_HOME: home, BATON_DATABASE_URL: database };
  const items: { id: string; repo: string }[] = [];
  for (let i = 0; i < count; i++) {
    const repo = makeRepo('baton-team-repo-');
    const r = await runCli(
      [
        '--json',
        'create',
        '--title',
        `Work ${i}`,
        '--task',
        'T1:First',
        '--task',
        'T2:Second:T1',
        '--task',
        'T3:Third:T2',
      ],
      { cwd: repo, env },
    );
    if (r.code !== 0) throw new Error(`baton create failed: ${r.stderr}`);
    items.push({ id: r.json<{ id: string }>().id, repo });
  }
  const submit = (item: { repo: string }, args: string[]) =>
    runCli(['--json', 'submit', '--agent', 'claude-code', '--agent-bin', fakeClaude, ...args], {
      cwd: item.repo,
      env,
    });
  return { home, env, items, submit };
}

/** The workflows' states and events, read through the Store (no crash watch: reading changes nothing). */
export async function readTeam(database: string, ids: string[]) {
  const store = await openStore({ database });
  try {
    const out: Record<
      string,
      { status: string; resume_token: string | null; events: { type: string; task_id: string | null }[] }
    > = {};
    for (const id of ids) {
      const s = await store.loadState(id);
      const events = (await store.readEvents(id)).map((e) => ({ type: e.type, task_id: e.task_id ?? null }));
      out[id] = { status: s?.status ?? 'missing', resume_token: s?.agent?.resume_token ?? null, events };
    }
    return out;
  } finally {
    await store.close();
  }
}

/** The fake agent's own log: one line per agent run, with the task and the worktree it ran in. */
export function agentRuns(log: string): { task: string | null; cwd: string; resume: string | null }[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { task: string | null; cwd: string; resume: string | null });
}

export const fakeLogIn = (dir: string) => join(dir, 'agent-runs.ndjson');

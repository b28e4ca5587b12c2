import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/storage/open-store.js';
import { tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';

const script = fileURLToPath(new URL('./fixtures/langgraph-interrupt.mjs', import.meta.url));

function run(args: string[]): { child: ChildProcess; firstLine: Promise<string>; done: Promise<string> } {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let onLine: (line: string) => void = () => undefined;
  const firstLine = new Promise<string>((resolve) => (onLine = resolve));
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('\n')) onLine(out.slice(0, out.indexOf('\n')));
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<string>((resolve, reject) =>
    child.on('close', (code, signal) =>
      code === 0 ? resolve(out) : reject(new Error(`exit ${code ?? signal}: ${err || out}`)),
    ),
  );
  done.catch(() => undefined);
  firstLine.catch(() => undefined);
  return { child, firstLine, done };
}

/** Runs the graph to its interrupt in one process, SIGKILLs it, and resumes it in a new process. */
async function killAndResume(database: string) {
  const thread = `thread-${Date.now()}`;
  const first = run(['start', database, thread]);
  const line = await Promise.race([
    first.firstLine,
    first.done.then((out) => Promise.reject(new Error(`ended before the interrupt: ${out}`))),
  ]);
  expect(JSON.parse(line)).toEqual({ interrupted: [{ question: 'ship it?' }] });
  first.child.kill('SIGKILL');
  await expect(first.done).rejects.toThrow(/SIGKILL/);

  const second = run(['resume', database, thread]);
  const final = JSON.parse((await second.done).trim()) as { steps: string[]; answer: string };
  // `plan` ran once, in the killed process; the resumed process ran only what was left
  expect(final).toEqual({
    steps: ['input', 'planned in start', 'asked', 'finished with yes'],
    answer: 'yes',
  });

  // the same database holds Baton's own tables
  const store = await openStore({ database });
  try {
    expect(await store.listWorkflows()).toEqual([]);
  } finally {
    await store.close();
  }
}

describe('LangGraph graph with interrupt(): killed, then resumed from Baton in a new process', () => {
  it('on a SQLite file', async () => {
    await killAndResume(join(tempDir('baton-lg-e2e-'), 'baton.db'));
  });

  it('on PostgreSQL', async () => {
    await killAndResume(await freshPostgresUrl('baton_lg_e2e'));
  });
});

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './cli.js';
import { makeRepo, tempDir } from './git-repo.js';

/** Fake agent CLIs replaying real recorded streams from the corpus (see test/fixtures/agents/). */
export const fakeClaude = fileURLToPath(new URL('../fixtures/agents/fake-claude.mjs', import.meta.url));
export const fakeCodex = fileURLToPath(new URL('../fixtures/agents/fake-codex.mjs', import.meta.url));

export interface StoredEvent {
  type: string;
  data: Record<string, unknown>;
}

/**
 * A real git repository and Baton home for agent-runtime tests: the CLI (with --json) run as a child process, the
 * event log read back from the real SQLite file, and the three-task workflow the tests drive.
 */
export function agentWorkspace(env: Record<string, string> = {}) {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const base = { BATON_HOME: home, ...env };
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    runCli(['--json', ...args], { cwd: repo, env: { ...base, ...extra } });
  const events = (): StoredEvent[] => {
    const db = new Database(join(home, 'baton.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT type, data FROM events ORDER BY position').all() as {
        type: string;
        data: string;
      }[];
      return rows.map((r) => ({ type: r.type, data: JSON.parse(r.data) as Record<string, unknown> }));
    } finally {
      db.close();
    }
  };
  const count = (type: string) => events().filter((e) => e.type === type).length;
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
  return { repo, home, env: base, cli, events, count, create };
}

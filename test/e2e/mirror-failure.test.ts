import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// The run folder mirror writes after a command's commit, in the background: a write that fails there (a runs folder
// that cannot hold folders, a lock held past its wait, a full disk) is said on standard error by the command that
// made the commit, not only by the next command's catch-up, and once: the catch-up's warning is not repeated.

describe('a run folder that cannot be written', () => {
  it('the command whose commit it could not mirror says so, and a later command says it once', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-'), BATON_URL: undefined, BATON_RUNS_DIR: undefined };
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    // a file where the runs folder goes: no run folder can be made in it
    mkdirSync(join(repo, '.baton'));
    writeFileSync(join(repo, '.baton', 'runs'), 'not a folder\n');

    const created = await baton('create', '--title', 'Mirror', '--task', 'T1:one', '--json');
    expect(created.code, created.stderr).toBe(0);
    const id = created.json<{ id: string }>().id;
    const said = (stderr: string) =>
      stderr
        .split('\n')
        .filter((l) => l.startsWith(`baton: warning: cannot write the run folder of ${id}: `));
    expect(said(created.stderr)).toHaveLength(1);

    const started = await baton('task', 'start', 'T1');
    expect(started.code, started.stderr).toBe(0);
    expect(said(started.stderr)).toHaveLength(1);
  });
});

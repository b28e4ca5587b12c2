import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { holdWriteLock, releaseLocks } from '../helpers/sqlite-lock.js';

// Another program holds the SQLite database's write lock (a `sqlite3` shell with a transaction open, a long import):
// a command that only reads answers at once, one that writes says, once its wait runs out, what holds it up.

afterEach(releaseLocks);

describe('a SQLite database another process holds locked', () => {
  it('is read at once; a write says what holds it up and what to do', async () => {
    const repo = makeRepo();
    const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
    expect((await baton('create', '--title', 'Add greet', '--task', 'A:one')).code).toBe(0);
    const path = join(env.BATON_HOME, 'baton.db');
    await holdWriteLock(path);

    const started = Date.now();
    const status = await baton('status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Add greet');
    expect((await baton('list')).stdout).toContain('Add greet');
    // without waiting for the lock (the wait for a write is 10 s)
    expect(Date.now() - started).toBeLessThan(8000);

    const add = await baton('task', 'add', 'B:two');
    expect(add.code).toBe(1);
    expect(add.stderr).toContain(
      `cannot write to the SQLite database ${path}: database is locked: another process kept it locked all the time this one waited`,
    );
    expect(add.stderr).toContain(`(\`lsof ${path}\` names the processes that have it open), then try again`);
  });
});

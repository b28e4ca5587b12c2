import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteLangGraphTables } from '../../src/storage/sqlite/sqlite-langgraph-tables.js';
import { batonBin, runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { startServerProcess, type ServerProcess } from '../helpers/server.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';

const mode = (path: string) => statSync(path).mode & 0o777;

/** The built CLI under `umask 000`: whatever it creates must get its mode from Baton, not from the umask. */
function batonUmask000(args: string[], cwd: string, env: Record<string, string | undefined>) {
  const r = spawnSync('/bin/sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, batonBin, ...args], {
    cwd,
    env: hermeticEnv(env),
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let server: ServerProcess | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

/** $BATON_HOME 0700; the database, its -wal/-shm files and every token file 0600, whatever the umask. */
describe('files of $BATON_HOME under umask 000', () => {
  it('baton serve: home 0700; token, baton.db, baton.db-wal and baton.db-shm 0600 while it runs', async () => {
    const home = join(tempDir('baton-perm-'), 'nested', '.baton');
    server = await startServerProcess(home, { umask000: true });
    expect(mode(home)).toBe(0o700);
    // its parents are ordinary directories (0777 under this umask): only the home itself is private
    expect(mode(join(home, '..'))).toBe(0o777);
    for (const f of ['token', 'baton.db', 'baton.db-wal', 'baton.db-shm']) {
      expect(existsSync(join(home, f)), f).toBe(true);
      expect(mode(join(home, f)), f).toBe(0o600);
    }
    // the CLI beside it (a second process on the same files) changes nothing
    const repo = makeRepo();
    const r = batonUmask000(['create', '--title', 't', '--task', 'T1:one'], repo, { BATON_HOME: home });
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['baton.db', 'baton.db-wal', 'baton.db-shm']) expect(mode(join(home, f)), f).toBe(0o600);
  });

  it('the CLI and `baton executor token` create a fresh home 0700, the database and executor-token 0600', () => {
    const home = join(tempDir('baton-perm-'), '.baton');
    const repo = makeRepo();
    const r = batonUmask000(['create', '--title', 't', '--task', 'T1:one'], repo, { BATON_HOME: home });
    expect(r.code, r.stderr).toBe(0);
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, 'baton.db'))).toBe(0o600);
    const t = batonUmask000(['executor', 'token'], repo, {
      BATON_HOME: home,
      BATON_EXECUTOR_TOKEN: undefined,
    });
    expect(t.code, t.stderr).toBe(0);
    expect(mode(join(home, 'executor-token'))).toBe(0o600);
    const s = batonUmask000(['token'], repo, { BATON_HOME: home });
    expect(s.code, s.stderr).toBe(0);
    expect(mode(join(home, 'token'))).toBe(0o600);
  });

  it('an existing database and token left readable by others are narrowed to 0600 when opened', () => {
    const home = tempDir('baton-perm-');
    const repo = makeRepo();
    expect(
      batonUmask000(['create', '--title', 't', '--task', 'T1:one'], repo, { BATON_HOME: home }).code,
    ).toBe(0);
    chmodSync(join(home, 'baton.db'), 0o644);
    writeFileSync(join(home, 'executor-token'), 'an-older-token-from-before-0000\n', { mode: 0o644 });
    chmodSync(join(home, 'executor-token'), 0o644);
    expect(batonUmask000(['list'], repo, { BATON_HOME: home }).code).toBe(0);
    expect(mode(join(home, 'baton.db'))).toBe(0o600);
    const t = batonUmask000(['executor', 'token'], repo, {
      BATON_HOME: home,
      BATON_EXECUTOR_TOKEN: undefined,
    });
    expect(t.stdout.trim()).toBe('an-older-token-from-before-0000');
    expect(mode(join(home, 'executor-token'))).toBe(0o600);
  });

  it('the LangGraph checkpointer’s SQLite file and its -wal/-shm are 0600 too', async () => {
    const dir = join(tempDir('baton-perm-'), 'lg');
    const old = process.umask(0);
    try {
      const tables = new SqliteLangGraphTables(join(dir, 'checkpoints.db'));
      try {
        expect(mode(dir)).toBe(0o700);
        for (const f of ['checkpoints.db', 'checkpoints.db-wal', 'checkpoints.db-shm'])
          expect(mode(join(dir, f)), f).toBe(0o600);
      } finally {
        await tables.close();
      }
    } finally {
      process.umask(old);
    }
  });
});

/**
 * A command that may read Baton's home but not write it: Codex's `workspace-write` sandbox, where an agent runs its
 * commands, lets them write only in the workspace. Here as another user (the tests may run as root, whom modes do not
 * stop) or, for an ordinary user, with the files made read-only.
 */
const root = process.getuid?.() === 0;

/**
 * `baton list` run on a home holding a database, with `modes` set first (root's modes for another user, who runs
 * it, and an ordinary user's for that user).
 */
function listWithModes(modes: (home: string, db: string) => void) {
  const home = tempDir('baton-perm-');
  const repo = makeRepo();
  expect(batonUmask000(['create', '--title', 't', '--task', 'T1:one'], repo, { BATON_HOME: home }).code).toBe(
    0,
  );
  modes(home, join(home, 'baton.db'));
  const cwd = tempDir('baton-cwd-');
  chmodSync(cwd, 0o755);
  const r = spawnSync(process.execPath, [batonBin, 'list'], {
    cwd,
    env: hermeticEnv({ BATON_HOME: home, HOME: cwd }),
    encoding: 'utf8',
    ...(root ? { uid: 65534, gid: 65534 } : {}),
  });
  return { home, status: r.status, stderr: r.stderr };
}

describe('a database this process may not write', () => {
  it('says so, with what to do: the MCP server, or the command outside the sandbox', () => {
    const { home, ...r } = listWithModes((home, db) => {
      chmodSync(home, root ? 0o755 : 0o555);
      chmodSync(db, root ? 0o644 : 0o444);
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`cannot open the SQLite database ${join(home, 'baton.db')}: EACCES`);
    expect(r.stderr).toContain(`this process may not write to ${home}`);
    expect(r.stderr).toMatch(
      /use Baton's MCP server \(`baton mcp`\) instead, or run the command outside the sandbox/,
    );
  });
});

describe('a database file made read-only in a folder this process may write', () => {
  it('names the file, not the folder', () => {
    const { home, ...r } = listWithModes((home, db) => {
      chmodSync(home, root ? 0o777 : 0o700);
      chmodSync(db, 0o444);
      for (const f of [`${db}-wal`, `${db}-shm`]) if (existsSync(f)) chmodSync(f, 0o666);
    });
    const db = join(home, 'baton.db');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`this process may not write to ${db}.`);
    expect(r.stderr).toContain(`give this user write access to ${db},`);
  });
});

/** A database file that is not one (overwritten, a bad copy): no mode makes it open, the run folders bring it back. */
describe('a damaged database', () => {
  it('says so with the way back, which works: move it aside, then rebuild from the run folders', async () => {
    const home = tempDir('baton-perm-');
    const repo = makeRepo();
    const env = { BATON_HOME: home };
    const made = await runCli(['create', '--title', 'Keep me', '--task', 'T1:one', '--json'], {
      cwd: repo,
      env,
    });
    expect(made.code, made.stderr).toBe(0);
    const db = join(home, 'baton.db');
    for (const f of ['-wal', '-shm']) rmSync(db + f, { force: true });
    writeFileSync(db, 'not a database '.repeat(100));

    const list = await runCli(['list'], { cwd: repo, env });
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain('file is not a database: the file is damaged');
    expect(list.stderr).toContain(`\`mv ${db} ${db}.damaged\``);
    expect(list.stderr).toContain('`baton rebuild --from-disk <worktree>`');
    // doctor says the same, without the advice for a folder it may not write
    const doctor = await runCli(['doctor'], { cwd: repo, env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('problem: cannot open the SQLite database');
    expect(doctor.stdout).toContain('baton rebuild --from-disk');
    expect(doctor.stdout).not.toContain('make that folder writable');

    renameSync(db, `${db}.damaged`);
    const rebuilt = await runCli(['rebuild', '--from-disk', repo], { cwd: repo, env });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const after = await runCli(['list', '--json'], { cwd: repo, env });
    expect(after.stdout).toContain('Keep me');
  });
});

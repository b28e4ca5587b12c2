import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readHead } from '../../src/git/git-files.js';
import { gitStart } from '../../src/git/git.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';

/** Branch and HEAD as git itself says them (`git status --branch`), the answer readHead must give. */
function gitSays(dir: string) {
  const out = gitIn(dir, 'status', '--porcelain=v2', '--branch', '--untracked-files=no');
  const branch = /^# branch\.head (.+)$/m.exec(out)?.[1] ?? null;
  const oid = /^# branch\.oid (.+)$/m.exec(out)?.[1] ?? null;
  return { branch, commit: oid === '(initial)' ? null : oid };
}

const commit = (dir: string, file: string) => {
  writeFileSync(join(dir, file), `${file}\n`);
  gitIn(dir, 'add', file);
  gitIn(dir, 'commit', '-q', '-m', file);
};

describe("HEAD read from git's files", () => {
  const saved = process.env.GIT_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.GIT_DIR;
    else process.env.GIT_DIR = saved;
  });

  it('says what git status says: a branch (loose ref, then packed), a detached HEAD, a branch without commits', async () => {
    const repo = makeRepo();
    commit(repo, 'a.txt');
    expect(await readHead(repo)).toEqual(gitSays(repo));
    expect((await readHead(repo))?.branch).toBe('main');
    // the branch's ref moved into packed-refs, its loose file gone
    gitIn(repo, 'pack-refs', '--all');
    expect(await readHead(repo)).toEqual(gitSays(repo));
    commit(repo, 'b.txt');
    expect(await readHead(repo)).toEqual(gitSays(repo));
    gitIn(repo, 'checkout', '-q', '--detach', 'HEAD~1');
    expect(await readHead(repo)).toEqual(gitSays(repo));
    expect((await readHead(repo))?.branch).toBe('(detached)');
    gitIn(repo, 'checkout', '-q', '--orphan', 'fresh');
    expect(await readHead(repo)).toEqual({ branch: 'fresh', commit: null });
    expect(await readHead(repo)).toEqual(gitSays(repo));
  });

  it('reads a linked worktree (its .git file, its own HEAD, the branches of the common folder)', async () => {
    const repo = makeRepo();
    const linked = join(tempDir(), 'linked');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'side', linked);
    commit(linked, 'side.txt');
    expect(await readHead(linked)).toEqual(gitSays(linked));
    expect((await readHead(linked))?.branch).toBe('side');
    expect(await readHead(repo)).toEqual(gitSays(repo));
  });

  it('leaves it to git when git would look elsewhere (GIT_DIR) or the refs are not plain files', async () => {
    const repo = makeRepo();
    process.env.GIT_DIR = join(repo, '.git');
    expect(await readHead(repo)).toBeUndefined();
    delete process.env.GIT_DIR;
    // a symbolic ref where a branch's hash should be
    writeFileSync(join(repo, '.git', 'refs', 'heads', 'main'), 'ref: refs/heads/other\n');
    expect(await readHead(repo)).toBeUndefined();
    // a reftable ref store
    const other = makeRepo();
    mkdirSync(join(other, '.git', 'reftable'));
    expect(await readHead(other)).toBeUndefined();
    // no repository at all
    expect(await readHead(tempDir())).toBeUndefined();
  });

  it('gitStart from a subfolder gives the branch and HEAD of its repository, as git does', async () => {
    const repo = makeRepo();
    commit(repo, 'c.txt');
    mkdirSync(join(repo, 'deep', 'er'), { recursive: true });
    const sub = join(repo, 'deep', 'er');
    expect(await gitStart(sub)).toEqual(gitSays(sub));
    expect(await gitStart(tempDir())).toBeNull();
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo }).toString().trim();
    expect((await gitStart(sub))?.commit).toBe(head);
  });

  it('gitStart starts no git process for a plain repository: it answers with git off the PATH', async () => {
    const repo = makeRepo();
    const path = process.env.PATH;
    process.env.PATH = tempDir();
    try {
      expect(await gitStart(repo)).toMatchObject({ branch: 'main' });
      // where it must ask git (GIT_DIR set), there is none to ask
      process.env.GIT_DIR = join(repo, '.git');
      expect(await gitStart(repo)).toBeNull();
    } finally {
      process.env.PATH = path;
    }
  });
});

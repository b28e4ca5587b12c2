import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conflictWords, gitDivergence, gitWork } from '../../src/core/index.js';
import { captureGitState, commitsSince, gitConflict, gitStart, resolveWorktree } from '../../src/git/git.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';

describe('git state capture with real git', () => {
  it('sees branch, start commit, HEAD, changes since the start, staged files and a diffstat', async () => {
    const repo = makeRepo();
    const start = await gitStart(repo);
    expect(start).toMatchObject({ branch: 'main' });
    expect(start?.commit).toMatch(/^[0-9a-f]{40}$/);

    writeFileSync(join(repo, 'committed.ts'), 'export const a = 1;\n');
    gitIn(repo, 'add', 'committed.ts');
    gitIn(repo, 'commit', '-q', '-m', 'add a');
    writeFileSync(join(repo, 'README.md'), '# changed\nmore\n');
    writeFileSync(join(repo, 'staged.ts'), 'x\n');
    gitIn(repo, 'add', 'staged.ts');
    mkdirSync(join(repo, 'dir with space'));
    writeFileSync(join(repo, 'dir with space', 'new file.txt'), 'u\n');

    const { state, note } = await captureGitState(repo, {
      commit: start!.commit,
      at: new Date().toISOString(),
      until: null,
    });
    expect(note).toBeNull();
    expect(state).toMatchObject({
      branch: 'main',
      commit_at_workflow_start: start!.commit,
      has_uncommitted_changes: true,
      files_staged: ['staged.ts'],
    });
    expect(state!.commit_at_snapshot).not.toBe(start!.commit);
    expect(state!.files_modified).toEqual([
      'README.md',
      'committed.ts',
      'dir with space/new file.txt',
      'staged.ts',
    ]);
    expect(state!.uncommitted_summary).toMatch(/2 files changed.*1 untracked/);
    // named, the untracked one included: what Git State says is left uncommitted
    expect(state!.uncommitted_files).toEqual(['README.md', 'dir with space/new file.txt', 'staged.ts']);
    expect(state!.head_subject).toBe('add a');
  });

  it('takes the files already changed when the workflow began, as they were then, for none of its work', async () => {
    const repo = makeRepo();
    writeFileSync(join(repo, 'README.md'), '# the user was editing this\n');
    writeFileSync(join(repo, 'notes.txt'), 'scratch\n');
    writeFileSync(join(repo, 'wip.ts'), 'export const wip = 1;\n');
    expect((await gitStart(repo))?.dirty).toBeUndefined();
    const start = await gitStart(repo, { dirty: true });
    expect(Object.keys(start?.dirty ?? {}).sort()).toEqual(['README.md', 'notes.txt', 'wip.ts']);
    const span = { commit: start!.commit, dirty: start!.dirty, at: new Date().toISOString(), until: null };
    const untouched = (await captureGitState(repo, span)).state;
    expect(untouched?.files_modified).toEqual([]);
    // the tree is still dirty: said as git says it
    expect(untouched?.has_uncommitted_changes).toBe(true);
    expect(gitWork(null, untouched)).toBeNull();
    // one of them changed again, a new one, and one committed as it was: those are the workflow's
    writeFileSync(join(repo, 'notes.txt'), 'scratch\nmore\n');
    writeFileSync(join(repo, 'new.ts'), 'x\n');
    gitIn(repo, 'add', 'wip.ts');
    gitIn(repo, 'commit', '-q', '-m', 'wip');
    const later = (await captureGitState(repo, span)).state;
    expect(later?.files_modified).toEqual(['new.ts', 'notes.txt', 'wip.ts']);
    // without what the start held (a workflow created before it was kept), every changed file counts
    const old = (await captureGitState(repo, { ...span, dirty: undefined })).state;
    expect(old?.files_modified).toEqual(['README.md', 'new.ts', 'notes.txt', 'wip.ts']);
  });

  it('handles a repository without commits and a plain directory', async () => {
    const empty = tempDir('baton-empty-');
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: empty });
    const r = await captureGitState(empty, null);
    expect(r.state).toMatchObject({ branch: 'trunk', commit_at_snapshot: null });
    expect(r.note).toMatch(/no commits/);

    const plain = tempDir('baton-plain-');
    expect(await captureGitState(plain, null)).toEqual({
      state: null,
      note: expect.stringMatching(/not a git repository/),
    });
    expect(await resolveWorktree(plain)).toBe(plain);
    // a worktree of another machine (a teammate's, on a shared database)
    expect(await captureGitState(join(plain, 'elsewhere'), null)).toEqual({
      state: null,
      note: `${join(plain, 'elsewhere')} is not on this machine; no git state is recorded (a checkpoint made here names no commit: make it where the worktree is)`,
    });
  });

  it('finds the worktree as git does, without starting git: linked worktrees, submodule-like .git files, symlinks', async () => {
    const repo = makeRepo();
    const linked = join(tempDir('baton-linked-'), 'wt');
    gitIn(repo, 'worktree', 'add', '-q', linked);
    mkdirSync(join(linked, 'a', 'b'), { recursive: true });
    const alias = join(tempDir('baton-alias-'), 'link');
    symlinkSync(join(linked, 'a'), alias);
    for (const dir of [repo, linked, join(linked, 'a', 'b'), alias]) {
      const git = realpathSync(
        execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' }).trim(),
      );
      expect(await resolveWorktree(dir), dir).toBe(git);
    }
    // a file named .git that is not a gitdir pointer does not make a worktree
    const odd = tempDir('baton-odd-');
    writeFileSync(join(odd, '.git'), 'not a pointer');
    expect(await resolveWorktree(odd)).toBe(realpathSync(odd));
  });

  it('resolves a subdirectory to its worktree and reports divergence', async () => {
    const repo = makeRepo();
    mkdirSync(join(repo, 'src'));
    expect(await resolveWorktree(join(repo, 'src'))).toBe(repo);
    const before = (await captureGitState(repo, null)).state;
    gitIn(repo, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(repo, 'x.txt'), 'x');
    gitIn(repo, 'add', '.');
    gitIn(repo, 'commit', '-q', '-m', 'x');
    const warnings = gitDivergence(before, await captureGitState(repo, null));
    expect(warnings.join('\n')).toMatch(/branch changed from main to feature since the snapshot/);
    expect(warnings.join('\n')).toMatch(/HEAD moved since the snapshot/);
  });
});

/** A commit dated `at` (author and committer), so the time bound is tested without waiting for the clock. */
function commitAt(repo: string, message: string, at: Date): string {
  const date = at.toISOString();
  execFileSync('git', ['commit', '-q', '--allow-empty', '-m', message], {
    cwd: repo,
    env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
  return gitIn(repo, 'rev-parse', 'HEAD').trim();
}

const subjects = (state: { work_commits?: { listed: { subject: string }[] } } | null) =>
  state?.work_commits?.listed.map((c) => c.subject);

describe('an unresolved conflict, read from real git', () => {
  /** A repository whose main and `theirs` branches change the same line of f.txt. */
  function diverged() {
    const repo = makeRepo();
    writeFileSync(join(repo, 'f.txt'), 'one\n');
    gitIn(repo, 'add', 'f.txt');
    gitIn(repo, 'commit', '-q', '-m', 'one');
    gitIn(repo, 'checkout', '-q', '-b', 'theirs');
    writeFileSync(join(repo, 'f.txt'), 'theirs\n');
    gitIn(repo, 'commit', '-q', '-am', 'theirs');
    gitIn(repo, 'checkout', '-q', 'main');
    return repo;
  }
  const fails = (repo: string, ...args: string[]) => expect(() => gitIn(repo, ...args)).toThrow();

  it('names the unmerged files a stash pop left, with no operation in progress, and says them before committing', async () => {
    const repo = diverged();
    writeFileSync(join(repo, 'f.txt'), 'mine\n');
    gitIn(repo, 'stash', '-q');
    gitIn(repo, 'merge', '-q', '--ff-only', 'theirs');
    fails(repo, 'stash', 'pop');
    expect(gitIn(repo, 'status', '--short')).toContain('UU f.txt');
    const conflict = { operation: null, unmerged: ['f.txt'] };
    expect(await gitConflict(repo)).toEqual(conflict);
    expect((await captureGitState(repo, null)).state).toMatchObject({
      has_uncommitted_changes: true,
      conflict,
    });
    expect(conflictWords(conflict)).toBe(
      'unresolved merge conflict in f.txt: resolve the markers before committing (`git add` marks a file resolved)',
    );
  });

  it('says a merge in progress, with its files and once they are resolved, and nothing once it is committed', async () => {
    const repo = diverged();
    writeFileSync(join(repo, 'f.txt'), 'ours\n');
    gitIn(repo, 'commit', '-q', '-am', 'ours');
    fails(repo, 'merge', 'theirs');
    expect(await gitConflict(repo)).toEqual({ operation: 'merge', unmerged: ['f.txt'] });
    expect(conflictWords({ operation: 'merge', unmerged: ['f.txt'] })).toMatch(
      /^unresolved merge conflict in f\.txt: .+; a merge is in progress: `git commit` concludes it, `git merge --abort` gives it up$/,
    );
    writeFileSync(join(repo, 'f.txt'), 'both\n');
    gitIn(repo, 'add', 'f.txt');
    expect((await captureGitState(repo, null)).state?.conflict).toEqual({ operation: 'merge', unmerged: [] });
    gitIn(repo, 'commit', '-q', '--no-edit');
    expect(await gitConflict(repo)).toBeNull();
    expect((await captureGitState(repo, null)).state).not.toHaveProperty('conflict');
  });

  it('finds a rebase and a cherry-pick stopped on a conflict, in a linked worktree too', async () => {
    const repo = diverged();
    writeFileSync(join(repo, 'f.txt'), 'ours\n');
    gitIn(repo, 'commit', '-q', '-am', 'ours');
    const linked = join(tempDir(), 'linked');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'side', linked, 'theirs');
    fails(linked, 'rebase', 'main');
    expect(await gitConflict(linked)).toEqual({ operation: 'rebase', unmerged: ['f.txt'] });
    // the main worktree has none of the linked one's rebase
    expect(await gitConflict(repo)).toBeNull();
    fails(repo, 'cherry-pick', 'theirs');
    expect(await gitConflict(repo)).toEqual({ operation: 'cherry-pick', unmerged: ['f.txt'] });
  });
});

describe("the workflow's commits, read from git", () => {
  const t0 = Date.now();
  const at = (s: number) => new Date(t0 + s * 1000);

  it("lists the commits made since the start, oldest first with their full hashes, and names HEAD's subject", async () => {
    const repo = makeRepo();
    commitAt(repo, 'made before the workflow', at(1));
    const start = { commit: gitIn(repo, 'rev-parse', 'HEAD').trim(), at: at(10).toISOString(), until: null };
    const mul = commitAt(repo, 'Add mul', at(20));
    const div = commitAt(repo, 'Add div', at(30));
    const { state } = await captureGitState(repo, start);
    expect(state!.work_commits).toEqual({
      listed: [
        { hash: mul, subject: 'Add mul' },
        { hash: div, subject: 'Add div' },
      ],
      more: 0,
      began_at: start.at,
    });
    expect(state!.head_subject).toBe('Add div');
    // nothing since the start: an empty list, and HEAD's subject read all the same
    const none = (await captureGitState(repo, { commit: div, at: at(40).toISOString(), until: null })).state;
    expect(none!.work_commits).toMatchObject({ listed: [], more: 0 });
    expect(none!.head_subject).toBe('Add div');
    // without a workflow start (a capture for no workflow), no list
    expect((await captureGitState(repo, null)).state!.work_commits).toBeUndefined();
  });

  it('lists at most 30 on a branch with more, the newest, and counts the rest', async () => {
    const repo = makeRepo();
    const start = { commit: gitIn(repo, 'rev-parse', 'HEAD').trim(), at: at(10).toISOString(), until: null };
    for (let i = 1; i <= 35; i++) commitAt(repo, `commit ${i}`, at(10 + i));
    const { state } = await captureGitState(repo, start);
    expect(subjects(state)).toEqual(Array.from({ length: 30 }, (_, i) => `commit ${i + 6}`));
    expect(state!.work_commits!.more).toBe(5);
  });

  it("bounds a finished workflow's commits by its end: what came after is another's work", async () => {
    const repo = makeRepo();
    const start = gitIn(repo, 'rev-parse', 'HEAD').trim();
    commitAt(repo, 'its last commit', at(20));
    commitAt(repo, 'the next workflow', at(40));
    const span = { commit: start, at: at(10).toISOString(), until: at(20.5).toISOString() };
    const { state } = await captureGitState(repo, span);
    expect(subjects(state)).toEqual(['its last commit']);
  });

  it("does not count a new base's older commits after a rebase, and lists an amended commit by its new hash", async () => {
    const repo = makeRepo();
    gitIn(repo, 'checkout', '-q', '-b', 'upstream');
    commitAt(repo, 'upstream work from before the workflow', at(2));
    gitIn(repo, 'checkout', '-q', 'main');
    const start = { commit: gitIn(repo, 'rev-parse', 'HEAD').trim(), at: at(10).toISOString(), until: null };
    const first = commitAt(repo, 'Add mul', at(20));
    execFileSync('git', ['commit', '-q', '--amend', '--allow-empty', '-m', 'Add mul'], {
      cwd: repo,
      env: { ...process.env, GIT_COMMITTER_DATE: at(25).toISOString() },
    });
    execFileSync('git', ['rebase', '-q', 'upstream'], {
      cwd: repo,
      env: { ...process.env, GIT_COMMITTER_DATE: at(30).toISOString() },
    });
    const head = gitIn(repo, 'rev-parse', 'HEAD').trim();
    expect(head).not.toBe(first);
    const { state } = await captureGitState(repo, start);
    expect(state!.work_commits!.listed).toEqual([{ hash: head, subject: 'Add mul' }]);
  });

  it('bounds by the time alone when git does not know the start commit', async () => {
    const repo = makeRepo();
    commitAt(repo, 'before', at(1));
    commitAt(repo, 'after', at(20));
    const { state } = await captureGitState(repo, {
      commit: 'f'.repeat(40),
      at: at(10).toISOString(),
      until: null,
    });
    expect(subjects(state)).toEqual(['after']);
  });

  it("marks the commits this worktree did not make: another worktree's, on a branch checked out here, and a fast-forward's", async () => {
    // its own clock, a minute ahead: the repository's first commit (made now) must stay before the start however long
    // the tests before this one took (the reflog covers the span only when it holds a move from before the start)
    const t1 = Date.now() + 60_000;
    const at = (s: number) => new Date(t1 + s * 1000);
    const repo = makeRepo();
    const start = { commit: gitIn(repo, 'rev-parse', 'HEAD').trim(), at: at(10).toISOString(), until: null };
    const feature = join(tempDir('baton-wt-'), 'feature');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'feature', feature);
    commitAt(repo, 'Add mul', at(20));
    // the other worktree commits on a branch hotfix (from main as it was), then goes back to its own
    gitIn(feature, 'checkout', '-q', '-b', 'hotfix', start.commit);
    const rename = commitAt(feature, 'Rename add', at(30));
    gitIn(feature, 'checkout', '-q', 'feature');
    // here, the user checks hotfix out and commits on it; then a teammate's commit is merged by a fast-forward
    gitIn(repo, 'checkout', '-q', 'hotfix');
    const fix = commitAt(repo, 'Fix rename', at(40));
    gitIn(feature, 'checkout', '-q', '-b', 'teammate', fix);
    const teammate = commitAt(feature, "teammate's work", at(50));
    gitIn(feature, 'checkout', '-q', 'feature');
    gitIn(repo, 'merge', '-q', '--ff-only', 'teammate');
    const { state } = await captureGitState(repo, start);
    expect(state!.work_commits!.listed).toEqual([
      { hash: rename, subject: 'Rename add', elsewhere: true },
      { hash: fix, subject: 'Fix rename' },
      { hash: teammate, subject: "teammate's work", elsewhere: true },
    ]);
    // the other worktree's own reflog made them
    const there = (await captureGitState(feature, start)).state!.work_commits!;
    expect(there.listed).toEqual([]);
    gitIn(feature, 'checkout', '-q', 'teammate');
    expect((await captureGitState(feature, start)).state!.work_commits!.listed).toEqual([
      { hash: rename, subject: 'Rename add' },
      { hash: fix, subject: 'Fix rename', elsewhere: true },
      { hash: teammate, subject: "teammate's work" },
    ]);
  });

  it('marks nothing when the reflog cannot tell: expired since the start, or off', async () => {
    const repo = makeRepo();
    const start = { commit: gitIn(repo, 'rev-parse', 'HEAD').trim(), at: at(10).toISOString(), until: null };
    gitIn(repo, 'checkout', '-q', '-b', 'other');
    commitAt(repo, 'made on other', at(20));
    gitIn(repo, 'reflog', 'expire', '--expire=all', '--all');
    // the moves after it, at their time (git's reflog takes the committer date)
    const env = { ...process.env, GIT_COMMITTER_DATE: at(25).toISOString() };
    execFileSync('git', ['checkout', '-q', 'main'], { cwd: repo, env });
    execFileSync('git', ['merge', '-q', '--ff-only', 'other'], { cwd: repo, env });
    expect((await captureGitState(repo, start)).state!.work_commits!.listed).toEqual([
      { hash: gitIn(repo, 'rev-parse', 'HEAD').trim(), subject: 'made on other' },
    ]);
    gitIn(repo, 'config', 'core.logAllRefUpdates', 'false');
    gitIn(repo, 'reflog', 'expire', '--expire=all', '--all');
    commitAt(repo, 'made here', at(30));
    expect(subjects((await captureGitState(repo, start)).state)).toEqual(['made on other', 'made here']);
  });

  it('works in a repository without commits, on its first commit, and on a detached HEAD', async () => {
    const repo = tempDir('baton-empty-');
    gitIn(repo, 'init', '-q', '-b', 'main');
    gitIn(repo, 'config', 'user.email', 'test@baton.invalid');
    gitIn(repo, 'config', 'user.name', 'Baton Test');
    const start = { commit: null, at: at(10).toISOString(), until: null };
    const empty = (await captureGitState(repo, start)).state;
    expect(empty).toMatchObject({ head_subject: null, work_commits: { listed: [], more: 0 } });
    commitAt(repo, 'First', at(20));
    expect(subjects((await captureGitState(repo, start)).state)).toEqual(['First']);
    gitIn(repo, 'checkout', '-q', '--detach');
    commitAt(repo, 'Detached work', at(30));
    const detached = (await captureGitState(repo, start)).state;
    expect(detached).toMatchObject({ branch: '(detached)', head_subject: 'Detached work' });
    expect(subjects(detached)).toEqual(['First', 'Detached work']);
  });
});

describe('the commits made since a snapshot, read from git for a resume', () => {
  const t0 = Date.now();
  const at = (s: number) => new Date(t0 + s * 1000);

  it("lists every commit HEAD gained since the snapshot's HEAD, a pulled older one too, and the resume says them newest first", async () => {
    const repo = makeRepo();
    // a teammate's commit, made before the snapshot, pulled (fast-forwarded) after it
    gitIn(repo, 'checkout', '-q', '-b', 'teammate');
    const snapHead = gitIn(repo, 'rev-parse', 'main').trim();
    commitAt(repo, "teammate's fix", at(5));
    gitIn(repo, 'checkout', '-q', 'main');
    const span = { commit: null, at: at(0).toISOString(), until: null };
    const before = (await captureGitState(repo, span)).state;
    const snapshotAt = at(10).toISOString();
    gitIn(repo, 'merge', '-q', '--ff-only', 'teammate');
    for (let i = 1; i <= 12; i++) commitAt(repo, `commit ${i}`, at(20 + i));
    const since = await commitsSince(repo, { commit: snapHead, at: snapshotAt });
    expect(since.listed.map((c) => c.subject)).toEqual([
      "teammate's fix",
      ...Array.from({ length: 12 }, (_, i) => `commit ${i + 1}`),
    ]);
    expect(since.more).toBe(0);
    const head = gitIn(repo, 'rev-parse', 'HEAD').trim();
    const [moved] = gitDivergence(before, await captureGitState(repo, span), since);
    const lines = moved!.split('\n');
    expect(lines[0]).toBe(
      `HEAD moved since the snapshot: ${snapHead.slice(0, 7)} -> ${head.slice(0, 7)}, 13 commits since (newest first):`,
    );
    // the newest ten, hash and subject, then how many more and where to see them
    expect(lines.slice(1, 11)).toEqual(
      since.listed
        .slice(-10)
        .reverse()
        .map((c) => `  ${c.hash.slice(0, 7)} ${c.subject}`),
    );
    expect(lines[1]).toBe(`  ${head.slice(0, 7)} commit 12`);
    expect(lines[11]).toBe(`  and 3 more (\`git log --oneline ${snapHead.slice(0, 7)}..HEAD\`)`);
    expect(lines).toHaveLength(12);
  });

  it('says when HEAD went back, and bounds by the time alone when git no longer knows the snapshot commit', async () => {
    const repo = makeRepo();
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    commitAt(repo, 'undone later', at(5));
    const before = (await captureGitState(repo, null)).state;
    const snapHead = gitIn(repo, 'rev-parse', 'HEAD').trim();
    gitIn(repo, 'reset', '-q', '--hard', base);
    const back = await commitsSince(repo, { commit: snapHead, at: at(10).toISOString() });
    expect(back).toMatchObject({ listed: [], more: 0 });
    expect(gitDivergence(before, await captureGitState(repo, null), back)[0]).toBe(
      `HEAD moved since the snapshot: ${snapHead.slice(0, 7)} -> ${base.slice(0, 7)} (back: it has no commit the snapshot's HEAD had not)`,
    );
    commitAt(repo, 'old', at(8));
    commitAt(repo, 'new', at(20));
    const unknown = await commitsSince(repo, { commit: 'f'.repeat(40), at: at(10).toISOString() });
    expect(unknown.listed.map((c) => c.subject)).toEqual(['new']);
  });
});

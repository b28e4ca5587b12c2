import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitDivergence } from '../../src/core/index.js';
import { captureGitState, gitStart, resolveWorktree } from '../../src/git/git.js';
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

    const { state, note } = await captureGitState(repo, start!.commit);
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
    expect(warnings.join('\n')).toMatch(/branch changed since the snapshot: main -> feature/);
    expect(warnings.join('\n')).toMatch(/HEAD moved since the snapshot/);
  });
});

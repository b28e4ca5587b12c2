import { describe, expect, it } from 'vitest';
import { captureGitState, hasBranch, isAncestor } from '../../src/git/git.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';

// The two questions other-branch.ts asks git, answered by exit code: yes, no, or null when git cannot tell.

describe('git: branch questions', () => {
  it('hasBranch: a local branch (slashes too), one that is not there, and no repository', async () => {
    const repo = makeRepo();
    gitIn(repo, 'branch', 'feature/login');
    expect(await hasBranch(repo, 'feature/login')).toBe(true);
    expect(await hasBranch(repo, 'main')).toBe(true);
    expect(await hasBranch(repo, 'fix/crash')).toBe(false);
    expect(await hasBranch(tempDir(), 'main')).toBeNull();
  });

  it('isAncestor: in the history, not in it, an unknown commit, and an unborn HEAD', async () => {
    const repo = makeRepo();
    const first = gitIn(repo, 'rev-parse', 'HEAD').trim();
    gitIn(repo, 'checkout', '-q', '-b', 'side');
    gitIn(repo, 'commit', '-q', '--allow-empty', '-m', 'side work');
    const side = gitIn(repo, 'rev-parse', 'HEAD').trim();
    gitIn(repo, 'checkout', '-q', 'main');
    expect(await isAncestor(repo, first)).toBe(true);
    expect(await isAncestor(repo, side)).toBe(false);
    expect(await isAncestor(repo, side, 'side')).toBe(true);
    expect(await isAncestor(repo, 'f'.repeat(40))).toBeNull();
    gitIn(repo, 'checkout', '-q', '--orphan', 'fresh');
    expect(await isAncestor(repo, first)).toBeNull();
  });

  it('a capture on another branch than the work was last seen on says whether HEAD holds that commit', async () => {
    const repo = makeRepo();
    const start = gitIn(repo, 'rev-parse', 'HEAD').trim();
    gitIn(repo, 'checkout', '-q', '-b', 'feature');
    gitIn(repo, 'commit', '-q', '--allow-empty', '-m', 'feature work');
    const work = gitIn(repo, 'rev-parse', 'HEAD').trim();
    const span = {
      commit: start,
      at: new Date(0).toISOString(),
      until: null,
      place: { branch: 'feature', commit: work },
    };
    // on the branch itself: nothing to ask
    expect((await captureGitState(repo, span)).state?.place_held).toBeUndefined();
    gitIn(repo, 'checkout', '-q', 'main');
    expect((await captureGitState(repo, span)).state?.place_held).toEqual({ commit: work, held: false });
    gitIn(repo, 'checkout', '-q', '-b', 'feature-v2', 'feature');
    gitIn(repo, 'commit', '-q', '--allow-empty', '-m', 'more');
    expect((await captureGitState(repo, span)).state?.place_held).toEqual({ commit: work, held: true });
  });
});

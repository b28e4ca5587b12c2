import { describe, expect, it } from 'vitest';
import type { ToolOutcome } from './call-text.js';
import { headWatcher } from './head-listings.js';

const call = (command: string, output: string, failed = false): ToolOutcome => ({
  tool: 'Bash',
  input: { command },
  commands: [command],
  output,
  failed,
});

/** Each call's answer, in order. */
const watch = (...calls: ToolOutcome[]) => {
  const next = headWatcher();
  return calls.map((c) => next(c).map((x) => `${x.hash} ${x.subject}`));
};

const before = call('git log --oneline -3', 'aaaaaaa Second\nbbbbbbb First');

describe('commits a later git log of HEAD lists above the HEAD an earlier one listed', () => {
  it('are the commits a script made quietly (oldest first), the first listing only a starting point', () => {
    expect(
      watch(
        before,
        call('python3 tools/finish.py T-1', 'merged'),
        call(
          'git status --porcelain && git log --oneline -3 && git log -1 --format=%B',
          'ddddddd Merge T-1 (#35)\ncccccccc Fix T-1\naaaaaaa Second\nddddddd Merge T-1 (#35)\n\nCloses #1',
        ),
        call('git log --oneline -3', 'ddddddd Merge T-1 (#35)\ncccccccc Fix T-1\naaaaaaa Second'),
      ),
    ).toEqual([[], [], ['cccccccc Fix T-1', 'ddddddd Merge T-1 (#35)'], []]);
  });

  it('reads the full format and a count given as -n N', () => {
    const full = (h: string, s: string) => `commit ${h}\nAuthor: A <a@b>\nDate:   today\n\n    ${s}\n`;
    expect(
      watch(
        call('git log -n 2', full('aaaaaaa', 'Second')),
        call('git --no-pager log -n 2', `${full('eeeeeee', 'Third')}\n${full('aaaaaaa', 'Second')}`),
      ),
    ).toEqual([[], ['eeeeeee Third']]);
  });

  it('are not commits others made: a pull, a merge, a checkout or a reset moves HEAD to them', () => {
    for (const moved of [
      'git pull --rebase',
      'git merge origin/main',
      'git checkout feature',
      'git reset --hard x',
    ])
      expect(
        watch(before, call(moved, ''), call('git log --oneline -3', 'fffffff Theirs\naaaaaaa Second')),
        moved,
      ).toEqual([[], [], []]);
  });

  it('are not read from a listing of something else than HEAD: a ref, a range, --all, a path, a filter', () => {
    for (const other of [
      'git log --oneline origin/main -3',
      'git log --oneline main..feature',
      'git log --oneline --all -5',
      'git log --oneline -3 -- src/',
      'git log --oneline --author=ana -3',
      'git log --reverse --oneline',
      // a patch's lines may start with a hash and a word too
      'git log -p -3',
    ])
      expect(watch(before, call(other, 'fffffff Theirs\naaaaaaa Second')), other).toEqual([[], []]);
  });

  it('are not read from a listing a command before it could have mixed with its own, nor from one that failed', () => {
    expect(
      watch(
        before,
        call('git show --oneline -s feature && git log --oneline -2', 'fffffff Theirs\naaaaaaa Second'),
        call('git log --oneline -2', 'fffffff Theirs\naaaaaaa Second', true),
      ),
    ).toEqual([[], [], []]);
  });

  it('are none when the earlier HEAD is not in the listing (another repository, a history rewritten)', () => {
    expect(watch(before, call('git -C ../other log --oneline -2', 'fffffff Other\n1111111 Root'))).toEqual([
      [],
      [],
    ]);
  });
});

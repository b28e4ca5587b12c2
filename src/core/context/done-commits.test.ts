import { describe, expect, it } from 'vitest';
import type { GitState } from '../schemas/git-state.js';
import type { SideEffect } from '../schemas/runtime.js';
import { doneCommits } from './done-commits.js';

const began = '2026-03-01T10:00:00.000Z';
const later = '2026-03-01T11:00:00.000Z';
const earlier = '2026-02-01T10:00:00.000Z';

let n = 0;
const commit = (summary: string, timestamp = later, task_id: string | null = null): SideEffect => ({
  id: `fx${++n}`,
  timestamp,
  task_id,
  kind: 'commit',
  tool: 'Bash',
  summary,
});

const gitWith = (listed: [string, string][], more = 0, branch = 'main'): GitState => ({
  branch,
  commit_at_workflow_start: 'aaaaaaaaaaaa0000000000000000000000000000',
  commit_at_snapshot: `${listed.at(-1)?.[0] ?? 'aaaaaaaaaaaa'}0000000000000000000000000000`,
  files_modified: [],
  files_staged: [],
  has_uncommitted_changes: false,
  uncommitted_summary: null,
  head_subject: listed.at(-1)?.[1] ?? 'init',
  work_commits: { listed: listed.map(([hash, subject]) => ({ hash, subject })), more, began_at: began },
});

const limits = { commit_subject_chars: 100, git_commits: 30 };
const lines = (r: ReturnType<typeof doneCommits>) => r.commits.map((c) => `${c.hash} ${c.subject}`.trim());

describe('the commits already done: the transcripts and git, each once', () => {
  it('adds the commit only git has (its call never returned) and lists a reported one once, matched by hash prefix', () => {
    const git = gitWith([
      ['1111111aaaaa', 'Add add'],
      ['2222222bbbbb', 'Add mul'],
      ['3333333ccccc', 'Add div'],
    ]);
    const r = doneCommits([commit('1111111 Add add'), commit('3333333 Add div')], git, limits);
    // in the order they were made: the one only git has between the two the transcript reported
    expect(lines(r)).toEqual(['1111111 Add add', '2222222 Add mul', '3333333 Add div']);
    expect(r.commits.map((c) => c.git_only ?? false)).toEqual([false, true, false]);
    expect(r).toMatchObject({ more: 0, more_command: null });
  });

  it("gives a runner's commit command git's hash and subject, its task kept", () => {
    const git = gitWith([['4444444ddddd', 'Write the schema']]);
    const r = doneCommits([commit('git commit -am "Write the schema"', later, 'T1')], git, limits);
    expect(r.commits).toEqual([{ hash: '4444444', subject: 'Write the schema', task_id: 'T1' }]);
    // a short subject matches only as the whole message
    const short = doneCommits(
      [commit('git commit -am x', later, 'T1')],
      gitWith([['5555555eeeee', 'a']]),
      limits,
    );
    expect(short.commits.map((c) => [c.hash, c.subject])).toEqual([
      ['', 'git commit -am x'],
      ['5555555', 'a'],
    ]);
  });

  it('does not claim a rewritten commit is on the branch: replaced by the commit of its subject, or not on it now', () => {
    const git = gitWith([['9999999fffff', 'Add mul']]);
    const r = doneCommits([commit('1234567 Add mul'), commit('7654321 Add sub')], git, limits);
    expect(lines(r)).toEqual([
      '1234567 Add mul (replaced by 9999999)',
      '7654321 Add sub (not on main now)',
      '9999999 Add mul',
    ]);
    // a pull request squash-merged on GitHub and pulled: its subject with the request's number
    const squashed = doneCommits(
      [commit('1234567 feat: migrate to SDK 2.0'), commit('7654321 test: cover the migration')],
      gitWith([['8888888aaaaa', 'feat: migrate to SDK 2.0 (#233)']]),
      limits,
    );
    expect(lines(squashed)).toEqual([
      '1234567 feat: migrate to SDK 2.0 (merged as 8888888 by pull request #233)',
      '7654321 test: cover the migration (not on main now)',
      '8888888 feat: migrate to SDK 2.0 (#233)',
    ]);
    // on a detached HEAD there is no branch to name
    const detached = doneCommits([commit('7654321 Add sub')], gitWith([], 0, '(detached)'), limits);
    expect(lines(detached)).toEqual(["7654321 Add sub (not on HEAD's history now)"]);
  });

  it('leaves a reported commit as the transcript said when git cannot tell: older than the workflow, or beyond its list', () => {
    // an imported transcript's commit from before the workflow began
    expect(lines(doneCommits([commit('1234567 Old work', earlier)], gitWith([]), limits))).toEqual([
      '1234567 Old work',
    ]);
    // git listed only its newest: the reported one may be among the older
    const cut = doneCommits([commit('1234567 Add mul')], gitWith([['9999999fffff', 'Add div']], 40), limits);
    expect(lines(cut)).toEqual(['1234567 Add mul', '9999999 Add div']);
    expect(cut).toMatchObject({ more: 40, more_command: 'git log --oneline aaaaaaa..HEAD' });
    // a snapshot from before git's commits were read: the transcripts' alone, as they said
    const old = { ...gitWith([]), work_commits: undefined };
    expect(lines(doneCommits([commit('1234567 Add mul')], old, limits))).toEqual(['1234567 Add mul']);
    expect(lines(doneCommits([commit('1234567 Add mul')], null, limits))).toEqual(['1234567 Add mul']);
  });

  it("says where git found a reported commit HEAD's history does not hold, imported or beyond the list", () => {
    const off = (branches: string[]) => ({ ...gitWith([]), off_head: [{ hash: '1234567', branches }] });
    // an imported transcript's commit, from before the workflow began, left on a branch made from it
    const kept = doneCommits([commit('1234567 Add parser', earlier)], off(['save-parser']), limits);
    expect(lines(kept)).toEqual(['1234567 Add parser (not on main now: only on branch save-parser)']);
    expect(kept.commits[0]?.not_on).toEqual({ branch: 'main', on_branches: ['save-parser'] });
    // on no branch: a reset (or a rewrite) left it behind
    expect(lines(doneCommits([commit('1234567 Add parser', earlier)], off([]), limits))).toEqual([
      '1234567 Add parser (not on main now: on no branch, reset away or rewritten)',
    ]);
    // several branches, the fourth on counted; git's list cut says nothing, git's own answer does
    const many = {
      ...off(['a', 'b', 'origin/a', 'c']),
      work_commits: { listed: [], more: 40, began_at: began },
    };
    expect(lines(doneCommits([commit('1234567 Add parser')], many, limits))).toEqual([
      '1234567 Add parser (not on main now: only on branches a, b, origin/a and 1 more)',
    ]);
    // a commit git holds on HEAD (not in off_head) is said as the transcript said it, with no note
    const on = doneCommits([commit('7654321 Add docs', earlier)], off(['save-parser']), limits);
    expect(lines(on)).toEqual(['7654321 Add docs']);
    expect(on.commits[0]?.not_on).toBeUndefined();
  });

  it('keeps an amend said as such: the commit it replaced names the one that replaced it', () => {
    const git = gitWith([['283c50a00000', 'Add docs']]);
    const r = doneCommits(
      [commit('00fb9c4 Add docs'), commit('283c50a Add docs (amends 00fb9c4)')],
      git,
      limits,
    );
    expect(lines(r)).toEqual(['00fb9c4 Add docs (replaced by 283c50a)', '283c50a Add docs (amends 00fb9c4)']);
  });

  it('finds the commit an amend replaced when it was read before the amend (an earlier turn), by its subject', () => {
    const git = gitWith([['283c50a00000', 'Add docs']]);
    const amend = commit('283c50a Add docs (amends an earlier commit)');
    expect(lines(doneCommits([commit('00fb9c4 Add docs'), amend], git, limits))).toEqual([
      '00fb9c4 Add docs (replaced by 283c50a)',
      '283c50a Add docs (amends 00fb9c4)',
    ]);
    // another branch's commit gone from this one's history is not what an amend of another subject replaced
    const spike = [
      commit('7777777 Try the spike'),
      commit('283c50a Fix the typo (amends an earlier commit)'),
    ];
    expect(lines(doneCommits(spike, gitWith([['283c50a00000', 'Fix the typo']]), limits))).toEqual([
      '7777777 Try the spike (not on main now)',
      '283c50a Fix the typo (amends an earlier commit)',
    ]);
    // git's list cut: which one it replaced cannot be told, so nothing is claimed
    const cut = gitWith([['283c50a00000', 'Add docs']], 12);
    expect(lines(doneCommits([commit('00fb9c4 Add docs'), amend], cut, limits))).toEqual([
      '00fb9c4 Add docs',
      '283c50a Add docs (amends an earlier commit)',
    ]);
  });

  it("shows every commit by a 7-digit hash, whatever its record keeps: git's full hash, one a log printed whole", () => {
    const full = (c: string) => c.repeat(40);
    const git = gitWith([
      [full('1'), 'Add add'],
      [full('2'), 'Add mul'],
      [full('3'), 'Add div'],
    ]);
    const r = doneCommits(
      [commit(`${full('1')} Add add`), commit(`${full('3')} Add div (amends ${full('4')})`)],
      git,
      limits,
    );
    // the one a crash hid (only git has it) as short as those the transcripts reported
    expect(lines(r)).toEqual(['1111111 Add add', '2222222 Add mul', '3333333 Add div (amends 4444444)']);
  });

  it("leaves out a commit this worktree did not make (a branch switched to holds another's), unless reported", () => {
    const git = gitWith([
      ['1111111aaaaa', 'Rename add (another worktree)'],
      ['2222222bbbbb', 'Add mul'],
    ]);
    git.work_commits!.listed[0]!.elsewhere = true;
    expect(lines(doneCommits([], git, limits))).toEqual(['2222222 Add mul']);
    // a transcript of this workflow said it made it (a `git -C` into the other worktree): its work all the same
    expect(lines(doneCommits([commit('1111111 Rename add (another worktree)')], git, limits))).toEqual([
      '1111111 Rename add (another worktree)',
      '2222222 Add mul',
    ]);
  });

  it('lists the newest of the commits only git has when cut, and counts the rest with the command that lists them', () => {
    const listed = Array.from({ length: 8 }, (_, i) => [`${i}`.repeat(12), `c${i}`] as [string, string]);
    const r = doneCommits([commit('0000000 c0')], gitWith(listed, 3), { ...limits, git_commits: 5 });
    expect(lines(r)).toEqual(['0000000 c0', ...[3, 4, 5, 6, 7].map((i) => `${`${i}`.repeat(7)} c${i}`)]);
    expect(r.more).toBe(3 + 2);
    expect(r.more_command).toBe('git log --oneline aaaaaaa..HEAD');
  });
});

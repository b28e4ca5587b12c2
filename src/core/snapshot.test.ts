import { describe, expect, it } from 'vitest';
import type { Draft } from './draft.js';
import { freshWorkflow } from '../../test/helpers/fresh-workflow.js';
import { branchChange, workflowPlace } from './branch-change.js';
import { takeSnapshot } from './commands/snapshots.js';
import { compileResumeContext } from './context/resume-context.js';
import type { GitCapture } from './schemas/git-state.js';
import { buildSnapshot, sameGit } from './snapshot.js';

/** The user's requests, recorded in the order given, without a time. */
const request = (d: Draft, texts: string[]) =>
  texts.forEach((text, i) =>
    d.emit({
      type: 'request.recorded',
      data: {
        request: { id: `r${i + 1}`, timestamp: '', at: null, session_number: 1, text, source: null },
        key: `k${i + 1}`,
      },
    }),
  );

/** A manual snapshot of the workflow outside git. */
const snapshotOf = (d: Draft) =>
  buildSnapshot(d.state, {
    id: 'snap-1',
    trigger: 'manual',
    reason: null,
    git: { state: null, note: 'not a git repository' },
    now: '2026-03-01T10:00:00.000Z',
  });

describe('a snapshot of a workflow with more requests than the state keeps', () => {
  it('holds the recent ones and counts the older ones', () => {
    const d = freshWorkflow();
    request(
      d,
      Array.from({ length: 32 }, (_, i) => `request ${i + 1}`),
    );
    const snap = snapshotOf(d);
    expect(d.state.counts.requests).toBe(32);
    expect(snap.requests.length + (snap.requests_more ?? 0)).toBe(32);
    expect(snap.requests.at(-1)?.text).toBe('request 32');
  });
});

describe('a request that limits the agent, older than the recent ones the state keeps', () => {
  it('stays in force: kept, and listed in the Goal with the later requests', () => {
    const d = freshWorkflow({ titleFromRequest: true });
    const said = [
      'track the sessions a /clear starts in the CLI wrapper',
      "several processes can run from different tabs: one session file can't gather them all",
      "we don't control the claude code process - it's a 3rd party tool the CLI calls",
      ...Array.from({ length: 12 }, (_, i) => `step ${i + 1}: go on with the tracker`),
    ];
    request(d, said);
    // the issue and the request that says no limit are left to their records; the limit stays
    expect(d.state.standing_requests?.map((r) => r.id)).toEqual(['r3']);
    const snap = snapshotOf(d);
    const goal = compileResumeContext(snap, 2).goal;
    expect(goal.issue?.description).toBe(said[0]);
    expect(goal.requests.map((r) => r.text)).toContain(said[2]);
    // 14 later requests: those listed and those counted, the one in force once
    expect(goal.requests.length + goal.requests_more).toBe(14);
  });
});

describe('a rule the user set for the session, older than the recent requests the state keeps', () => {
  it('stays in force: kept, and listed in the Goal with the later requests; a one-off request does not', () => {
    const d = freshWorkflow({ titleFromRequest: true });
    const said = [
      'add a retry to the upload client',
      'always run the tests before committing',
      'use pnpm',
      'answer in Korean',
      'look at the timeout in upload.ts',
      ...Array.from({ length: 12 }, (_, i) => `step ${i + 1}: go on with the retry`),
    ];
    request(d, said);
    expect(d.state.standing_requests?.map((r) => r.text)).toEqual(said.slice(1, 4));
    const goal = compileResumeContext(snapshotOf(d), 2).goal;
    for (const rule of said.slice(1, 4)) expect(goal.requests.map((r) => r.text)).toContain(rule);
    expect(goal.requests.map((r) => r.text)).not.toContain(said[4]);
  });
});

describe('a snapshot on another branch than the one before it', () => {
  const gitOn = (branch: string, commit = 'c1'.repeat(20)): GitCapture => ({
    state: {
      branch,
      commit_at_workflow_start: 'c0'.repeat(20),
      commit_at_snapshot: commit,
      files_modified: [],
      files_staged: [],
      has_uncommitted_changes: false,
      uncommitted_summary: null,
    },
    note: null,
  });

  /** A workflow begun on main at c0…, no snapshot taken yet. */
  const begunOnMain = () => {
    const d = freshWorkflow({ git_start: { branch: 'main', commit: 'c0'.repeat(20) } });
    return d;
  };

  it('moves with the agent that branched off before any snapshot: the new branch holds where it began', () => {
    const d = begunOnMain();
    // `git checkout -b feat` and a commit: git answers that feat's history holds the start
    const feat = gitOn('feat', 'c1'.repeat(20));
    const held = { ...feat, state: { ...feat.state!, place_held: { commit: 'c0'.repeat(20), held: true } } };
    expect(takeSnapshot(d, 'manual', null, held).branch_changed).toBeUndefined();
    expect(workflowPlace(d.state)).toEqual({ branch: 'feat', commit: 'c1'.repeat(20) });
    // another branch that does not hold it: the place stays where the work is, and each snapshot there says so
    const other = gitOn('other', 'c9'.repeat(20));
    const away = {
      ...other,
      state: { ...other.state!, place_held: { commit: 'c1'.repeat(20), held: false } },
    };
    expect(takeSnapshot(d, 'manual', null, away).branch_changed).toMatchObject({ from: 'feat', to: 'other' });
    expect(workflowPlace(d.state)).toEqual({ branch: 'feat', commit: 'c1'.repeat(20) });
  });

  it('records the change from the last snapshot, else from the start, and says it first in the briefing, once', () => {
    const d = begunOnMain();
    // before any snapshot: against the branch the workflow began on
    expect(branchChange(d.state, gitOn('main'))).toBeNull();
    expect(branchChange(d.state, gitOn('(detached)'))).toEqual({
      from: 'main',
      to: '(detached)',
      since: 'start',
      at: '2026-03-01T10:00:00.000Z',
    });
    const first = takeSnapshot(d, 'manual', null, gitOn('main'));
    expect(first.branch_changed).toBeUndefined();
    // a branch whose history holds the snapshot's HEAD (renamed, or made from it) holds the work: nothing to warn of
    expect(branchChange(d.state, gitOn('renamed'))).toBeNull();
    const made = gitOn('feature', 'c2'.repeat(20));
    const on = {
      ...made.state!,
      work_commits: { listed: [{ hash: 'c1'.repeat(20), subject: 'x' }], more: 0, began_at: '' },
    };
    expect(branchChange(d.state, { ...made, state: on })).toBeNull();
    const fromMain = { from: 'main', to: 'hotfix', since: 'snapshot', at: first.created_at };
    const moved = takeSnapshot(d, 'handover', null, gitOn('hotfix', 'c3'.repeat(20)));
    expect(moved.branch_changed).toEqual(fromMain);
    const warning =
      'branch changed from main to hotfix since the snapshot of 2026-03-01T10:00:00.000Z: work done on main is not on hotfix unless merged; check which branch the work goes on';
    // first in the briefing, once though a resume's own warnings say it too
    expect(compileResumeContext(moved, 2, [warning, 'another']).warnings).toEqual([warning, 'another']);
    // the work stays where it was: a snapshot on hotfix again says so, from the time it was seen on main
    const again = takeSnapshot(d, 'manual', null, gitOn('hotfix', 'c3'.repeat(20)));
    expect(again.branch_changed).toEqual(fromMain);
    expect(workflowPlace(d.state)).toEqual({ branch: 'main', commit: 'c1'.repeat(20) });
    // until the agent commits on hotfix: its work goes on there
    d.emit({
      type: 'side_effect.recorded',
      data: {
        effect: {
          id: 'se-1',
          timestamp: '2026-03-01T11:00:00.000Z',
          task_id: null,
          kind: 'commit',
          tool: 'Bash',
          summary: `${'c3'.repeat(4)} fix`,
        },
      },
    });
    const committed = gitOn('hotfix', 'c3'.repeat(20));
    const withWork = {
      ...committed,
      state: {
        ...committed.state!,
        work_commits: { listed: [{ hash: 'c3'.repeat(20), subject: 'fix' }], more: 0, began_at: '' },
      },
    };
    expect(takeSnapshot(d, 'manual', null, withWork).branch_changed).toBeUndefined();
    expect(workflowPlace(d.state)).toEqual({ branch: 'hotfix', commit: 'c3'.repeat(20) });
    // git's answer, when asked, is the word on whether the history holds the work
    expect(branchChange(d.state, { ...gitOn('main', 'c9'.repeat(20)) })).not.toBeNull();
    const held = gitOn('main', 'c9'.repeat(20));
    expect(
      branchChange(d.state, {
        ...held,
        state: { ...held.state!, place_held: { commit: 'c3'.repeat(20), held: true } },
      }),
    ).toBeNull();
    // a branch checked out at the same commit makes a snapshot stale: it names another branch
    expect(sameGit(moved, gitOn('hotfix', 'c3'.repeat(20)))).toBe(true);
    expect(sameGit(moved, gitOn('other', 'c3'.repeat(20)))).toBe(false);
    // other files uncommitted (a stash, a checkout of a file) make it stale too: its Git State names them
    const dirty = (files: string[]) => {
      const g = gitOn('hotfix', 'c3'.repeat(20));
      return {
        ...g,
        state: { ...g.state!, has_uncommitted_changes: files.length > 0, uncommitted_files: files },
      };
    };
    const withFiles = takeSnapshot(d, 'manual', null, dirty(['a.ts', 'b.ts']));
    expect(sameGit(withFiles, dirty(['b.ts', 'a.ts']))).toBe(true);
    expect(sameGit(withFiles, dirty([]))).toBe(false);
    expect(sameGit(withFiles, dirty(['a.ts']))).toBe(false);
    // a snapshot from before the files were kept: whether there were any
    expect(sameGit(moved, dirty([]))).toBe(true);
    expect(sameGit(moved, dirty(['a.ts']))).toBe(false);
  });
});

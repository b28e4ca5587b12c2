import { describe, expect, it } from 'vitest';
import { ResumeRefusal, resumeRefusalText, type ResumeRefusal as Refusal } from './resume-refusal.js';

const followed: Refusal = {
  workflow_id: 'wf-1',
  status: 'in_progress',
  worktree: '/workspaces/cli',
  instead: 'next_session',
  agents: 'Claude Code',
};

describe('a refused resume, as data and in words', () => {
  it('is said of the workflow and its worktree, or, given whose it is, of theirs, from the same data', () => {
    expect(resumeRefusalText(followed, 'resume')).toBe(
      'cannot resume: the workflow is in_progress (only a paused or interrupted workflow can); its agent sessions are followed by hooks: the next Claude Code session in its worktree /workspaces/cli continues it with its briefing (`baton context` prints it); nothing to resume',
    );
    expect(resumeRefusalText(followed, 'resume', 'ana@team.example')).toBe(
      "cannot resume: wf-1 is ana@team.example's and in_progress (only a paused or interrupted workflow can); its agent sessions are followed by hooks: the next Claude Code session in ana@team.example's worktree /workspaces/cli continues it with its briefing (`baton context -w wf-1` prints it); nothing to resume",
    );
    const unfollowed = { ...followed, instead: 'nothing' as const, agents: null };
    expect(resumeRefusalText(unfollowed, 'resume', 'ana@team.example')).toBe(
      "cannot resume: wf-1 is ana@team.example's and in_progress (only a paused or interrupted workflow can); it is not stopped: nothing to resume (the briefing a new session gets: `baton context -w wf-1` prints it)",
    );
  });

  it('of an imported session no agent works on, says what takes it up', () => {
    expect(resumeRefusalText({ ...followed, instead: 'imported', agents: null }, 'resume')).toBe(
      "cannot resume: the workflow is in_progress (only a paused or interrupted workflow can); it was read in from a transcript (`baton import`) and no agent works on it: an agent session in its worktree /workspaces/cli with Baton's hooks (`baton init`) goes on with it, or `baton run -w wf-1` drives it; nothing to resume",
    );
  });

  it('survives the trip through JSON (an error over HTTP), and anything else is not taken for one', () => {
    expect(ResumeRefusal.parse(JSON.parse(JSON.stringify(followed)))).toEqual(followed);
    expect(ResumeRefusal.safeParse({ workflow_id: 'wf-1' }).success).toBe(false);
    expect(ResumeRefusal.safeParse(undefined).success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { makeService } from '../../test/helpers/service.js';
import { tempDir } from '../../test/helpers/git-repo.js';
import { executorRow } from '../../test/conformance/executor-cases.js';
import type { WorkflowState } from '../core/index.js';
import { sessionStatus, sessionTimeline } from './session-status.js';

const now = new Date().toISOString();

/** The state as a second session opened (after a crash or /clear) finds it: the first one ended. */
function secondSession(one: WorkflowState): WorkflowState {
  const first = one.sessions[0]!;
  return {
    ...one,
    session_count: 2,
    sessions: [
      { ...first, ended_at: one.updated_at },
      { ...first, number: 2 },
    ],
  };
}

/** A service with a workflow of two tasks, A and B. */
async function twoTasks() {
  const s = makeService();
  const w = await s.create({
    title: 't',
    tasks: [
      { id: 'A', title: 'a' },
      { id: 'B', title: 'b' },
    ],
    worktree: tempDir(),
  });
  return { s, w };
}

describe('sessionStatus', () => {
  it('gives every session the branch its worktree moved to, not the detached HEAD the workflow began on', async () => {
    const { w } = await twoTasks();
    const commit = 'a'.repeat(40);
    const moved: WorkflowState = {
      ...secondSession(w),
      git_start: { branch: '(detached)', commit },
      last_snapshot: {
        id: 'snap-1',
        trigger: 'handover',
        seq: 3,
        created_at: now,
        session_number: 1,
        branch: 'codex/fix-no-commit-detached-head',
        commit,
      },
    };
    expect(sessionTimeline(moved, now).map((x) => x.worktree_branch)).toEqual([
      'codex/fix-no-commit-detached-head',
      'codex/fix-no-commit-detached-head',
    ]);
    // no snapshot yet: where it began
    expect(sessionStatus({ ...moved, last_snapshot: null }, now).worktree_branch).toBe('(detached)');
  });

  it('derives running, resumable and superseded sessions from the folded state', async () => {
    const { s, w } = await twoTasks();
    const ref = { workflowId: w.id };
    // no agent has reported into it (a hand-tracked session): open, with no agent seen, no agent said to run it,
    // and nothing to resume
    expect(sessionStatus((await s.startTask(ref, 'A')).state, now)).toMatchObject({
      state: 'open',
      agent_running_note: 'no agent seen (none has reported into this open session; A in progress)',
      is_agent_running: false,
      needs_resume: false,
      resume_reason: null,
      task_id: 'A',
      executor_status: null,
    });
    const paused = (await s.pause(ref, { reason: 'x', force: true })).state;
    expect(sessionStatus(paused, now)).toMatchObject({
      state: 'paused',
      is_resumable: true,
      needs_resume: true,
      resume_reason: 'agent_not_running',
    });
    await s.resume(ref);
    const abandoned = (await s.abandon(ref)).state;
    expect(sessionTimeline(abandoned, now).map((x) => [x.session_number, x.state, x.resume_reason])).toEqual([
      [1, 'ended', 'superseded'],
      [2, 'ended', 'not_resumable'],
    ]);
    expect(() => sessionStatus(abandoned, now, 9)).toThrow(/no session 9/);
    await s.store.close();
  });

  it("names as the latest session's current task one an earlier session started and left under way", async () => {
    const s = makeService();
    const w = await s.create({ title: 't', tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    const one = (await s.startTask({ workflowId: w.id }, 'A')).state;
    const two = secondSession(one);
    expect(sessionStatus(two, now).task_id).toBe('A');
    expect(sessionStatus(two, now, 1).task_id).toBe('A');
    await s.store.close();
  });

  it("prefers the session's own task under way to one an earlier session left", async () => {
    const { s, w } = await twoTasks();
    const one = (await s.startTask({ workflowId: w.id }, 'A')).state;
    // the second session starts B while A, the first session's, is still under way
    const two = secondSession({
      ...one,
      tasks: one.tasks.map((t) => (t.id === 'B' ? { ...t, status: 'in_progress', session_number: 2 } : t)),
    });
    expect(sessionStatus(two, now).task_id).toBe('B');
    expect(sessionStatus(two, now, 1).task_id).toBe('A');
    await s.store.close();
  });

  it('reads executor_status, agent_execution_id, runtime and is_agent_running from the executors_running row', async () => {
    const s = makeService();
    const w = await s.create({ title: 't', tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    const state = (await s.startTask({ workflowId: w.id }, 'A')).state;
    const row = executorRow('ex-1', { workflow_id: w.id, execution_id: 'exec-9', status: 'ready' });
    expect(sessionStatus(state, now, undefined, [row])).toMatchObject({
      is_agent_running: true,
      executor_status: 'ready',
      agent_execution_id: 'exec-9',
      runtime: 'local',
      agent_profile_id: 'claude-code',
    });
    const waiting = { ...row, session_state: 'waiting_for_input' as const };
    expect(sessionStatus(state, now, undefined, [waiting]).is_agent_running).toBe(false);
    const other = { ...row, workflow_id: 'wf-other' };
    expect(sessionStatus(state, now, undefined, [other]).executor_status).toBeNull();
    // an agent that cannot resume a session, its process gone: not resumable (the dashboard's banner says so)
    const stuck = { ...row, session_state: 'error' as const, supports_session_resume: false };
    expect(sessionStatus(state, now, undefined, [stuck]).resume_reason).toBe('not_resumable');
    expect(
      sessionStatus(state, now, undefined, [{ ...stuck, supports_session_resume: true }]).resume_reason,
    ).toBe('agent_not_running');
  });

  it('a workflow not begun, or tracked by hand, has no agent running: it is not "not resumable"', async () => {
    const s = makeService();
    const w = await s.create({ title: 't', tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    expect(sessionStatus(w, now)).toMatchObject({
      is_agent_running: false,
      resume_reason: 'agent_not_running',
    });
    await s.store.close();
  });
});

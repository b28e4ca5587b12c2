import { describe, expect, it } from 'vitest';
import { makeService } from '../../test/helpers/service.js';
import { tempDir } from '../../test/helpers/git-repo.js';
import { sessionStatus, sessionTimeline } from './session-status.js';

describe('sessionStatus', () => {
  it('derives running, resumable and superseded sessions from the folded state', async () => {
    const s = makeService();
    const w = await s.create({
      title: 't',
      tasks: [
        { id: 'A', title: 'a' },
        { id: 'B', title: 'b' },
      ],
      worktree: tempDir(),
    });
    const ref = { workflowId: w.id };
    expect(sessionStatus((await s.startTask(ref, 'A')).state)).toMatchObject({
      state: 'running',
      is_agent_running: true,
      needs_resume: false,
      resume_reason: null,
      task_id: 'A',
      executor_status: null,
    });
    const paused = (await s.pause(ref, { reason: 'x', force: true })).state;
    expect(sessionStatus(paused)).toMatchObject({
      state: 'paused',
      is_resumable: true,
      needs_resume: true,
      resume_reason: 'agent_not_running',
    });
    await s.resume(ref);
    const abandoned = (await s.abandon(ref)).state;
    expect(sessionTimeline(abandoned).map((x) => [x.session_number, x.state, x.resume_reason])).toEqual([
      [1, 'ended', 'superseded'],
      [2, 'ended', 'not_resumable'],
    ]);
    expect(() => sessionStatus(abandoned, 9)).toThrow(/no session 9/);
    await s.store.close();
  });
});

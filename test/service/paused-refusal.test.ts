import { describe, expect, it } from 'vitest';
import { makeService } from '../helpers/service.js';
import { tempDir } from '../helpers/git-repo.js';

/**
 * A task move refused on a paused workflow says who paused it when it was asked for (`paused_by`: the MCP server then
 * tells the agent to stop, not to resume it); one Baton paused (a usage limit) keeps its resume hint alone.
 */
describe('a task move on a paused workflow', () => {
  const paused = async (trigger: 'pause' | 'usage_limit', reason: string) => {
    const svc = makeService();
    const w = await svc.create({
      title: 't',
      tasks: [
        { id: 'A', title: 'a' },
        { id: 'B', title: 'b' },
      ],
      worktree: tempDir(),
    });
    const ref = { workflowId: w.id };
    await svc.startTask(ref, 'A');
    await svc.pause(ref, { reason, trigger, force: true });
    return svc.startTask(ref, 'B').then(
      () => null,
      (e: unknown) => e as { message: string; details: Record<string, unknown> },
    );
  };

  it("a user's pause: refused with who paused it and why", async () => {
    const refused = await paused('pause', 'end of day');
    expect(refused?.message).toBe('cannot start B: the workflow is paused; resume it first (`baton resume`)');
    expect(refused?.details).toEqual({
      current_status: 'paused',
      paused_by: 'user',
      pause_reason: 'end of day',
    });
  });

  it('a usage limit: refused with the resume hint, no one named', async () => {
    const refused = await paused('usage_limit', 'usage limit, resets at 5pm');
    expect(refused?.message).toBe('cannot start B: the workflow is paused; resume it first (`baton resume`)');
    expect(refused?.details).toEqual({ current_status: 'paused' });
  });
});

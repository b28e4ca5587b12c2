import { describe, expect, it } from 'vitest';
import { BatonError } from './errors.js';
import { workflowStatuses } from './schemas/workflow.js';
import { assertTransition, canTransition, isResumable, isTerminal, transitions } from './workflow-machine.js';

describe('workflow status machine', () => {
  it("keeps Amelia's transitions and adds interrupted", () => {
    expect(transitions.pending).toEqual(['in_progress', 'cancelled']);
    expect(canTransition('in_progress', 'paused')).toBe(true);
    expect(canTransition('paused', 'in_progress')).toBe(true);
    expect(canTransition('in_progress', 'interrupted')).toBe(true);
    expect(canTransition('interrupted', 'in_progress')).toBe(true);
    expect(canTransition('paused', 'completed')).toBe(false);
  });

  it('has no way out of a terminal state', () => {
    for (const s of workflowStatuses.filter(isTerminal)) {
      for (const t of workflowStatuses) expect(canTransition(s, t)).toBe(false);
    }
  });

  it('terminal is exactly no way out; resumable is exactly stopped with a way back to in_progress', () => {
    expect(workflowStatuses.filter(isTerminal)).toEqual(
      workflowStatuses.filter((s) => transitions[s].length === 0),
    );
    // pending has never run and blocked is still running: neither resumes; paused and interrupted do
    expect(workflowStatuses.filter(isResumable)).toEqual(
      workflowStatuses.filter((s) => canTransition(s, 'in_progress') && s !== 'pending' && s !== 'blocked'),
    );
    expect(workflowStatuses.filter(isResumable).sort()).toEqual(['interrupted', 'paused']);
  });

  it('refuses an illegal transition naming the current state', () => {
    try {
      assertTransition('completed', 'paused', 'pause');
      expect.unreachable();
    } catch (e) {
      expect(BatonError.isInstance(e)).toBe(true);
      expect((e as BatonError).code).toBe('invalid_transition');
      expect((e as BatonError).message).toMatch(/cannot pause: the workflow is completed/);
      expect((e as BatonError).details).toMatchObject({ current_status: 'completed' });
    }
  });
});

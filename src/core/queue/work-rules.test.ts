import { describe, expect, it } from 'vitest';
import { refusedOutcome, runnableClaim, submission, WORKER_STOP_REASON, workOutcome } from './work-rules.js';

describe('submission', () => {
  it('gives the profile, priority 0 and no label by default', () => {
    expect(submission({ agent: ' claude-code ' })).toEqual({
      profile: { agent: 'claude-code', agent_bin: null, context_window: null, max_sessions: null },
      priority: 0,
      label: null,
    });
  });

  it.each([
    [{}, '--agent NAME'],
    [{ agent: 'a b' }, 'is not a profile name'],
    [{ agent: 'codex', priority: 1001 }, '--priority must be a whole number from -1000 to 1000'],
    [{ agent: 'codex', priority: 1.5 }, '--priority must be a whole number'],
    [{ agent: 'codex', max_sessions: 0 }, '--max-sessions must be a whole number from 1'],
    [{ agent: 'codex', label: 'has space' }, '--label "has space"'],
  ])('refuses %j with a clear message', (input, message) => {
    expect(() => submission(input)).toThrow(message);
  });
});

describe('what a finished run means for its queue entry', () => {
  const run = { pause_trigger: null, pause_reason: null, stopped: 'completed', failed: false };
  it('completed, failed and paused by a person are done; a worker stop or a crash leaves it queued', () => {
    expect(workOutcome({ ...run, status: 'completed' })).toEqual({ done: true, outcome: 'completed' });
    expect(workOutcome({ ...run, status: 'in_progress', failed: true, stopped: 'task T2 failed' })).toEqual({
      done: true,
      outcome: 'failed: task T2 failed',
    });
    expect(
      workOutcome({ ...run, status: 'paused', pause_reason: 'lunch', stopped: 'paused (pause): lunch' }),
    ).toMatchObject({ done: true });
    expect(workOutcome({ ...run, status: 'paused', pause_reason: WORKER_STOP_REASON })).toMatchObject({
      done: false,
    });
    expect(workOutcome({ ...run, status: 'interrupted' })).toMatchObject({ done: false });
  });

  it('a worker that cannot start claimed work (its agent missing, an engine down) says which and why; other errors are retried', () => {
    const box = { host: 'box', pid: 42 };
    expect(
      refusedOutcome({ code: 'invalid_input', message: 'cannot start the agent: claude was not found' }, box),
    ).toBe('pid 42 on box could not start it: cannot start the agent: claude was not found');
    expect(refusedOutcome({ code: 'unavailable', message: 'the Docker engine is down' }, box)).toMatch(
      /^pid 42/,
    );
    expect(refusedOutcome({ code: 'internal', message: 'boom' }, box)).toBeNull();
  });

  it('a claimed workflow runs unless it ended or a person paused it', () => {
    expect(runnableClaim({ status: 'in_progress', pause_trigger: null, pause_reason: null })).toBeNull();
    expect(runnableClaim({ status: 'interrupted', pause_trigger: null, pause_reason: null })).toBeNull();
    expect(runnableClaim({ status: 'paused', pause_trigger: 'exhaustion', pause_reason: null })).toBeNull();
    expect(
      runnableClaim({ status: 'paused', pause_trigger: 'pause', pause_reason: WORKER_STOP_REASON }),
    ).toBeNull();
    expect(runnableClaim({ status: 'completed', pause_trigger: null, pause_reason: null })).toBe('completed');
    expect(runnableClaim({ status: 'paused', pause_trigger: 'pause', pause_reason: 'lunch' })).toBe(
      'paused (lunch)',
    );
    // a usage limit's pause (its run did not wait for the reset) is left for a person to resume, as a pause is
    const limit = 'usage limit, resets at 3:40pm (Asia/Tokyo)';
    expect(runnableClaim({ status: 'paused', pause_trigger: 'usage_limit', pause_reason: limit })).toBe(
      `paused (${limit})`,
    );
  });
});

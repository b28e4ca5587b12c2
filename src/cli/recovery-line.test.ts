import { describe, expect, it } from 'vitest';
import type { RecoveryOutcome } from '../service/runtime/index.js';
import { recoveryLine } from './serve-runtime.js';

const row = (over: Partial<RecoveryOutcome>): RecoveryOutcome => ({
  executor_id: 'ex-1',
  workflow_id: 'wf-1',
  session_number: 1,
  runtime: 'local',
  executor_status: 'ready',
  session_state: 'waiting_for_input',
  action: 'workspace_only',
  reason: null,
  interrupted: true,
  auto_resume: false,
  agent: 'claude-code',
  ...over,
});

describe("baton serve's startup recovery line", () => {
  it('says what it found and what it did, in words, counted right', () => {
    expect(recoveryLine({ executors: [row({}), row({})], interrupted: 1, attached: [], ms: 12 })).toBe(
      'startup recovery: found 2 agent sessions left running; 1 workflow interrupted, 0 re-attached (12 ms)',
    );
    expect(recoveryLine({ executors: [row({})], interrupted: 2, attached: [], ms: 3 })).toBe(
      'startup recovery: found 1 agent session left running; 2 workflows interrupted, 0 re-attached (3 ms)',
    );
    expect(recoveryLine({ executors: [], interrupted: 0, attached: [], ms: 1 })).toBe(
      'startup recovery: found no agent sessions left running (1 ms)',
    );
  });

  it('names the sessions it closed as over, and those left to a live process or not checked', () => {
    const closed = row({ executor_status: 'stopped', session_state: 'ended', interrupted: false });
    const live = row({ action: 'skipped_live_owner', interrupted: false });
    const unchecked = row({ action: 'unchecked', interrupted: false });
    expect(
      recoveryLine({ executors: [closed, live, unchecked, row({})], interrupted: 1, attached: [], ms: 5 }),
    ).toBe(
      'startup recovery: found 4 agent sessions left running; 1 workflow interrupted, 0 re-attached, 1 closed (its workflow finished or went on to a later session), 1 left to the Baton process still running it, 1 not checked (its host unreachable from here) (5 ms)',
    );
  });
});

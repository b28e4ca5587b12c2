import { describe, expect, it } from 'vitest';
import type { ExecutorRow } from '../storage/executor-registry.js';
import { executorLine } from './commands/executor-commands.js';

const row = (over: Partial<ExecutorRow>): ExecutorRow =>
  ({
    id: 'ex-1',
    workflow_id: 'wf-1',
    session_number: 2,
    runtime: 'local',
    status: 'ready',
    session_state: 'running',
    error_message: null,
    ...over,
  }) as ExecutorRow;

describe('`baton executors list`, one line per executor', () => {
  it('keeps its columns and says plainly that an agent startup recovery found gone is dead', () => {
    expect(executorLine(row({ session_state: 'error', error_message: 'not_resumable' }))).toBe(
      'ex-1 wf-1#2 local ready/error: dead (agent gone); its session cannot resume (its agent cannot resume a session)',
    );
    expect(executorLine(row({ session_state: 'waiting_for_input' }))).toBe(
      'ex-1 wf-1#2 local ready/waiting_for_input: dead (agent gone); its session can resume',
    );
    expect(executorLine(row({}))).toBe('ex-1 wf-1#2 local ready/running: running');
  });

  it('says what a closed row is, and keeps the reason it carries', () => {
    expect(executorLine(row({ status: 'stopped', session_state: 'ended' }))).toBe(
      'ex-1 wf-1#2 local stopped/ended: session over',
    );
    expect(
      executorLine(
        row({
          status: 'stopped',
          session_state: 'waiting_for_input',
          error_message: 'heartbeat_timeout: no heartbeat for 90s',
        }),
      ),
    ).toBe(
      'ex-1 wf-1#2 local stopped/waiting_for_input: agent gone (heartbeat_timeout: no heartbeat for 90s); the workflow goes on in a new session',
    );
    expect(executorLine(row({ status: 'error', error_message: 'the workspace /w is missing' }))).toBe(
      'ex-1 wf-1#2 local error/running: error: the workspace /w is missing',
    );
  });
});

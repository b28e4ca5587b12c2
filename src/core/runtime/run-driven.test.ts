import { describe, expect, it } from 'vitest';
import { createWorkflow } from '../commands/create.js';
import { interrupt } from '../commands/lifecycle.js';
import { resume } from '../commands/resume.js';
import { agentExited, launchAgent, saveResumeToken } from '../commands/runtime.js';
import { completeTask, failTask, startTask } from '../commands/tasks.js';
import { Draft } from '../draft.js';
import type { AgentOutcome, CutShort } from '../schemas/runtime.js';
import type { WorkflowState } from '../schemas/state.js';
import { cutShortSession, cutShortWords, FRESH_AFTER_FAILURES, sessionToGoOn } from './run-driven.js';

const git = { state: null, note: 'no git' };
let n = 0;
let clock = Date.parse('2026-01-01T00:00:00.000Z');
const ctx = {
  /** a second later at each read: what happened later is later */
  get now() {
    return new Date((clock += 1000)).toISOString();
  },
  newId: (p: string) => `${p}-${++n}`,
  actor: 'user',
};
const run = (s: WorkflowState | null, f: (d: Draft) => unknown) => {
  const d = new Draft(s, ctx, 'wf-1');
  f(d);
  return d.state;
};

/**
 * A workflow whose agent (claude-code, session `sess-1` unless it never named one) ended T1 with `outcome`, cut short
 * as `cut` says (absent: an event log from before exits said it), the task failed by it.
 */
function agentEnded(
  outcome: AgentOutcome,
  exitedTask: string | null = 'T1',
  cut?: CutShort,
  token: string | null = 'sess-1',
  exitCode: number | null = null,
) {
  let s = run(null, (d) =>
    createWorkflow(d, {
      title: 'Two tasks',
      issue: null,
      worktree: '/w',
      plan: '',
      tasks: [
        { id: 'T1', title: 'First', description: '', deps: [], lane: 0 },
        { id: 'T2', title: 'Second', description: '', deps: ['T1'], lane: 0 },
      ],
      git_start: null,
    }),
  );
  s = run(s, (d) => {
    startTask(d, 'T1');
    launchAgent(d, { agent: 'claude-code', executor_id: 'ex-1', resume_token: null, fallback: null });
    if (token) saveResumeToken(d, 'ex-1', token);
    agentExited(
      d,
      {
        executor_id: 'ex-1',
        outcome,
        exit_code: exitCode,
        message: 'killed',
        ...(cut ? { cut_short: cut } : {}),
      },
      exitedTask,
    );
    failTask(d, 'T1', 'the agent (pid 7) was killed by SIGKILL', git);
  });
  return s;
}

describe('cutShortSession', () => {
  it('the agent killed alone on the task the run takes next: its own session goes on', () => {
    expect(cutShortSession(agentEnded('killed', 'T1', 'cut_off'), 'claude-code')).toEqual({
      token: 'sess-1',
      taskId: 'T1',
      how: 'cut_off',
      failures: 1,
      fresh: null,
    });
    // an event log from before exits said how the run was cut short: a kill was a cut-off
    expect(cutShortSession(agentEnded('killed'), 'claude-code')).toMatchObject({ how: 'cut_off' });
  });

  it('an agent that crashed mid-turn or stopped at its turn limit goes on in its own session too', () => {
    expect(cutShortSession(agentEnded('error', 'T1', 'cut_off'), 'claude-code')).toMatchObject({
      token: 'sess-1',
      how: 'cut_off',
    });
    expect(cutShortSession(agentEnded('error', 'T1', 'turn_limit'), 'claude-code')).toMatchObject({
      token: 'sess-1',
      how: 'turn_limit',
    });
  });

  it('one that never named its session is said, with no token (a fresh session goes on)', () => {
    expect(cutShortSession(agentEnded('error', 'T1', 'cut_off', null), 'claude-code')).toEqual({
      token: null,
      taskId: 'T1',
      how: 'cut_off',
      failures: 1,
      fresh: null,
    });
  });

  it('not after a failure of the task itself, for another agent, or when it was on another task', () => {
    expect(cutShortSession(agentEnded('error'), 'claude-code')).toBeNull();
    expect(cutShortSession(agentEnded('killed'), 'codex')).toBeNull();
    expect(cutShortSession(agentEnded('killed', null), 'claude-code')).toBeNull();
  });

  it('not once a person resumed the workflow since (a fresh session with the briefing was asked for)', () => {
    let s = agentEnded('killed', 'T1', 'cut_off');
    s = run(s, (d) => interrupt(d, 'stopped by hand', git));
    s = run(s, (d) => resume(d, { snapshot: null, git, staleAfterMs: 7 * 86_400_000 }));
    expect(s.status).toBe('in_progress');
    expect(cutShortSession(s, 'claude-code')).toBeNull();
  });

  it('counts the failures in a row from the events; at FRESH_AFTER_FAILURES a fresh session goes on', () => {
    let s = agentEnded('error', 'T1', 'cut_off', 'sess-1', 1);
    for (let i = 1; i < FRESH_AFTER_FAILURES; i++) {
      expect(cutShortSession(s, 'claude-code')).toMatchObject({ failures: i, fresh: null });
      s = run(s, (d) => {
        startTask(d, 'T1');
        agentExited(
          d,
          { executor_id: 'ex-1', outcome: 'error', exit_code: 1, message: 'x', cut_short: 'cut_off' },
          'T1',
        );
        failTask(d, 'T1', 'Error: connect ECONNRESET (the agent exited with code 1)', git);
      });
    }
    expect(s.tasks[0]!.failures).toBe(FRESH_AFTER_FAILURES);
    expect(cutShortSession(s, 'claude-code')).toMatchObject({
      token: 'sess-1',
      failures: FRESH_AFTER_FAILURES,
      fresh: `it failed ${FRESH_AFTER_FAILURES} times in a row in its own session`,
    });
    // done at last: its failures are no longer in a row
    s = run(s, (d) => {
      startTask(d, 'T1');
      completeTask(d, 'T1', null, git);
    });
    expect(s.tasks[0]!.failures).toBeUndefined();
  });

  it('a hung agent is never gone on with in its own session', () => {
    expect(cutShortSession(agentEnded('killed', 'T1', 'hung'), 'claude-code')).toMatchObject({
      how: 'hung',
      fresh: 'it may hang again in its own session',
    });
  });

  it('says how the agent ended: its own exit code, a kill (a wrapper exits 128 + the signal), a hang', () => {
    expect(cutShortWords(agentEnded('error', 'T1', 'cut_off', 'sess-1', 1), 'cut_off')).toBe(
      'exited with code 1 in the middle of its turn',
    );
    expect(cutShortWords(agentEnded('error', 'T1', 'cut_off', 'sess-1', 137), 'cut_off')).toBe(
      'was cut off in the middle of its turn',
    );
    expect(cutShortWords(agentEnded('killed', 'T1', 'cut_off'), 'cut_off')).toBe(
      'was cut off in the middle of its turn',
    );
    expect(cutShortWords(agentEnded('killed', 'T1', 'hung'), 'hung')).toMatch(/^was stopped as hung/);
  });
});

describe('sessionToGoOn', () => {
  it('after a crash, the same agent goes on in its own conversation; another agent starts fresh', () => {
    const crashed = run(agentEnded('killed', 'T1', 'cut_off'), (d) => interrupt(d, 'baton run died', git));
    expect(crashed.status).toBe('interrupted');
    expect(sessionToGoOn(crashed, 'claude-code')).toBe('sess-1');
    // Codex cannot go on in Claude Code's session
    expect(sessionToGoOn(crashed, 'codex')).toBeNull();
  });
});

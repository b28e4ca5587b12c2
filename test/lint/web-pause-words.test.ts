import { describe, expect, it } from 'vitest';
import { Draft } from '../../src/core/draft.js';
import { freshWorkflow, tasksOf } from '../helpers/fresh-workflow.js';
import { nothingLeft, pause, pauseRequestedWords, pauseWaitsFor } from '../../src/core/commands/pause.js';
import { markImported } from '../../src/core/commands/records.js';
import { startTask } from '../../src/core/commands/tasks.js';
import * as web from '../../web/src/api/pause-words.js';

let n = 0;
const at = (now: string) => ({ now, newId: (p: string) => `${p}-${++n}`, actor: 'user' });
const git = { state: null, note: null };

/** A pause asked while T1 runs by hand, then a transcript read into the session: no agent will end T1 or a turn. */
function requestLeftWithNothing() {
  const d = freshWorkflow({ tasks: tasksOf({ id: 'T1', title: 'Build' }) }, at('2026-03-01T10:00:00.000Z'));
  startTask(d, 'T1');
  const asked = new Draft(d.state, at('2026-03-01T10:05:00.000Z'));
  pause(asked, { reason: 'lunch', trigger: 'pause', force: false, timeoutMs: 300_000, git });
  const read = new Draft(asked.state, at('2026-03-01T10:06:00.000Z'));
  markImported(read, {
    format: 'codex-rollout',
    transcript_session_id: 's',
    path: '/r.jsonl',
    through_line: 9,
    records: 0,
  });
  return read.state;
}

describe("the dashboard's pause banner and `baton status`", () => {
  it('say the one answer of a request left with nothing to wait for: neither names a boundary to come', () => {
    const s = requestLeftWithNothing();
    expect(s).toMatchObject({ status: 'in_progress', pause_requested: true });
    expect(s.tasks[0]?.status).toBe('in_progress');
    const waits = pauseWaitsFor(s);
    expect(waits).toBeNull();
    // the banner said "waiting for the task boundary (none running)" while T1 ran; `baton status` said nothing of it
    expect(web.nothingLeft).toBe(nothingLeft);
    expect(pauseRequestedWords(waits)).toBe(
      'pause requested, nothing left to wait for: `baton pause` takes it now',
    );
    expect(web.pendingPauseWords(waits)).toBe(
      'nothing left to wait for: `baton pause` takes it now, or its timeout does',
    );
  });

  it('say what a request waits for, when it waits for something, as they did', () => {
    const turn = { session_number: 1, agent: 'claude-code' };
    expect(pauseRequestedWords({ tasks: [], turn })).toBe("pause requested, when the agent's turn ends");
    expect(web.pendingPauseWords({ tasks: [], turn })).toBe("waiting for the agent's turn to end");
    expect(pauseRequestedWords({ tasks: ['T1'], turn: null })).toBe('pause requested, when T1 finishes');
    expect(web.pendingPauseWords({ tasks: ['T1'], turn: null })).toBe('waiting for the task boundary (T1)');
  });
});

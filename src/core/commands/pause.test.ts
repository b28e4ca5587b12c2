import { describe, expect, it } from 'vitest';
import { Draft } from '../draft.js';
import type { WorkflowState } from '../schemas/state.js';
import { endAgentTurn, linkAgentSession } from './agent-session.js';
import { syncAgentTasks } from './agent-tasks.js';
import { freshWorkflow, tasksOf } from '../../../test/helpers/fresh-workflow.js';
import {
  honourRequestedPause,
  pause,
  pauseWaitsFor,
  requestedPauseTakesNow,
  withdrawPause,
  type PauseInput,
} from './pause.js';
import { foldEvents } from '../fold.js';
import { markImported } from './records.js';
import { recordRequest } from './requests.js';
import { completeTask, startTask } from './tasks.js';

let n = 0;
const git = { state: null, note: null };
const at = (now: string) => ({ now, newId: (p: string) => `${p}-${++n}`, actor: 'user' });
const next = (s: WorkflowState, now = '2026-03-01T10:05:00.000Z') => new Draft(s, at(now));
const ask: Omit<PauseInput, 'timeoutMs'> & { timeoutMs: number } = {
  reason: 'lunch',
  trigger: 'pause',
  force: false,
  timeoutMs: 5 * 60_000,
  git,
};
const plan = (id: string, ...steps: [string, string][]) => ({
  tool: 'update_plan',
  id,
  input: { plan: steps.map(([step, status]) => ({ step, status })) },
});

/** A workflow driven by hand (`baton create` and the CLI alone), its first task started. */
function byHand(id: string, ...taskIds: string[]) {
  const tasks = tasksOf(...taskIds.map((t) => ({ id: t, title: t })));
  const d = freshWorkflow({ tasks }, at('2026-03-01T10:00:00.000Z'), id);
  startTask(d, taskIds[0] ?? '');
  return d;
}

/** A workflow a Codex session follows, its user's request taken up in a turn (its Stop not come yet). */
function midTurn(tasks: { id: string; title: string }[] = []) {
  const d = freshWorkflow({ tasks: tasksOf(...tasks) }, at('2026-03-01T10:00:00.000Z'));
  linkAgentSession(d, { name: 'codex', session_id: 's1' });
  recordRequest(d, { text: 'add the retry', at: '2026-03-01T10:01:00.000Z', source: 'codex:hook' });
  return d.state;
}

describe('a pause asked while the agent works', () => {
  it("waits for the end of the agent's turn when no task is in progress, and takes effect there", () => {
    const d = next(midTurn());
    expect(pause(d, ask)).toEqual({
      outcome: 'requested',
      waiting_for: [],
      waiting_for_turn: { session_number: 1, agent: 'codex' },
    });
    expect(d.state).toMatchObject({ status: 'in_progress', pause_request: { until: 'turn_end' } });
    // asked again meanwhile: still waiting, no second request; the first one's reason stands, and the call says so
    const again = next(d.state, '2026-03-01T10:08:00.000Z');
    expect(pause(again, { ...ask, reason: null })).toEqual({
      outcome: 'already_requested',
      reason: 'lunch',
      requested_at: '2026-03-01T10:05:00.000Z',
      ignored_reason: null,
      waiting_for: [],
      waiting_for_turn: { session_number: 1, agent: 'codex' },
    });
    expect(pause(again, ask)).toMatchObject({ outcome: 'already_requested', ignored_reason: null });
    expect(pause(again, { ...ask, reason: 'end of day' })).toMatchObject({
      outcome: 'already_requested',
      reason: 'lunch',
      ignored_reason: 'end of day',
    });
    expect(again.events).toEqual([]);
    // the Stop imports the turn: the agent's plan, its first step begun and finished, the next begun; no boundary in
    // it is the pause's (the agent went on past them)
    const stop = next(d.state, '2026-03-01T10:09:00.000Z');
    const synced = syncAgentTasks(
      stop,
      'codex',
      [
        plan('p1', ['Write the retry', 'in_progress'], ['Test it', 'pending']),
        plan('p2', ['Write the retry', 'completed'], ['Test it', 'completed']),
      ],
      git,
    );
    expect(synced.paused_snapshot_id).toBeUndefined();
    expect(stop.state.status).toBe('in_progress');
    const ended = endAgentTurn(stop, 'codex', git);
    expect(ended).toEqual({ recorded: true, paused_snapshot_id: expect.stringMatching(/^snap-/) });
    expect(stop.state).toMatchObject({ status: 'paused', pause_reason: 'lunch', pause_requested: false });
    expect(stop.state.tasks.map((t) => t.status)).toEqual(['done', 'done']);
    expect(stop.state.warnings).toEqual([]);
  });

  it("says what was still in progress when the turn it waited for ended in the middle of the agent's list", () => {
    const d = next(midTurn());
    pause(d, ask);
    const stop = next(d.state, '2026-03-01T10:09:00.000Z');
    syncAgentTasks(
      stop,
      'codex',
      [plan('p1', ['Write the retry', 'completed'], ['Test it', 'in_progress'])],
      git,
    );
    endAgentTurn(stop, 'codex', git);
    expect(stop.state.status).toBe('paused');
    expect(stop.state.warnings).toEqual(["paused at the end of the agent's turn while T2 was in progress"]);
  });

  it('waits for the task boundary with a task in progress, and pauses at once when no turn is under way', () => {
    const busy = next(
      midTurn([
        { id: 'T1', title: 'one' },
        { id: 'T2', title: 'two' },
      ]),
    );
    startTask(busy, 'T1');
    expect(pause(busy, ask)).toEqual({
      outcome: 'requested',
      waiting_for: ['T1'],
      waiting_for_turn: { session_number: 1, agent: 'codex' },
    });
    // its boundary, in the middle of the turn, is where it takes effect when it comes first
    const done = next(busy.state);
    expect(completeTask(done, 'T1', null, git).paused).toBe(true);
    // the turn ended: nothing to wait for
    const idle = next(midTurn(), '2026-03-01T10:09:00.000Z');
    endAgentTurn(idle, 'codex', git);
    expect(pause(idle, ask)).toMatchObject({ outcome: 'paused', warning: null });
  });

  it("takes effect at the end of the agent's turn when that comes before the task's end, naming the task", () => {
    const busy = next(midTurn([{ id: 'T1', title: 'one' }]));
    startTask(busy, 'T1');
    pause(busy, ask);
    // Codex's plans often end a turn with a step in progress: the agent then waits for its user, nothing works on it
    const stop = next(busy.state, '2026-03-01T10:09:00.000Z');
    expect(endAgentTurn(stop, 'codex', git)).toEqual({
      recorded: true,
      paused_snapshot_id: expect.stringMatching(/^snap-/),
    });
    expect(stop.state).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
    expect(stop.state.warnings).toEqual(["paused at the end of the agent's turn while T1 was in progress"]);
  });

  it("pauses at once, naming the task, when the agent's turn ended with a task in progress", () => {
    const d = next(midTurn([{ id: 'T1', title: 'one' }]));
    startTask(d, 'T1');
    endAgentTurn(d, 'codex', git);
    const idle = next(d.state, '2026-03-01T10:09:00.000Z');
    expect(pause(idle, ask)).toMatchObject({
      outcome: 'paused',
      warning: "paused between the agent's turns while T1 was in progress",
    });
    // a session the agent ended (SessionEnd) leaves its task to nobody either
    const gone = next(midTurn([{ id: 'T1', title: 'one' }]));
    startTask(gone, 'T1');
    gone.emit({ type: 'session.ended', data: { reason: 'agent_exit', snapshot_id: null } });
    expect(pause(next(gone.state), ask)).toMatchObject({ outcome: 'paused' });
  });

  it("once the agent's list finished every task mid-turn, waits for that turn's end, whatever the list does after", () => {
    const busy = next(midTurn());
    syncAgentTasks(
      busy,
      'codex',
      [plan('p1', ['Write the retry', 'in_progress'], ['Test it', 'pending'])],
      git,
    );
    expect(pause(busy, ask)).toMatchObject({ outcome: 'requested', waiting_for: ['T1'] });
    // the list finishes both: the request now waits for the turn, and the log says so (once)
    const done = next(busy.state, '2026-03-01T10:06:00.000Z');
    const synced = syncAgentTasks(
      done,
      'codex',
      [plan('p2', ['Write the retry', 'completed'], ['Test it', 'completed'])],
      git,
    );
    expect(synced).toMatchObject({ pause_at_turn_end: true });
    expect(synced.paused_snapshot_id).toBeUndefined();
    expect(done.events.filter((e) => e.type.startsWith('workflow.')).map((e) => [e.type, e.data])).toEqual([
      ['workflow.pause_deferred', { until: 'turn_end' }],
    ]);
    expect(done.state.pause_request).toMatchObject({ reason: 'lunch', until: 'turn_end' });
    expect(requestedPauseTakesNow(done.state)).toBe(false);
    // the agent takes on a third step: no boundary of the pause's, and nothing recorded again
    const more = next(done.state, '2026-03-01T10:07:00.000Z');
    const went = syncAgentTasks(
      more,
      'codex',
      [
        plan(
          'p3',
          ['Write the retry', 'completed'],
          ['Test it', 'completed'],
          ['Document it', 'in_progress'],
        ),
      ],
      git,
    );
    expect(went.paused_snapshot_id).toBeUndefined();
    expect(went.pause_at_turn_end).toBeUndefined();
    expect(more.state.status).toBe('in_progress');
    expect(pause(next(more.state), ask)).toMatchObject({
      outcome: 'already_requested',
      waiting_for: [],
      waiting_for_turn: { session_number: 1, agent: 'codex' },
    });
    const stop = next(more.state, '2026-03-01T10:09:00.000Z');
    expect(endAgentTurn(stop, 'codex', git).paused_snapshot_id).toMatch(/^snap-/);
    expect(stop.state.warnings).toEqual(["paused at the end of the agent's turn while T3 was in progress"]);
  });

  it("is forced, saying the agent's turn was under way, by --force or once its timeout passed", () => {
    const forced = next(midTurn());
    expect(pause(forced, { ...ask, force: true })).toMatchObject({
      outcome: 'paused',
      warning: "paused at once (lunch) while the agent's turn was under way",
    });
    expect(pause(next(midTurn()), { ...ask, reason: null, force: true })).toMatchObject({
      warning: "forced pause while the agent's turn was under way",
    });
    const d = next(midTurn(), '2026-03-01T10:05:00.000Z');
    pause(d, ask);
    const late = next(d.state, '2026-03-01T10:10:00.000Z');
    expect(pause(late, { ...ask, reason: null })).toMatchObject({
      outcome: 'paused',
      warning: "pause timeout of 300 s passed while the agent's turn was under way",
    });
    expect(late.state.pause_reason).toBe('lunch');
  });

  it('pauses at once where no agent session is followed (baton create and the CLI alone)', () => {
    const d = freshWorkflow({}, at('2026-03-01T10:00:00.000Z'), 'wf-2');
    d.emit({ type: 'workflow.started', data: {} });
    recordRequest(d, { text: 'add the retry', at: '2026-03-01T10:01:00.000Z', source: 'cli' });
    expect(pause(next(d.state), ask)).toMatchObject({ outcome: 'paused' });
  });

  it('asked before a transcript was imported into the session, takes effect at the next point it is asked', () => {
    const d = byHand('wf-3', 'T1');
    // driven by hand: it waits for T1
    const asked = next(d.state);
    expect(pause(asked, ask)).toMatchObject({ outcome: 'requested', waiting_for: ['T1'] });
    expect(requestedPauseTakesNow(asked.state)).toBe(false);
    // then a transcript is read into the session: no agent works on it, nothing will end T1
    const read = next(asked.state, '2026-03-01T10:06:00.000Z');
    markImported(read, {
      format: 'codex-rollout',
      transcript_session_id: 's',
      path: '/r.jsonl',
      through_line: 9,
      records: 0,
    });
    expect(read.state.sessions.at(-1)).toMatchObject({ imported: true });
    expect(requestedPauseTakesNow(read.state)).toBe(true);
    expect(pause(next(read.state, '2026-03-01T10:07:00.000Z'), { ...ask, reason: null })).toMatchObject({
      outcome: 'paused',
      warning: 'paused while T1 was in progress in an imported session, which no agent works on',
    });
  });
});

describe('a pause of a workflow whose agent was cut off in the middle of its turn (its process gone)', () => {
  it('asked then, takes effect at once: the turn it would wait for never ends', () => {
    const d = next(midTurn());
    expect(pauseWaitsFor(d.state)).toEqual({ tasks: [], turn: { session_number: 1, agent: 'codex' } });
    expect(pauseWaitsFor(d.state, true)).toBeNull();
    expect(pause(d, { ...ask, agentGone: true })).toMatchObject({
      outcome: 'paused',
      warning: "paused after the agent's process ended in the middle of its turn",
    });
    expect(d.state).toMatchObject({ status: 'paused', pause_reason: 'lunch', pause_requested: false });
  });

  it('names the task it was cut off in', () => {
    const d = next(midTurn([{ id: 'T1', title: 'one' }]));
    startTask(d, 'T1');
    expect(pause(d, { ...ask, agentGone: true })).toMatchObject({
      outcome: 'paused',
      warning: "paused after the agent's process ended in the middle of its turn while T1 was in progress",
    });
  });

  it('asked before it was cut off, takes effect once that is known: its request, reason and trigger', () => {
    const d = next(midTurn());
    pause(d, ask);
    expect(requestedPauseTakesNow(d.state)).toBe(false);
    expect(requestedPauseTakesNow(d.state, true)).toBe(true);
    expect(pauseWaitsFor(d.state, true)).toBeNull();
    // not known gone: the request still waits for the turn
    const unknown = next(d.state, '2026-03-01T10:07:00.000Z');
    expect(honourRequestedPause(unknown, git)).toBeNull();
    expect(unknown.events).toEqual([]);
    const noticed = next(d.state, '2026-03-01T10:07:00.000Z');
    expect(honourRequestedPause(noticed, git, true)).toMatchObject({ outcome: 'paused' });
    expect(noticed.state).toMatchObject({ status: 'paused', pause_reason: 'lunch', pause_requested: false });
    expect(noticed.state.last_snapshot?.trigger).toBe('pause');
    expect(noticed.state.warnings).toEqual([
      "paused after the agent's process ended in the middle of its turn",
    ]);
  });

  it('an agent gone between its turns changes nothing: the pause is taken at once as before, no cut named', () => {
    const d = next(midTurn([{ id: 'T1', title: 'one' }]), '2026-03-01T10:09:00.000Z');
    startTask(d, 'T1');
    endAgentTurn(d, 'codex', git);
    expect(pause(d, { ...ask, agentGone: true })).toMatchObject({
      outcome: 'paused',
      warning: "paused between the agent's turns while T1 was in progress",
    });
  });
});

describe('a pause asked before a transcript was imported', () => {
  it('takes effect when the imported list finishes every task: no turn of it will end to wait for', () => {
    const d = byHand('wf-5', 'Write the retry');
    const asked = next(d.state);
    pause(asked, ask);
    const read = next(asked.state, '2026-03-01T10:06:00.000Z');
    markImported(read, {
      format: 'codex-rollout',
      transcript_session_id: 's',
      path: '/r.jsonl',
      through_line: 9,
      records: 0,
    });
    const synced = syncAgentTasks(read, 'codex', [plan('p1', ['Write the retry', 'completed'])], git);
    expect(synced.paused_snapshot_id).toMatch(/^snap-/);
    expect(synced.pause_at_turn_end).toBeUndefined();
    expect(read.state).toMatchObject({ status: 'paused', pause_reason: 'lunch' });
  });
});

describe('a pause withdrawn', () => {
  it('takes back the request that waits: the task boundary no longer pauses, and the fold says the same', () => {
    const d = byHand('wf-4', 'T1', 'T2');
    // nothing waits yet: nothing to withdraw, nothing recorded
    expect(withdrawPause(next(d.state))).toBeNull();
    const asked = next(d.state);
    pause(asked, ask);
    const back = next(asked.state, '2026-03-01T10:06:00.000Z');
    expect(withdrawPause(back)).toEqual({
      outcome: 'pause_withdrawn',
      reason: 'lunch',
      requested_at: '2026-03-01T10:05:00.000Z',
    });
    expect(back.events.map((e) => [e.type, e.data])).toEqual([
      ['workflow.pause_withdrawn', { reason: 'lunch', requested_at: '2026-03-01T10:05:00.000Z' }],
    ]);
    expect(back.state).toMatchObject({ status: 'in_progress', pause_requested: false, pause_request: null });
    // replayed from the log, the state is the same
    const log = [...d.events, ...asked.events, ...back.events];
    expect(foldEvents(log).state).toEqual(back.state);
    // T1's end is no boundary of a pause any more; a pause asked again is a new request, with its own reason
    const done = next(back.state, '2026-03-01T10:07:00.000Z');
    expect(completeTask(done, 'T1', null, git).paused).toBeFalsy();
    expect(done.state.status).toBe('in_progress');
    expect(withdrawPause(next(done.state))).toBeNull();
  });
});

describe('what a pause waits for (pauseWaitsFor)', () => {
  const turn = { session_number: 1, agent: 'codex' };
  const imported = (d: Draft) =>
    markImported(d, {
      format: 'codex-rollout',
      transcript_session_id: 's',
      path: '/r.jsonl',
      through_line: 9,
      records: 0,
    });

  it('asked now: the task under way, the turn under way, both, or nothing when it would take effect at once', () => {
    expect(pauseWaitsFor(byHand('wf-6', 'T1').state)).toEqual({ tasks: ['T1'], turn: null });
    expect(pauseWaitsFor(midTurn())).toEqual({ tasks: [], turn });
    const busy = next(midTurn([{ id: 'T1', title: 'one' }]));
    startTask(busy, 'T1');
    expect(pauseWaitsFor(busy.state)).toEqual({ tasks: ['T1'], turn });
    // its turn over, the agent waits for its user: nothing works on T1, the pause takes effect at once
    endAgentTurn(busy, 'codex', git);
    expect(pauseWaitsFor(busy.state)).toBeNull();
  });

  it('a pending request: what it was asked to wait for, the turn alone once asked mid-turn, though a task starts', () => {
    const d = next(midTurn());
    pause(d, ask);
    // the agent's plan starts a step in that turn: no boundary of it is the pause's
    syncAgentTasks(d, 'codex', [plan('p1', ['Write the retry', 'in_progress'])], git);
    expect(d.state.tasks.map((t) => t.status)).toEqual(['in_progress']);
    expect(pauseWaitsFor(d.state)).toEqual({ tasks: [], turn });
  });

  it('a pending request a transcript read in left with nothing to wait for: nothing, though its task is in progress', () => {
    const asked = next(byHand('wf-7', 'T1').state);
    pause(asked, ask);
    expect(pauseWaitsFor(asked.state)).toEqual({ tasks: ['T1'], turn: null });
    const read = next(asked.state, '2026-03-01T10:06:00.000Z');
    imported(read);
    expect(read.state).toMatchObject({ status: 'in_progress', pause_requested: true });
    expect(pauseWaitsFor(read.state)).toBeNull();
  });

  it('nothing for a workflow no pause applies to: paused, or finished', () => {
    const d = next(byHand('wf-8', 'T1').state);
    pause(d, { ...ask, force: true });
    expect(d.state.status).toBe('paused');
    expect(pauseWaitsFor(d.state)).toBeNull();
  });
});

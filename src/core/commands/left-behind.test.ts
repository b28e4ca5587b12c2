import { describe, expect, it } from 'vitest';
import { Draft } from '../draft.js';
import type { AgentTaskSource } from '../schemas/agent-tasks.js';
import { leftBehind, nextTask } from '../task-graph.js';
import { linkAgentSession } from './agent-session.js';
import { syncAgentTasks, tellLeftOut } from './agent-tasks.js';
import { finishedWork } from './finished-work.js';
import { completeTask, startTask } from './tasks.js';
import { freshWorkflow, tasksOf } from '../../../test/helpers/fresh-workflow.js';

/**
 * The "left from an earlier plan" rule: only the tasks an agent's list made in an earlier Baton session, that a later
 * session's list left out and whose agent was told so, stop holding the work open once nothing else is. Real open work
 * (the user's tasks, this session's) is never handed on as left behind.
 */
let n = 0;
const ctx = { now: '2026-03-01T10:00:00.000Z', newId: (p: string) => `${p}-${++n}`, actor: 'hook' };
const noGit = { state: null, note: null };
const ids = (d: Draft) => leftBehind(d.state.tasks).map((t) => t.id);

/** A workflow made by hand (`baton create`), with these tasks of the user's. */
function byHand(...tasks: string[]): Draft {
  return freshWorkflow(
    { title: 'work by hand', tasks: tasksOf(...tasks.map((id) => ({ id, title: `user task ${id}` }))) },
    ctx,
  );
}

let call = 0;
/** One whole list of the agent's (TodoWrite, update_plan), `tells`: its hook tells it what the list left out. */
function list(d: Draft, source: AgentTaskSource, items: [string, string][], tells = true) {
  const tool = source === 'codex' ? 'update_plan' : 'TodoWrite';
  const input =
    source === 'codex'
      ? { plan: items.map(([step, status]) => ({ step, status })) }
      : { todos: items.map(([content, status]) => ({ content, status, activeForm: content })) };
  return syncAgentTasks(d, source, [{ tool, input, id: `call-${++call}` }], null, tells);
}

/** A workflow made by hand whose session 1 Claude Code planned: T1 done, T2 in progress, T3 to do. */
function earlierPlan(): Draft {
  const d = byHand();
  linkAgentSession(d, { name: 'claude-code', session_id: 's1' });
  list(d, 'claude-code', [
    ['Reproduce the failure', 'completed'],
    ['Fix the failing checks', 'in_progress'],
    ['Push the fix', 'pending'],
  ]);
  return d;
}

describe('leftBehind', () => {
  it("never hands on the user's tasks a sub-step list of the same session leaves out", () => {
    const d = byHand('T1', 'T2');
    startTask(d, 'T1');
    linkAgentSession(d, { name: 'claude-code', session_id: 's1' });
    const told = list(d, 'claude-code', [
      ['Read the client code', 'completed'],
      ['Write the backoff loop', 'completed'],
    ]);
    // the agent is still told of them, as before
    expect(told.untied?.map((t) => t.id)).toEqual(['T1', 'T2']);
    expect(ids(d)).toEqual([]);
    expect(nextTask(d.state.tasks)?.id).toBe('T1');
    // nor does a later session's list that leaves them out make them an earlier plan: the user asked for them
    linkAgentSession(d, { name: 'claude-code', session_id: 's2' });
    list(d, 'claude-code', [['Tidy the logs', 'completed']]);
    expect(ids(d)).toEqual([]);
    expect(nextTask(d.state.tasks)?.id).toBe('T1');
  });

  it("hands on an earlier session's plan that a later session's list left out, its agent told", () => {
    const d = earlierPlan();
    linkAgentSession(d, { name: 'claude-code', session_id: 's2' });
    list(d, 'claude-code', [['Rebase the PR on main', 'completed']]);
    expect(d.state.tasks.find((t) => t.id === 'T2')).toMatchObject({
      planned_in: 1,
      left_out: { by: 'claude-code', told: ['claude-code'], session: 2 },
    });
    expect(ids(d)).toEqual(['T2', 'T3']);
    expect(nextTask(d.state.tasks)).toBeNull();
  });

  it('takes a task started again (baton task start) as work again', () => {
    const d = earlierPlan();
    linkAgentSession(d, { name: 'claude-code', session_id: 's2' });
    list(d, 'claude-code', [['Rebase the PR on main', 'completed']]);
    expect(ids(d)).toEqual(['T2', 'T3']);
    startTask(d, 'T3');
    expect(d.state.tasks.find((t) => t.id === 'T3')?.left_out).toBeUndefined();
    expect(ids(d)).toEqual([]);
    expect(nextTask(d.state.tasks)).not.toBeNull();
    // done or skipped, the mark no longer says anything either
    completeTask(d, 'T2', null, noGit);
    expect(d.state.tasks.find((t) => t.id === 'T2')?.left_out).toBeUndefined();
  });

  it('needs the agent whose list left the task out to have been told, not another', () => {
    const d = earlierPlan();
    linkAgentSession(d, { name: 'claude-code', session_id: 's2' });
    list(d, 'claude-code', [['Rebase the PR on main', 'completed']]);
    expect(ids(d)).toEqual(['T2', 'T3']);
    // session 3: Codex's first plan, read from its transcript (no hook told it), leaves them out too
    linkAgentSession(d, { name: 'codex', session_id: 'c3' });
    list(d, 'codex', [['Bump the version', 'completed']], false);
    expect(d.state.tasks.find((t) => t.id === 'T2')?.left_out).toMatchObject({
      by: 'codex',
      told: ['claude-code'],
    });
    expect(ids(d)).toEqual([]);
    expect(nextTask(d.state.tasks)?.id).toBe('T2');
    // told at its next prompt: handed on
    expect(tellLeftOut(d, 'codex')?.map((t) => t.id)).toEqual(['T2', 'T3']);
    expect(ids(d)).toEqual(['T2', 'T3']);
  });

  it('completes the workflow at the task marked done when only an earlier plan is left, as finished work says', () => {
    const d = earlierPlan();
    linkAgentSession(d, { name: 'claude-code', session_id: 's2' });
    list(d, 'claude-code', [['Rebase the PR on main', 'in_progress']]);
    expect(ids(d)).toEqual([]);
    // `baton task done T4`: only the earlier plan's T2, T3 are open, and no conversation Baton follows holds it
    const r = completeTask(d, 'T4', null, noGit);
    expect(ids(d)).toEqual(['T2', 'T3']);
    expect(r.workflow_status).toBe('completed');
  });

  it('leaves the work of a followed conversation open at the task marked done, until the conversation says so', () => {
    const d = freshWorkflow(
      { title: 'Claude Code session on main', agent: { name: 'claude-code', session_id: 's1' } },
      ctx,
    );
    list(d, 'claude-code', [
      ['Reproduce the failure', 'completed'],
      ['Fix the failing checks', 'pending'],
    ]);
    linkAgentSession(d, { name: 'claude-code', session_id: 's2' });
    list(d, 'claude-code', [['Rebase the PR on main', 'in_progress']]);
    const r = completeTask(d, 'T3', null, noGit);
    expect(r).toMatchObject({ workflow_status: 'in_progress', completes_with_conversation: true });
    expect(finishedWork(d.state, ctx.now)).toBeNull();
  });
});

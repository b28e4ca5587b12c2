import { describe, expect, it } from 'vitest';
import { completeTask, startTask } from './commands/tasks.js';
import { recordSideEffect } from './commands/runtime.js';
import { Draft } from './draft.js';
import { buildResumeReport, renderResumeReport, workflowPhase } from './resume-report.js';
import { buildSnapshot } from './snapshot.js';
import type { WorkflowState } from './schemas/state.js';
import { freshWorkflow } from '../../test/helpers/fresh-workflow.js';

const git = { state: null, note: 'no git' };
let n = 0;
const ctx = { now: '2026-01-01T00:00:00.000Z', newId: (p: string) => `${p}-${++n}`, actor: 'user' };

function workflow(lanes: number[]): WorkflowState {
  const tasks = lanes.map((lane, i) => ({
    id: `${lane ? 'D' : 'B'}${i}`,
    title: `t${i}`,
    description: '',
    deps: [],
    lane,
  }));
  return freshWorkflow({ title: 'T', tasks }, ctx).state;
}

const run = (s: WorkflowState, f: (d: Draft) => unknown, now = ctx.now) => {
  const d = new Draft(s, { ...ctx, now });
  f(d);
  return d.state;
};

describe('the resume report', () => {
  it('maps lanes to bootstrap/development and the state to the protocol phases', () => {
    let s = workflow([0, 1]);
    expect(workflowPhase(s)).toBe('phase_3_dev_approved');
    s = run(s, (d) => startTask(d, 'B0'));
    expect(workflowPhase(s)).toBe('phase_4_execution');
    s = run(s, (d) => completeTask(d, 'B0', null, git));
    expect(workflowPhase(s)).toBe('phase_4_bootstrap_complete');
    const r = buildResumeReport(s);
    expect(r).toMatchObject({
      workflow_mode: 'unified',
      lanes: [
        { name: 'bootstrap', done: 1, total: 1 },
        { name: 'development', done: 0, total: 1 },
      ],
      last_completed: { task_id: 'B0' },
      dependency_check: null,
      next_action: 'bootstrap tasks done: continue with development task D1 - t1',
    });
    expect(renderResumeReport(r)).toMatch(
      /- Phase: set-up lane done, the next lane not started \(status [a-z_]+\)\n- Lanes: 2, each finished before the next starts\n- Set-up tasks \(first lane\): 1\/1 complete\n- Development tasks: 0\/1 complete/,
    );
    s = run(s, (d) => startTask(d, 'D1'));
    s = run(s, (d) => completeTask(d, 'D1', null, git));
    expect(workflowPhase(s)).toBe('complete'); // the last task done completes the workflow
  });

  it('calls a single-lane workflow development-only', () => {
    const r = buildResumeReport(workflow([0, 0]));
    expect(r.workflow_mode).toBe('development-only');
    expect(r.lanes).toEqual([{ lane: 0, name: 'development', done: 0, total: 2 }]);
    expect(r.next_action).toBe('start B0 - t0');
  });

  it('says of the task in progress the commit made since it started: it may be done, the list not saying so', () => {
    let s = run(workflow([0, 0]), (d) => startTask(d, 'B0'));
    expect(buildResumeReport(s).next_action).toBe('continue B0 - t0 (in progress)');
    const commit = { task_id: null, kind: 'commit' as const, tool: 'Bash', summary: '4f6f15f0c2d9 divide' };
    s = run(s, (d) => recordSideEffect(d, commit, '2026-01-01T00:01:00.000Z'));
    expect(buildResumeReport(s).next_action).toBe(
      'continue B0 - t0 (in progress; a commit was made since it started: 4f6f15f divide; check whether it is done)',
    );
  });
});

describe('the resume report and the snapshot of a workflow with two tasks in progress', () => {
  it('go on from the one started last: the one before was left in progress by a conversation that moved on', () => {
    let s = run(workflow([0, 0, 0]), (d) => startTask(d, 'B0'), '2026-01-01T10:00:00.000Z');
    s = run(s, (d) => startTask(d, 'B1'), '2026-01-01T11:00:00.000Z');
    expect(buildResumeReport(s).next_action).toBe('continue B1 - t1 (in progress)');
    const snap = buildSnapshot(s, {
      id: 'snap-1',
      trigger: 'manual',
      reason: null,
      git,
      now: '2026-01-01T12:00:00.000Z',
    });
    expect([snap.current_task_id, snap.next_task_id]).toEqual(['B1', 'B1']);
  });
});

describe('the resume report of a workflow without tasks', () => {
  it('sends the next session to the requests and the last state, not to failed tasks that do not exist', () => {
    const r = buildResumeReport(workflow([]));
    expect(r.next_action).toBe(
      "no task is recorded: go on from the user's latest request and the last state (the resume context)",
    );
    const text = renderResumeReport(r);
    expect(text).toContain('- Phase: no task recorded (status ');
    expect(text).not.toMatch(/failed tasks|no task has begun/);
  });
});

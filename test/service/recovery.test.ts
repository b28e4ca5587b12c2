import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService, sqliteStore, TestClock } from '../helpers/service.js';

const tasks = [
  { id: 'T1', title: 'Architecture' },
  { id: 'T2', title: 'Implementation', deps: ['T1'] },
  { id: 'T3', title: 'Tests', deps: ['T2'] },
];

async function interrupted() {
  const clock = new TestClock();
  const svc = makeService(sqliteStore(), { now: clock.now });
  const wf = await svc.create({ title: 'recover me', tasks, worktree: makeRepo() });
  const ref = { workflowId: wf.id };
  await svc.completeTask(ref, 'T1', 'designed');
  await svc.startTask(ref, 'T2');
  for (let i = 0; i < 3; i++)
    await svc.record(ref, { kind: 'history', text: `edit ${i}`, task_id: 'T2', source: null });
  clock.advance(45_000);
  await svc.interrupt(ref, 'heartbeat lost');
  return { svc, ref, clock, id: wf.id };
}

describe('recovery of an interrupted workflow (Go Team options)', () => {
  it('lists checkpoint, live state and fresh start with what each loses and costs', async () => {
    const { svc, ref, clock } = await interrupted();
    clock.advance(10_000);
    const plan = await svc.queries.recoveryOptions(await svc.resolve(ref));
    // Data loss is counted in actions and work, never in wall time: an hour later the options say the same.
    clock.advance(3_600_000);
    expect(await svc.queries.recoveryOptions(await svc.resolve(ref))).toEqual(plan);
    expect(plan).toMatchObject({
      status: 'interrupted',
      interrupt_reason: 'heartbeat lost',
      recommended: 'checkpoint',
    });
    expect(plan.last_known_state.task).toBe('T2');
    const [cp, live, fresh] = plan.options;
    expect(cp).toMatchObject({ type: 'checkpoint', target: 'cp-01-architecture' });
    expect(cp!.actions_since).toBeGreaterThanOrEqual(5);
    expect(live).toMatchObject({ type: 'live_state', actions_since: 0 });
    expect(live!.data_loss).toMatch(/^0 actions/);
    expect(fresh).toMatchObject({ type: 'fresh' });
    for (const o of plan.options) {
      expect(o.context_tokens).toBeGreaterThan(50);
      expect(o.estimated_cost_usd).toBeCloseTo((o.context_tokens! * 3) / 1e6, 6);
    }
  });

  it('restores the task state of a checkpoint and resumes in a new session', async () => {
    const { svc, ref } = await interrupted();
    const r = await svc.recover(ref, 'checkpoint', 'architecture');
    expect(r).toMatchObject({ status: 'in_progress', session_number: 2, next_task: { id: 'T2' } });
    const s = await svc.resolve(ref);
    expect(s.tasks.map((t) => t.status)).toEqual(['done', 'pending', 'pending']);
    expect(r.context).toContain('[x] T1 Architecture');
  });

  it('keeps the live state, or starts fresh', async () => {
    const a = await interrupted();
    await a.svc.recover(a.ref, 'live_state', null);
    expect((await a.svc.resolve(a.ref)).tasks.map((t) => t.status)).toEqual([
      'done',
      'in_progress',
      'pending',
    ]);
    const b = await interrupted();
    const r = await b.svc.recover(b.ref, 'fresh', null);
    expect((await b.svc.resolve(b.ref)).tasks.map((t) => t.status)).toEqual([
      'pending',
      'pending',
      'pending',
    ]);
    expect(r.next_task).toEqual({ id: 'T1', title: 'Architecture' });
  });

  it('names the checkpoints it has when asked for one it has not', async () => {
    const { svc, ref } = await interrupted();
    await expect(svc.recover(ref, 'checkpoint', 'nope')).rejects.toThrow(
      /no checkpoint nope .*have: cp-01-architecture/,
    );
  });
});

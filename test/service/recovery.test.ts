import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../helpers/git-repo.js';
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
    // the worktree is as the crash snapshot saw it: the live state, which loses nothing, is the one recommended
    expect(plan).toMatchObject({
      status: 'interrupted',
      interrupt_reason: 'heartbeat lost',
      recommended: 'live_state',
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

  it('recommends the checkpoint once the worktree differs from what the workflow last saw, when going back sets nothing aside', async () => {
    const { svc, ref } = await interrupted();
    const s = await svc.resolve(ref);
    // another branch checked out since: back to the checkpoint checks main out again, and no commit leaves it
    gitIn(s.worktree, 'checkout', '-qb', 'elsewhere');
    const plan = await svc.recoveryOptions(ref);
    expect(plan.options[0]!.changes?.git).toMatchObject({ commits_count: 0, dirty_files: [] });
    expect(plan.recommended).toBe('checkpoint');
  });

  it('recommends the live state over a checkpoint that would move a commit off the branch; says what it moves', async () => {
    const { svc, ref } = await interrupted();
    const s = await svc.resolve(ref);
    const before = (await svc.recoveryOptions(ref)).options[0]!;
    // the checkpoint's commit is HEAD still: nothing leaves the branch, and the option says so
    expect(before.description).toMatch(
      /^Resume from the last checkpoint cp-01-architecture: .*; main stays at [0-9a-f]{7}$/,
    );
    writeFileSync(join(s.worktree, 'later.txt'), 'later\n');
    gitIn(s.worktree, 'add', 'later.txt');
    gitIn(s.worktree, 'commit', '-qm', 'a commit after the stop');
    const plan = await svc.recoveryOptions(ref);
    // going on from the live state keeps that commit where it is: it loses nothing
    expect(plan.recommended).toBe('live_state');
    const cp = plan.options[0]!;
    expect(cp.description).not.toContain('safe');
    expect(cp.description).toMatch(
      /; moves main back to [0-9a-f]{7}: 1 commit leaves the branch \(kept on a backup ref\)$/,
    );
    expect(cp.changes?.git).toMatchObject({ moves_branch: true, commits_count: 1 });
  });

  it('restores the task state of a checkpoint and resumes in a new session', async () => {
    const { svc, ref } = await interrupted();
    const r = await svc.recover(ref, 'checkpoint', 'architecture');
    expect(r).toMatchObject({ status: 'in_progress', session_number: 2, next_task: { id: 'T2' } });
    const s = await svc.resolve(ref);
    expect(s.tasks.map((t) => t.status)).toEqual(['done', 'pending', 'pending']);
    expect(r.context).toContain('[x] T1 Architecture');
  });

  it("back at a checkpoint, the briefing says the agent's last word and commits after it are undone", async () => {
    const clock = new TestClock();
    const svc = makeService(sqliteStore(), { now: clock.now });
    const wf = await svc.create({ title: 'recover me', tasks, worktree: makeRepo() });
    const ref = { workflowId: wf.id };
    await svc.completeTask(ref, 'T1', 'designed');
    clock.advance(60_000);
    await svc.startTask(ref, 'T2');
    const at = () => new Date(clock.now()).toISOString();
    await svc.record(ref, {
      kind: 'side_effect',
      at: at(),
      effect: { task_id: 'T2', kind: 'commit', tool: 'Bash', summary: '53b931c late: T2 part 1' },
    });
    await svc.record(ref, {
      kind: 'summary',
      summary: {
        kind: 'last_message',
        text: 'committed part 1 53b931c; now editing work.txt',
        source: 'test',
      },
      at: at(),
    });
    clock.advance(45_000);
    await svc.interrupt(ref, 'heartbeat lost');
    // before: the commit is done, and the agent's last word leads
    expect((await svc.queries.context(await svc.resolve(ref))).markdown).toContain('late: T2 part 1');
    const r = await svc.recover(ref, 'checkpoint', 'architecture');
    expect(r.context).toMatch(
      /### Last State \(the agent's last message, \S+; then `baton recover` went back to checkpoint cp-01-architecture\)/,
    );
    expect(r.context).toContain(
      `\`baton recover\` went back to checkpoint cp-01-architecture after the agent's last message (Last State): the work it tells of after that checkpoint is undone (its commits are kept on refs/baton/backup/${wf.id}/...); continue from task "T2: Implementation".`,
    );
    expect(r.context).not.toContain('late: T2 part 1');
    // the live state changes nothing of it
    const live = await interrupted();
    await live.svc.record(live.ref, {
      kind: 'summary',
      summary: { kind: 'last_message', text: 'still editing', source: 'test' },
      at: new Date(live.clock.now()).toISOString(),
    });
    expect((await live.svc.recover(live.ref, 'live_state', null)).context).not.toContain('went back');
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

describe('recovery of a workflow that is not stopped', () => {
  async function running() {
    const svc = makeService(sqliteStore());
    const wf = await svc.create({ title: 'still running', tasks, worktree: makeRepo() });
    const ref = { workflowId: wf.id };
    await svc.completeTask(ref, 'T1', 'designed');
    await svc.startTask(ref, 'T2');
    return { svc, ref, id: wf.id };
  }

  it('says why no option can be chosen and what makes one choosable; recover refuses with the same words', async () => {
    const { svc, ref, id } = await running();
    const plan = await svc.recoveryOptions(ref);
    expect(plan).toMatchObject({
      status: 'in_progress',
      recoverable: false,
      // T2 is under way: a plain pause would only be requested, so the command pauses now
      refusal: { command: `baton pause --force -w ${id}` },
    });
    expect(plan.refusal!.reason).toMatch(/^it is not stopped, so there is nothing to recover/);
    // a conversation cut off has no next prompt: a new one here goes on too
    expect(plan.refusal!.reason).toContain(
      "its next session (the agent's next prompt or new conversation here with the hooks, or `baton run`)",
    );
    // what recovery would offer once it is paused is still listed
    expect(plan.options.map((o) => o.type)).toEqual(['checkpoint', 'live_state', 'fresh']);
    for (const option of ['checkpoint', 'live_state', 'fresh'] as const) {
      const e = await svc.recover(ref, option, 'architecture').catch((x: unknown) => x);
      expect(e, option).toMatchObject({
        code: 'invalid_transition',
        details: { current_status: 'in_progress', command: `baton pause --force -w ${id}` },
      });
      expect((e as Error).message).toBe(
        `cannot recover ${id} (in_progress): ${plan.refusal!.reason}: \`baton pause --force -w ${id}\``,
      );
    }
    await expect(svc.restoreCheckpoint(ref, null, { confirm: true })).rejects.toThrow(
      `cannot recover ${id} (in_progress): ${plan.refusal!.reason}`,
    );
    // the command it names makes the workflow recoverable
    await svc.pause(ref, { force: true });
    expect(await svc.recoveryOptions(ref)).toMatchObject({
      status: 'paused',
      recoverable: true,
      refusal: null,
    });
    expect((await svc.recover(ref, 'checkpoint', 'architecture')).status).toBe('in_progress');
  });

  it('names a plain pause when no task is under way, and no command where none helps', async () => {
    const { svc, ref, id } = await running();
    await svc.completeTask(ref, 'T2', 'built');
    expect((await svc.recoveryOptions(ref)).refusal?.command).toBe(`baton pause -w ${id}`);
    await svc.pause(ref); // with no task under way, a plain pause pauses at once
    expect((await svc.recoveryOptions(ref)).recoverable).toBe(true);
    const fresh = await svc.create({ title: 'not started', tasks, worktree: makeRepo() });
    expect((await svc.recoveryOptions({ workflowId: fresh.id })).refusal).toEqual({
      reason: expect.stringMatching(/^it has not started, so there is nothing to recover/),
      command: null,
    });
    await svc.abandon(ref);
    expect((await svc.recoveryOptions(ref)).refusal).toEqual({
      reason: expect.stringMatching(/^it is finished for good/),
      command: null,
    });
    await expect(svc.recover(ref, 'fresh', null)).rejects.toThrow(`cannot recover ${id} (cancelled)`);
  });
});

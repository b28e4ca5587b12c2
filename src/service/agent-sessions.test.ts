import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../test/helpers/git-repo.js';
import { makeService, sqliteStore, TestClock } from '../../test/helpers/service.js';
import type { Store } from '../storage/store.js';
import { abandon, markImported } from '../core/index.js';

/** The same database as `store`, seen by another process whose first look at the worktree found nothing. */
function lateLooker(store: Store): Store {
  const other = sqliteStore(store.location);
  let looked = false;
  return new Proxy(other, {
    get(target, key, receiver) {
      if (key === 'listWorkflows' && !looked) {
        looked = true;
        return async () => [];
      }
      const v: unknown = Reflect.get(target, key, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

describe('two hooks that create a workflow for one worktree at once', () => {
  it('keep the one whose creation committed first, even when the other was stamped earlier', async () => {
    const repo = realpathSync(makeRepo());
    const store = sqliteStore();
    const first = makeService(store, { now: new TestClock(Date.parse('2026-01-01T00:00:10Z')).now });
    // the second hook looked before the first one committed, and its clock is a second behind
    const second = makeService(lateLooker(store), {
      now: new TestClock(Date.parse('2026-01-01T00:00:09Z')).now,
    });
    const input = (session: string) => ({
      cwd: repo,
      agent: { name: 'claude-code', session_id: session },
      auto_track: true,
      resume: false,
    });
    const a = await first.agentSessions.track(input('s-1'));
    const b = await second.agentSessions.track(input('s-2'));
    expect(a.outcome).toBe('created');
    expect(b.workflow_id).toBe(a.workflow_id);
    const open = (await store.listWorkflows({ worktree: repo })).filter((w) => w.status !== 'cancelled');
    expect(open.map((w) => w.id)).toEqual([a.workflow_id]);
  });
});

describe('a session whose folder moves', () => {
  it('stays with the workflow it started in, in another repository or outside any', async () => {
    const repo = realpathSync(makeRepo());
    const other = realpathSync(makeRepo());
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'baton-nogit-')));
    const store = sqliteStore();
    const svc = makeService(store);
    const at = (cwd: string, session: string) =>
      svc.agentSessions.track({
        cwd,
        agent: { name: 'claude-code', session_id: session },
        auto_track: true,
        resume: false,
      });
    const started = await at(repo, 'moving');
    expect(started.outcome).toBe('created');
    const inOther = await at(other, 'moving');
    expect(inOther.workflow_id).toBe(started.workflow_id);
    expect(inOther.note).toContain(`its folder is now ${other}`);
    expect((await at(outside, 'moving')).workflow_id).toBe(started.workflow_id);
    expect(await store.listWorkflows({ worktree: other })).toEqual([]);
    // another session in the other repository gets that repository's own workflow
    const fresh = await at(other, 'someone-else');
    expect(fresh.outcome).toBe('created');
    expect(fresh.workflow_id).not.toBe(started.workflow_id);
  });
});

describe('two new conversations that start at once after finished work', () => {
  it('complete the finished workflow once and share one new workflow', async () => {
    const repo = realpathSync(makeRepo());
    const store = sqliteStore();
    const svc = makeService(store);
    const agent = (session_id: string) => ({ name: 'claude-code', session_id });
    const input = { cwd: repo, auto_track: true, resume: false };
    const first = await svc.agentSessions.track({ ...input, agent: agent('s-1') });
    const id = first.workflow_id ?? '';
    const todos = [{ content: 'write the parser', activeForm: 'writing', status: 'completed' }];
    await svc.syncAgentTasks({ workflowId: id }, 'claude-code', [
      { tool: 'TodoWrite', input: { todos }, id: 't-1' },
    ]);
    expect(await svc.agentSessions.end(id, { agent: agent('s-1'), reason: 'logout' })).toEqual({
      ended: true,
      session_number: 1,
    });
    // two terminals: a second service on the same database, each starting a new conversation
    const other = makeService(sqliteStore(store.location));
    const start = (s: typeof svc, session: string) =>
      s.agentSessions.start({
        ...input,
        agent: agent(session),
        resume: true,
        max_chars: 4000,
        reason: 'startup',
        fresh_start: true,
      });
    const [a, b] = await Promise.all([start(svc, 's-2'), start(other, 's-3')]);
    expect([a.finished, b.finished].filter(Boolean)).toEqual([
      {
        workflow_id: id,
        title: 'Claude Code session on main',
        reason: expect.stringContaining('its task is done'),
      },
    ]);
    expect(a.workflow_id).toBe(b.workflow_id);
    expect(a.workflow_id).not.toBe(id);
    const all = await store.listWorkflows({ worktree: repo });
    expect(all.find((w) => w.id === id)?.status).toBe('completed');
    const open = all.filter((w) => w.status === 'in_progress');
    expect(open.map((w) => w.id)).toEqual([a.workflow_id]);
  });
});

describe('a new Codex conversation after finished work (Codex has no SessionEnd)', () => {
  it('continues the workflow within half an hour of its last event, and starts a new one after', async () => {
    const repo = realpathSync(makeRepo());
    const clock = new TestClock();
    const svc = makeService(sqliteStore(), { now: clock.now });
    const agent = (session_id: string) => ({ name: 'codex', session_id });
    const input = { cwd: repo, auto_track: true, resume: false };
    const first = await svc.agentSessions.track({ ...input, agent: agent('c-1') });
    const id = first.workflow_id ?? '';
    const plan = [{ step: 'add the flag', status: 'completed' }];
    await svc.syncAgentTasks({ workflowId: id }, 'codex', [
      { tool: 'update_plan', input: { plan }, id: 'p-1' },
    ]);
    const start = (session: string) =>
      svc.agentSessions.start({
        ...input,
        agent: agent(session),
        resume: true,
        max_chars: 4000,
        reason: 'startup',
        fresh_start: true,
      });
    clock.advance(10 * 60_000);
    expect(await start('c-2')).toMatchObject({ workflow_id: id, finished: null });
    clock.advance(45 * 60_000);
    const after = await start('c-3');
    expect(after.workflow_id).not.toBe(id);
    expect(after.finished).toEqual({
      workflow_id: id,
      title: 'Codex session on main',
      reason: 'its task is done and nothing happened in it for 45 min',
    });
  });
});

describe('an old conversation resumed after its workflow was completed', () => {
  it("gets a workflow of its own instead of joining the new conversation's", async () => {
    const repo = realpathSync(makeRepo());
    const svc = makeService(sqliteStore());
    const agent = (session_id: string) => ({ name: 'claude-code', session_id });
    const input = { cwd: repo, auto_track: true, resume: false };
    const w1 = (await svc.agentSessions.track({ ...input, agent: agent('old') })).workflow_id ?? '';
    // its transcript was imported through line 12 (byte 3456)
    const mark = { format: 'claude-code', path: '/t/old.jsonl', through_line: 12, through_byte: 3456 };
    await svc.runner.run(w1, (d) => markImported(d, { ...mark, transcript_session_id: 'old', records: 3 }));
    const todos = [{ content: 'write the parser', activeForm: 'writing', status: 'completed' }];
    await svc.syncAgentTasks({ workflowId: w1 }, 'claude-code', [
      { tool: 'TodoWrite', input: { todos }, id: 't-1' },
    ]);
    await svc.agentSessions.end(w1, { agent: agent('old'), reason: 'prompt_input_exit' });
    const start = (session: string, fresh: boolean) =>
      svc.agentSessions.start({
        ...input,
        agent: agent(session),
        resume: true,
        max_chars: 4000,
        reason: fresh ? 'startup' : 'resume',
        fresh_start: fresh,
      });
    const w2 = await start('new', true);
    expect(w2.finished?.workflow_id).toBe(w1);
    // `claude --resume old`: its workflow is completed; it does not join the new conversation's
    const resumed = await start('old', false);
    expect(resumed.workflow_id).not.toBe(w1);
    expect(resumed.workflow_id).not.toBe(w2.workflow_id);
    expect(resumed.note).toContain(`its workflow ${w1} is completed`);
    // each conversation's hooks keep to their own workflow
    expect((await svc.agentSessions.track({ ...input, agent: agent('new') })).workflow_id).toBe(
      w2.workflow_id,
    );
    expect((await svc.agentSessions.track({ ...input, agent: agent('old') })).workflow_id).toBe(
      resumed.workflow_id,
    );
    // its transcript goes on from where the completed workflow's import stopped
    const marks = async (id: string) => (await svc.runner.load(id)).imports;
    expect((await marks(resumed.workflow_id ?? ''))['old']).toEqual(mark);
  });
});

describe('a SessionEnd (track with link: false)', () => {
  it('ties and starts nothing: another terminal, a second SessionEnd, a workflow completed meanwhile', async () => {
    const repo = realpathSync(makeRepo());
    const svc = makeService(sqliteStore());
    const agent = (session_id: string) => ({ name: 'claude-code', session_id });
    const input = { cwd: repo, auto_track: true, resume: false };
    const w = (await svc.agentSessions.track({ ...input, agent: agent('a') })).workflow_id ?? '';
    await svc.agentSessions.track({ ...input, agent: agent('b') }); // b's terminal is the current session now
    const sessionEnd = async (session: string) => {
      const t = await svc.agentSessions.track({ ...input, agent: agent(session), link: false });
      const ended = t.workflow_id
        ? await svc.agentSessions.end(t.workflow_id, { agent: agent(session), reason: 'logout' })
        : null;
      return { t, ended };
    };
    const before = (await svc.runner.load(w)).version;
    // a quits while b works: a's session ended when b's began; nothing is written
    expect(await sessionEnd('a')).toMatchObject({ t: { workflow_id: w }, ended: { ended: false } });
    expect((await svc.runner.load(w)).version).toBe(before);
    // b quits, twice (hooks wired twice): one end, no phantom session
    expect((await sessionEnd('b')).ended).toEqual({ ended: true, session_number: 2 });
    expect((await sessionEnd('b')).ended).toEqual({ ended: false, session_number: null });
    expect((await svc.runner.load(w)).session_count).toBe(2);
    // a workflow completed meanwhile: a late SessionEnd finds nothing to follow and writes nowhere
    await svc.runner.run(w, (d) => abandon(d, 'done by hand'));
    const todos = [{ content: 'x', activeForm: 'x', status: 'completed' }];
    const w2 = (await svc.agentSessions.track({ ...input, agent: agent('c') })).workflow_id ?? '';
    await svc.syncAgentTasks({ workflowId: w2 }, 'claude-code', [
      { tool: 'TodoWrite', input: { todos }, id: 't' },
    ]);
    await svc.agentSessions.end(w2, { agent: agent('c'), reason: 'logout' });
    const started = await svc.agentSessions.start({
      ...input,
      agent: agent('d'),
      resume: true,
      max_chars: 4000,
      reason: 'startup',
      fresh_start: true,
    });
    expect(started.finished?.workflow_id).toBe(w2);
    const late = await sessionEnd('c');
    expect(late.t.workflow_id).toBeNull();
    expect(late.t.note).toBe(`workflow ${w2}, which this session followed, is completed`);
    expect((await svc.runner.load(started.workflow_id ?? '')).session_count).toBe(1);
  });
});

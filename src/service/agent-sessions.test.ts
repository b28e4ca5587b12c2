import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../test/helpers/git-repo.js';
import { makeService, sqliteStore, TestClock } from '../../test/helpers/service.js';
import type { Store } from '../storage/store.js';
import { abandon, markImported, RECENT_LIMIT, transcriptKey } from '../core/index.js';
import { liveSnapshotId } from './queries.js';
import type { BatonService } from './baton-service.js';

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

const claude = (session_id: string) => ({ name: 'claude-code', session_id });
const hooked = (cwd: string) => ({ cwd, auto_track: true, resume: false });

/** A session start: a new conversation (source `startup`) or, with `fresh` false, a resumed one. */
const startOf = (svc: BatonService, cwd: string, agent: { name: string; session_id: string }, fresh = true) =>
  svc.agentSessions.start({
    ...hooked(cwd),
    agent,
    resume: true,
    max_chars: 4000,
    reason: fresh ? 'startup' : 'resume',
    fresh_start: fresh,
  });

/** A workflow a hook made for Claude Code's `session`, its task list all done and the session ended (SessionEnd). */
async function finishedBy(svc: BatonService, cwd: string, session: string): Promise<string> {
  const id = (await svc.agentSessions.track({ ...hooked(cwd), agent: claude(session) })).workflow_id ?? '';
  const todos = [{ content: 'write the parser', activeForm: 'writing', status: 'completed' }];
  await svc.syncAgentTasks({ workflowId: id }, 'claude-code', [
    { tool: 'TodoWrite', input: { todos }, id: `t-${session}` },
  ]);
  expect(
    await svc.agentSessions.end(id, { agent: claude(session), reason: 'prompt_input_exit' }),
  ).toMatchObject({
    ended: true,
  });
  return id;
}

describe('two new conversations that start at once after finished work', () => {
  it('complete the finished workflow once and share one new workflow', async () => {
    const repo = realpathSync(makeRepo());
    const store = sqliteStore();
    const svc = makeService(store);
    const id = await finishedBy(svc, repo, 's-1');
    // two terminals: a second service on the same database, each starting a new conversation
    const other = makeService(sqliteStore(store.location));
    const [a, b] = await Promise.all([
      startOf(svc, repo, claude('s-2')),
      startOf(other, repo, claude('s-3')),
    ]);
    expect([a.finished, b.finished].filter(Boolean)).toEqual([
      {
        workflow_id: id,
        title: 'Claude Code session on main',
        reason: expect.stringContaining('its task is done'),
        context: expect.stringContaining('[x] T1 write the parser'),
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

describe('a new conversation after a quick job done without a task list', () => {
  it('completes the workflow once its request was answered and the session ended, and shows what it did', async () => {
    const repo = realpathSync(makeRepo());
    const store = sqliteStore();
    const svc = makeService(store);
    const id = (await svc.agentSessions.track({ ...hooked(repo), agent: claude('q-1') })).workflow_id ?? '';
    const ref = { workflowId: id };
    await svc.record(ref, { kind: 'request', text: 'rename foo to bar', source: 'claude-code:hook' });
    await svc.record(ref, {
      kind: 'summary',
      summary: {
        kind: 'last_message',
        text: 'Renamed foo to bar and committed it.',
        source: 'claude-code',
        turn_ended: true,
      },
    });
    // its SessionEnd, as the hook answers it: the end of the turn, then of the session
    await svc.agentSessions.endTurn(id, { agent: 'claude-code' });
    await svc.agentSessions.end(id, { agent: claude('q-1'), reason: 'prompt_input_exit' });
    const next = await startOf(svc, repo, claude('q-2'));
    expect(next.workflow_id).not.toBe(id);
    expect(next.finished).toEqual({
      workflow_id: id,
      title: 'rename foo to bar',
      reason: "the user's last request was answered and Claude Code session q-1 ended (the user quit)",
      context: expect.stringContaining('rename foo to bar'),
    });
    expect((await store.listWorkflows({ worktree: repo })).find((w) => w.id === id)?.status).toBe(
      'completed',
    );
    // shown inside another workflow's briefing, its own "More: baton details live-N" line (which names no workflow)
    // is left out: the briefing names the finished workflow's id
    expect(next.finished?.context).not.toContain('More:');
    // nor its next step: it is not to be continued; it is headed as what it is, a finished workflow's recap
    expect(next.finished?.context).not.toContain('What to Do Next');
    expect(next.finished?.context).toMatch(
      /^## Recap of a Finished Workflow \(completed, after 1 session\)\n/,
    );
    expect(next.finished?.context).toContain('### Git State');
    // the new workflow links it, so every surface that asks for its context (MCP get_resume_context, `baton context`)
    // points at the finished work, not only the start's briefing
    const fresh = await svc.resolve({ workflowId: next.workflow_id ?? '' });
    expect(fresh.earlier).toEqual({ workflow_id: id, title: 'rename foo to bar', new_conversation: true });
    const context = await svc.queries.context(fresh);
    expect(context.markdown).toContain(
      `Earlier work here, over before the conversation this workflow follows began: workflow ${id} "rename foo to bar", completed`,
    );
  });
});

describe('a new Codex conversation after finished work (a Codex older than its SessionEnd sends none)', () => {
  it('continues the workflow within half an hour of its last event, and starts a new one after', async () => {
    const repo = realpathSync(makeRepo());
    const clock = new TestClock();
    const svc = makeService(sqliteStore(), { now: clock.now });
    const codex = (session_id: string) => ({ name: 'codex', session_id });
    const id = (await svc.agentSessions.track({ ...hooked(repo), agent: codex('c-1') })).workflow_id ?? '';
    const plan = [{ step: 'add the flag', status: 'completed' }];
    await svc.syncAgentTasks({ workflowId: id }, 'codex', [
      { tool: 'update_plan', input: { plan }, id: 'p-1' },
    ]);
    clock.advance(10 * 60_000);
    expect(await startOf(svc, repo, codex('c-2'))).toMatchObject({ workflow_id: id, finished: null });
    clock.advance(45 * 60_000);
    const after = await startOf(svc, repo, codex('c-3'));
    expect(after.workflow_id).not.toBe(id);
    expect(after.finished).toEqual({
      workflow_id: id,
      title: 'Codex session on main',
      reason: 'its task is done and nothing happened in it for 45 min',
      context: expect.stringContaining('[x] T1 add the flag'),
    });
  });
});

describe('an old conversation resumed after its workflow was completed', () => {
  it("gets a workflow of its own instead of joining the new conversation's", async () => {
    const repo = realpathSync(makeRepo());
    const svc = makeService(sqliteStore());
    const w1 = await finishedBy(svc, repo, 'old');
    // its transcript was imported through line 12 (byte 3456), keyed as an import keys it; then a sub-agent's, and
    // more transcripts than the state keeps the recent marks of (another conversation's among them)
    const mark = { format: 'claude-code', path: '/t/old.jsonl', through_line: 12, through_byte: 3456 };
    const sub = { format: 'claude-code', path: '/t/old/subagents/agent-a1.jsonl', through_line: 4 };
    await svc.runner.run(w1, (d) => {
      markImported(d, { ...mark, transcript_session_id: transcriptKey('old', 'old.jsonl'), records: 3 });
      markImported(d, { ...sub, transcript_session_id: transcriptKey('old', 'agent-a1.jsonl'), records: 1 });
      for (let i = 0; i < RECENT_LIMIT; i++)
        markImported(d, {
          format: 'claude-code',
          path: `/t/other-${i}.jsonl`,
          through_line: 1,
          transcript_session_id: transcriptKey('other', `other-${i}.jsonl`),
          records: 1,
        });
    });
    const w2 = await startOf(svc, repo, claude('new'));
    expect(w2.finished?.workflow_id).toBe(w1);
    // `claude --resume old`: its workflow is completed; it does not join the new conversation's
    const resumed = await startOf(svc, repo, claude('old'), false);
    expect(resumed.workflow_id).not.toBe(w1);
    expect(resumed.workflow_id).not.toBe(w2.workflow_id);
    expect(resumed.note).toContain(`its workflow ${w1} is completed`);
    expect((await svc.runner.load(resumed.workflow_id ?? '')).earlier).toEqual({
      workflow_id: w1,
      title: (await svc.runner.load(w1)).title,
    });
    // each conversation's hooks keep to their own workflow
    const followed = async (session: string) =>
      (await svc.agentSessions.track({ ...hooked(repo), agent: claude(session) })).workflow_id;
    expect(await followed('new')).toBe(w2.workflow_id);
    expect(await followed('old')).toBe(resumed.workflow_id);
    // its transcripts go on from where the completed workflow's imports stopped; the others' are not its own
    expect((await svc.runner.load(resumed.workflow_id ?? '')).imports).toEqual({
      [transcriptKey('old', 'old.jsonl')]: { ...mark, read_at: expect.any(String) },
      [transcriptKey('old', 'agent-a1.jsonl')]: { ...sub, read_at: expect.any(String) },
    });
  });
});

describe('a conversation opened and left without asking anything', () => {
  it('leaves a workflow that a command without an id passes over, dropped once its session is over', async () => {
    const repo = realpathSync(makeRepo());
    const store = sqliteStore();
    const svc = makeService(store);
    const w1 = await finishedBy(svc, repo, 'old');
    // a new conversation opens (its workflow holds nothing yet) and the old one is resumed, getting its own
    const opened = await startOf(svc, repo, claude('opened'));
    expect(opened.finished?.workflow_id).toBe(w1);
    const resumed = await startOf(svc, repo, claude('old'), false);
    expect(resumed.workflow_id).not.toBe(opened.workflow_id);
    await svc.record(
      { workflowId: resumed.workflow_id ?? '' },
      { kind: 'request', text: 'address the review comments', source: 'claude-code:hook' },
    );
    // two incomplete workflows, one of them holding nothing: the other is the one meant
    expect((await svc.resolve({ cwd: repo })).id).toBe(resumed.workflow_id);
    // while the opened conversation may go on (no end seen), its workflow stays
    expect((await svc.runner.load(opened.workflow_id ?? '')).status).toBe('in_progress');
    // the opened conversation quits without a word; the next session start here drops its workflow
    await svc.agentSessions.end(opened.workflow_id ?? '', {
      agent: claude('opened'),
      reason: 'prompt_input_exit',
    });
    expect((await startOf(svc, repo, claude('old'), false)).workflow_id).toBe(resumed.workflow_id);
    const left = await svc.runner.load(opened.workflow_id ?? '');
    expect(left.status).toBe('cancelled');
    const open = (await store.listWorkflows({ worktree: repo })).filter((w) => w.status === 'in_progress');
    expect(open.map((w) => w.id)).toEqual([resumed.workflow_id]);
  });

  it('is never one made with `baton create`: an empty workflow of a person is theirs', async () => {
    const repo = realpathSync(makeRepo());
    const svc = makeService(sqliteStore());
    const made = await svc.create({ title: 'Plan the release', tasks: [], worktree: repo });
    // a conversation opened and quit on it without a word
    const opened = await startOf(svc, repo, claude('first'));
    expect(opened.workflow_id).toBe(made.id);
    await svc.agentSessions.end(made.id, { agent: claude('first'), reason: 'prompt_input_exit' });
    // another workflow here: the next session start would drop an unused one the hooks made, not this one
    await svc.create({ title: 'Write the changelog', tasks: [], worktree: repo });
    await startOf(svc, repo, claude('second'));
    expect((await svc.runner.load(made.id)).status).toBe('in_progress');
  });

  it('is taken up by the next conversation when it is the only workflow here', async () => {
    const repo = realpathSync(makeRepo());
    const svc = makeService(sqliteStore());
    const opened = await startOf(svc, repo, claude('first'));
    await svc.agentSessions.end(opened.workflow_id ?? '', {
      agent: claude('first'),
      reason: 'prompt_input_exit',
    });
    const next = await startOf(svc, repo, claude('second'));
    expect(next.workflow_id).toBe(opened.workflow_id);
    expect((await svc.runner.load(next.workflow_id ?? '')).status).toBe('in_progress');
  });
});

describe('a SessionEnd (track with link: false)', () => {
  it('ties and starts nothing: another terminal, a second SessionEnd, a workflow completed meanwhile', async () => {
    const repo = realpathSync(makeRepo());
    const svc = makeService(sqliteStore());
    const w = (await svc.agentSessions.track({ ...hooked(repo), agent: claude('a') })).workflow_id ?? '';
    await svc.agentSessions.track({ ...hooked(repo), agent: claude('b') }); // b's terminal is the current session now
    const sessionEnd = async (session: string) => {
      const t = await svc.agentSessions.track({ ...hooked(repo), agent: claude(session), link: false });
      const ended = t.workflow_id
        ? await svc.agentSessions.end(t.workflow_id, { agent: claude(session), reason: 'logout' })
        : null;
      return { t, ended };
    };
    const before = (await svc.runner.load(w)).version;
    // a quits while b works: a's session ended when b's began; nothing is written
    expect(await sessionEnd('a')).toMatchObject({ t: { workflow_id: w }, ended: { ended: false } });
    expect((await svc.runner.load(w)).version).toBe(before);
    // b quits, twice (hooks wired twice): one end, no phantom session
    expect((await sessionEnd('b')).ended).toEqual({ ended: true, session_number: 2, snapshot: null });
    expect((await sessionEnd('b')).ended).toEqual({ ended: false, session_number: null, snapshot: null });
    expect((await svc.runner.load(w)).session_count).toBe(2);
    // a workflow completed meanwhile: a late SessionEnd finds nothing to follow and writes nowhere
    await svc.runner.run(w, (d) => abandon(d, 'done by hand'));
    const w2 = await finishedBy(svc, repo, 'c');
    const started = await startOf(svc, repo, claude('d'));
    expect(started.finished?.workflow_id).toBe(w2);
    const late = await sessionEnd('c');
    expect(late.t.workflow_id).toBeNull();
    expect(late.t.note).toBe(`workflow ${w2}, which this session followed, is completed`);
    expect((await svc.runner.load(started.workflow_id ?? '')).session_count).toBe(1);
  });
});

describe('a compaction in the middle of a turn that went on', () => {
  it('is not given as the reason the last session ended once the turn ended', async () => {
    const repo = realpathSync(makeRepo());
    const svc = makeService(sqliteStore());
    const id = (await svc.agentSessions.track({ ...hooked(repo), agent: claude('c-1') })).workflow_id ?? '';
    const ref = { workflowId: id };
    await svc.record(ref, { kind: 'request', text: 'write the two docs', source: 'claude-code:hook' });
    await svc.snapshot(ref, 'exhaustion', 'compaction');
    expect((await svc.queries.context(await svc.resolve(ref), 4000)).markdown).toContain(
      'The previous session ended because: exhaustion: compaction.',
    );
    // the turn goes on past the compaction and ends (its Stop): nothing ended the session
    await svc.record(ref, {
      kind: 'summary',
      summary: {
        kind: 'last_message',
        text: 'Both docs are written.',
        source: 'claude-code:hook',
        turn_ended: true,
      },
      at: new Date(Date.now() + 1000).toISOString(),
    });
    const after = (await svc.queries.context(await svc.resolve(ref), 4000)).markdown;
    expect(after).toContain('Both docs are written.');
    expect(after).not.toContain('ended because');
  });
});

describe('a pause lifted, then more work in a session that ended', () => {
  it('is not given as the reason the last session ended', async () => {
    const repo = realpathSync(makeRepo());
    const svc = makeService(sqliteStore());
    const id = (await svc.agentSessions.track({ ...hooked(repo), agent: claude('p-1') })).workflow_id ?? '';
    const ref = { workflowId: id };
    await svc.record(ref, { kind: 'request', text: 'add the retry', source: 'claude-code:hook' });
    await svc.pause(ref, { reason: 'lunch', force: true });
    // the user's next prompt in the same conversation resumes it
    expect(
      (await svc.agentSessions.track({ ...hooked(repo), agent: claude('p-1'), resume: true })).outcome,
    ).toBe('resumed');
    // the resumed session is told why the one before it ended
    const resumed = await svc.queries.context(await svc.resolve(ref), 4000);
    expect(resumed.markdown).toContain('The previous session ended because: pause: lunch.');
    await svc.agentSessions.end(id, { agent: claude('p-1'), reason: 'prompt_input_exit' });
    const after = await svc.queries.context(await svc.resolve(ref), 4000);
    expect(after.markdown).not.toContain('ended because: pause');
  });
});

describe('the Stops of two conversations that check for a checkpoint at once', () => {
  it('make one: the interval is checked again on the state the checkpoint commits to', async () => {
    const repo = realpathSync(makeRepo());
    const store = sqliteStore();
    const made = await makeService(store).create({ title: 'Two at once', tasks: [], worktree: repo });
    // work since the workflow began: a file changed
    writeFileSync(join(repo, 'notes.txt'), 'work\n');
    const hooks = [makeService(sqliteStore(store.location)), makeService(sqliteStore(store.location))];
    const out = await Promise.all(
      hooks.map((svc) =>
        svc.agentSessions.checkpointIfDue(made.id, { name: 'stop', intervalMs: 10 * 60_000 }),
      ),
    );
    expect(out.filter((r) => r.checkpoint !== null)).toHaveLength(1);
    expect(out.find((r) => r.checkpoint === null)?.reason).toMatch(/the last checkpoint is 0 min old/);
    expect((await store.loadState(made.id))?.checkpoints).toHaveLength(1);
  });
});

describe('the requests `baton details` lists', () => {
  it('are oldest first by when they were asked: one a hook missed, read from the transcript later, goes where it was asked', async () => {
    const repo = realpathSync(makeRepo());
    const svc = makeService(sqliteStore());
    const made = await svc.create({ title: 'Rename things', tasks: [], worktree: repo });
    const ref = { workflowId: made.id };
    const ask = (text: string, at: string) =>
      svc.record(ref, { kind: 'request', text, at, source: 'claude-code:hook' });
    await ask('rename a to b', '2026-03-01T10:00:00.000Z');
    await ask('now run the tests', '2026-03-01T10:05:00.000Z');
    // the prompt between them, which its hook could not record (the store was locked), read from the transcript
    await ask('also rename c to d', '2026-03-01T10:02:00.000Z');
    const snapshot = await svc.queries.snapshot(made.id, liveSnapshotId(await svc.runner.load(made.id)));
    const listed = (await svc.queries.details(snapshot, 'requests')) as { text: string }[];
    expect(listed.map((r) => r.text)).toEqual(['rename a to b', 'also rename c to d', 'now run the tests']);
  });
});

import { describe, expect, it } from 'vitest';
import { Draft } from '../draft.js';
import { foldEvents } from '../fold.js';
import { emptyUsage } from '../schemas/records.js';
import type { WorkflowState } from '../schemas/state.js';
import type { GitMark } from '../schemas/git-state.js';
import { sameGitAs } from '../snapshot.js';
import {
  cutOffSession,
  endAgentSession,
  endAgentTurn,
  linkAgentSession,
  noteCompaction,
} from './agent-session.js';
import { deliverContext } from './handoff.js';
import { assertImportContinues, markImported, recordSummary, recordUsage } from './records.js';
import { recordRequest } from './requests.js';
import { takeSnapshot } from './snapshots.js';
import { freshWorkflow } from '../../../test/helpers/fresh-workflow.js';

let n = 0;
const at = (now: string) => ({ now, newId: (p: string) => `${p}-${++n}`, actor: 'hook' });
const next = (s: WorkflowState, now = '2026-03-01T10:00:00.000Z') => new Draft(s, at(now));

const fresh = () => freshWorkflow({}, at('2026-03-01T10:00:00.000Z'));

describe('linkAgentSession without a session id', () => {
  it('continues the open session, whichever agent session it follows, and ends none', () => {
    let d = fresh();
    expect(linkAgentSession(d, { name: 'claude-code', session_id: 's1' })).toMatchObject({
      outcome: 'linked',
    });
    d = next(d.state);
    expect(linkAgentSession(d, { name: 'claude-code', session_id: null })).toEqual({
      outcome: 'same',
      session_number: 1,
    });
    expect(d.events.filter((e) => e.type === 'session.ended')).toEqual([]);
    // the agent session that follows is still s1
    expect(linkAgentSession(next(d.state), { name: 'claude-code', session_id: 's1' }).outcome).toBe('same');
  });
});

describe('a session another conversation replaces', () => {
  const s1 = { name: 'claude-code', session_id: 's1' };
  const s2 = { name: 'claude-code', session_id: 's2' };
  it('ended when a start saw no other conversation at work; else the other took over from it, which is said', () => {
    const d = fresh();
    linkAgentSession(d, s1, { judgeCutOff: true, start: true });
    // the second starts while the first is at work (the start judges nothing)
    const beside = next(d.state);
    expect(
      linkAgentSession(beside, s2, { judgeCutOff: false, start: true, elsewhere: true }).session_number,
    ).toBe(2);
    expect(beside.state.sessions[0]?.end_reason).toBe(
      'another conversation (Claude Code session s2) took over from Claude Code session s1, which had not ended',
    );
    // a start that saw no other conversation at work (a /clear)
    const cleared = next(d.state);
    linkAgentSession(cleared, s2, { judgeCutOff: true, start: true });
    expect(cleared.state.sessions[0]?.end_reason).toBe('Claude Code session s1 ended');
  });
});

describe('a session replaced in the middle of its turn', () => {
  const s1 = { name: 'claude-code', session_id: 's1' };
  const s2 = { name: 'claude-code', session_id: 's2' };
  const asked = () => {
    const d = fresh();
    linkAgentSession(d, s1);
    recordRequest(d, {
      text: 'rename foo to bar',
      at: '2026-03-01T10:01:00.000Z',
      source: 'claude-code:hook',
    });
    return d.state;
  };
  const answer = (s: WorkflowState, turn_ended: boolean) => {
    const d = next(s);
    const text = turn_ended ? 'Renamed foo to bar.' : 'Renaming it now.';
    recordSummary(
      d,
      { kind: 'last_message', text, source: 'claude-code', turn_ended },
      '2026-03-01T10:02:00.000Z',
    );
    return d.state;
  };
  /** Answered, and the turn's Stop came (the prompt's hook saw the request: its Stop says the turn ended). */
  const answered = () => {
    const d = next(answer(asked(), true));
    endAgentTurn(d, 'claude-code');
    return d.state;
  };

  it('was cut off when the last request has no answer its turn ended on: said in its end and to the caller', () => {
    for (const s of [asked(), answer(asked(), false)]) {
      const d = next(s);
      const out = linkAgentSession(d, s2, { judgeCutOff: true });
      expect(out.cut_off).toMatch(/^session 1 \(Claude Code session s1\) stopped in the middle of its turn/);
      expect(d.state.sessions[0]?.end_reason).toBe(out.cut_off);
      // a prompt of another conversation replaces the session without judging it
      const prompt = next(s);
      expect(linkAgentSession(prompt, s2).cut_off).toBeUndefined();
      expect(prompt.state.sessions[0]?.end_reason).toBe(
        'another conversation (Claude Code session s2) took over from Claude Code session s1, which had not ended',
      );
    }
  });

  it('was not when its turn ended on an answer, nothing was asked, it ended, or it goes on', () => {
    expect(cutOffSession(answered(), s2)).toBeNull();
    // no Stop came: the message the transcript ends on did not end the turn
    expect(cutOffSession(answer(asked(), true), s2)).toMatch(/stopped in the middle of its turn/);
    // a request read from the transcript alone: no hook to say otherwise, the answer ended the turn
    const read = fresh();
    linkAgentSession(read, s1);
    recordRequest(read, { text: 'rename foo to bar', at: '2026-03-01T10:01:00.000Z', source: 'claude-code' });
    expect(cutOffSession(answer(read.state, true), s2)).toBeNull();
    const quiet = fresh();
    linkAgentSession(quiet, s1);
    expect(cutOffSession(quiet.state, s2)).toBeNull();
    // a StopFailure's snapshot (an API error, a usage limit) after the request explains the stop
    const limited = next(asked(), '2026-03-01T10:03:00.000Z');
    takeSnapshot(limited, 'pause', 'the turn ended on an API error (rate_limit)', {
      state: null,
      note: null,
    });
    expect(cutOffSession(limited.state, s2)).toBeNull();
    // so does a usage limit's snapshot (its own trigger, a pause's in older logs), with no notice recorded
    const limitSnapshot = next(asked(), '2026-03-01T10:03:00.000Z');
    takeSnapshot(limitSnapshot, 'usage_limit', 'stopped by a usage limit of Claude Code, session 1', {
      state: null,
      note: null,
    });
    expect(cutOffSession(limitSnapshot.state, s2)).toBeNull();
    // a usage limit the turn ended on (a Stop whose last message was the notice) explains it too
    const notice = next(asked());
    recordSummary(
      notice,
      { kind: 'usage_limit', text: "You've hit your limit · resets 9pm (UTC)", source: 'claude-code' },
      '2026-03-01T10:02:00.000Z',
    );
    expect(cutOffSession(notice.state, s2)).toBeNull();
    const ended = next(asked());
    endAgentSession(ended, s1, 'prompt_input_exit');
    expect(cutOffSession(ended.state, s2)).toBeNull();
    // the same agent session again (a resume): it goes on
    expect(cutOffSession(asked(), s1)).toBeNull();
    expect(cutOffSession(asked(), { name: 'claude-code', session_id: null })).toBeNull();
  });

  it('says so when the agent never said a word in it (its only last message is the calls it left open)', () => {
    // no last message recorded is no proof of silence (a transcript not read): not said
    expect(cutOffSession(asked(), s2)).toMatch(/without ending \(no Stop/);
    const d = next(asked());
    recordSummary(
      d,
      {
        kind: 'last_message',
        text: 'The session was cut off before the agent said anything. The transcript ends before ...',
        source: 'claude-code',
        turn_ended: false,
        said_nothing: true,
      },
      '2026-03-01T10:02:00.000Z',
    );
    expect(cutOffSession(d.state, s2)).toMatch(/before the agent said anything/);
    expect(cutOffSession(answer(asked(), false), s2)).toMatch(/without ending \(no Stop/);
  });

  it('is judged on the same agent session reopened (a --resume), which then goes on as the next Baton session', () => {
    for (const s of [asked(), answer(asked(), false)]) {
      const d = next(s);
      const out = linkAgentSession(d, s1, { judgeCutOff: true, reopened: true });
      expect(out).toMatchObject({ outcome: 'next', session_number: 2 });
      expect(out.cut_off).toMatch(/^session 1 \(Claude Code session s1\) stopped in the middle of its turn/);
      expect(d.state.sessions.map((x) => [x.number, x.agent?.session_id, x.end_reason])).toEqual([
        [1, 's1', out.cut_off],
        [2, 's1', null],
      ]);
      // not reopened (a compaction's start, a prompt): the same session goes on, unjudged
      expect(linkAgentSession(next(s), s1, { judgeCutOff: true })).toEqual({
        outcome: 'same',
        session_number: 1,
      });
    }
    const reopened = (s: WorkflowState) => cutOffSession(s, s1, { reopened: true });
    // answered, stopped by a usage limit, paused: the same session goes on
    expect(reopened(answered())).toBeNull();
    const notice = next(asked());
    recordSummary(
      notice,
      { kind: 'usage_limit', text: "You've hit your limit · resets 9pm (UTC)", source: 'claude-code' },
      '2026-03-01T10:02:00.000Z',
    );
    expect(reopened(notice.state)).toBeNull();
    const paused = next(asked(), '2026-03-01T10:03:00.000Z');
    takeSnapshot(paused, 'pause', 'end of day', { state: null, note: null });
    expect(reopened(paused.state)).toBeNull();
    const d = next(answered());
    expect(linkAgentSession(d, s1, { judgeCutOff: true, reopened: true })).toEqual({
      outcome: 'same',
      session_number: 1,
    });
    expect(d.events).toEqual([]);
  });
});

describe('the crash snapshot of a session cut off', () => {
  const s1 = { name: 'claude-code', session_id: 's1' };
  const s2 = { name: 'claude-code', session_id: 's2' };
  const s3 = { name: 'claude-code', session_id: 's3' };
  const git = { state: null, note: null };
  const reading = (tokens_used: number, llm_calls: number, context_tokens: number) => ({
    ...emptyUsage(),
    tokens_used,
    output_tokens: 100,
    llm_calls,
    tool_calls: 1,
    context_window: 200_000,
    context_tokens,
  });
  /** Session 1 asked, its model called, then (`idle`) session 2 opened beside it and asked nothing. */
  function cut(idle: boolean) {
    const d = fresh();
    linkAgentSession(d, s1, { judgeCutOff: true, start: true });
    recordRequest(d, { text: 'run the tests', at: '2026-03-01T10:01:00.000Z', source: 'claude-code:hook' });
    recordUsage(d, reading(1_500, 2, 40_000), 'transcript:s1');
    if (!idle) return d.state;
    const beside = next(d.state);
    linkAgentSession(beside, s2, { judgeCutOff: false, start: true, elsewhere: true });
    return beside.state;
  }

  it('is of the session cut off: its number and usage, not those of a session opened meanwhile that asked nothing', () => {
    const base = cut(true);
    const d = next(base);
    const out = linkAgentSession(d, s3, { judgeCutOff: true, start: true, git });
    expect(out.cut_off).toMatch(/^session 1 \(Claude Code session s1\) stopped in the middle of its turn/);
    expect(out.session_number).toBe(3);
    const snap = out.cut_off_snapshot;
    expect(snap?.session_number).toBe(1);
    expect(snap?.usage).toMatchObject({
      tokens_used: 1_500,
      output_tokens: 100,
      llm_calls: 2,
      tool_calls: 1,
    });
    // the snapshot as the log folds it says the same
    const folded = foldEvents(d.events, base);
    expect(folded.state.last_snapshot?.id).toBe(snap?.id);
    const taken = folded.writes.find((w) => w.kind === 'snapshot');
    expect(taken?.data).toMatchObject({ session_number: 1, usage: { tokens_used: 1_500 } });
  });

  it('of the open session cut off, keeps its usage as the state holds it, with its context', () => {
    const d = next(cut(false));
    const snap = linkAgentSession(d, s3, { judgeCutOff: true, start: true, git }).cut_off_snapshot;
    expect(snap?.session_number).toBe(1);
    expect(snap?.usage).toMatchObject({ tokens_used: 1_500, llm_calls: 2, context_tokens: 40_000 });
  });

  it("counts its transcript read late, after the next session began, as its own usage, not the open session's", () => {
    const base = cut(true);
    const late = next(base);
    // the rest of session 1's transcript (one more call), and a sub-agent's of it, read after session 2 began
    recordUsage(late, reading(2_500, 3, 60_000), 'transcript:s1');
    recordUsage(late, reading(400, 1, 9_000), 'transcript:s1:agent-a1.jsonl');
    const s = late.state;
    expect(s.sessions.map((x) => x.usage?.tokens_used ?? 0)).toEqual([2_900, 0]);
    expect(s.sessions[0]?.usage).toMatchObject({ llm_calls: 4, readings: 3 });
    expect(s.usage_total).toMatchObject({ tokens_used: 2_900, llm_calls: 4, readings: 3 });
    // the open session's own usage and context gauge are not session 1's
    expect(s.usage).toMatchObject({ tokens_used: 0, llm_calls: 0, context_tokens: null });
    // session 1's record (written when session 2 began) is written again with it
    const rows = foldEvents(late.events, base).writes.filter((w) => w.kind === 'session');
    expect(rows.at(-1)).toMatchObject({ id: '1', data: { number: 1, usage: { tokens_used: 2_900 } } });
    // and the crash snapshot of session 1 says all of it
    const snap = linkAgentSession(next(s), s3, { judgeCutOff: true, start: true, git }).cut_off_snapshot;
    expect(snap).toMatchObject({ session_number: 1, usage: { tokens_used: 2_900, llm_calls: 4 } });
  });

  it('counts a reading on the open session when no session follows the agent session it came from', () => {
    const d = next(cut(true));
    recordUsage(d, reading(700, 1, 30_000), 'transcript:s9:s9.jsonl');
    recordUsage(d, reading(300, 1, 35_000), 'exec-1');
    recordUsage(d, reading(200, 1, 36_000), 'transcript:s2:s2.jsonl');
    expect(d.state.sessions.map((x) => x.usage?.tokens_used ?? 0)).toEqual([1_500, 1_200]);
    expect(d.state.usage).toMatchObject({ tokens_used: 1_200, llm_calls: 3, context_tokens: 36_000 });
    expect(d.state.usage_total?.tokens_used).toBe(2_700);
  });

  it("counts a resumed conversation's transcript, named after its new session id, on the session that follows it", () => {
    const d = next(cut(true));
    // `claude --resume s1` went on as s2, in s2.jsonl, which starts with copies of s1's lines (s1 wrote its first)
    recordUsage(d, reading(2_000, 3, 45_000), 'transcript:s1:s2.jsonl');
    expect(d.state.sessions.map((x) => x.usage?.tokens_used ?? 0)).toEqual([1_500, 2_000]);
    expect(d.state.usage).toMatchObject({ tokens_used: 2_000, context_tokens: 45_000 });
  });

  it('counts a reading on the last of the sessions that follow its agent session (one after a compaction)', () => {
    const d = fresh();
    linkAgentSession(d, s1, { judgeCutOff: true, start: true });
    const other = next(d.state);
    linkAgentSession(other, s2, { judgeCutOff: false, start: true, elsewhere: true });
    const back = next(other.state);
    linkAgentSession(back, s1, { judgeCutOff: false, start: true, elsewhere: true });
    recordUsage(back, reading(900, 1, 50_000), 'transcript:s1:s1.jsonl');
    expect(back.state.sessions.map((x) => [x.number, x.usage?.tokens_used ?? 0])).toEqual([
      [1, 0],
      [2, 0],
      [3, 900],
    ]);
    expect(back.state.usage).toMatchObject({ tokens_used: 900, context_tokens: 50_000 });
  });
});

describe("the end of the agent's turn", () => {
  const s1 = { name: 'codex', session_id: 's1' };
  const asked = (d: Draft, text: string) => recordRequest(d, { text, at: d.ctx.now, source: 'codex:hook' });

  it('is recorded once per turn, and a turn that ended without words is not cut off', () => {
    const d = fresh();
    linkAgentSession(d, s1);
    // nothing asked yet: no turn to end
    expect(endAgentTurn(d, 'codex')).toEqual({ recorded: false, paused_snapshot_id: null });
    asked(d, 'run the linter');
    // the turn ended on a command: the last message is no answer, but the Stop came
    const stop = next(d.state, '2026-03-01T10:02:00.000Z');
    recordSummary(stop, { kind: 'last_message', text: 'Running it.', source: 'codex', turn_ended: false });
    expect(cutOffSession(stop.state, s1, { reopened: true })).toMatch(/stopped in the middle of its turn/);
    expect(endAgentTurn(stop, 'codex')).toEqual({ recorded: true, paused_snapshot_id: null });
    expect(stop.state.turn_ended).toEqual({
      at: '2026-03-01T10:02:00.000Z',
      session_number: 1,
      requests: 1,
      seq: stop.state.version,
    });
    expect(cutOffSession(stop.state, s1, { reopened: true })).toBeNull();
    // a second Stop of the same turn writes nothing
    expect(endAgentTurn(next(stop.state), 'codex')).toEqual({ recorded: false, paused_snapshot_id: null });
    // the next request opens a turn again: cut off until its end is seen
    const again = next(stop.state, '2026-03-01T10:05:00.000Z');
    asked(again, 'now fix the warnings');
    expect(cutOffSession(again.state, s1, { reopened: true })).toMatch(/stopped in the middle of its turn/);
    // the end survives a replay of the log
    const replayed = foldEvents([...d.events, ...stop.events]);
    expect(replayed.state?.turn_ended).toEqual(stop.state.turn_ended);
  });

  it('keeps where git stood at its end: a conversation reopened tells whether git moved since (sameGitAs)', () => {
    const d = fresh();
    linkAgentSession(d, s1);
    asked(d, 'run the linter');
    const at = (files: string[], commit = 'c1'.repeat(20)): GitMark => ({
      branch: 'main',
      commit_at_snapshot: commit,
      has_uncommitted_changes: files.length > 0,
      uncommitted_files: files,
    });
    endAgentTurn(d, 'codex', null, at(['src/a.ts']));
    const mark = d.state.turn_ended?.git;
    expect(mark).toEqual({
      branch: 'main',
      commit_at_snapshot: 'c1'.repeat(20),
      has_uncommitted_changes: true,
      uncommitted_files: ['src/a.ts'],
    });
    expect(sameGitAs(mark, at(['src/a.ts']))).toBe(true);
    // a file written by hand, a commit made since: git moved
    expect(sameGitAs(mark, at(['src/a.ts', 'NOTES.md']))).toBe(false);
    expect(sameGitAs(mark, at(['src/a.ts'], 'c2'.repeat(20)))).toBe(false);
    // without git read at its end, nothing is marked
    const other = fresh();
    linkAgentSession(other, s1);
    asked(other, 'run the linter');
    endAgentTurn(other, 'codex');
    expect(other.state.turn_ended?.git).toBeUndefined();
  });

  it("where Stops report this session's turns, a transcript ending on a message is no end: the crash cut it off", () => {
    const d = fresh();
    linkAgentSession(d, s1);
    asked(d, 'run the linter');
    const stop = next(d.state, '2026-03-01T10:02:00.000Z');
    recordSummary(stop, { kind: 'last_message', text: 'Lint is clean.', source: 'codex', turn_ended: true });
    endAgentTurn(stop, 'codex');
    const again = next(stop.state, '2026-03-01T10:05:00.000Z');
    asked(again, 'now analyze the history file');
    // the process killed right after the agent wrote this line, mid-turn: its transcript ends on it, no Stop came
    const cut = next(again.state, '2026-03-01T10:06:00.000Z');
    recordSummary(cut, {
      kind: 'last_message',
      text: 'Found it: a deterministic key.',
      source: 'codex',
      turn_ended: true,
    });
    expect(cutOffSession(cut.state, { name: 'codex', session_id: 's2' })).toMatch(
      /^session 1 \(Codex session s1\) stopped in the middle of its turn/,
    );
    // its Stop came: the turn ended on it
    const ended = next(cut.state, '2026-03-01T10:06:30.000Z');
    endAgentTurn(ended, 'codex');
    expect(cutOffSession(ended.state, { name: 'codex', session_id: 's2' })).toBeNull();
  });

  it('a first turn whose prompt a hook saw ends with its Stop, not with a message its transcript ends on', () => {
    const d = fresh();
    linkAgentSession(d, s1);
    asked(d, 'add a test for the CLI');
    // killed after a message mid-turn ("next I will run the suite"), before its next call: no Stop came
    const cut = next(d.state, '2026-03-01T10:06:00.000Z');
    recordSummary(cut, {
      kind: 'last_message',
      text: 'Test written; next I will run the whole suite and commit.',
      source: 'codex',
      turn_ended: true,
    });
    expect(cutOffSession(cut.state, { name: 'codex', session_id: 's2' })).toMatch(
      /stopped in the middle of its turn/,
    );
  });
});

describe('noteCompaction', () => {
  const gitless = { state: null, note: null };

  it('asks for a new injection when the compacted session has not got the context yet', () => {
    const d = fresh();
    deliverContext(d, { snapshot_id: 'snap-0', context_hash: 'h0', tokens: 10, via: 'hook' });
    const later = next(d.state, '2026-03-01T11:00:00.000Z');
    takeSnapshot(later, 'exhaustion', 'context compaction (auto)', gitless);
    noteCompaction(later, { agent: 'claude-code', trigger: 'auto', summary: null });
    expect(later.state.reinject).toBe(true);
  });

  it('asks for none when a hook handed the context over since the snapshot before the compaction', () => {
    const d = fresh();
    const snap = takeSnapshot(d, 'exhaustion', 'context compaction (auto)', gitless);
    const start = next(d.state, '2026-03-01T10:00:05.000Z');
    deliverContext(start, { snapshot_id: snap.id, context_hash: 'h1', tokens: 10, via: 'hook' });
    const post = next(start.state, '2026-03-01T10:00:06.000Z');
    noteCompaction(post, { agent: 'claude-code', trigger: 'auto', summary: 'did the parser' });
    expect(post.state.reinject).toBe(false);
    expect(post.events[0]).toMatchObject({ type: 'context.compacted', data: { injected: true } });
    expect(foldEvents([...d.events, ...start.events, ...post.events]).state.reinject).toBe(false);
  });

  it('asks for none when the compacted start took a snapshot of its own before it handed the context over', () => {
    const d = fresh();
    takeSnapshot(d, 'exhaustion', 'context compaction (auto)', gitless);
    // the start read the transcript's compaction lines first: the snapshot before the compaction is stale
    const start = next(d.state, '2026-03-01T10:00:05.000Z');
    const snap = takeSnapshot(start, 'handover', 'a new Claude Code session began (compact)', gitless);
    deliverContext(start, { snapshot_id: snap.id, context_hash: 'h1', tokens: 10, via: 'hook' });
    const post = next(start.state, '2026-03-01T10:00:06.000Z');
    noteCompaction(post, { agent: 'claude-code', trigger: 'auto', summary: 'did the parser' });
    expect(post.state.reinject).toBe(false);
    // the compaction is over: a later one without a snapshot before it (PreCompact failed) asks again
    const again = next(post.state, '2026-03-01T11:00:00.000Z');
    noteCompaction(again, { agent: 'claude-code', trigger: 'auto', summary: null });
    expect(again.state.reinject).toBe(true);
    expect(foldEvents([...d.events, ...start.events, ...post.events]).state).toEqual(post.state);
  });
});

describe('assertImportContinues', () => {
  const piece = (from_line?: number) => ({
    transcript_session_id: 's1:t.jsonl',
    path: '/t.jsonl',
    ...(from_line !== undefined ? { from_line } : {}),
  });

  it('refuses a piece of a transcript already imported past where the piece starts', () => {
    const d = fresh();
    markImported(d, { format: 'claude-code-transcript', ...piece(), through_line: 40, records: 3 });
    expect(() => assertImportContinues(d.state, piece(0))).toThrow(/imported meanwhile through line 40/);
    expect(() => assertImportContinues(d.state, piece(40))).not.toThrow();
    // a piece read again from the start (the file was replaced) says no start line: not refused
    expect(() => assertImportContinues(d.state, piece())).not.toThrow();
    expect(() => assertImportContinues(d.state, { ...piece(0), path: '/other.jsonl' })).not.toThrow();
  });

  it('an import that recorded something starts a workflow not started yet: an agent worked on it', () => {
    const d = fresh();
    expect(d.state.status).toBe('pending');
    markImported(d, { format: 'claude-code-transcript', ...piece(), through_line: 2, records: 0 });
    expect(d.state.status).toBe('pending');
    markImported(d, { format: 'claude-code-transcript', ...piece(), through_line: 40, records: 3 });
    expect(d.state.status).toBe('in_progress');
  });
});

describe('endAgentSession with the git state', () => {
  const s1 = { name: 'claude-code', session_id: 's1' };
  const git = { state: null, note: null };
  function open(asking: boolean) {
    const d = fresh();
    linkAgentSession(d, s1);
    if (asking) recordRequest(d, { text: 'add a sum function', source: 'claude-code:hook' });
    return d;
  }
  const snapshots = (d: Draft) => d.events.filter((e) => e.type === 'snapshot.taken').length;

  it('ends the session on a snapshot unless the latest still stands at the version the caller saw', () => {
    const stale = next(open(true).state);
    const took = endAgentSession(stale, s1, 'prompt_input_exit', { git, fresh_at: null });
    expect(took.ended).toBe(true);
    const ended = stale.events.find((e) => e.type === 'session.ended');
    expect(snapshots(stale)).toBe(1);
    expect(ended?.data).toMatchObject({ snapshot_id: stale.state.last_snapshot?.id });
    expect(stale.state.last_snapshot?.trigger).toBe('handover');
    // the hook says which snapshot the session ended on
    expect(took.snapshot).toEqual({ id: stale.state.last_snapshot?.id, taken: true });
    // still standing at the version seen: none taken, and the session ended on the latest one
    const checkpointed = open(true);
    takeSnapshot(checkpointed, 'scheduled', 'checkpoint stop', git);
    const standing = next(checkpointed.state);
    const kept = endAgentSession(standing, s1, null, { git, fresh_at: standing.state.version });
    expect(snapshots(standing)).toBe(0);
    expect(kept.snapshot).toEqual({ id: standing.state.last_snapshot?.id, taken: false });
    // found standing, but the state moved since (another hook wrote): one is taken
    const moved = next(open(true).state);
    endAgentSession(moved, s1, null, { git, fresh_at: moved.state.version - 1 });
    expect(snapshots(moved)).toBe(1);
  });

  it('takes none for a workflow holding nothing, or without the git state', () => {
    const empty = next(open(false).state);
    endAgentSession(empty, s1, null, { git, fresh_at: null });
    expect(snapshots(empty)).toBe(0);
    const bare = next(open(true).state);
    endAgentSession(bare, s1, null);
    expect(snapshots(bare)).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { parseClaudeTranscript } from './claude-code/transcript.js';
import { parseTranscript } from './parse-transcript.js';
import { readCorpus } from '../../test/helpers/corpus.js';

const at = (day: number, hm: string) => `2026-12-0${day}T${hm}:00.000Z`;
const user = (t: string, text: string) =>
  JSON.stringify({ type: 'user', timestamp: t, sessionId: 's', message: { role: 'user', content: text } });
const said = (t: string, id: string, text: string) =>
  JSON.stringify({
    type: 'assistant',
    timestamp: t,
    sessionId: 's',
    message: { id, role: 'assistant', content: [{ type: 'text', text }] },
  });

// a ten-minute turn on day 1, the night away, a two-minute turn on day 2 after a usage limit stopped one
const lines = [
  user(at(1, '09:00'), 'add a sum function'),
  said(at(1, '09:04'), 'm1', 'Writing it.'),
  said(at(1, '09:10'), 'm2', 'Added sum.'),
  user(at(2, '08:00'), 'now the callers'),
  said(at(2, '08:01'), 'm3', "You've hit your session limit · resets 1pm (UTC)"),
  user(at(2, '13:05'), 'continue'),
  said(at(2, '13:06'), 'm4', 'Updated the callers.'),
];

describe("an agent's time in a transcript", () => {
  it("counts each turn from the user's prompt to its last entry, not the time between turns", () => {
    const parsed = parseClaudeTranscript(`${lines.join('\n')}\n`);
    expect(parsed.usage.duration_ms).toBe((10 + 1 + 1) * 60_000);
    // the transcript's span is more than a day
    expect(Date.parse(parsed.ended_at ?? '') - Date.parse(parsed.started_at ?? '')).toBeGreaterThan(
      86_400_000,
    );
  });

  it('is the same read in pieces, a turn cut between them included', () => {
    for (const cut of [1, 2, 3, 4, 6]) {
      const head = parseClaudeTranscript(`${lines.slice(0, cut).join('\n')}\n`);
      const tail = parseClaudeTranscript(`${lines.slice(cut).join('\n')}\n`, {
        startLine: cut,
        state: head.state,
      });
      expect(tail.usage.duration_ms).toBe(12 * 60_000);
    }
  });

  it("goes on from a piece's state kept before it was counted by turns (that piece's span, as counted then)", () => {
    const head = parseClaudeTranscript(`${lines.slice(0, 3).join('\n')}\n`);
    const state = head.state as { builder: Record<string, unknown> };
    const { agent_time: _, ...older } = state.builder;
    const tail = parseClaudeTranscript(`${lines.slice(3).join('\n')}\n`, {
      startLine: 3,
      state: { ...state, builder: older },
    });
    expect(tail.usage.duration_ms).toBe(12 * 60_000);
  });

  it("leaves out what Codex puts in the context as the next turn begins, minutes after the user's last answer", () => {
    // turn 1 from 17:36:19 to its last message at 17:49:05; the environment written at 17:53:12 and the prompt at
    // 17:53:15 begin turn 2, which ends at 17:54:46
    const rollout = readCorpus('codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl');
    const minutes = (parseTranscript(rollout).usage.duration_ms ?? 0) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThan(14.5);
  });

  it('counts a Codex turn up to the moment the user stopped it', () => {
    // a real rollout cut in the middle of its second turn, stopped by the user an hour after its last line
    const rollout = readCorpus(
      'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
    );
    const last = parseTranscript(rollout);
    const stopAt = new Date(Date.parse(last.entries.at(-1)?.at ?? '') + 60 * 60_000).toISOString();
    const stopped = `${rollout.trimEnd()}\n${JSON.stringify({
      timestamp: stopAt,
      type: 'event_msg',
      payload: { type: 'turn_aborted', turn_id: 't', reason: 'interrupted' },
    })}\n`;
    expect(parseTranscript(stopped).usage.duration_ms).toBe((last.usage.duration_ms ?? 0) + 60 * 60_000);
  });
});

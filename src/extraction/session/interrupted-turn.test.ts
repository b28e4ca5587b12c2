import { describe, expect, it } from 'vitest';
import { parseClaudeTranscript } from '../../agents/claude-code/transcript.js';
import { parseCodexRollout } from '../../agents/codex/rollout.js';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { readSession } from './read-session.js';

const claude = (text: string) => readSession(parseClaudeTranscript(text).entries);
const codex = (text: string) => readSession(parseCodexRollout(text).entries);
const interruption = (facts: ReturnType<typeof readSession>) =>
  facts.summaries.find((s) => s.kind === 'interrupted');
const lines = (rel: string, n?: number) => readCorpus(rel).split('\n').slice(0, n).join('\n');

/** A real Codex rollout cut in the middle of its second turn (calls sent, none returned), stopped as Codex writes it. */
const CODEX = 'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
const aborted = (reason: string) =>
  JSON.stringify({
    timestamp: '2026-05-11T08:34:10.000Z',
    type: 'event_msg',
    payload: { type: 'turn_aborted', turn_id: '019e162b-0011-7240-abbc-f7b732e49728', reason },
  });

describe("the user's interruption of the agent's last turn", () => {
  it('is read from a Claude Code transcript that ends on it, in both of its forms', () => {
    const heavy = claude(readCorpus('claude-code/spotter/tool_heavy.jsonl'));
    expect(interruption(heavy)).toEqual({
      line: 39,
      at: '2026-02-10T22:59:46.748Z',
      kind: 'interrupted',
      text: '[Request interrupted by user]',
    });
    // the interruption is no request of the user's
    expect(heavy.requests.map((r) => r.text)).not.toContain('[Request interrupted by user]');
    // stopped at a tool call the user declined
    expect(interruption(claude(readCorpus('claude-code/spotter/short.jsonl')))).toMatchObject({
      line: 13,
      text: '[Request interrupted by user for tool use]',
    });
  });

  it('is not said once the agent went on after it: a later turn took its place', () => {
    const rel = 'claude-code/codemie-code/session-624a4a58.jsonl';
    // the session up to its first interruption ends on it; the whole session goes on after each of its three
    expect(interruption(claude(lines(rel, 67)))).toMatchObject({ line: 67, kind: 'interrupted' });
    expect(interruption(claude(readCorpus(rel)))).toBeUndefined();
  });

  it("is read from a Codex rollout's turn_aborted the user caused, not from one a new turn replaced", () => {
    const cut = lines(CODEX, 46);
    const stopped = codex(`${cut}\n${aborted('interrupted')}`);
    expect(interruption(stopped)).toEqual({
      line: 47,
      at: '2026-05-11T08:34:10.000Z',
      kind: 'interrupted',
      text: '[Request interrupted by user]',
    });
    // the agent's last message says the calls it sent never returned, and that its turn did not end on it
    expect(stopped.summaries.find((s) => s.kind === 'last_message')).toMatchObject({ turn_ended: false });
    expect(stopped.requests.at(-1)?.text).toBe("let's update the defailt context compart to 90 in env var");
    expect(interruption(codex(`${cut}\n${aborted('replaced')}`))).toBeUndefined();
    expect(interruption(codex(cut))).toBeUndefined();
  });
});

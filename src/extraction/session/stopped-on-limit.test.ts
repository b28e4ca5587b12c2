import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../agents/parse-transcript.js';
import { claudeTool } from '../../../test/helpers/transcript-lines.js';
import { readSession } from './read-session.js';

/** Claude Code's lines: the agent's words, and the synthetic message it writes in their place on an API error. */
const said = (text: string, at: string) =>
  JSON.stringify({
    type: 'assistant',
    sessionId: 's1',
    timestamp: at,
    message: { id: `m-${at}`, role: 'assistant', content: [{ type: 'text', text }] },
  });
const apiError = (text: string, at: string) =>
  JSON.stringify({
    type: 'assistant',
    sessionId: 's1',
    timestamp: at,
    isApiErrorMessage: true,
    error: 'rate_limit',
    message: { id: `e-${at}`, model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text }] },
  });
const asked = (text: string, at: string) =>
  JSON.stringify({ type: 'user', sessionId: 's1', timestamp: at, message: { role: 'user', content: text } });

const summariesOf = (lines: string[]) => readSession(parseTranscript(lines.join('\n')).entries).summaries;

describe('a turn that stopped on a usage limit', () => {
  it("keeps the agent's last message as its last word and the notice as what stopped it", () => {
    const s = summariesOf([
      asked('Build the CSV exporter', '2026-05-01T10:00:00.000Z'),
      said('Half-way: the parser is done, the writer is next.', '2026-05-01T10:00:05.000Z'),
      ...claudeTool('w1', 'Write', { file_path: 'writer.ts', content: 'x' }, 'ok'),
      apiError("You've hit your session limit · resets 3:40pm (Europe/Paris)", '2026-05-01T10:00:09.000Z'),
    ]);
    expect(s.map((x) => [x.kind, x.text])).toEqual([
      [
        'last_message',
        'Half-way: the parser is done, the writer is next.\n\nAfter it: `Write: writer.ts` worked',
      ],
      ['usage_limit', "You've hit your session limit · resets 3:40pm (Europe/Paris)"],
    ]);
    expect(s[1]).toMatchObject({ at: '2026-05-01T10:00:09.000Z' });
  });

  it('says nothing of a limit the agent went on from; an API error that is no limit is an API error', () => {
    const wentOn = summariesOf([
      asked('Build the CSV exporter', '2026-05-01T10:00:00.000Z'),
      apiError('Claude AI usage limit reached|1777633200', '2026-05-01T10:00:09.000Z'),
      asked('continue', '2026-05-01T11:00:01.000Z'),
      said('The writer is done too.', '2026-05-01T11:02:00.000Z'),
    ]);
    expect(wentOn.map((x) => x.kind)).toEqual(['last_message']);
    const outage = summariesOf([
      said('Half-way.', '2026-05-01T10:00:05.000Z'),
      apiError(
        'API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}',
        '2026-05-01T10:00:09.000Z',
      ),
    ]);
    // an API error that is no limit is what the turn ended on all the same: its request may not have been carried out
    expect(outage.map((x) => x.kind)).toEqual(['last_message', 'api_error']);
    const retried = summariesOf([
      said('Half-way.', '2026-05-01T10:00:05.000Z'),
      apiError(
        'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        '2026-05-01T10:00:09.000Z',
      ),
      said('The writer is done too.', '2026-05-01T10:01:00.000Z'),
    ]);
    expect(retried.map((x) => x.kind)).toEqual(['last_message']);
  });

  it("reads a headless run (stream-json), where the notice comes as the agent's text and as the result", () => {
    const notice = 'Claude AI usage limit reached|1777633200';
    const s = summariesOf([
      JSON.stringify({
        type: 'system',
        subtype: 'init',
        session_id: 's1',
        model: 'claude-sonnet-4-6',
        cwd: '/w',
      }),
      JSON.stringify({ type: 'user', session_id: 's1', message: { role: 'user', content: 'Build it' } }),
      JSON.stringify({
        type: 'assistant',
        session_id: 's1',
        message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'The parser is done.' }] },
      }),
      JSON.stringify({
        type: 'assistant',
        session_id: 's1',
        message: {
          id: 'm2',
          model: '<synthetic>',
          role: 'assistant',
          content: [{ type: 'text', text: notice }],
        },
      }),
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: true,
        result: notice,
        session_id: 's1',
      }),
    ]);
    expect(s.map((x) => [x.kind, x.text])).toEqual([
      ['last_message', 'The parser is done.'],
      ['usage_limit', notice],
    ]);
  });

  it("reads Codex's error event the same way", () => {
    const line = (type: string, payload: Record<string, unknown>, at: string) =>
      JSON.stringify({ timestamp: at, type, payload });
    const s = summariesOf([
      line(
        'session_meta',
        { id: '019e1625-789d-76c0-80ab-3724b5ddb799', cwd: '/w', cli_version: '0.125.0' },
        '2026-07-05T19:00:00.000Z',
      ),
      line('event_msg', { type: 'user_message', message: 'Add the retry' }, '2026-07-05T19:00:01.000Z'),
      line(
        'event_msg',
        { type: 'agent_message', message: 'The retry is in; the tests are next.' },
        '2026-07-05T19:30:00.000Z',
      ),
      line(
        'event_msg',
        {
          type: 'error',
          message:
            "You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro) or try again at 8:05 PM.",
        },
        '2026-07-05T19:31:00.000Z',
      ),
    ]);
    expect(s.map((x) => x.kind)).toEqual(['last_message', 'usage_limit']);
    expect(s[0]?.text).toBe('The retry is in; the tests are next.');
    expect(s[1]?.text).toMatch(/try again at 8:05 PM\.$/);
  });
});

import { describe, expect, it } from 'vitest';
import {
  apiErrorStop,
  apiErrorWords,
  apiFailureError,
  apiFailureStanding,
  limitHolding,
  limitInForce,
  limitStop,
  transientApiError,
} from './turn-stop.js';

describe('an API error that passes', () => {
  it("is an overloaded or failing service, or a dropped connection; not a limit, a full context or the task's own failure", () => {
    for (const passing of [
      'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      'API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}',
      'API Error: Connection error.',
      'stream disconnected before completion: error sending request',
      'stream error: stream disconnected before completion: Transport error',
      'exceeded retry limit, last status: 500 Internal Server Error',
      'unexpected status 503 Service Unavailable: upstream connect error',
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 40,000 input tokens per minute."}}',
      'exceeded retry limit, last status: 429 Too Many Requests, request id: req_8f2c1a',
      // the network dropped mid-answer: the agent's API error, or its own error line on its standard error
      'API Error: socket hang up',
      'API Error: fetch failed',
      'API Error: read ECONNRESET',
      'API Error: Unable to connect to API (ECONNRESET)',
      'API Error: The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()',
      'Error: read ECONNRESET\n    at TLSWrap.onStreamRead (node:internal/stream_base_commons:216:20)',
      'TypeError: fetch failed',
      'TypeError: terminated',
      'Error: socket hang up',
    ])
      expect(transientApiError(passing), passing).toBe(true);
    for (const other of [
      'Claude AI usage limit reached|1767225600',
      'Prompt is too long',
      'Error: Cannot find module ./export-json',
      // a test's or a script's output that names such words is the task's own failure
      'not ok 3 - retries on ECONNRESET',
      'FAIL src/client.test.ts > gives up after a socket hang up',
      'expected the request to throw "fetch failed", got nothing',
      "Error: Cannot read properties of undefined (reading 'ECONNRESET')",
      'GET /api/items -> 500 Internal server error',
      'the overloaded method add(int, int) is ambiguous',
      'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"bad"}}',
      // a plan's limit is a usage limit, with its own way on; a script's output naming a rate limit is the task's
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"usage limit reached"}}',
      'test failed: expected 429 after 100 requests per minute',
      "exceeded retry limit, last status: 429 Too Many Requests\nYou've hit your usage limit. Try again later.",
      'FAIL retries.test.ts: exceeded retry limit, last status: 429 Too Many Requests',
      // the agent's own side cancelled the request (Esc, a signal): nothing to retry, though no fault of the work
      'API Error: Request was aborted.',
      null,
    ])
      expect(transientApiError(other), String(other)).toBe(false);
  });

  it('is said in a few words: the status, the type and the message', () => {
    expect(
      apiErrorWords(
        'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      ),
    ).toBe('529 overloaded_error: Overloaded');
  });

  it('recorded as an agent error, is the API failing, no fault of the work; the task failing is', () => {
    const agentError = (message: string) => ({ error_type: 'agent_error', error_message: message });
    expect(
      apiFailureError(
        agentError(
          'agent: API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        ),
      ),
    ).toBe(true);
    expect(apiFailureError(agentError('agent: stream disconnected before completion'))).toBe(true);
    expect(apiFailureError(agentError('agent: Tests fail.'))).toBe(false);
    // a command's output naming such words is the command's failure
    expect(
      apiFailureError({ error_type: 'command_failed', error_message: '`curl api`: API Error: 500 {}' }),
    ).toBe(false);
  });

  it('an aborted request and a usage limit recorded as an agent error are the API stopping it too; a full context is not', () => {
    const agentError = (message: string) => ({ error_type: 'agent_error', error_message: message });
    expect(apiFailureError(agentError('agent: API Error: Request was aborted.'))).toBe(true);
    expect(apiFailureError(agentError('agent: 5-hour limit reached ∙ resets 3pm'))).toBe(true);
    expect(apiFailureError(agentError('agent: Prompt is too long'))).toBe(false);
  });

  it("stands as the last turn's stop while nothing was said or asked after it, then is over; never open", () => {
    const at = (s: number) => `2026-05-01T10:00:${String(s).padStart(2, '0')}.000Z`;
    const error = {
      error_type: 'agent_error',
      error_message:
        'agent: API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal"}}',
      resolution: 'unresolved',
      timestamp: at(8),
    };
    const said = (s: number) => ({
      id: 'sum-1',
      timestamp: at(s),
      kind: 'last_message' as const,
      text: 'The parser is written; now the writer.',
      source: 'claude-code',
      session_number: 1,
    });
    const before = { compaction: null, last_message: said(6) };
    expect(apiFailureStanding(error, before, undefined)).toBe('cut_off');
    expect(apiFailureStanding(error, undefined, undefined)).toBe('cut_off');
    // the agent said more after it: a retry went through
    expect(apiFailureStanding(error, { compaction: null, last_message: said(20) }, undefined)).toBe('over');
    // the user asked again after it
    expect(apiFailureStanding(error, before, { at: at(15), timestamp: at(15) })).toBe('over');
    // the import saw the agent go on and marked it fixed
    expect(apiFailureStanding({ ...error, resolution: 'fixed' }, before, undefined)).toBe('over');
    // any other error stands as its record says
    expect(
      apiFailureStanding({ ...error, error_message: 'agent: Tests fail.' }, before, undefined),
    ).toBeNull();
    expect(apiFailureStanding({ ...error, error_type: 'command_failed' }, before, undefined)).toBeNull();
  });
});

describe('a usage limit that stopped the last turn', () => {
  it('names the agent that met it and the session it stopped, from the notice as recorded', () => {
    const limit = {
      id: 'sum-1',
      timestamp: '2026-09-24T20:00:00.000Z',
      kind: 'usage_limit' as const,
      text: 'Claude AI usage limit reached|1790000000',
      source: 'claude-code:StopFailure',
      session_number: 2,
      resets_at: '2026-09-24T21:20:00.000Z',
    };
    const summaries = { compaction: null, last_message: null, usage_limit: limit };
    expect(limitStop(summaries, undefined)).toBe(
      'stopped by a usage limit of Claude Code, session 2, resets at 2026-09-24 21:20 UTC',
    );
    // over once the user asked again after it
    expect(
      limitStop(summaries, { at: '2026-09-24T21:30:00.000Z', timestamp: '2026-09-24T21:30:00.000Z' }),
    ).toBeNull();
  });
});

describe('a usage limit while another agent goes on', () => {
  const limit = {
    id: 'sum-1',
    timestamp: '2026-12-07T20:00:00.000Z',
    kind: 'usage_limit' as const,
    text: "You've hit your session limit · resets 10:40pm (UTC)",
    source: 'claude-code:Stop',
    session_number: 1,
    resets_at: '2026-12-07T22:40:00.000Z',
  };
  const said = (source: string, at: string) => ({
    id: `sum-${at}`,
    timestamp: at,
    kind: 'last_message' as const,
    text: 'Done.',
    source,
    session_number: 2,
  });
  const asked = (source: string, at: string) => ({ at, timestamp: at, source });
  const codexWorked = {
    summaries: {
      compaction: null,
      last_message: said('codex:hook', '2026-12-07T21:00:00.000Z'),
      usage_limit: limit,
    },
    requests: [asked('codex:hook', '2026-12-07T20:50:00.000Z')],
  };
  const before = new Date('2026-12-07T22:24:00.000Z');
  const words = 'stopped by a usage limit of Claude Code, session 1, resets at 2026-12-07 22:40 UTC';

  it("still holds for its own agent before the reset, not for the agent that went on; Codex's work ends nothing", () => {
    expect(limitHolding(codexWorked.summaries, codexWorked.requests, before)).toBe(words);
    expect(limitInForce(codexWorked.summaries, codexWorked.requests, before, 'claude-code')).toBe(words);
    expect(limitInForce(codexWorked.summaries, codexWorked.requests, before, 'codex')).toBeNull();
  });

  it('is over once its reset passed, or once its own agent was asked again', () => {
    expect(
      limitHolding(codexWorked.summaries, codexWorked.requests, new Date('2026-12-07T22:41:00.000Z')),
    ).toBeNull();
    // Claude Code asked again (then Codex went on): its turn after the limit is in the requests, its words are not
    const requests = [asked('claude-code:hook', '2026-12-07T20:30:00.000Z'), ...codexWorked.requests];
    expect(limitHolding(codexWorked.summaries, requests, before)).toBeNull();
  });
});

describe('an API error that stopped the last turn', () => {
  const stopped = (text: string) => ({
    compaction: null,
    last_message: null,
    api_error: {
      id: 'sum-2',
      timestamp: '2026-09-24T20:00:00.000Z',
      kind: 'api_error' as const,
      text,
      source: 'claude-code:baton run',
      session_number: 2,
    },
  });

  it('is retried when it passes; a full context is said as what it is, its step to be done in smaller parts', () => {
    expect(apiErrorStop(stopped('API Error: Connection error.'), undefined)).toBe(
      'the last turn ended on an API error (API Error: Connection error.): the request it was on may not have been carried out; retry it',
    );
    // sent again as it was, the same step fills the context again
    expect(apiErrorStop(stopped('Prompt is too long'), undefined)).toBe(
      "the agent's context filled up on the last turn (Prompt is too long), so this session goes on from the compiled context: do the step that turn was on in smaller parts (read or print less at once), not again as it was",
    );
  });
});

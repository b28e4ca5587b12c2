import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { agentSummaries } from '../agent-summaries.js';
import { ParsedTranscript } from '../transcript-types.js';
import { StreamJsonParser, parseStreamJson, type StreamJsonEvent } from './stream-json.js';

const golden = 'stream-json/claude-agent-sdk-gleam/golden/basic_query.ndjson';

/** The gleam capture's single messages (pretty-printed JSON), joined into the stream they came from. */
const gleamRun = () =>
  ['system_message', 'assistant_message', 'user_message', 'result_success']
    .map((name) => JSON.stringify(JSON.parse(readCorpus(`stream-json/claude-agent-sdk-gleam/${name}.json`))))
    .join('\n');

describe('parseStreamJson on real captures', () => {
  it('reads init, the assistant answer and the result of the golden run', () => {
    const t = parseStreamJson(readCorpus(golden));
    expect(ParsedTranscript.parse(t)).toBeTruthy();
    expect(t).toMatchObject({
      format: 'claude-code-stream-json',
      session_id: '1d1e46f9-35c7-4834-b529-846d5bb82288',
      model: 'claude-opus-4-5-20251101',
      cwd: '/home/cyou/claude-agent-sdk-gleam',
      result: { line: 3, subtype: 'success', is_error: false, text: '4' },
    });
    expect(t.usage).toMatchObject({
      cost_usd: 0.1354875,
      duration_ms: 2360,
      num_turns: 1,
      llm_calls: 1,
      context_tokens: 10 + 21570,
      input_tokens: 10,
      cache_creation_input_tokens: 21570,
      output_tokens: 25,
    });
    expect(t.entries.map((e) => [e.role, e.kind, e.text])).toEqual([
      ['assistant', 'text', '4'],
      ['system', 'result', '4'],
    ]);
  });

  it('takes totals and the context window from modelUsage, the tool result from tool_use_result', () => {
    const t = parseStreamJson(gleamRun());
    expect(t.session_id).toBe('40e7b02d-c0f9-4876-9010-f514d4eb0603');
    expect(t.usage).toMatchObject({
      input_tokens: 38,
      output_tokens: 765,
      cache_read_input_tokens: 28775,
      cache_creation_input_tokens: 31159,
      context_window: 200000,
      cost_usd: 0.24722425,
      num_turns: 2,
      context_tokens: 10 + 3556 + 17254,
    });
    const result = t.entries.find((e) => e.kind === 'tool_result');
    expect(result?.tool).toEqual({
      id: 'toolu_01BeipFBP3sUY3EAwVg3qQnE',
      name: 'Bash',
      input: { command: 'ls -la', description: 'List files in current directory' },
      is_error: false,
      exit_code: 0,
    });
  });

  it('tolerates the normalised claudeless capture (placeholders instead of numbers)', () => {
    const t = parseStreamJson(readCorpus('stream-json/claudeless/v2.1.12/stream-json/output.jsonl'));
    expect(t.skipped).toEqual([]);
    expect(t.model).toBe('claude-3-5-haiku-latest');
    expect(t.result).toMatchObject({ subtype: 'success', is_error: false });
    expect(t.usage.cost_usd).toBeNull();
  });
});

describe('StreamJsonParser fed live', () => {
  it('emits init, entries and result as lines complete, whatever the chunk size', () => {
    const text = readCorpus(golden);
    const events: StreamJsonEvent[] = [];
    const parser = new StreamJsonParser({ onEvent: (e) => events.push(e) });
    for (let i = 0; i < text.length; i += 7) parser.push(text.slice(i, i + 7));
    const t = parser.end();
    expect(events.map((e) => e.type)).toEqual(['init', 'entry', 'entry', 'result']);
    expect(events[0]).toMatchObject({
      session_id: '1d1e46f9-35c7-4834-b529-846d5bb82288',
      tools: expect.any(Array),
    });
    expect(t).toEqual(parseStreamJson(text));
  });

  it('reports error results, compaction boundaries and bad lines', () => {
    const lines = [
      JSON.stringify({ type: 'system', subtype: 'init', session_id: 's1', model: 'm', tools: [] }),
      '{not json',
      JSON.stringify({
        type: 'system',
        subtype: 'compact_boundary',
        session_id: 's1',
        compact_metadata: { trigger: 'auto', pre_tokens: 150123 },
      }),
      JSON.stringify({ type: 'assistant', session_id: 's1', message: 'oops' }),
      JSON.stringify({
        type: 'result',
        subtype: 'error_max_turns',
        is_error: true,
        num_turns: 10,
        session_id: 's1',
      }),
    ];
    const t = parseStreamJson(lines.join('\n'));
    expect(t.skipped.map((s) => s.line)).toEqual([2, 4]);
    expect(t.compactions).toEqual([
      { line: 3, at: null, trigger: 'auto', pre_tokens: 150123, post_tokens: null },
    ]);
    const stopped =
      "the agent stopped at its turn limit (--max-turns reached, after 10 turns) before its task was done: give it more turns (a higher `--max-turns` in the agent profile's args, or none) and run it again to go on";
    expect(t.result).toEqual({ line: 5, subtype: 'error_max_turns', is_error: true, text: stopped });
    expect(t.entries.at(-1)).toMatchObject({ role: 'system', kind: 'meta', text: stopped });
  });
});

describe("a headless run's last word", () => {
  it("is the agent's message, not the notice Claude Code writes in its place (a full context, an API error)", () => {
    for (const notice of [
      'Prompt is too long',
      'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    ]) {
      const said = (id: string, text: string) =>
        JSON.stringify({
          type: 'assistant',
          session_id: 's1',
          message: { id, role: 'assistant', content: [{ type: 'text', text }] },
        });
      const lines = [
        JSON.stringify({ type: 'system', subtype: 'init', session_id: 's1', model: 'm', tools: [] }),
        said('m1', 'Adding the parser now.'),
        said('m2', notice),
        JSON.stringify({
          type: 'result',
          subtype: 'success',
          is_error: true,
          result: notice,
          session_id: 's1',
        }),
      ];
      const last = agentSummaries(parseStreamJson(lines.join('\n')).entries).find(
        (x) => x.kind === 'last_message',
      );
      expect(last?.text, notice).toBe('Adding the parser now.');
    }
  });
});

describe('a run Claude Code ended short of its answer', () => {
  const run = (result: Record<string, unknown>) =>
    parseStreamJson(
      [
        JSON.stringify({ type: 'system', subtype: 'init', session_id: 's1', model: 'm', tools: [] }),
        JSON.stringify({
          type: 'assistant',
          session_id: 's1',
          message: {
            id: 'm1',
            role: 'assistant',
            content: [{ type: 'text', text: 'Adding the parser now.' }],
          },
        }),
        JSON.stringify({ type: 'result', session_id: 's1', is_error: true, ...result }),
      ].join('\n'),
    );
  const kinds = (t: ParsedTranscript) => agentSummaries(t.entries).map((x) => x.kind);

  it('says a turn limit, a budget and an error during execution as what they are, none an API error', () => {
    // Claude Code 2.1's words for them: `errors`, no `result`
    const limit = run({
      subtype: 'error_max_turns',
      num_turns: 4,
      errors: ['Reached maximum number of turns (3)'],
    });
    expect(limit.result?.text).toBe(
      "the agent stopped at its turn limit (Reached maximum number of turns (3), after 4 turns) before its task was done: give it more turns (a higher `--max-turns` in the agent profile's args, or none) and run it again to go on",
    );
    const budget = run({ subtype: 'error_max_budget_usd', errors: ['Reached maximum budget ($1)'] });
    expect(budget.result?.text).toMatch(
      /^the agent stopped at its spending limit \(Reached maximum budget \(\$1\)\)/,
    );
    const failed = run({ subtype: 'error_during_execution', errors: ['Tool permission stream closed'] });
    expect(failed.result?.text).toBe(
      "the agent's run ended on an error during execution (error_during_execution): Tool permission stream closed",
    );
    for (const t of [limit, budget, failed]) {
      expect(kinds(t)).toEqual(['last_message']);
      expect(t.entries.filter((e) => e.kind === 'error')).toEqual([]);
    }
  });

  it("keeps an API error, a usage limit and a full context as the API's, whatever the subtype", () => {
    const overloaded =
      'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    for (const [subtype, result] of [
      ['success', overloaded],
      ['error_during_execution', overloaded],
      ['error_during_execution', 'Claude AI usage limit reached|1767225600'],
      ['error_during_execution', 'Prompt is too long'],
    ] as const) {
      const t = run({ subtype, result });
      expect(t.result?.text, result).toBe(result);
      expect(t.entries.at(-1), result).toMatchObject({ kind: 'error', text: result });
      expect(kinds(t), result).toContain(result.startsWith('Claude AI') ? 'usage_limit' : 'api_error');
    }
  });
});

describe('times of lines that state none', () => {
  it("gives stream-json's assistant messages the last time the stream stated, not none (or the import's)", () => {
    const t = parseStreamJson(readCorpus('stream-json/trackgentic/stream.jsonl'));
    const timed = t.entries.filter((e) => e.at !== null);
    const said = t.entries.filter((e) => e.role === 'assistant' && e.kind === 'text' && e.line > 10);
    expect(said.length).toBeGreaterThan(0);
    for (const e of said) {
      expect(e.at, `line ${e.line}`).not.toBeNull();
      expect((e.at ?? '') >= (timed[0]?.at ?? ''), `line ${e.line}`).toBe(true);
    }
    expect(said.at(-1)?.at?.startsWith('2026-05-11T')).toBe(true);
    // the first answer ("Pong!", line 9) comes before any stated time: it is dated by the stream's first one
    const first = t.entries.find((e) => e.role === 'assistant' && e.kind === 'text');
    expect(first?.line).toBe(9);
    expect(first?.at).toBe(t.started_at);
    expect(t.entries.every((e) => e.at !== null)).toBe(true);
  });
});

describe('usage lines that report nothing', () => {
  it('keeps the last context a call reported when later calls carry placeholder usage (all zeros)', () => {
    // trackgentic's stream ends with five assistant lines whose usage is {input_tokens: 0, output_tokens: 0}
    const t = parseStreamJson(readCorpus('stream-json/trackgentic/stream.jsonl'));
    expect(t.usage.context_tokens).toBe(406 + 9600);
    expect(t.usage.peak_context_tokens).toBeGreaterThanOrEqual(t.usage.context_tokens ?? 0);
  });
});

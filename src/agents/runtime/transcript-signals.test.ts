import { describe, expect, it } from 'vitest';
import { claudeCodeDriver } from '../claude-code/claude-code-driver.js';

const model = 'claude-opus-4-5-20251101';
const usage = (context: number) => ({
  input_tokens: 12,
  cache_creation_input_tokens: 1500,
  cache_read_input_tokens: context - 1512,
  output_tokens: 350,
});
const said = (id: string, context: number, content: unknown[]) =>
  JSON.stringify({
    type: 'assistant',
    session_id: 's1',
    message: { model, id, type: 'message', role: 'assistant', content, usage: usage(context) },
  });

/** What Claude Code prints around an auto-compaction: its last reading high, the boundary, the summary, a call. */
const aroundCompaction = [
  JSON.stringify({ type: 'system', subtype: 'init', session_id: 's1', model, tools: [] }),
  said('msg_1', 168_000, [{ type: 'text', text: 'Reading the large logs.' }]),
  JSON.stringify({
    type: 'system',
    subtype: 'compact_boundary',
    session_id: 's1',
    compact_metadata: { trigger: 'auto', pre_tokens: 168_000 },
  }),
  JSON.stringify({
    type: 'user',
    session_id: 's1',
    isSynthetic: true,
    message: { role: 'user', content: 'This session is being continued from a previous conversation.' },
  }),
  said('msg_2', 33_500, [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }]),
].map((l) => `${l}\n`);

const contexts = (signals: { type: string; context_tokens?: number | null }[]) =>
  signals.flatMap((s) =>
    s.type === 'usage' ? [`usage ${s.context_tokens}`] : s.type === 'compaction' ? ['compaction'] : [],
  );

describe('the readings of a live run', () => {
  it('keep the context read just before a compaction when the pipe hands the lines over in one piece', () => {
    // the warning at 70% is read from this reading: lost, the run said the compaction and never the warning
    const whole = claudeCodeDriver.parser().push(aroundCompaction.join(''));
    expect(contexts(whole)).toEqual(['usage 168000', 'compaction', 'usage 33500']);
  });

  it('say each reading once when the lines come one by one', () => {
    const parser = claudeCodeDriver.parser();
    const signals = aroundCompaction.flatMap((l) => parser.push(l));
    expect(contexts(signals)).toEqual(['usage 168000', 'compaction', 'usage 33500']);
  });
});

import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../core/index.js';
import { usageLine } from './usage-line.js';

describe('usageLine', () => {
  it('says the calls a transcript counted', () => {
    const line = usageLine({ ...emptyUsage(), tokens_used: 52_000, llm_calls: 12, tool_calls: 30 });
    expect(line).toBe('usage: 52,000 tokens, 12 calls, 30 tool calls');
  });

  it('leaves out the model calls of a run that reported only its token totals (codex exec --json)', () => {
    const line = usageLine({ ...emptyUsage(), tokens_used: 52_000, llm_calls: 0, tool_calls: 7 });
    expect(line).toBe('usage: 52,000 tokens, 7 tool calls');
  });

  it('says one call as one', () => {
    const line = usageLine({ ...emptyUsage(), tokens_used: 1_200, llm_calls: 1, tool_calls: 1 });
    expect(line).toBe('usage: 1,200 tokens, 1 call, 1 tool call');
  });

  it('after a compaction no reading has followed, says the fill is stale rather than showing it as now', () => {
    const u = {
      ...emptyUsage(),
      tokens_used: 52_000,
      llm_calls: 12,
      context_tokens: 118_834,
      context_window: 200_000,
    };
    expect(usageLine(u)).toMatch(/; context now 118,834 of 200,000$/);
    const at = new Date();
    at.setHours(14, 5);
    const line = usageLine(u, at.toISOString());
    expect(line).toBe(
      'usage: 52,000 tokens, 12 calls; context compacted at 14:05; the fill is read again at the next turn',
    );
  });

  it('a context read before any totals came (the run was cut off) is not said as 0 tokens', () => {
    const u = {
      ...emptyUsage(),
      context_tokens: 20_010,
      context_window: 200_000,
      context_utilization: 0.10005,
    };
    expect(usageLine(u)).toBe('usage: no token totals reported yet; context now 20,010 of 200,000 (10%)');
  });

  it('is null before any usage', () => {
    expect(usageLine(emptyUsage())).toBeNull();
  });
});

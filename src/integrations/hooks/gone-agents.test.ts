import { describe, expect, it } from 'vitest';
import { clearedBy } from './gone-agents.js';
import type { TranscriptSeen } from './hook-log.js';

const seen = (fields: Partial<TranscriptSeen> = {}): TranscriptSeen => ({
  bytes: 10,
  workflow_id: 'wf-1',
  at: '2026-12-03T10:00:00.000Z',
  last_message: null,
  source: 'codex',
  turn_ended: true,
  ...fields,
});

describe('the conversation a /clear ended where no process can be seen', () => {
  const written: Record<string, number> = { '/a.jsonl': 1_000, '/b.jsonl': 2_000, '/c.jsonl': 3_000 };
  const at = (path: string) => written[path] ?? null;
  const codexClear = { agent: 'codex', source: 'clear', transcript: '/new.jsonl' };

  it("is Codex's conversation between turns whose rollout was written last", () => {
    const inTurn = seen();
    delete inTurn.turn_ended;
    const logged = { '/a.jsonl': seen(), '/b.jsonl': seen(), '/c.jsonl': inTurn };
    // c is in a turn (at work elsewhere), so b, the newest between turns
    expect(clearedBy(logged, codexClear, null, at)).toBe('/b.jsonl');
    // one ended already (a SessionEnd) or whose process was seen is not it
    expect(clearedBy({ ...logged, '/b.jsonl': seen({ ended: true }) }, codexClear, null, at)).toBe(
      '/a.jsonl',
    );
  });

  it('is none for Claude Code (its SessionEnd says which ended), another start, or where processes are seen', () => {
    const logged = { '/a.jsonl': seen({ source: 'claude-code' }), '/b.jsonl': seen() };
    expect(clearedBy(logged, { ...codexClear, agent: 'claude-code' }, null, at)).toBeNull();
    expect(clearedBy(logged, { ...codexClear, source: 'startup' }, null, at)).toBeNull();
    expect(clearedBy(logged, codexClear, { pid: 42, started: 7 }, at)).toBeNull();
    // a Claude Code conversation between turns is no Codex /clear's
    expect(clearedBy({ '/a.jsonl': seen({ source: 'claude-code' }) }, codexClear, null, at)).toBeNull();
  });
});

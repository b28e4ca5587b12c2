import { describe, expect, it } from 'vitest';
import { evolveRuntime, SIDE_EFFECT_LIMIT, type RuntimeEvent } from './runtime-fold.js';
import type { SideEffect } from './schemas/runtime.js';
import type { WorkflowState } from './schemas/state.js';

let n = 0;
const recorded = (kind: SideEffect['kind'], summary: string) =>
  ({
    type: 'side_effect.recorded',
    data: {
      effect: {
        id: `fx${++n}`,
        timestamp: '2026-01-01T00:00:00.000Z',
        task_id: null,
        kind,
        tool: 'Bash',
        summary,
      },
    },
  }) as RuntimeEvent;

describe('the side effects the folded state keeps', () => {
  it('keeps the latest of file changes and of the rest apart: many file changes never push a commit out', () => {
    let s = { side_effects: [] } as unknown as WorkflowState;
    s = evolveRuntime(s, recorded('commit', '1a2b3c4 Add the parser'));
    for (let i = 0; i < SIDE_EFFECT_LIMIT + 10; i++)
      s = evolveRuntime(s, recorded('file_write', `edited f${i}.ts`));
    s = evolveRuntime(s, recorded('push', 'pushed main -> main'));
    const kept = s.side_effects ?? [];
    expect(kept.filter((e) => e.kind === 'file_write')).toHaveLength(SIDE_EFFECT_LIMIT);
    // the oldest file changes went; the commit stays first, the push last, in the order they were recorded
    expect(kept[0]?.summary).toBe('1a2b3c4 Add the parser');
    expect(kept[1]?.summary).toBe('edited f10.ts');
    expect(kept.at(-1)?.summary).toBe('pushed main -> main');
    for (let i = 0; i < SIDE_EFFECT_LIMIT; i++) s = evolveRuntime(s, recorded('commit', `c${i}`));
    // the rest, past its own limit: its oldest go (the first commit, then the push), the file changes stay
    const after = s.side_effects ?? [];
    expect(after.filter((e) => e.kind !== 'file_write').map((e) => e.summary)).toEqual(
      Array.from({ length: SIDE_EFFECT_LIMIT }, (_, i) => `c${i}`),
    );
    expect(after.filter((e) => e.kind === 'file_write')).toHaveLength(SIDE_EFFECT_LIMIT);
  });
});

import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '../schemas/snapshot.js';
import { goalOf, keyDecisions } from './context-parts.js';
import { defaultLimits } from './resume-context.js';

const decision = (i: number, rationale = '') => ({
  id: `d${i}`,
  timestamp: `2026-01-01T00:00:0${i}.000Z`,
  task_id: null,
  decision_type: 'approach' as const,
  description: `decision ${i}`,
  rationale,
  alternatives_considered: null,
});

const shown = (decisions: ReturnType<typeof decision>[], room: number) =>
  keyDecisions(
    { issue: null, requests: [], decisions, decisions_total: decisions.length } as unknown as SessionSnapshot,
    { ...defaultLimits, decisions: room },
  );

describe('the decisions and requests the context shows when not all fit', () => {
  it('keeps the latest, then those that say why, newest first, in the order they were made', () => {
    const all = [
      decision(1, 'the API deduplicates already'),
      decision(2),
      decision(3, 'a lock file survives a crash'),
      decision(4),
      decision(5),
    ];
    const r = shown(all, 3);
    expect(r.decisions.map((d) => d.description)).toEqual(['decision 1', 'decision 3', 'decision 5']);
    expect(r.more).toBe(2);
    expect(shown(all, 1).decisions.map((d) => d.description)).toEqual(['decision 5']);
    expect(shown(all, 5).decisions).toHaveLength(5);
    expect(shown(all, 0).decisions).toEqual([]);
  });

  it("keeps the user's latest request, then those that say what the agent may not do", () => {
    const requests = [
      'design the session tracking first',
      "don't produce code, design solution first",
      'what about several tabs in one folder?',
      'option 1 is not acceptable: we never control the claude process',
      'logic is straightforward, reuse HistoryParser',
    ].map((text, i) => ({ id: `r${i}`, text, at: null, timestamp: `2026-01-01T00:00:0${i}.000Z` }));
    const goal = (room: number) =>
      goalOf(
        {
          issue: { id: 'r0', title: 't', description: requests[0]!.text },
          requests,
          decisions: [],
        } as unknown as SessionSnapshot,
        { ...defaultLimits, later_requests: room },
      );
    expect(goal(2).requests.map((r) => r.text)).toEqual([
      'option 1 is not acceptable: we never control the claude process',
      'logic is straightforward, reuse HistoryParser',
    ]);
    expect(goal(2).requests_more).toBe(2);
    expect(goal(3).requests.map((r) => r.text)).toEqual([
      "don't produce code, design solution first",
      'option 1 is not acceptable: we never control the claude process',
      'logic is straightforward, reuse HistoryParser',
    ]);
    expect(goal(1).requests.map((r) => r.text)).toEqual(['logic is straightforward, reuse HistoryParser']);
  });
});

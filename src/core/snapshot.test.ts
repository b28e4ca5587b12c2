import { describe, expect, it } from 'vitest';
import { createWorkflow } from './commands/create.js';
import { Draft } from './draft.js';
import { buildSnapshot } from './snapshot.js';

describe('a snapshot of a workflow with more requests than the state keeps', () => {
  it('holds the recent ones and counts the older ones', () => {
    let n = 0;
    const d = new Draft(
      null,
      { now: '2026-03-01T10:00:00.000Z', newId: (p) => `${p}-${++n}`, actor: 'user' },
      'wf-1',
    );
    createWorkflow(d, { title: 'w', issue: null, worktree: '/w', plan: '', tasks: [], git_start: null });
    for (let i = 1; i <= 32; i++)
      d.emit({
        type: 'request.recorded',
        data: {
          request: {
            id: `r${i}`,
            timestamp: '',
            at: null,
            session_number: 1,
            text: `request ${i}`,
            source: null,
          },
          key: `k${i}`,
        },
      });
    const snap = buildSnapshot(d.state, {
      id: 'snap-1',
      trigger: 'manual',
      reason: null,
      git: { state: null, note: 'not a git repository' },
      now: '2026-03-01T10:00:00.000Z',
    });
    expect(d.state.counts.requests).toBe(32);
    expect(snap.requests.length + (snap.requests_more ?? 0)).toBe(32);
    expect(snap.requests.at(-1)?.text).toBe('request 32');
  });
});

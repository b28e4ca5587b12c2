import { describe, expect, it, vi } from 'vitest';
import { BatonEvent } from './events.js';

/** The union zod keeps once a lazy schema built it (undefined before, and for a schema that is not lazy). */
const built = (schema: typeof BatonEvent) => (schema._zod.def as { _cachedInner?: unknown })._cachedInner;

const event = {
  v: 1,
  workflow_id: 'wf-1',
  seq: 1,
  at: '2026-01-01T00:00:00.000Z',
  actor: 'user',
  session_number: null,
  task_id: null,
  type: 'workflow.started',
  data: {},
};

describe('BatonEvent', () => {
  it('builds the union of the event schemas on its first parse, not when the module loads', async () => {
    // the module loaded anew (the files a test worker ran before this one parsed events with theirs)
    vi.resetModules();
    const fresh = (await import('./events.js')).BatonEvent;
    // a hook or a command that never reads an event log does not pay for it
    expect(built(fresh)).toBeUndefined();
    expect(fresh.safeParse(event).success).toBe(true);
    expect(built(fresh)).toBeDefined();
  });

  it('checks an event as the union does: its type, then its data', () => {
    expect(BatonEvent.parse(event)).toEqual(event);
    const unknown = BatonEvent.safeParse({ ...event, type: 'workflow.exploded' });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]?.path).toEqual(['type']);
    const bad = BatonEvent.safeParse({ ...event, type: 'workflow.pause_deferred', data: { until: 'now' } });
    expect(bad.error?.issues[0]?.path).toEqual(['data', 'until']);
  });
});

import { describe, expect, it } from 'vitest';
import { standingText, takersText } from '../../src/core/queue/work-reach.js';
import * as web from '../../web/src/api/queue-words.js';

describe("the dashboard's queue banner", () => {
  it('names who queued work waits for as `baton status` does: the worker, when there is one', () => {
    expect(web.takersText(1)).toBe('the worker that can take it');
    for (const n of [1, 2, 3, 10]) expect(web.takersText(n)).toBe(takersText(n));
    expect(standingText({ state: 'waiting', priority: 0, takers: 1, stuck: null })).toBe(
      'queued (priority 0), waiting for the worker that can take it',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { workerLine } from './worker-runtime.js';

describe("the worker's stopping line", () => {
  it('says one workflow pauses at its task boundary, several at theirs', () => {
    const stopping = (running: string[]) =>
      workerLine({ event: 'worker.stopping', reason: 'SIGTERM', running }, false);
    expect(stopping(['wf-1'])).toBe(
      'stopping (SIGTERM): no new work; wf-1 pauses at its next task boundary (again to stop it now)',
    );
    expect(stopping(['wf-1', 'wf-2'])).toBe(
      'stopping (SIGTERM): no new work; wf-1, wf-2 pause at their next task boundary (again to stop them now)',
    );
    expect(stopping([])).toBe('stopping (SIGTERM): no new work; nothing running');
  });
});

import { describe, expect, it } from 'vitest';
import { recordError, recordSummary } from './commands/records.js';
import { openErrorsOfState, openErrorsOfWork, unresolvedOfWork } from './errors-of-work.js';
import { needsYouOfState } from './needs-you.js';
import { freshWorkflow } from '../../test/helpers/fresh-workflow.js';

let n = 0;
const ctx = { now: '2026-03-01T10:00:00.000Z', newId: (p: string) => `${p}-${++n}`, actor: 'hook' };
const later = (min: number) => new Date(Date.parse(ctx.now) + min * 60_000).toISOString();
const overloaded =
  'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';

/** A workflow with an error of the work and, after it, the API failing under the agent (its last turn's end). */
function cutOff() {
  const d = freshWorkflow({ title: 'Add CSV export' }, ctx);
  const error = (error_type: string, error_message: string, at: string) =>
    recordError(
      d,
      {
        task_id: null,
        error_type,
        error_message,
        context: null,
        resolution: 'unresolved',
        resolution_notes: null,
      },
      at,
    );
  recordSummary(
    d,
    { kind: 'last_message', text: 'The parser is written; now the writer.', source: 'x' },
    later(1),
  );
  error('command_failed', '`npm test`: Cannot find module x', later(2));
  error('agent_error', `agent: ${overloaded}`, later(3));
  recordSummary(d, { kind: 'api_error', text: overloaded, source: 'x' }, later(3));
  return d;
}

describe('the open errors of the work', () => {
  it('leave out the API failure that cut off the last turn, which stays open in the records', () => {
    const d = cutOff();
    const open = openErrorsOfState(d.state);
    expect(open.counts).toEqual({ open_errors: 2, open_api_failures: 1 });
    expect(open.open_errors.map((e) => e.api_failure ?? null)).toEqual([null, 'cut_off']);
    const work = openErrorsOfWork(open);
    expect(work.n).toBe(1);
    expect(work.newest.map((e) => e.error_type)).toEqual(['command_failed']);
    // the status's lines count and name the error of the work alone
    const needs = needsYouOfState(d.state, { now: later(4), pauseTimeoutMs: 60_000, agentGone: false });
    expect(needs).toEqual([
      expect.stringMatching(/^open errors: 1 \(newest: err-\d+: command_failed: `npm test`/),
    ]);
    expect(unresolvedOfWork(d.state.open_errors, { summaries: d.state.summaries }).length).toBe(1);
  });

  it('leave it out once the agent went on after it, the record not marked fixed', () => {
    const d = cutOff();
    recordSummary(
      d,
      { kind: 'last_message', text: 'Retried: the writer is written.', source: 'x' },
      later(5),
    );
    const open = openErrorsOfState(d.state);
    expect(open.open_errors.map((e) => e.api_failure ?? null)).toEqual([null, 'over']);
    expect(openErrorsOfWork(open).n).toBe(1);
  });

  it('count every open error from a server that does not name API failures', () => {
    const d = cutOff();
    expect(openErrorsOfWork({ counts: { open_errors: 2 }, open_errors: d.state.open_errors }).n).toBe(2);
  });
});

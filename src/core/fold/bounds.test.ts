import { describe, expect, it } from 'vitest';
import { Draft } from '../draft.js';
import { foldEvents } from '../fold.js';
import { freshWorkflow, tasksOf, testContext } from '../../../test/helpers/fresh-workflow.js';
import { makeCheckpoint, takeSnapshot } from '../commands/snapshots.js';
import { markImported, recordError, resolveError } from '../commands/records.js';
import { recordRequest } from '../commands/requests.js';
import { REQUEST_KEYS_KEPT } from './evolve.js';
import type { ErrorRecord } from '../schemas/records.js';
import { OPEN_ERRORS_LIMIT, RECENT_LIMIT } from '../schemas/state.js';
import { listTotals } from './bounds.js';

const git = { state: null, note: 'not a repository' };

/** A workflow with `n` sessions, checkpoints, imported transcripts and open errors, folded event by event. */
function grow(n: number) {
  const d = freshWorkflow(
    { title: 'long', tasks: tasksOf({ id: 'T1', title: 'work' }) },
    testContext({ now: '2026-01-01T00:00:00.000Z', actor: 't' }),
    'wf-big',
  );
  const errors: ErrorRecord[] = [];
  for (let k = 1; k <= n; k++) {
    d.emit({ type: 'session.started', session_number: k, data: { origin: 'resume' } });
    makeCheckpoint(d, `step ${k}`, takeSnapshot(d, 'manual', null, git));
    markImported(d, {
      format: 'claude-code-transcript',
      transcript_session_id: `t-${k}`,
      path: `/transcripts/t-${k}.jsonl`,
      through_line: k,
      through_byte: 100 * k,
      records: 1,
    });
    recordRequest(d, { text: `please do step ${k}`, source: 'hook' });
    errors.push(
      recordError(d, {
        task_id: null,
        error_type: 'test',
        error_message: `failure ${k}`,
        context: null,
        resolution: 'unresolved',
        resolution_notes: null,
      } as Omit<ErrorRecord, 'id' | 'timestamp'>),
    );
  }
  return { d, errors };
}

describe('the folded state is bounded', () => {
  it('has the same serialized size after 3,000 sessions, checkpoints, imports, open errors and requests as after 1,000', () => {
    const size = (n: number) => JSON.stringify(grow(n).d.state).length;
    const small = size(1000);
    const large = size(3000);
    // Only the digits of ids and counters may differ: a few hundred bytes, not O(n).
    expect(large - small).toBeLessThan(2000);
    expect(large).toBeLessThan(64 * 1024);
  });

  it('keeps the recent items, the totals, and every item in the record rows', () => {
    const n = 1500;
    const { d } = grow(n);
    const s = d.state;
    expect(s.sessions.map((x) => x.number)).toEqual(
      Array.from({ length: RECENT_LIMIT }, (_, k) => n - 9 + k),
    );
    expect(s.checkpoints).toHaveLength(RECENT_LIMIT);
    expect(s.checkpoints.at(-1)!.name).toBe(`cp-${n}-step-${n}`);
    expect(Object.keys(s.imports)).toEqual(Array.from({ length: RECENT_LIMIT }, (_, k) => `t-${n - 9 + k}`));
    expect(s.open_errors).toHaveLength(OPEN_ERRORS_LIMIT);
    expect(listTotals(s)).toEqual({ sessions: n, checkpoints: n, open_errors: n, requests: n });
    expect(s.request_keys).toHaveLength(REQUEST_KEYS_KEPT);
    expect(s.recent_requests).toHaveLength(RECENT_LIMIT);
    const kinds = (kind: string) => new Set(d.writes.filter((w) => w.kind === kind).map((w) => w.id)).size;
    expect([
      kinds('session'),
      kinds('checkpoint'),
      kinds('import'),
      kinds('error'),
      kinds('request'),
    ]).toEqual([n, n, n, n, n]);
    // The snapshot says how many open errors it does not list.
    const snap = takeSnapshot(d, 'manual', null, git);
    expect(snap.open_errors_more).toBe(n - OPEN_ERRORS_LIMIT);
  });

  it('resolves an open error older than the state keeps, from its record, and a replay gives the same', () => {
    const { d, errors } = grow(200);
    const oldest = errors[0]!;
    expect(() => resolveError(d, oldest.id, 'fixed', 'old one')).toThrow(/not an error of workflow/);
    resolveError(d, oldest.id, 'fixed', 'old one', oldest);
    expect(listTotals(d.state).open_errors).toBe(199);
    expect(d.state.recent_resolved_errors.at(-1)).toMatchObject({ id: oldest.id, resolution: 'fixed' });
    const replay = foldEvents(d.events);
    expect(replay.state).toEqual(d.state);
    // An event written before resolutions carried the record: the replay finds the error among the rows before it.
    const legacy = d.events.map((e) =>
      e.type === 'error.resolved' ? { ...e, data: { ...e.data, error: undefined } } : e,
    );
    const old = foldEvents(legacy);
    expect(old.state).toEqual(d.state);
    expect(old.writes.filter((w) => w.id === oldest.id).at(-1)!.data).toMatchObject({ resolution: 'fixed' });
  });

  it('loads a state stored before the bound, with its whole lists, and counts from them', () => {
    const { d } = grow(30);
    const legacy = {
      ...d.state,
      counts: { ...d.state.counts, checkpoints: undefined, open_errors: undefined },
      checkpoints: foldEvents(d.events)
        .writes.filter((w) => w.kind === 'checkpoint')
        .map((w) => w.data),
    } as typeof d.state;
    expect(listTotals(legacy)).toMatchObject({ checkpoints: 30, open_errors: OPEN_ERRORS_LIMIT });
    const next = new Draft(legacy, d.ctx);
    makeCheckpoint(next, 'after upgrade', takeSnapshot(next, 'manual', null, git));
    expect(next.state.checkpoints).toHaveLength(RECENT_LIMIT);
    expect(next.state.checkpoints.at(-1)!.name).toBe('cp-31-after-upgrade');
    expect(listTotals(next.state).checkpoints).toBe(31);
  });

  it('writes the record of every import mark that leaves the state, so a state stored before import records loses none', () => {
    const { d } = grow(30);
    // A state of an older version: every import in the state, none of them a record.
    const imports = Object.fromEntries(
      Array.from({ length: 30 }, (_, k) => [
        `t-${k + 1}`,
        { format: 'claude-code-transcript', path: `/t/${k + 1}`, through_line: k + 1 },
      ]),
    );
    const next = new Draft({ ...d.state, imports }, d.ctx);
    markImported(next, {
      format: 'claude-code-transcript',
      transcript_session_id: 't-new',
      path: '/t/new',
      through_line: 1,
      records: 0,
    });
    expect(Object.keys(next.state.imports)).toHaveLength(RECENT_LIMIT);
    const rows = next.writes.filter((w) => w.kind === 'import');
    expect(rows.map((w) => w.id).sort()).toEqual(
      [...Array.from({ length: 21 }, (_, k) => `t-${k + 1}`), 't-new'].sort(),
    );
    expect(rows.find((w) => w.id === 't-3')!.data).toEqual(imports['t-3']);
  });
});

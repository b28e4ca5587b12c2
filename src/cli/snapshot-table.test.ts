import { describe, expect, it } from 'vitest';
import { snapshotsTable } from './snapshot-table.js';

const snap = (id: string, pause_reason: string | null) => ({
  id,
  workflow_id: 'wf-1',
  through_seq: 10,
  session_number: 1,
  trigger: 'pause' as const,
  tasks_completed: 1,
  tasks_remaining: 2,
  created_at: '2026-11-30T08:00:00.000Z',
  pause_reason,
});

describe("the snapshots' table", () => {
  it('cuts a long reason so no row wraps, and says where it is whole', () => {
    const crash =
      'session 1 (Claude Code session e0843e22-7a0b-4c5e-9d1f-1c2b3a4d5e6f) stopped in the middle of its turn: no Stop came and its process is gone; the next session goes on from here';
    const text = snapshotsTable([snap('snap-a', 'end of day'), snap('snap-b', crash)]);
    const rows = text.split('\n');
    expect(rows[2]).toMatch(/ end of day$/);
    expect(rows[3]).toContain('session 1 (Claude Code session');
    expect(rows[3]).not.toContain('the next session goes on from here');
    expect(rows[3]).toMatch(/…$/);
    expect(rows.at(-1)).toBe('(reasons cut to fit: `baton snapshot snap-b` shows one whole)');
    expect(Math.max(...rows.slice(0, 4).map((r) => r.length))).toBeLessThan(crash.length);
  });

  it('names the checkpoint made of a snapshot, and a dash where none was', () => {
    const rows = snapshotsTable([
      { ...snap('snap-a', 'task T1 completed'), checkpoint: 'cp-01-write-schema' },
      snap('snap-b', 'end of day'),
    ]).split('\n');
    expect(rows[0]).toMatch(/^SNAPSHOT\s+CHECKPOINT\s+SESSION\s/);
    expect(rows[2]).toMatch(/^snap-a\s+cp-01-write-schema\s+1\s+pause\s/);
    expect(rows[3]).toMatch(/^snap-b\s+-\s+1\s+pause\s/);
  });

  it('says nothing more when every reason fits', () => {
    const text = snapshotsTable([snap('snap-a', 'end of day'), snap('snap-b', null)]);
    expect(text.split('\n')).toHaveLength(4);
    expect(snapshotsTable([])).toBe('no snapshots yet');
  });
});

import fc from 'fast-check';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BatonEvent, foldEvents, WorkflowState } from '../../src/core/index.js';
import { readRun, runsDirFor } from '../../src/disk/index.js';
import { tempDir } from '../helpers/git-repo.js';
import { sqliteStore, TestClock } from '../helpers/service.js';
import { runScenario } from './disk-round-trip.cases.js';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });

/** One line of an event file: its byte range (newline included) and the event it holds. */
interface Line {
  file: string;
  start: number;
  end: number;
  event: BatonEvent;
}

function eventLines(runDir: string): Line[] {
  const out: Line[] = [];
  for (const path of filesUnder(join(runDir, 'events'))) {
    const bytes = readFileSync(path);
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== 0x0a) continue;
      const { crc32: _, ...json } = JSON.parse(bytes.subarray(start, i).toString('utf8')) as {
        crc32: string;
      };
      BatonEvent.parse(json);
      const event = json as unknown as BatonEvent; // as written: key order kept
      out.push({ file: relative(runDir, path), start, end: i + 1, event });
      start = i + 1;
    }
  }
  return out;
}

/** `FUZZ_RUNS=5000 npx vitest run test/disk/run-reader.fuzz.test.ts` runs the property longer. */
const runs = Number(process.env.FUZZ_RUNS ?? 100);

const mutation = fc.record({
  kind: fc.constantFrom('truncate', 'flip', 'flip', 'delete'),
  file: fc.nat(),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  xor: fc.integer({ min: 1, max: 255 }),
});

describe('reading a damaged run folder', () => {
  let pristine = '';
  let lines: Line[] = [];
  let finalState: WorkflowState;

  beforeAll(async () => {
    const worktree = tempDir('baton-fuzz-wt-');
    const store = sqliteStore();
    const { wf } = await runScenario(store, worktree, new TestClock());
    await store.close();
    pristine = join(runsDirFor(worktree), wf);
    lines = eventLines(pristine);
    finalState = foldEvents([...lines.map((l) => l.event)].sort((a, b) => a.seq - b.seq)).state;
    expect(new Set(lines.map((l) => l.file)).size).toBeGreaterThanOrEqual(3);
  });

  it('reads an intact folder completely and flags nothing', () => {
    const r = readRun(pristine);
    expect(r.problems).toEqual([]);
    expect(r.missing).toEqual([]);
    expect(r.flagged).toBe(false);
    expect(r.events).toEqual([...lines.map((l) => l.event)].sort((a, b) => a.seq - b.seq));
    expect(r.verified).toBe(lines.length);
    expect(r.recovered_with_gaps).toBeNull();
  });

  it(
    'never throws on truncations, byte flips and deleted files, recovers every intact event and takes no damaged one',
    () => {
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (mutations) => {
          const dir = join(tempDir('baton-fuzz-'), basename(pristine));
          cpSync(pristine, dir, { recursive: true });
          const files = filesUnder(dir).sort();
          const damaged = new Map<string, { from: number; to: number }[]>();
          const hit = (file: string, from: number, to: number) =>
            damaged.set(file, [...(damaged.get(file) ?? []), { from, to }]);
          for (const m of mutations) {
            const path = files[m.file % files.length]!;
            const rel = relative(dir, path);
            let bytes: Buffer;
            try {
              bytes = readFileSync(path);
            } catch {
              continue; // deleted by an earlier mutation
            }
            const pos = Math.min(bytes.length - 1, Math.floor(m.at * bytes.length));
            if (m.kind === 'delete' || bytes.length === 0) {
              rmSync(path);
              hit(rel, 0, Infinity);
            } else if (m.kind === 'truncate') {
              writeFileSync(path, bytes.subarray(0, pos));
              hit(rel, pos, Infinity);
            } else {
              bytes[pos] = bytes[pos]! ^ m.xor;
              writeFileSync(path, bytes);
              hit(rel, pos, pos + 1);
            }
          }
          const r = readRun(dir);
          const original = new Map(lines.map((l) => [l.event.seq, l.event]));
          // Damage is detected, not guessed: every event read is the original, byte for byte (key order included).
          for (const e of r.recovered) expect(JSON.stringify(e)).toBe(JSON.stringify(original.get(e.seq)));
          const bySeq = new Map(r.recovered.map((e) => [e.seq, e]));
          const intact = lines.filter(
            (l) => !(damaged.get(l.file) ?? []).some((d) => d.from < l.end && d.to > l.start),
          );
          for (const l of intact) expect(bySeq.get(l.event.seq)).toEqual(l.event);
          const lost = lines.filter((l) => !bySeq.has(l.event.seq));
          if (lost.length) expect(r.flagged).toBe(true);
          // What is imported has no gap: the log from workflow.created, or a workflow.restored and the events after it.
          const first = r.events[0];
          expect(r.events.map((e) => e.seq)).toEqual(r.events.map((_, i) => (first?.seq ?? 1) + i));
          if (first?.type === 'workflow.restored') {
            expect(lost.length).toBeGreaterThan(0);
            expect(r.recovered_with_gaps).toMatchObject({ base: first.seq });
            expect(r.recovered_with_gaps!.lost.length).toBeGreaterThan(0);
            for (const range of r.recovered_with_gaps!.lost)
              for (let s = range.from; s <= range.to; s++) expect(bySeq.has(s)).toBe(false);
            WorkflowState.parse(first.data.state);
            for (const e of r.events.slice(1)) expect(e).toEqual(original.get(e.seq));
            // Rebuilt to the end from a base (no unused events): the tasks are the original's; with an intact
            // workflow-state.json, the status too. Without a base, the readable start stands at the last seq read.
            if (r.stranded > 0) {
              // No base bridged the hole: the readable start of the log, standing at the last seq read.
              const hole = [...original.keys()].sort((a, b) => a - b).find((s) => !bySeq.has(s))!;
              const head = [...original.values()].filter((e) => e.seq < hole).sort((a, b) => a.seq - b.seq);
              expect(r.events).toHaveLength(1);
              expect(first.seq).toBe(r.recovered.at(-1)!.seq);
              expect(r.state!.tasks).toEqual(foldEvents(head).state.tasks);
            }
            if (r.stranded === 0 && r.events.at(-1)!.seq === finalState.version) {
              const tasks = (s: WorkflowState) => s.tasks.map((t) => [t.id, t.status]);
              expect(tasks(r.state!)).toEqual(tasks(finalState));
              if (!damaged.has('workflow-state.json')) expect(r.state!.status).toBe(finalState.status);
            }
          } else {
            expect(r.recovered_with_gaps).toBeNull();
            if (first) expect(first).toEqual(original.get(1));
            r.events.forEach((e) => expect(e).toEqual(original.get(e.seq)));
          }
          if (r.events.length) {
            expect(r.state).not.toBeNull();
            expect(foldEvents(r.events).state.version).toBe(r.events.at(-1)!.seq);
          }
          // Nothing lost: the whole log, as written.
          if (!lost.length) expect(r.events).toEqual([...original.values()].sort((a, b) => a.seq - b.seq));
          rmSync(dir, { recursive: true, force: true });
        }),
        { numRuns: runs },
      );
    },
    Math.max(60_000, runs * 200),
  );
});

import { execFileSync } from 'node:child_process';
import {
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { foldEvents, type BatonEvent, type WorkflowState } from '../../src/core/index.js';
import { DiskMirror, readRun, rebuildFromDisk, runsDirFor, scanRuns } from '../../src/disk/index.js';
import { rebuild } from '../../src/service/index.js';
import type { Store } from '../../src/storage/store.js';
import { tempDir } from '../helpers/git-repo.js';
import { makeService, sqliteStore, TestClock } from '../helpers/service.js';
import { runScenario } from './disk-round-trip.cases.js';

/** Every event line of a run folder: file (relative), byte range, and the event. */
function lineIndex(run: string) {
  const out: { file: string; start: number; end: number; event: BatonEvent }[] = [];
  for (const rel of readdirSync(join(run, 'events'), { recursive: true }).map(String)) {
    if (!rel.endsWith('.jsonl')) continue;
    const path = join(run, 'events', rel);
    const text = readFileSync(path, 'utf8');
    let start = 0;
    for (const line of text.split('\n').slice(0, -1)) {
      const end = start + Buffer.byteLength(line) + 1;
      out.push({ file: path, start, end, event: JSON.parse(line) as BatonEvent });
      start = end;
    }
  }
  return out.sort((a, b) => a.event.seq - b.event.seq);
}

/** Removes one event's line from its file (a hole in the log). */
function dropLine(run: string, seq: number) {
  const l = lineIndex(run).find((x) => x.event.seq === seq)!;
  const bytes = readFileSync(l.file);
  writeFileSync(l.file, Buffer.concat([bytes.subarray(0, l.start), bytes.subarray(l.end)]));
}

/** Flips one letter inside an event's line, leaving valid JSON (a damaged title, say). */
function flipInside(run: string, seq: number, find: string, replace: string) {
  const l = lineIndex(run).find((x) => x.event.seq === seq)!;
  const text = readFileSync(l.file, 'utf8');
  const line = text.slice(l.start, l.end);
  expect(line).toContain(find);
  writeFileSync(l.file, text.slice(0, l.start) + line.replace(find, replace) + text.slice(l.end));
}

const tasksOf = (s: WorkflowState) => s.tasks.map((t) => [t.id, t.status]);

describe('damaged run folders', () => {
  let worktree: string;
  let run: string;
  let wf: string;
  let original: WorkflowState;
  let events: BatonEvent[];

  beforeEach(async () => {
    worktree = tempDir('baton-damage-wt-');
    const store = sqliteStore();
    ({ wf } = await runScenario(store, worktree, new TestClock()));
    original = (await store.loadState(wf))!;
    events = await store.readEvents(wf);
    await store.close();
    run = join(runsDirFor(worktree), wf);
  });

  it('writes a checksum on every line and detects a damaged line that still parses', () => {
    const first = readFileSync(lineIndex(run)[0]!.file, 'utf8').split('\n')[0]!;
    expect(first).toMatch(/,"crc32":"[0-9a-f]{8}"\}$/);
    flipInside(run, 1, '"title":"Add login"', '"title":"Add logim"');
    const r = readRun(run);
    expect(r.recovered.find((e) => e.seq === 1)).toBeUndefined();
    expect(r.problems.map((p) => p.problem).join('\n')).toMatch(/checksum mismatch/);
    expect(r.flagged).toBe(true);
  });

  it('still reads lines written before checksums existed', () => {
    for (const l of lineIndex(run)) {
      const text = readFileSync(l.file, 'utf8');
      writeFileSync(l.file, text.replace(/,"crc32":"[0-9a-f]{8}"\}\n/g, '}\n'));
    }
    const r = readRun(run);
    expect(r.problems).toEqual([]);
    expect(r.verified).toBe(0);
    expect(JSON.stringify(r.events)).toBe(JSON.stringify(events));
  });

  it('rebuilds a run whose first line is damaged from its JSON documents, and says so', async () => {
    flipInside(run, 1, '"title":"Add login"', '"title":"Add logim"');
    const store = sqliteStore();
    const r = await rebuildFromDisk(store, runsDirFor(worktree));
    const x = r.runs.find((y) => y.workflow_id === wf)!;
    expect(x.outcome).toBe('imported');
    expect(x.recovered_with_gaps).toMatchObject({ base: 1, lost: [{ from: 1, to: 1 }] });
    expect(r.skipped).toContain(wf);
    const s = (await store.loadState(wf))!;
    expect(tasksOf(s)).toEqual(tasksOf(original));
    expect(s.status).toBe(original.status);
    expect(s.version).toBe(original.version);
    expect(s.recovered_with_gaps).toMatchObject({ seq: 1, lost: [{ from: 1, to: 1 }] });
    // Every event after the damaged line is in the database as it was.
    expect(JSON.stringify((await store.readEvents(wf)).slice(1))).toBe(JSON.stringify(events.slice(1)));
    // The tables still are what the log folds to.
    const before = JSON.stringify(await store.listRecords(wf, 'decision'));
    await rebuild(store, wf);
    expect(JSON.stringify(await store.listRecords(wf, 'decision'))).toBe(before);
    expect(await store.loadState(wf)).toEqual(s);
    await store.close();
  });

  it('rebuilds a run with a hole from its newest checkpoint or snapshot and the events after it', async () => {
    const checkpointed = events.find((e) => e.type === 'checkpoint.created')!.seq;
    const hole = checkpointed - 3;
    dropLine(run, hole);
    const scan = scanRuns(runsDirFor(worktree), { staleAfterMs: 1e12, now: new Date().toISOString() });
    expect(scan.runs.find((x) => x.workflow_id === wf)!.recovered_with_gaps).toMatchObject({
      lost: [{ from: hole, to: hole }],
    });
    const store = sqliteStore();
    const r = await rebuildFromDisk(store, runsDirFor(worktree));
    const x = r.runs.find((y) => y.workflow_id === wf)!;
    expect(x.recovered_with_gaps!.base).toBeGreaterThan(hole);
    expect(x.recovered_with_gaps!.source).toMatch(/snapshot|checkpoint/);
    const s = (await store.loadState(wf))!;
    expect(tasksOf(s)).toEqual(tasksOf(original));
    expect(s.status).toBe(original.status);
    expect(s.checkpoints.map((c) => c.name)).toEqual(original.checkpoints.map((c) => c.name));
    const svc = makeService(store);
    const status = (await svc.queries.status((await store.loadState(wf))!)) as {
      warnings: string[];
      recovered_with_gaps: unknown;
    };
    expect(status.recovered_with_gaps).toMatchObject({ lost: [{ from: hole, to: hole }] });
    expect(status.warnings[0]).toMatch(new RegExp(`recovered with gaps: .* event\\(s\\) ${hole} are lost`));
    // The rebuilt workflow goes on: a command on it commits after the restored log.
    await svc.record(
      { workflowId: wf },
      { kind: 'history', text: 'after the rebuild', task_id: null, source: null },
    );
    expect((await store.loadState(wf))!.version).toBe(original.version + 1);
    await store.close();
  });

  it('skips FIFOs, sockets and devices with a warning instead of hanging', () => {
    const dir = join(run, 'events', 'user');
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    rmSync(join(run, 'task-graph.json'));
    execFileSync('mkfifo', [join(run, 'task-graph.json')]);
    // a socket bound by its name in the folder: a whole path longer than a socket's (108 bytes) would be cut short
    execFileSync(
      process.execPath,
      ['-e', "require('node:net').createServer().listen('socket.jsonl', () => process.exit(0))"],
      { cwd: dir },
    );
    const r = readRun(run);
    const text = r.problems.map((p) => `${p.file}: ${p.problem}`).join('\n');
    expect(text).toMatch(/fifo\.jsonl: a FIFO: skipped/);
    expect(text).toMatch(/socket\.jsonl: a socket: skipped/);
    expect(text).toMatch(/task-graph\.json: unreadable: .* is a FIFO: skipped/);
    expect(JSON.stringify(r.events)).toBe(JSON.stringify(events));
    const scan = scanRuns(runsDirFor(worktree), { staleAfterMs: 1e12, now: new Date().toISOString() });
    expect(scan.warnings.join('\n')).toMatch(/a FIFO: skipped/);
  });
});

describe('the mirror repairs a damaged run folder from the database', () => {
  async function setup() {
    const worktree = tempDir('baton-repair-wt-');
    const store = sqliteStore();
    const clock = new TestClock();
    const { wf } = await runScenario(store, worktree, clock);
    const svc = makeService(store, { now: clock.now });
    const mirror = new DiskMirror(store, { now: clock.now });
    mirror.attach(svc.runner);
    const run = join(runsDirFor(worktree), wf);
    const touch = async () => {
      await svc.record({ workflowId: wf }, { kind: 'history', text: 'touch', task_id: null, source: null });
      await mirror.flush();
    };
    const intact = async (s: Store) => {
      const r = readRun(run);
      expect(r.problems).toEqual([]);
      expect(r.missing).toEqual([]);
      expect(JSON.stringify(r.events)).toBe(JSON.stringify(await s.readEvents(wf)));
    };
    return { store, wf, run, touch, intact, mirror };
  }

  it('a deleted events/ folder, when a command next touches the run', async () => {
    const { store, run, touch, intact } = await setup();
    rmSync(join(run, 'events'), { recursive: true });
    await touch();
    await intact(store);
    await store.close();
  });

  it('a cut line, when a process starts (catch-up), and says what it repaired', async () => {
    const { store, wf, run, intact } = await setup();
    const last = lineIndex(run).at(-1)!;
    truncateSync(last.file, last.end - 7);
    const report = await new DiskMirror(store).catchUp();
    expect(report.repaired).toEqual([
      { workflow_id: wf, damage: [expect.stringMatching(/^events\/.*\.jsonl was cut/)] },
    ]);
    await intact(store);
    expect((await new DiskMirror(store).catchUp()).repaired).toEqual([]);
    await store.close();
  });

  it('a deleted JSON document', async () => {
    const { store, run, touch, intact } = await setup();
    for (const f of ['task-graph.json', 'manifest.json']) rmSync(join(run, f));
    rmSync(join(run, 'checkpoints'), { recursive: true });
    await touch();
    await intact(store);
    expect(readdirSync(join(run, 'checkpoints')).length).toBeGreaterThan(0);
    await store.close();
  });

  it('leaves an intact folder alone (no read of the event files: sizes only)', async () => {
    const { store, run, touch } = await setup();
    const sizes = () => lineIndex(run).map((l) => [relative(run, l.file), statSync(l.file).size] as const);
    const before = sizes();
    const report = await new DiskMirror(store).catchUp();
    expect(report).toMatchObject({ written: [], repaired: [] });
    expect(sizes()).toEqual(before);
    await touch();
    expect(existsSync(join(run, '.lock'))).toBe(false);
    await store.close();
  });
});

it('`rebuild -w` of an unknown workflow fails with not_found', async () => {
  const store = sqliteStore();
  await expect(rebuild(store, 'wf-nope')).rejects.toMatchObject({ code: 'not_found' });
  await store.close();
});

it('folding the restored log again gives the same state (baton rebuild after a recovery)', async () => {
  const worktree = tempDir('baton-refold-wt-');
  const store = sqliteStore();
  const { wf } = await runScenario(store, worktree, new TestClock());
  await store.close();
  const run = join(runsDirFor(worktree), wf);
  dropLine(run, 3);
  const r = readRun(run);
  expect(r.events[0]!.type).toBe('workflow.restored');
  const a = foldEvents(r.events);
  const b = foldEvents(JSON.parse(JSON.stringify(r.events)) as BatonEvent[]);
  expect(JSON.stringify(b.state)).toBe(JSON.stringify(a.state));
});

it('repairs the folder of a workflow recovered with gaps once, then leaves it alone', async () => {
  const worktree = tempDir('baton-regap-wt-');
  const first = sqliteStore();
  const { wf } = await runScenario(first, worktree, new TestClock());
  await first.close();
  const run = join(runsDirFor(worktree), wf);
  dropLine(run, 3);
  const store = sqliteStore();
  await rebuildFromDisk(store, runsDirFor(worktree));
  expect((await store.loadState(wf))!.recovered_with_gaps).not.toBeNull();
  rmSync(join(run, 'checkpoints'), { recursive: true });
  rmSync(join(run, 'snapshots'), { recursive: true });
  const once = await new DiskMirror(store).catchUp();
  expect(once.repaired.map((r) => r.workflow_id)).toEqual([wf]);
  expect(readdirSync(join(run, 'checkpoints')).length).toBe((await store.loadState(wf))!.checkpoints.length);
  expect((await new DiskMirror(store).catchUp()).repaired).toEqual([]);
  await store.close();
});

it('a hole no checkpoint or snapshot bridges: the readable start stands at the last seq read, so later events never reuse a seq', async () => {
  const worktree = tempDir('baton-nobase-wt-');
  const first = sqliteStore();
  const clock = new TestClock();
  const { other } = await runScenario(first, worktree, clock);
  const original = await first.readEvents(other);
  await first.close();
  expect(original.some((e) => e.type === 'snapshot.taken')).toBe(false);
  const run = join(runsDirFor(worktree), other);
  dropLine(run, 2);
  const store = sqliteStore();
  const r = await rebuildFromDisk(store, runsDirFor(worktree));
  const x = r.runs.find((y) => y.workflow_id === other)!;
  expect(x).toMatchObject({ outcome: 'imported', stranded: original.length - 2 });
  expect(x.recovered_with_gaps).toMatchObject({ base: original.length, lost: [{ from: 2, to: 2 }] });
  expect(x.problems.map((p) => p.problem).join('\n')).toMatch(
    /event 2 is missing: the \d+ event\(s\) after it are not used/,
  );
  const s = (await store.loadState(other))!;
  expect(s.version).toBe(original.length);
  expect(s.tasks).toEqual(foldEvents(original.slice(0, 1)).state.tasks);
  const svc = makeService(store, { now: clock.now });
  const mirror = new DiskMirror(store, { now: clock.now });
  mirror.attach(svc.runner);
  await svc.record({ workflowId: other }, { kind: 'history', text: 'after', task_id: null, source: null });
  await mirror.flush();
  const after = readRun(run);
  expect(after.problems.map((p) => p.problem).join('\n')).not.toMatch(/claim seq/);
  expect(after.recovered.at(-1)).toMatchObject({ seq: original.length + 1, type: 'history.recorded' });
  await store.close();
});

it('an intact folder is never "repaired": a snapshot or checkpoint taken since its last sync is written, not missing', async () => {
  const store = sqliteStore();
  const clock = new TestClock();
  const svc = makeService(store, { now: clock.now });
  const mirror = new DiskMirror(store, { now: clock.now });
  mirror.attach(svc.runner);
  const worktree = tempDir('baton-intact-wt-');
  const wf = (
    await svc.create({
      title: 'intact',
      tasks: [
        { id: 'T1', title: 'one' },
        { id: 'T2', title: 'two', deps: ['T1'] },
      ],
      worktree,
    })
  ).id;
  const ref = { workflowId: wf };
  await mirror.flush();
  await svc.startTask(ref, 'T1');
  await mirror.flush();
  await svc.completeTask(ref, 'T1', 'ok'); // a snapshot and a checkpoint, mirrored by the sync that follows
  await mirror.flush();
  await svc.pause(ref, { reason: 'night', force: true });
  await mirror.flush();
  await svc.resume(ref);
  await mirror.flush();
  await svc.interrupt(ref, 'crash'); // recovery.json arrives with the sync that mirrors the interruption
  await mirror.flush();
  expect([...mirror.repaired.values()]).toEqual([]);
  const run = join(runsDirFor(worktree), wf);
  expect(existsSync(join(run, 'recovery.json'))).toBe(true);
  expect(readdirSync(join(run, 'checkpoints')).length).toBeGreaterThan(0);
  await store.close();
});

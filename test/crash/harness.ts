import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { foldEvents, recordKinds, type RecordRow } from '../../src/core/index.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { Durability, Store } from '../../src/storage/store.js';
import { tempDir } from '../helpers/git-repo.js';
import { crashDriver } from './driver-bundle.js';

const driver = await crashDriver();

interface Batch {
  wf: string;
  from: number;
  to: number;
  records?: string[];
}
export type Line =
  { t: 'begin' | 'ack'; b: Batch[] } | { t: 'ready' } | { t: 'wf'; wf: string } | { t: 'refused' };

export interface CrashOptions {
  /** A SQLite path or postgres:// URL every child and the checker open. */
  database: string;
  /** Opens the checker's own store on the database. */
  open: () => Promise<Store>;
  kills: number;
  /** Waits until the server has let go of a killed child's connections (PostgreSQL), by application name. */
  settle?: (appName: string) => Promise<void>;
  /** Children running at once, each on its own workflows (lane 0 at full durability, lane 1 at normal, ...). */
  lanes?: number;
}

export interface CrashReport {
  kills: number;
  acknowledged: number;
  inFlightAtKill: number;
  events: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts one child, kills it with SIGKILL at a random moment, and returns the lines it had printed. */
async function runChild(
  database: string,
  durability: Durability,
  workflow: string | null,
  appName: string,
): Promise<Line[]> {
  const args = [
    driver,
    '--database',
    database,
    '--durability',
    durability,
    '--worktree',
    tempDir('baton-crash-wt-'),
  ];
  if (workflow) args.push('--workflow', workflow);
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PGAPPNAME: appName },
  });
  let out = '';
  let err = '';
  let ready: () => void = () => undefined;
  let acked: () => void = () => undefined;
  const isReady = new Promise<void>((r) => (ready = r));
  const hasAcked = new Promise<void>((r) => (acked = r));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('"t":"ready"')) ready();
    if (out.includes('"t":"ack"')) acked();
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  // Mostly while it writes (once it has written: a loaded machine must not turn this into a test of startup);
  // sometimes while it is still starting (opening, migrating).
  if (Math.random() < 0.1) await sleep(Math.random() * 150);
  else {
    await Promise.race([isReady, exited]);
    await Promise.race([hasAcked, exited, sleep(10_000)]);
    await sleep(Math.random() * 120);
  }
  const killed = child.kill('SIGKILL');
  const code = await exited;
  if (!killed || code !== null) throw new Error(`the crash driver exited on its own (code ${code}):\n${err}`);
  return out
    .split('\n')
    .filter((l) => l.endsWith('}'))
    .map((l) => JSON.parse(l) as Line);
}

const key = (r: RecordRow) => `${r.kind}/${r.id}`;

/**
 * Checks one killed child's workflows: no half commit, tables == rebuild(events), and acknowledged writes present.
 * `normal` durability (after a power cut) may lose the last acknowledged commits: the log must then end at a commit
 * boundary, at or after the version the child started from, and `lostAcked` counts the acknowledged commits lost.
 */
export async function verify(
  store: Store,
  lines: Line[],
  startVersions: Map<string, number>,
  durability: Durability = 'full',
): Promise<{ acked: number; inFlight: number; lostAcked: number }> {
  const lastAck = new Map<string, number>();
  const pendingBegin = new Map<string, number>();
  const firstFrom = new Map<string, number>();
  const boundaries = new Map<string, Set<number>>();
  const ackedBatches: { wf: string; to: number; records: string[] }[] = [];
  let acked = 0;
  for (const line of lines) {
    if (line.t === 'begin')
      for (const b of line.b) {
        pendingBegin.set(b.wf, b.to);
        if (!firstFrom.has(b.wf)) firstFrom.set(b.wf, b.from);
        boundaries.set(b.wf, new Set([...(boundaries.get(b.wf) ?? [b.from]), b.from, b.to]));
      }
    if (line.t === 'ack')
      for (const b of line.b) {
        acked++;
        lastAck.set(b.wf, b.to);
        pendingBegin.delete(b.wf);
        ackedBatches.push({ wf: b.wf, to: b.to, records: b.records ?? [] });
      }
  }
  const touched = new Set([...lastAck.keys(), ...pendingBegin.keys()]);
  const lastOf = new Map<string, number>();
  for (const wf of touched) {
    const events = await store.readEvents(wf);
    const state = await store.loadState(wf);
    const last = events.length;
    lastOf.set(wf, last);
    expect(
      events.map((e) => e.seq),
      `gap in the log of ${wf}`,
    ).toEqual(events.map((_, i) => i + 1));
    // The version the child last saw acknowledged (or found when it began: its predecessor's last commit).
    const before = lastAck.get(wf) ?? firstFrom.get(wf) ?? startVersions.get(wf) ?? 0;
    if (durability === 'full') {
      const allowed = [before, pendingBegin.get(wf)].filter((v) => v !== undefined);
      expect(allowed, `${wf}: log ends at ${last}; acknowledged up to ${before}`).toContain(last);
    } else {
      const start = firstFrom.get(wf) ?? startVersions.get(wf) ?? 0;
      expect(
        last,
        `${wf}: log ends at ${last}, before the version ${start} the child started from`,
      ).toBeGreaterThanOrEqual(start);
      expect([...(boundaries.get(wf) ?? [start])], `${wf}: log ends at ${last}, inside a commit`).toContain(
        last,
      );
    }
    if (last === 0) {
      expect(state).toBeNull();
      continue;
    }
    const folded = foldEvents(events);
    expect(state, `${wf}: stored state differs from the fold of its events`).toEqual(folded.state);
    const expected = new Map(folded.writes.map((w) => [key(w), w]));
    const stored = new Map<string, RecordRow>();
    for (const kind of recordKinds) for (const r of await store.listRecords(wf, kind)) stored.set(key(r), r);
    expect(stored, `${wf}: stored records differ from the fold of its events`).toEqual(expected);
    startVersions.set(wf, last);
  }
  let lostAcked = 0;
  for (const b of ackedBatches) {
    if (b.to > (lastOf.get(b.wf) ?? 0)) {
      lostAcked++;
      continue;
    }
    for (const rec of b.records) {
      const [kind, id] = rec.split('/') as [RecordRow['kind'], string];
      expect(
        await store.getRecord(b.wf, kind, id),
        `acknowledged record ${rec} of ${b.wf} is missing`,
      ).not.toBeNull();
    }
  }
  if (durability === 'full') expect(lostAcked, 'acknowledged commits lost at durability full').toBe(0);
  return { acked, inFlight: pendingBegin.size, lostAcked };
}

/** One lane: children one after the other, each continuing the workflow its killed predecessor left. */
async function lane(
  o: CrashOptions,
  store: Store,
  index: number,
  durability: Durability,
  kills: number,
  report: CrashReport,
) {
  const versions = new Map<string, number>();
  let workflow: string | null = null;
  for (let k = 0; k < kills; k++) {
    const appName = `baton-crash-${index}-${k}`;
    const lines = await runChild(o.database, durability, workflow, appName);
    await o.settle?.(appName);
    const r = await verify(store, lines, versions);
    report.kills++;
    report.acknowledged += r.acked;
    report.inFlightAtKill += r.inFlight;
    let wf: string | undefined;
    for (const l of lines) {
      if (l.t === 'wf') wf = l.wf;
      if (l.t === 'begin' || l.t === 'ack') wf = l.b[0]?.wf ?? wf;
    }
    const s = wf ? await store.loadState(wf) : null;
    workflow = s && s.status !== 'completed' ? s.id : null;
    if (o.database.endsWith('.db') && k % 20 === 19)
      expect((store as SqliteStore).integrityCheck()).toBe('ok');
  }
}

/** Kills `kills` children in all, spread over the lanes, and checks the database after every kill. */
export async function crashHarness(o: CrashOptions): Promise<CrashReport> {
  const lanes = o.lanes ?? 2;
  const store = await o.open();
  const report: CrashReport = { kills: 0, acknowledged: 0, inFlightAtKill: 0, events: 0 };
  try {
    const modes: Durability[] = ['full', 'normal'];
    await Promise.all(
      Array.from({ length: lanes }, (_, i) =>
        lane(o, store, i, modes[i % 2]!, Math.ceil(o.kills / lanes), report),
      ),
    );
    if (store instanceof SqliteStore) expect(store.integrityCheck()).toBe('ok');
    report.events = (await store.readEventsSince(0, 10_000_000)).length;
  } finally {
    await store.close();
  }
  return report;
}

import { spawn } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { Durability } from '../../src/storage/store.js';
import { tempDir } from '../helpers/git-repo.js';
import { PowerFs } from '../helpers/powerfs.js';
import { crashDriver } from './driver-bundle.js';
import { verify, type Line } from './harness.js';

const driver = await crashDriver();

export interface LaneReport {
  durability: Durability;
  acknowledged: number;
  /** Acknowledged commits missing after a cut (must be 0 at `full`). */
  lostAcknowledged: number;
  /** Cuts after which at least one acknowledged commit was missing. */
  cutsWithLoss: number;
  events: number;
}

export interface PowerLossReport {
  cuts: number;
  tornCuts: number;
  bytesDropped: number;
  lanes: LaneReport[];
}

interface Running {
  done: Promise<number | null>;
  lines: () => Line[];
  acks: () => number;
  kill: () => void;
  stderr: () => string;
}

/** Starts the crash driver on `database` (on the powerfs mount). */
function start(database: string, durability: Durability, workflow: string | null): Running {
  const args = [
    driver,
    ...['--database', database, '--durability', durability, '--worktree', tempDir('baton-pl-wt-')],
    ...['--checkpoint-every', String(3 + Math.floor(Math.random() * 10))],
  ];
  if (workflow) args.push('--workflow', workflow);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.endsWith('}'))
      .map((l) => JSON.parse(l) as Line);
  return {
    done: new Promise((ok) => child.on('close', (code) => ok(code))),
    lines,
    acks: () => out.split('"t":"ack"').length - 1,
    kill: () => child.kill('SIGKILL'),
    stderr: () => err,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until every child acknowledged at least its target number of commits (or one ended on its own). */
async function untilAcked(children: Running[], targets: number[], deadlineMs: number) {
  const deadline = Date.now() + deadlineMs;
  let ended = false;
  void Promise.race(children.map((c) => c.done)).then(() => (ended = true));
  while (!ended && children.some((c, i) => c.acks() < targets[i]!)) {
    if (Date.now() > deadline)
      throw new Error(
        `the crash drivers acknowledged ${children.map((c) => c.acks()).join(', ')} commits in ${deadlineMs} ms`,
      );
    await sleep(10);
  }
}

/** A directory made durable on the powerfs (as an installer would): created, then its parent fsynced. */
function durableDir(parent: string, name: string): string {
  const dir = join(parent, name);
  mkdirSync(dir);
  const fd = openSync(parent, 'r');
  fsyncSync(fd);
  closeSync(fd);
  return dir;
}

/**
 * The power-loss harness: Baton's SQLite store on powerfs (test/helpers/powerfs), one writer at durability `full`
 * and one at `normal`, each on its own database. At every cut both writers are SIGKILLed after a random number of
 * acknowledged commits, the power is cut (every other cut torn: a random part of the unsynced writes survives),
 * and each database is opened and checked: at `full` every acknowledged commit is there; at `normal` the last
 * ones may be missing but never half of one; always tables == fold(events) and integrity_check ok.
 */
export async function powerLossHarness(cuts: number): Promise<PowerLossReport> {
  const fs = await PowerFs.mount();
  const modes: Durability[] = ['full', 'normal'];
  const report: PowerLossReport = {
    cuts: 0,
    tornCuts: 0,
    bytesDropped: 0,
    lanes: modes.map((durability) => ({
      durability,
      acknowledged: 0,
      lostAcknowledged: 0,
      cutsWithLoss: 0,
      events: 0,
    })),
  };
  try {
    const databases = modes.map((m) => join(durableDir(fs.dir, m), 'baton.db'));
    const versions = modes.map(() => new Map<string, number>());
    const workflows: (string | null)[] = modes.map(() => null);
    for (let k = 0; k < cuts; k++) {
      const children = modes.map((m, i) => start(databases[i]!, m, workflows[i]!));
      await untilAcked(
        children,
        modes.map(() => 1 + Math.floor(Math.random() * 30)),
        60_000,
      );
      await sleep(Math.random() * 20);
      children.forEach((c) => c.kill());
      const codes = await Promise.all(children.map((c) => c.done));
      codes.forEach((code, i) => {
        if (code !== null)
          throw new Error(`the crash driver exited on its own (code ${code}):\n${children[i]!.stderr()}`);
      });
      const torn = k % 2 === 1;
      const stats = await fs.cut(torn ? Math.floor(Math.random() * 2 ** 31) : undefined);
      report.cuts++;
      if (torn) report.tornCuts++;
      report.bytesDropped += stats.bytes_dropped;
      if ((k + 1) % 25 === 0) process.stderr.write(`power-loss: ${k + 1}/${cuts} cuts\n`);
      for (let i = 0; i < modes.length; i++) {
        const store = new SqliteStore(databases[i]!);
        try {
          const lines = children[i]!.lines();
          const r = await verify(store, lines, versions[i]!, modes[i]);
          const lane = report.lanes[i]!;
          lane.acknowledged += r.acked;
          lane.lostAcknowledged += r.lostAcked;
          if (r.lostAcked) lane.cutsWithLoss++;
          let wf: string | undefined;
          for (const l of lines) {
            if (l.t === 'wf') wf = l.wf;
            if (l.t === 'begin' || l.t === 'ack') wf = l.b[0]?.wf ?? wf;
          }
          const s = wf ? await store.loadState(wf) : null;
          workflows[i] = s && s.status !== 'completed' ? s.id : null;
          // integrity_check reads every page: after the first cuts, every 10th and the last (the databases grow).
          if (k < 5 || k % 10 === 9 || k === cuts - 1)
            expect(store.integrityCheck(), `${modes[i]} database after cut ${k + 1}`).toBe('ok');
          if (k === cuts - 1) lane.events = (await store.readEventsSince(0, 10_000_000)).length;
        } finally {
          await store.close();
        }
      }
    }
  } finally {
    await fs.unmount();
  }
  return report;
}

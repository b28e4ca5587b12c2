import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uuid6 } from '@langchain/langgraph-checkpoint';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { BatonSaver } from '../dist/integrations/langgraph/index.js';
import { fmt, percentiles } from './stats.js';

const words =
  'the agent ran tests refactor module parser failing passed because fixed issue branch commit review design store event snapshot resume context budget token worker queue retry timeout'.split(
    ' ',
  );
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const sentence = (n) => Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(' ');
const message = (i) => ({ role: i % 2 ? 'assistant' : 'user', id: `msg-${i}`, content: sentence(60) });

/** The checkpoint of step `i` of a thread whose `messages` so far are given (a state that grows). */
function stepCheckpoint(saver, i, messages, versions) {
  const newVersions = {};
  for (const ch of ['messages', 'step', 'branch:to:agent']) {
    versions[ch] = saver.getNextVersion(versions[ch]);
    newVersions[ch] = versions[ch];
  }
  const checkpoint = {
    v: 4,
    id: uuid6(i),
    ts: new Date().toISOString(),
    channel_values: { messages: [...messages], step: i, 'branch:to:agent': null },
    channel_versions: { ...versions },
    versions_seen: { agent: { 'branch:to:agent': versions['branch:to:agent'] } },
  };
  return { checkpoint, newVersions };
}

const baton = async (file) => {
  const saver = BatonSaver.fromConnString(file, { durability: 'normal' });
  await saver.setup(); // opened and migrated before timing, as SqliteSaver's setup() below
  return { saver, close: () => saver.end() };
};
const sqliteSaver = async (file) => {
  const saver = SqliteSaver.fromConnString(file);
  saver.setup(); // journal_mode=WAL
  saver.db.pragma('synchronous = NORMAL'); // the same durability as BatonSaver's `normal`, said explicitly
  return { saver, close: () => saver.db.close() };
};

/** Times `fn` on each saver in turn, the order alternating, so that both see the same moment of the machine. */
async function paired(savers, k, fn) {
  const order = k % 2 ? [...savers].reverse() : savers;
  for (const s of order) {
    const t0 = performance.now();
    await fn(s);
    s.times.push(performance.now() - t0);
  }
}

export async function benchLanggraph({ quick = false } = {}) {
  const steps = quick ? 150 : 400;
  const reads = quick ? 100 : 300;
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-lg-'));
  try {
    const savers = [];
    for (const [name, make] of [
      ['baton', baton],
      ['sqlite', sqliteSaver],
    ]) {
      const file = join(dir, `${name}.db`);
      savers.push({ name, file, ...(await make(file)), times: [], versions: {}, config: null });
    }
    // one thread of agent steps, each saver's step right after the other's: each step appends a message, bumps
    // `step`, and stores the node's pending write, as a graph run does
    const messages = [];
    for (const s of savers) s.config = { configurable: { thread_id: 'bench', checkpoint_ns: '' } };
    for (let i = 0; i < steps; i++) {
      messages.push(message(i));
      await paired(savers, i, async (s) => {
        const { checkpoint, newVersions } = stepCheckpoint(s.saver, i, messages, s.versions);
        s.config = await s.saver.put(
          s.config,
          checkpoint,
          { source: 'loop', step: i, parents: {} },
          newVersions,
        );
        await s.saver.putWrites(s.config, [['messages', [message(i + 1)]]], `task-${i}`);
      });
    }
    const put = savers.map((s) => ({
      p50: percentiles(s.times).p50,
      total: s.times.reduce((a, b) => a + b, 0),
    }));
    const latest = { configurable: { thread_id: 'bench', checkpoint_ns: '' } };
    for (const s of savers) s.times = [];
    for (let k = 0; k < reads; k++)
      await paired(savers, k, async (s) => {
        const t = await s.saver.getTuple(latest);
        if (t.checkpoint.channel_values.messages.length !== steps) throw new Error('wrong latest checkpoint');
      });
    const get = savers.map((s) => percentiles(s.times).p50);
    for (const s of savers) s.times = [];
    for (let k = 0; k < 6; k++)
      await paired(savers, k, async (s) => {
        let n = 0;
        for await (const t of s.saver.list(latest)) n += t.checkpoint.channel_values.messages.length ? 1 : 0;
        if (n !== steps) throw new Error(`list returned ${n} checkpoints`);
      });
    const list = savers.map((s) => percentiles(s.times).p50);
    for (const s of savers) await s.close();
    const bytes = savers.map((s) => statSync(s.file).size);
    const x = (i, of) => `${fmt(of[1] / of[0], 1)}x`;
    return [
      {
        name: `put + putWrites, p50 over ${steps} steps of a growing state`,
        value: x(
          0,
          put.map((p) => p.p50),
        ),
        note: `BatonSaver ${fmt(put[0].p50, 3)} ms, SqliteSaver ${fmt(put[1].p50, 3)} ms (all steps: ${fmt(put[0].total)} vs ${fmt(put[1].total)} ms)`,
      },
      {
        name: `getTuple of the latest checkpoint (${steps} messages), p50`,
        value: x(0, get),
        note: `BatonSaver ${fmt(get[0], 3)} ms, SqliteSaver ${fmt(get[1], 3)} ms`,
      },
      {
        name: `list of a thread of ${steps} checkpoints, p50 of 6`,
        value: x(0, list),
        note: `BatonSaver ${fmt(list[0], 1)} ms, SqliteSaver ${fmt(list[1], 1)} ms`,
      },
      {
        name: `database size after ${steps} steps`,
        value: `${x(0, bytes)} smaller`,
        note: `BatonSaver ${fmt(bytes[0] / 1024)} KiB, SqliteSaver ${fmt(bytes[1] / 1024)} KiB`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

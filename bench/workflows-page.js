import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as git from '../dist/git/git.js';
import { LocalClient } from '../dist/client/local-client.js';
import { isTerminal, needsYou } from '../dist/core/index.js';
import { goneAgentsOf, watchAgents } from '../dist/integrations/hooks/agent-watch.js';
import { BatonService } from '../dist/service/index.js';
import { SqliteStore } from '../dist/storage/sqlite/sqlite-store.js';
import { fmt } from './stats.js';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** The records of a workflow at work: history lines, a decision now and then, errors (one in four left open). */
const record = (i) =>
  i % 25 === 7
    ? {
        kind: 'error',
        error: {
          error_type: 'test_failure',
          error_message: `FAIL src/login.test.ts > case ${i}`,
          context: null,
          resolution: i % 100 === 7 ? 'unresolved' : 'fixed',
          resolution_notes: null,
          task_id: null,
        },
      }
    : i % 20 === 3
      ? {
          kind: 'decision',
          decision: {
            decision_type: 'approach',
            description: `decision ${i}`,
            rationale: 'because',
            alternatives_considered: null,
            task_id: null,
          },
        }
      : { kind: 'history', text: `step ${i}: ran the tests`, task_id: null, source: 'bench' };

/**
 * The work of GET /api/sessions, which the dashboard's Workflows page polls: the sessions table with each row's
 * `needs_you`, read from the states the table loads, beside the way it was read before (the table, then each
 * unfinished workflow's whole status, as its page reads it) and beside the store's read of every state alone.
 */
export async function benchWorkflowsPage({ quick = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-page-'));
  try {
    const workflows = 200;
    const events = 200;
    const store = new SqliteStore(join(dir, 'bench.db'), { durability: 'normal' });
    const svc = new BatonService(store, git, { pauseTimeoutMs: 300_000, staleAfterMs: 7 * 86_400_000 });
    let total = 0;
    for (let w = 0; w < workflows; w++) {
      const worktree = join(dir, `wt-${w}`);
      mkdirSync(worktree);
      const wf = await svc.create({
        title: `workflow ${w}`,
        tasks: [
          { id: 'T1', title: 'schema' },
          { id: 'T2', title: 'api', deps: ['T1'] },
        ],
        worktree,
      });
      const ref = { workflowId: wf.id };
      await svc.startTask(ref, 'T1');
      const s = await store.loadState(wf.id);
      const left = events - s.version - (w % 10 === 0 ? 1 : 0);
      await svc.recordBatch(
        ref,
        Array.from({ length: left }, (_, i) => record(i)),
      );
      // one in ten has a pause waiting for its task
      if (w % 10 === 0) await svc.pause(ref, { reason: 'lunch' });
      total += (await store.loadState(wf.id)).version;
    }
    // the hooks' watch as `baton serve` gives it, over a home no hook wrote in: the whole of it for a status (as the
    // route read it before), the agents gone alone for the table
    const home = join(dir, 'home');
    const watch = (s) => watchAgents(s, home);
    const goneAgents = (w) => goneAgentsOf(w, home);
    const client = new LocalClient(svc);

    const cases = {
      floor: async () => (await store.listWorkflows()).length,
      now: async () => (await client.sessions({ goneAgents })).length,
      // the route before: the table, then every unfinished workflow's status, with the watch, for needsYou
      before: async () => {
        const rows = await client.sessions();
        const said = await Promise.all(
          rows
            .filter((r) => !isTerminal(r.status))
            .map(async (r) => {
              const s = await client.status({ workflowId: r.id });
              return needsYou({ ...s, gone_agents: watch(s).gone_agents });
            }),
        );
        return said.length;
      },
    };
    const check = await client.sessions({ goneAgents });
    const needing = check.filter((r) => r.needs_you.length).length;
    const times = { floor: [], now: [], before: [] };
    const ratios = [];
    const rounds = quick ? 8 : 30;
    const order = ['floor', 'now', 'before'];
    for (let round = 0; round < rounds + 2; round++) {
      const took = {};
      for (let k = 0; k < order.length; k++) {
        const key = order[(k + round) % order.length];
        const t0 = performance.now();
        await cases[key]();
        took[key] = performance.now() - t0;
      }
      if (round < 2) continue; // warm-up
      for (const key of order) times[key].push(took[key]);
      ratios.push(took.before / took.now);
    }
    await svc.close();
    const m = Object.fromEntries(order.map((k) => [k, median(times[k])]));
    const what = `${workflows} workflows of ${fmt(total / workflows)} events each, ${needing} needing their user`;
    return [
      {
        name: `the store's read of every workflow's state (the floor), ${what}`,
        value: `${fmt(m.floor, 1)} ms`,
        note: `median of ${rounds} rounds`,
      },
      {
        name: "GET /api/sessions work before: the table, then each unfinished workflow's whole status for needs_you",
        value: `${fmt(m.before, 1)} ms`,
        note: `${fmt(m.before / m.floor, 1)}x the floor`,
      },
      {
        name: 'GET /api/sessions work now: needs_you read from the states the table loads',
        value: `${fmt(m.now, 1)} ms`,
        note: `${fmt(m.now / m.floor, 1)}x the floor; ${fmt(median(ratios), 1)}x faster than before (median of the ratios within each round)`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueStanding } from '../../src/core/index.js';
import { fakeClaude } from '../helpers/agent-workspace.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { until } from '../helpers/until.js';
import {
  agentRuns,
  fakeLogIn,
  readTeam,
  spawnWorker,
  teamWork,
  type WorkerProcess,
} from '../helpers/worker-team.js';

const started: WorkerProcess[] = [];
const worker = (...a: Parameters<typeof spawnWorker>) => {
  const w = spawnWorker(...a);
  started.push(w);
  return w;
};
afterEach(async () => {
  for (const w of started.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await w.exited;
  }
});

interface Entry {
  workflow_id: string;
  state: string;
  outcome: string | null;
  attempts: number;
}

/**
 * A worker whose machine lacks the agent claims submitted work and cannot start it: the work is not lost. Real
 * `baton worker` processes on one SQLite file (the queue's SQL on PostgreSQL is the conformance suite's), the CLI read
 * as a person reads it.
 */
describe('work a worker cannot start', () => {
  it('stays queued with why; that worker leaves it until it is submitted again, and a worker with the agent runs it', async () => {
    const db = join(tempDir('baton-cannot-start-'), 'baton.db');
    const team = await teamWork(db, 2);
    const [first, second] = team.items as [(typeof team.items)[0], (typeof team.items)[0]];
    const log = fakeLogIn(team.home);
    const fast = ['--poll', '100ms', '--lease-ttl', '3s'];
    // submitted without --agent-bin: each worker starts the agent it has
    const submit = (item: { repo: string }, ...args: string[]) =>
      runCli(['--json', 'submit', '--agent', 'claude-code', ...args], { cwd: item.repo, env: team.env });
    const queue = async () =>
      (await runCli(['--json', 'queue'], { cwd: first.repo, env: team.env })).json<{ entries: Entry[] }>()
        .entries;
    const entry = async (id: string) => (await queue()).find((e) => e.workflow_id === id)!;
    expect((await submit(first, '--priority', '5')).code).toBe(0);

    const missing = join(tempDir('baton-no-agent-'), 'claude');
    const broken = worker(db, ['--worktree-root', dirname(first.repo), '--agent-bin', missing, ...fast], {
      FAKE_LOG: log,
    });
    await until('the worker to fail to start it', () =>
      broken.lines().some((l) => l.event === 'work.error' && l.workflow_id === first.id),
    );
    await until('the refusal to be recorded', async () => (await entry(first.id)).outcome);
    const refused = await entry(first.id);
    expect(refused).toMatchObject({ state: 'queued', attempts: 1 });
    expect(refused.outcome).toMatch(
      new RegExp(`^pid \\d+ on .+ could not start it: cannot start the agent: ${missing} was not found`),
    );
    expect((await runCli(['queue'], { cwd: first.repo, env: team.env })).stdout).toMatch(
      new RegExp(`${first.id}\\s+queued\\s+5 .*could not start it`),
    );
    // baton status says why nothing runs it and what to do
    const status = await runCli(['status'], { cwd: first.repo, env: team.env });
    expect(status.stdout).toContain('queue: queued (priority 5), and nothing can take it: pid ');
    expect(status.stdout).toContain(
      `was not found (spawn ${missing} ENOENT); install it, or point --agent-bin (variable BATON_AGENT_BIN) or the profile's "bin" at it. Nothing was changed; that worker leaves it until it is submitted again (\`baton submit\`) or restarted, so fix that first; start a worker that would: \`baton worker --worktree-root ${dirname(first.repo)}\``,
    );
    const json = (await runCli(['--json', 'status'], { cwd: first.repo, env: team.env })).json<{
      workflow: { status: string };
      queue: QueueStanding | null;
    }>();
    expect(json).toMatchObject({ workflow: { status: 'pending' }, queue: { state: 'waiting', takers: 0 } });
    expect(json.queue?.stuck?.reason).toContain('could not start it');
    expect(broken.out.stdout).toContain('left queued for a worker that can start it');

    // Later work of lower priority is claimed at a later poll: the refused one, first in the queue, is left alone.
    expect((await submit(second)).code).toBe(0);
    await until('the worker to fail on the second one too', async () => (await entry(second.id)).outcome);
    const claimed = () =>
      broken
        .lines()
        .filter((l) => l.event === 'work.claimed')
        .map((l) => l.workflow_id);
    expect(claimed()).toEqual([first.id, second.id]);
    expect(await entry(first.id)).toMatchObject({ state: 'queued', attempts: 1 });

    // Submitted again (here with an agent the machine has): the same worker takes it again, and runs it.
    expect((await submit(second, '--agent-bin', fakeClaude)).code).toBe(0);
    await until(
      'the resubmitted workflow to complete',
      async () => (await readTeam(db, [second.id]))[second.id]!.status === 'completed',
    );
    await until('its entry to be done', async () => (await entry(second.id)).state === 'done');
    expect(await entry(second.id)).toMatchObject({ outcome: 'completed' });
    expect(claimed()).toEqual([first.id, second.id, second.id]);

    // A worker whose machine has the agent takes the first one: it was never out of the queue.
    worker(db, ['--worktree-root', dirname(first.repo), '--agent-bin', fakeClaude, ...fast], {
      FAKE_LOG: log,
    });
    await until(
      'the first workflow to complete',
      async () => (await readTeam(db, [first.id]))[first.id]!.status === 'completed',
    );
    await until('its entry to be done', async () => (await entry(first.id)).state === 'done');
    expect(await entry(first.id)).toMatchObject({ outcome: 'completed', attempts: 2 });
    expect(claimed()).toEqual([first.id, second.id, second.id]);
    const runs = agentRuns(log);
    expect(['T1', 'T2', 'T3'].map((t) => runs.filter((r) => r.task === t).length)).toEqual([2, 2, 2]);
  });
});

import { symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
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
  it('stays queued with why; that worker leaves it while it cannot start it or until it is submitted again, and a worker with the agent runs it', async () => {
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
      `was not found (spawn ${missing} ENOENT); install it, or point --agent-bin (variable BATON_AGENT_BIN) or the profile's "bin" at it. Nothing was changed; that worker checks again by itself (every \`--recheck\`, 30s by default) and takes it once it can start it, so fix that first (or submit it again: \`baton submit\`); start a worker that would: \`baton worker --worktree-root ${dirname(first.repo)}\``,
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

  it('two workers that lack the agent both say why; the one whose PATH then has it takes the work by itself', async () => {
    const db = join(tempDir('baton-recheck-'), 'baton.db');
    const team = await teamWork(db, 1);
    const item = team.items[0]!;
    const log = fakeLogIn(team.home);
    const entry = async () =>
      (await runCli(['--json', 'queue'], { cwd: item.repo, env: team.env }))
        .json<{ entries: (Entry & { refusals: { owner: string; reason: string }[] })[] }>()
        .entries.find((e) => e.workflow_id === item.id)!;
    // submitted without --agent-bin: each worker starts `claude` from its own PATH, where there is none yet
    const submitted = await runCli(['--json', 'submit', '--agent', 'claude-code'], {
      cwd: item.repo,
      env: team.env,
    });
    expect(submitted.code, submitted.stderr).toBe(0);
    // checking again at every poll is refused, with where the setting came from
    const hasty = await runCli(['worker', '--label', 'x', '--recheck', '10ms'], {
      cwd: item.repo,
      env: team.env,
    });
    expect(hasty.code).toBe(2);
    expect(hasty.stderr).toContain('must be at least 1s');
    expect(hasty.stderr).toContain('option --recheck');
    const bins = [tempDir('baton-bin-a-'), tempDir('baton-bin-b-')];
    const args = [
      '--worktree-root',
      dirname(item.repo),
      '--poll',
      '100ms',
      '--lease-ttl',
      '3s',
      '--recheck',
      '1s',
    ];
    const [a, b] = bins.map((bin) =>
      worker(db, args, { FAKE_LOG: log, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` }),
    ) as [WorkerProcess, WorkerProcess];
    await until('both workers to refuse it', async () => (await entry()).refusals.length === 2);

    // each worker's reason is kept and said; neither is counted as able to take it
    const status = (await runCli(['status'], { cwd: item.repo, env: team.env })).stdout;
    for (const w of [a, b])
      expect(status).toMatch(
        new RegExp(
          `pid ${w.child.pid} on \\S+ could not start it: cannot start the agent: claude was not found`,
        ),
      );
    expect(status).toContain(
      'those 2 workers check again by themselves (every `--recheck`, 30s by default) and take it once they can start it',
    );
    expect(a.out.stdout).toContain('this one checks again in 0m01s whether it can, and takes it then');
    const claims = (w: WorkerProcess) =>
      w.lines().filter((l) => l.event === 'work.claimed' && l.workflow_id === item.id).length;
    // Checking again while the agent is still missing claims nothing: a wait of a few re-check intervals (a fixed
    // one, since what is checked is that nothing happens) sees no second claim by either worker.
    await new Promise((r) => setTimeout(r, 3_500));
    expect([claims(a), claims(b)]).toEqual([1, 1]);
    expect((await entry()).attempts).toBe(2);

    // the agent appears on the first worker's PATH: it notices by itself, takes the work and runs it
    symlinkSync(fakeClaude, join(bins[0]!, 'claude'));
    await until(
      'the workflow to complete',
      async () => (await readTeam(db, [item.id]))[item.id]!.status === 'completed',
    );
    await until('its entry to be done', async () => (await entry()).state === 'done');
    expect(await entry()).toMatchObject({ outcome: 'completed', refusals: [], attempts: 3 });
    expect(a.lines()).toContainEqual({
      event: 'note',
      workflow_id: item.id,
      message: 'checked again: nothing stops this worker from starting it now, so it claims it again',
    });
    expect([claims(a), claims(b)]).toEqual([2, 1]);
    const runs = agentRuns(log);
    expect(['T1', 'T2', 'T3'].map((t) => runs.filter((r) => r.task === t).length)).toEqual([1, 1, 1]);
  });
});

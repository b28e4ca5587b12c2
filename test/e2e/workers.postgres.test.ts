import { describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../helpers/postgres.js';
import { until } from '../helpers/until.js';
import {
  agentRuns,
  fakeLogIn,
  readTeam,
  spawnWorker,
  teamWork,
  type WorkerLine,
  type WorkerProcess,
} from '../helpers/worker-team.js';

/** Tasks a worker started and did not report finished: what it was doing when it died. */
const openTasks = (lines: WorkerLine[]) =>
  lines
    .filter((l) => l.event === 'task.started')
    .filter(
      (s) =>
        !lines.some(
          (f) => f.event === 'task.finished' && f.workflow_id === s.workflow_id && f.task_id === s.task_id,
        ),
    )
    .map((s) => `${s.workflow_id}/${s.task_id}`);

const stopAll = async (workers: WorkerProcess[]) => {
  for (const w of workers)
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
};

describe('many workers on one PostgreSQL share the work and take over from each other', () => {
  it('two workers, six workflows of three tasks: SIGKILL of one mid-task leaves every workflow completed by the other, no completed task run twice', async () => {
    const url = await freshPostgresUrl('baton_workers');
    const team = await teamWork(url, 6);
    for (const item of team.items) {
      const r = await team.submit(item, ['--label', 'team']);
      expect(r.code, r.stderr).toBe(0);
    }
    const log = fakeLogIn(team.home);
    const env = { FAKE_DELAY_MS: '150', FAKE_LOG: log };
    const flags = ['--label', 'team', '--concurrency', '3', '--lease-ttl', '3s', '--poll', '100ms'];
    const a = spawnWorker(url, flags, env);
    const b = spawnWorker(url, flags, env);
    try {
      // Mid-task: worker A runs a task whose agent reported its own session (the token is in the workflow's state).
      const withToken = await until(
        'an agent of worker A to be mid-task with its session saved',
        async () => {
          for (const t of openTasks(a.lines())) {
            const id = t.split('/')[0]!;
            if ((await readTeam(url, [id]))[id]!.resume_token) return id;
          }
          return null;
        },
        60_000,
      );
      a.child.kill('SIGKILL');
      await a.closed;
      const victims = openTasks(a.lines());
      const victimWorkflows = [...new Set(victims.map((v) => v.split('/')[0]!))];
      expect(victimWorkflows.length).toBeGreaterThan(0);
      const ids = team.items.map((i) => i.id);
      await until(
        'every workflow to complete',
        async () => Object.values(await readTeam(url, ids)).every((w) => w.status === 'completed'),
        60_000,
        200,
      );
      const final = await readTeam(url, ids);
      // Each task completed exactly once, in every workflow.
      for (const id of ids)
        for (const t of ['T1', 'T2', 'T3'])
          expect(
            final[id]!.events.filter((e) => e.type === 'task.completed' && e.task_id === t),
            `${id}/${t}`,
          ).toHaveLength(1);
      // The dead worker's workflows were recovered as startup recovery does (interrupted, crash snapshot), then
      // taken over and finished by the other worker.
      const bLines = b.lines();
      for (const id of victimWorkflows) {
        expect(
          final[id]!.events.some((e) => e.type === 'workflow.interrupted'),
          id,
        ).toBe(true);
        const taken = bLines.find((l) => l.event === 'work.taken_over' && l.workflow_id === id);
        // It says what was done and that this worker goes on, not advice to run the workflow by hand.
        expect(taken?.message, id).toMatch(
          /^the workflow is now interrupted \(crash snapshot \S+\).*; this worker continues it$/,
        );
        expect(taken?.message, id).not.toContain('baton run');
        expect(
          bLines.some((l) => l.event === 'work.finished' && l.workflow_id === id && l.done),
          id,
        ).toBe(true);
      }
      // Its token was usable and its worktree reachable: the agent's own session went on.
      const resumed = bLines.find((l) => l.event === 'task.started' && l.workflow_id === withToken);
      expect(resumed?.resume_token).toBeTruthy();
      // ...and its session line says so (not "a fresh agent session").
      const session = bLines.find((l) => l.event === 'session.started' && l.workflow_id === withToken);
      expect(session?.agent_session).toBe(resumed?.resume_token);
      // Counted from the fake agent's own log: the interrupted tasks ran again at most once, every other task once.
      const runs = agentRuns(log);
      for (const item of team.items)
        for (const t of ['T1', 'T2', 'T3']) {
          const n = runs.filter((r) => r.cwd === item.repo && r.task === t).length;
          const interrupted = victims.includes(`${item.id}/${t}`);
          expect(n, `${item.id}/${t} ran ${n} times`).toBeGreaterThanOrEqual(1);
          expect(n, `${item.id}/${t} ran ${n} times`).toBeLessThanOrEqual(interrupted ? 2 : 1);
        }
      // The survivor is still heartbeating and drains on SIGTERM: exit 0, every lease released.
      b.child.kill('SIGTERM');
      expect(await b.exited).toBe(0);
      await b.closed;
      expect(b.lines().at(-1)?.event).toBe('worker.stopped');
    } finally {
      await stopAll([a, b]);
    }
  }, 180_000);
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DiskMirror, runsDirFor } from '../../src/disk/index.js';
import { gitIn, makeRepo } from '../helpers/git-repo.js';
import { makeService, sqliteStore, TestClock } from '../helpers/service.js';

/**
 * An agent that committed its task's work, then crashed: its checkpoint (T1's) is a commit behind the branch, so going
 * back would move the agent's commit off it.
 */
async function crashedAfterCommit(recoveryPlan: 'service' | 'failing') {
  const store = sqliteStore();
  const clock = new TestClock();
  const svc = makeService(store, { now: clock.now });
  const mirror = new DiskMirror(store, {
    now: clock.now,
    recoveryPlan:
      recoveryPlan === 'service'
        ? (s) => svc.recoveryPlan(s)
        : () => Promise.reject(new Error('the store is gone')),
  });
  mirror.attach(svc.runner);
  const repo = makeRepo();
  const wf = (
    await svc.create({
      title: 'crash',
      tasks: [
        { id: 'T1', title: 'one' },
        { id: 'T2', title: 'two', deps: ['T1'] },
      ],
      worktree: repo,
    })
  ).id;
  const ref = { workflowId: wf };
  await svc.startTask(ref, 'T1');
  await svc.completeTask(ref, 'T1', 'ok'); // its checkpoint, at the repository's first commit
  await svc.startTask(ref, 'T2');
  writeFileSync(join(repo, 'api.txt'), 'the API\n');
  gitIn(repo, 'add', 'api.txt');
  gitIn(repo, 'commit', '-qm', 'T2: the API');
  await svc.interrupt(ref, 'crash');
  await mirror.flush();
  const file = JSON.parse(readFileSync(join(runsDirFor(repo), wf, 'recovery.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  return { svc, store, ref, wf, file, clock };
}

it('recovery.json says what `baton recover` says: the live state, as the checkpoint would move a commit off the branch', async () => {
  const { svc, store, ref, file } = await crashedAfterCommit('service');
  const plan = await svc.recoveryOptions(ref);
  expect(plan.recommended).toBe('live_state');
  expect(file).toEqual(JSON.parse(JSON.stringify(plan)));
  await store.close();
});

it('when the options cannot be planned, recovery.json holds the plan from the state alone and says why', async () => {
  const { store, wf, file } = await crashedAfterCommit('failing');
  expect(file).toMatchObject({ workflow_id: wf, status: 'interrupted', recommended: 'checkpoint' });
  expect(file.planning_error).toBe(
    `cannot plan the recovery (the store is gone): \`baton recover -w ${wf}\` lists the options`,
  );
  await store.close();
});

it('recovery.json stays what `baton recover` says once the live state of the stopped workflow is saved, later', async () => {
  const { svc, store, ref, wf, file, clock } = await crashedAfterCommit('service');
  // The service saves the live state a second after a commit (debounced, see LiveStates) when its process lives that
  // long: a server, or a command still busy with git. That save writes no event, so recovery.json is not written
  // again: what `baton recover` says must not change with it (the save holds nothing the stop did not).
  clock.advance(5_000);
  const version = (await svc.resolve(ref)).version;
  for (let waited = 0; (await store.loadLiveState(wf))?.version !== version; waited += 50) {
    expect(waited, 'the debounced live-state save of the interrupted workflow').toBeLessThan(30_000);
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(file).toEqual(JSON.parse(JSON.stringify(await svc.recoveryOptions(ref))));
  await store.close();
});

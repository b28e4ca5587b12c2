import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService, sqliteStore } from '../helpers/service.js';

const tasks = [
  { id: 'Y1', title: 'one' },
  { id: 'Y2', title: 'two', deps: ['Y1'] },
];

/** Y1 done, Y2 under way, then paused at once: the pause's snapshot says 1/2 done, current Y2. */
async function pausedInY2() {
  const svc = makeService(sqliteStore());
  const wf = await svc.create({ title: 'T', tasks, worktree: makeRepo() });
  const ref = { workflowId: wf.id };
  await svc.startTask(ref, 'Y1');
  await svc.completeTask(ref, 'Y1', 'one is done');
  await svc.startTask(ref, 'Y2');
  await svc.pause(ref, { force: true });
  return { svc, ref };
}

const planStatus = (markdown: string) => /### Plan Status[^\n]*\n(?: {2}.*\n)*/.exec(markdown)?.[0];

describe('the briefing after a recovery', () => {
  it.each([
    ['fresh', null, '### Plan Status: 0/2 tasks done\n  [ ] Y1 one\n  [ ] Y2 two after Y1\n'],
    ['checkpoint', 'one', '### Plan Status: 1/2 tasks done\n  [x] Y1 one'],
    ['live_state', null, '### Plan Status: 1/2 tasks done, current Y2\n  [x] Y1 one'],
  ] as const)(
    'after %s, `baton context` (and the dashboard) brief on the state recovered to, as recover did',
    async (option, checkpoint, plan) => {
      const { svc, ref } = await pausedInY2();
      const r = await svc.recover(ref, option, checkpoint);
      expect(planStatus(r.context)).toContain(plan);
      // nothing recorded since the recovery: the briefing a new session would get is the one recover handed over
      const now = (await svc.queries.context(await svc.resolve(ref))).markdown;
      expect(planStatus(now)).toBe(planStatus(r.context));
      await svc.close();
    },
  );
});

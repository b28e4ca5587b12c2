import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// `baton task done` and `baton task fail` on one task from two processes (two machines on one database): real
// processes on one SQLite database.

function setup() {
  const repo = makeRepo();
  const env = { BATON_HOME: tempDir('baton-home-') };
  const baton = (args: string[]) => runCli(args, { cwd: repo, env });
  return { baton };
}

async function started(baton: ReturnType<typeof setup>['baton']) {
  expect((await baton(['create', '--title', 'race', '--task', 'T1:one', '--task', 'T2:two'])).code).toBe(0);
  expect((await baton(['task', 'start', 'T1'])).code).toBe(0);
}

const taskStatus = async (baton: ReturnType<typeof setup>['baton']) =>
  (await baton(['status', '--json'])).json<{ tasks: { id: string; status: string }[] }>().tasks[0]!.status;

describe('done and fail on one task', () => {
  it('a done decided after a fail is refused (exit 3) with the failure, not a silent restart', async () => {
    const { baton } = setup();
    await started(baton);
    expect((await baton(['task', 'fail', 'T1', '--reason', 'tests red'])).code).toBe(0);
    const done = await baton(['task', 'done', 'T1']);
    expect(done.code).toBe(3);
    expect(done.stderr).toContain(
      'cannot complete T1: task T1 failed (tests red); to complete it anyway, start it again first, then complete it',
    );
    expect(await taskStatus(baton)).toBe('failed');
    // asked for on purpose, it goes
    expect((await baton(['task', 'start', 'T1'])).code).toBe(0);
    expect((await baton(['task', 'done', 'T1'])).code).toBe(0);
    expect(await taskStatus(baton)).toBe('done');
  });

  it('racing, exactly one wins and the task ends as the winner said', async () => {
    for (let round = 0; round < 3; round++) {
      const { baton } = setup();
      await started(baton);
      const [done, fail] = await Promise.all([
        baton(['task', 'done', 'T1']),
        baton(['task', 'fail', 'T1', '--reason', 'red']),
      ]);
      expect([done.code, fail.code].sort(), `${done.stderr}\n${fail.stderr}`).toEqual([0, 3]);
      expect(await taskStatus(baton)).toBe(done.code === 0 ? 'done' : 'failed');
    }
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/storage/open-store.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';

const RACERS = 6;

const backends = [
  { name: 'sqlite', database: async () => join(tempDir('baton-race-'), 'baton.db') },
  { name: 'postgres', database: () => freshPostgresUrl('baton_race') },
];

/**
 * Real races: several `baton` processes act on one workflow at the same moment. Exactly one wins each race; the
 * others exit 3 (conflict with the workflow's state) or see the winner's result; the log stays gap-free.
 */
describe.each(backends)('racing baton processes on $name', ({ database }) => {
  it('exactly one process completes the task, pauses, and resumes', async () => {
    const repo = makeRepo();
    const env = {
      BATON_HOME: tempDir('baton-home-'),
      BATON_DATABASE_URL: await database(),
      BATON_URL: undefined,
    };
    const baton = (...args: string[]) => runCli([...args, '--json'], { cwd: repo, env });
    const race = (...args: string[]) => Promise.all(Array.from({ length: RACERS }, () => baton(...args)));
    const codes = (rs: CliResult[]) => rs.map((r) => r.code).sort();

    const created = await baton('create', '--title', 'race', '--task', 'T1:one', '--task', 'T2:two');
    expect(created.code, created.stderr).toBe(0);
    const id = created.json<{ id: string }>().id;
    expect((await baton('task', 'start', 'T1')).code).toBe(0);

    const done = await race('task', 'done', 'T1');
    expect(codes(done), done.map((r) => r.stderr).join('\n')).toEqual([0, ...Array(RACERS - 1).fill(3)]);
    for (const r of done.filter((x) => x.code === 3))
      expect(r.stderr).toMatch(/changed while this command ran|already done|cannot/);

    expect((await baton('task', 'start', 'T2')).code).toBe(0);
    const paused = await race('pause', '--force', '--reason', 'race');
    const outcomes = paused.map((r) =>
      r.code === 0 ? r.json<{ outcome: string }>().outcome : `exit ${r.code}`,
    );
    expect(outcomes.filter((o) => o === 'paused')).toHaveLength(1);
    expect(
      outcomes.every((o) => ['paused', 'already_paused', 'exit 3'].includes(o)),
      outcomes.join(),
    ).toBe(true);

    const resumed = await race('resume');
    expect(codes(resumed), resumed.map((r) => r.stderr).join('\n')).toEqual([
      0,
      ...Array(RACERS - 1).fill(3),
    ]);
    expect(resumed.find((r) => r.code === 0)?.json()).toMatchObject({ session_number: 2 });

    const store = await openStore({ database: env.BATON_DATABASE_URL });
    try {
      const events = await store.readEvents(id);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const count = (type: string) => events.filter((e) => e.type === type).length;
      expect(count('task.completed')).toBe(1);
      expect(count('workflow.paused')).toBe(1);
      expect(count('workflow.resumed')).toBe(1);
      expect((await store.loadState(id))?.version).toBe(events.length);
    } finally {
      await store.close();
    }
  });
});

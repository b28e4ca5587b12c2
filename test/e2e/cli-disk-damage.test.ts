import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

const setup = () => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const env = {
    BATON_HOME: home,
    BATON_URL: undefined,
    BATON_DATABASE_URL: undefined,
    BATON_RUNS_DIR: undefined,
  };
  const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
  return { repo, home, baton };
};

/** The first line of a run's oldest event file (workflow.created, by `user`). */
const firstFile = (run: string) => {
  const dir = join(run, 'events', 'user');
  return join(dir, readdirSync(dir).sort()[0]!);
};

describe('baton CLI: damaged run folders', () => {
  it('rebuilds a run whose first line is damaged, marks it recovered with gaps and exits 1 naming it', async () => {
    const { repo, home, baton } = setup();
    const id = (
      await baton('create', '--title', 'Gaps', '--task', 'A:one', '--task', 'B:two:A', '--json')
    ).json<{
      id: string;
    }>().id;
    await baton('task', 'start', 'A');
    await baton('task', 'done', 'A');
    await baton('task', 'start', 'B');
    const run = join(repo, '.baton', 'runs', id);
    const file = firstFile(run);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"title":"Gaps"', '"title":"Gapz"'));
    rmSync(join(home, 'baton.db'));

    const human = await baton('rebuild', '--from-disk', repo);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(new RegExp(`${id}: imported, \\d+ event\\(s\\)`));
    expect(human.stdout).toMatch(/recovered with gaps: event\(s\) 1 lost; rebuilt from workflow-state\.json/);
    expect(human.stdout).toMatch(/checksum mismatch/);
    expect(human.stderr).toMatch(
      new RegExp(`baton: rebuild from disk skipped something in 1 run\\(s\\): ${id} \\(recovered with gaps`),
    );

    const status = (await baton('status', '--json')).json<{
      workflow: { status: string };
      counts: { tasks: { done: number } };
      recovered_with_gaps: { lost: unknown[] };
      warnings: string[];
    }>();
    expect(status.workflow.status).toBe('in_progress');
    expect(status.counts.tasks.done).toBe(1);
    expect(status.recovered_with_gaps.lost).toEqual([{ from: 1, to: 1 }]);
    expect((await baton('status')).stdout).toMatch(
      /warning: recovered with gaps: rebuilt from workflow-state\.json/,
    );
    const runs = await baton('--mirror', 'off', 'runs');
    expect(runs.stdout).toMatch(/damaged,recovered-with-gaps/);

    rmSync(join(home, 'baton.db'));
    const json = await baton('rebuild', '--from-disk', repo, '--json');
    expect(json.code).toBe(1);
    const err = json.json<{
      error: { code: string; skipped: string[]; runs: { recovered_with_gaps: unknown }[] };
    }>();
    expect(err.error.skipped).toEqual([id]);
    expect(err.error.runs[0]!.recovered_with_gaps).toMatchObject({ base: 1 });
  });

  it('exits 1 naming a run it had to skip; exits 0 when nothing was skipped', async () => {
    const { repo, home, baton } = setup();
    const id = (await baton('create', '--title', 'Lost', '--task', 'A:one', '--json')).json<{ id: string }>()
      .id;
    const run = join(repo, '.baton', 'runs', id);
    rmSync(join(home, 'baton.db'));
    expect((await baton('rebuild', '--from-disk', repo)).code).toBe(0);
    rmSync(join(home, 'baton.db'));
    rmSync(join(run, 'events'), { recursive: true });
    rmSync(join(run, 'workflow-state.json'));
    const r = await baton('rebuild', '--from-disk', repo);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${id} \\(skipped: no readable workflow\\.created event`));
  });

  it('`rebuild -w` of an unknown workflow fails with not_found', async () => {
    const { baton } = setup();
    await baton('create', '--title', 'One', '--task', 'A:one');
    const r = await baton('rebuild', '-w', 'wf-nope', '--json');
    expect(r.code).toBe(1);
    expect(r.json<{ error: { code: string } }>().error.code).toBe('not_found');
  });

  it('`baton runs` skips a FIFO named *.jsonl with a warning instead of hanging', async () => {
    const { repo, baton } = setup();
    const id = (await baton('create', '--title', 'Fifo', '--task', 'A:one', '--json')).json<{ id: string }>()
      .id;
    execFileSync('mkfifo', [join(repo, '.baton', 'runs', id, 'events', 'user', 'fifo.jsonl')]);
    const r = await baton('runs');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warning: run wf-\w+: events\/user\/fifo\.jsonl: a FIFO: skipped/);
  });
});

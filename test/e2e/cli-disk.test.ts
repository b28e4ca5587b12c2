import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';

const setup = (database?: string) => {
  const repo = makeRepo();
  const home = tempDir('baton-home-');
  const env = {
    BATON_HOME: home,
    BATON_URL: undefined,
    BATON_DATABASE_URL: database,
    BATON_RUNS_DIR: undefined,
  };
  const baton = (...args: string[]) => runCli(args, { cwd: repo, env });
  return { repo, home, env, baton };
};

const jsonl = (dir: string) =>
  readdirSync(join(dir, 'events'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(join(dir, 'events', f), 'utf8')
        .trim()
        .split('\n'),
    )
    .map((l) => JSON.parse(l) as { seq: number; actor: string; type: string });

describe('baton CLI: files on disk', () => {
  it('mirrors every commit into the run folder, per actor, and rebuilds the database from it', async () => {
    const { repo, home, env, baton } = setup();
    const id = (
      await baton('create', '--title', 'Disk', '--task', 'T1:one', '--task', 'T2:two:T1', '--json')
    ).json<{
      id: string;
    }>().id;
    const as = (actor: string, ...args: string[]) =>
      runCli(args, { cwd: repo, env: { ...env, BATON_ACTOR: actor } });
    expect((await as('session-1', 'task', 'start', 'T1')).code).toBe(0);
    expect((await as('orchestrator', 'record', 'history', 'routing done')).code).toBe(0);
    expect((await as('session-1', 'task', 'done', 'T1')).code).toBe(0);
    const run = join(repo, '.baton', 'runs', id);
    for (const f of ['manifest.json', 'workflow-state.json', 'task-graph.json', 'plan.md', 'state.json'])
      expect(existsSync(join(run, f)), f).toBe(true);
    expect(readdirSync(join(run, 'events')).sort()).toEqual(['orchestrator', 'session-1', 'user']);
    expect(readdirSync(join(run, 'checkpoints'))).toEqual(['cp-01-one.json']);
    expect(readdirSync(join(run, 'snapshots'))).toEqual(['1.json']);
    const events = jsonl(run).sort((a, b) => a.seq - b.seq);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')).last_seq).toBe(events.length);
    const registry = JSON.parse(readFileSync(join(repo, '.baton', 'sessions.json'), 'utf8'));
    expect(registry.sessions[0]).toMatchObject({ id, topic: 'Disk', step: '1/2', resumable: false });
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');

    const before = (await baton('status', '--json')).json<Record<string, unknown>>();
    rmSync(join(home, 'baton.db'));
    const rebuilt = (await baton('rebuild', '--from-disk', repo, '--json')).json<{
      runs: { outcome: string }[];
    }>();
    expect(rebuilt.runs.map((r) => r.outcome)).toEqual(['imported']);
    expect((await baton('status', '--json')).json()).toEqual(before);
  });

  it('catches a lagging run folder up on start', async () => {
    const { repo, baton } = setup();
    const id = (await baton('create', '--title', 'Lag', '--task', 'A:one', '--json')).json<{ id: string }>()
      .id;
    expect((await baton('--mirror', 'off', 'task', 'start', 'A')).code).toBe(0);
    const run = join(repo, '.baton', 'runs', id);
    expect(JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')).last_seq).toBe(2);
    await baton('list');
    expect(JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')).last_seq).toBe(4);
    expect(jsonl(run).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('reads damaged runs tolerantly, warns about stale runs and lists several incomplete ones', async () => {
    const { repo, baton } = setup();
    const a = (await baton('create', '--title', 'A', '--task', 'X:one', '--json')).json<{ id: string }>().id;
    const b = (await baton('create', '--title', 'B', '--task', 'Y:one', '--json')).json<{ id: string }>().id;
    appendFileSync(
      join(
        repo,
        '.baton',
        'runs',
        a,
        'events',
        'user',
        readdirSync(join(repo, '.baton', 'runs', a, 'events', 'user'))[0]!,
      ),
      '{"v":1,"seq":',
    );
    rmSync(join(repo, '.baton', 'runs', b, 'task-graph.json'));
    // `--mirror off`: as the folders are on disk (any other command first repairs what the database still has).
    const scan = (await baton('--mirror', 'off', '--stale-after', '0s', 'runs', '--json')).json<{
      incomplete: string[];
      warnings: string[];
      runs: {
        workflow_id: string;
        flagged: boolean;
        stale: boolean;
        problems: { file: string; line: number }[];
      }[];
    }>();
    expect(scan.incomplete.sort()).toEqual([a, b].sort());
    const ra = scan.runs.find((r) => r.workflow_id === a)!;
    expect(ra).toMatchObject({ flagged: true, stale: true });
    expect(ra.problems[0]).toMatchObject({ line: 3 });
    expect(ra.problems[0]!.file).toMatch(/^events\/user\/\d{4}-\d{2}-\d{2}\.jsonl$/);
    const text = scan.warnings.join('\n');
    expect(text).toMatch(/task-graph\.json is missing \(produced by the disk mirror/);
    expect(text).toMatch(/2 incomplete runs: choose one with -w <id>/);
    expect(text).toMatch(/last active 0 days ago/);
    const repaired = await baton('list');
    expect(repaired.stderr).toMatch(
      new RegExp(
        `warning: repaired the run folder of ${b} from the database \\(task-graph\\.json is missing\\)`,
      ),
    );
    expect(existsSync(join(repo, '.baton', 'runs', b, 'task-graph.json'))).toBe(true);
  });

  it.each([
    ['SQLite', async () => undefined],
    ['PostgreSQL', () => freshPostgresUrl('baton_restore')],
  ])(
    'restores a checkpoint on %s: workflow state and worktree, refusing a dirty tree without --stash or --force, and a branch move without --yes; every commit that leaves the branch is kept on a backup ref',
    async (_backend, database) => {
      const { repo, baton } = setup(await database());
      const id = (await baton('create', '--title', 'Git', '--tasks-file', writeTasks(repo), '--json')).json<{
        id: string;
      }>().id;
      await baton('task', 'start', 'B1');
      writeFileSync(join(repo, 'setup.sh'), 'echo ok\n');
      gitIn(repo, 'add', '.');
      gitIn(repo, 'commit', '-qm', 'bootstrap');
      await baton('task', 'done', 'B1');
      const cp = (await baton('checkpoint', '--name', 'bootstrap', '--json')).json<{
        checkpoint: { commit: string };
      }>();
      const cpCommit = cp.checkpoint.commit;
      expect(cpCommit).toBe(gitIn(repo, 'rev-parse', 'HEAD').trim());
      await baton('task', 'start', 'D1');
      writeFileSync(join(repo, 'api.ts'), 'export {};\n');
      gitIn(repo, 'add', '.');
      gitIn(repo, 'commit', '-qm', 'api');
      writeFileSync(join(repo, 'api.ts'), 'export const x = 1;\n');
      await baton('interrupt', '--reason', 'crash');
      const recoveryFile = join(repo, '.baton', 'runs', id, 'recovery.json');
      expect(existsSync(recoveryFile)).toBe(true);
      // the run folder, and a copy `baton export` writes, recommend what `baton recover` does: going on, as going
      // back would move the api commit off the branch and put the change to api.ts away
      const onDisk: unknown = JSON.parse(readFileSync(recoveryFile, 'utf8'));
      const recovery = (await baton('recover', '--json')).json<{ recovery: { recommended: string } }>()
        .recovery;
      expect(recovery.recommended).toBe('live_state');
      expect(onDisk).toEqual(recovery);
      const exported = join(tempDir('baton-export-'), 'run');
      expect((await baton('export', id, exported)).code).toBe(0);
      expect(JSON.parse(readFileSync(join(exported, 'recovery.json'), 'utf8'))).toEqual(recovery);

      const refused = await baton('recover', '--checkpoint', 'bootstrap');
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/uncommitted changes \(api\.ts\).*--stash.*--force/);

      // The options list says, per option, the commits that would leave the branch and the files that would change.
      const head = gitIn(repo, 'rev-parse', 'HEAD').trim();
      const options = (await baton('recover', '--json')).json<{
        recovery: {
          options: {
            type: string;
            changes: {
              tasks: unknown[];
              git: { commits: { subject: string }[]; files: { status: string; path: string }[] } | null;
            };
          }[];
        };
      }>().recovery.options;
      expect(options[0]?.changes.git?.commits.map((c) => c.subject)).toEqual(['api']);
      expect(options[0]?.changes.git?.files).toEqual([{ status: 'D', path: 'api.ts' }]);
      expect(options[0]?.changes.tasks).toEqual([{ task_id: 'D1', from: 'in_progress', to: 'pending' }]);
      expect(options[1]?.changes.git).toBeNull();
      const listed = await baton('recover');
      expect(listed.stdout).toMatch(/1 commit\(s\) leave the branch, kept on a backup ref/);
      expect(listed.stdout).toContain(`${head.slice(0, 7)} api`);

      const dry = (
        await baton('recover', '--checkpoint', 'bootstrap', '--stash', '--dry-run', '--json')
      ).json<{
        dry_run: boolean;
        steps: string[];
        task_changes: unknown[];
        git: { commits_dropped: number; backup_ref: string };
      }>();
      expect(dry.dry_run).toBe(true);
      expect(dry.steps[0]).toMatch(
        // named for the time the restore runs (a confirmed restore plans again), not for this plan's
        new RegExp(`^git update-ref -m .* refs/baton/backup/${id}/<time of the restore> ${head}$`),
      );
      expect(dry.steps[1]).toMatch(/^git stash push --include-untracked -m/);
      expect(dry.steps[2]).toBe(`git reset --hard ${cpCommit}`);
      expect(dry.task_changes).toEqual([{ task_id: 'D1', from: 'in_progress', to: 'pending' }]);
      expect(dry.git.commits_dropped).toBe(1);
      expect(gitIn(repo, 'rev-parse', 'HEAD').trim()).toBe(head);

      // Moving the branch without --yes (no terminal to ask on): exit 3, the exact command, nothing changed.
      const unconfirmed = await baton('recover', '--option', 'checkpoint', '--stash');
      expect(unconfirmed.code).toBe(3);
      expect(unconfirmed.stderr).toContain(
        `To confirm: \`baton recover -w ${id} --option checkpoint --checkpoint cp-02-bootstrap --stash --yes\``,
      );
      expect(unconfirmed.stderr).toContain('1 commit(s) leave it');
      expect(gitIn(repo, 'rev-parse', 'HEAD').trim()).toBe(head);
      expect(readFileSync(join(repo, 'api.ts'), 'utf8')).toBe('export const x = 1;\n');
      expect(gitIn(repo, 'stash', 'list')).toBe('');
      expect(gitIn(repo, 'for-each-ref', 'refs/baton')).toBe('');

      const confirmed = await baton(
        'recover',
        '-w',
        id,
        '--option',
        'checkpoint',
        '--checkpoint',
        'cp-02-bootstrap',
        '--stash',
        '--yes',
        '--json',
      );
      expect(confirmed.code, confirmed.stderr).toBe(0);
      const done = confirmed.json<{
        session_number: number;
        report: { next_action: string; phase: string };
        restore: { git: { backup_ref: string } };
      }>();
      // The commit that left the branch is still reachable, from the backup ref the restore named.
      const backup = done.restore.git.backup_ref;
      expect(gitIn(repo, 'rev-parse', backup).trim()).toBe(head);
      expect(gitIn(repo, 'log', '-1', '--format=%s', backup).trim()).toBe('api');
      expect(done.session_number).toBe(2);
      // the worktree is where the checkpoint saw it: nothing moved since the state returned to
      expect(confirmed.stdout).not.toContain('HEAD moved since the snapshot');
      expect(confirmed.stdout).not.toContain('files differ from the snapshot');
      expect(done.report.next_action).toBe('start D1 - api');
      expect(gitIn(repo, 'rev-parse', 'HEAD').trim()).toBe(cpCommit);
      expect(gitIn(repo, 'stash', 'list')).toMatch(/baton: before restoring cp-02-bootstrap/);
      expect(existsSync(join(repo, 'api.ts'))).toBe(false);
      expect(existsSync(join(repo, '.baton', 'runs', id, 'recovery.json'))).toBe(false);

      await baton('pause', '--force');
      writeFileSync(join(repo, 'setup.sh'), 'changed\n');
      // an untracked file is left as it is, and the plan says so, apart from the tracked change it discards
      writeFileSync(join(repo, 'notes.txt'), 'mine\n');
      const plan = await baton('recover', '--checkpoint', 'bootstrap', '--force', '--dry-run');
      expect(plan.stdout).toContain('  uncommitted changes discarded: setup.sh');
      expect(plan.stdout).toContain('  untracked files left as they are: notes.txt');
      // Already at the checkpoint: nothing moves, no confirmation; the discarded change is kept on a ref too.
      const forced = await baton('recover', '--checkpoint', 'bootstrap', '--force', '--json');
      expect(forced.code, forced.stderr).toBe(0);
      expect(readFileSync(join(repo, 'setup.sh'), 'utf8')).toBe('echo ok\n');
      expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('mine\n');
      const kept = forced.json<{ restore: { git: { worktree_backup_ref: string } } }>().restore.git
        .worktree_backup_ref;
      expect(gitIn(repo, 'show', `${kept}:setup.sh`)).toBe('changed\n');

      const info = (await baton('session-info', id, '--json')).json<Record<string, any>>();
      expect(info).toMatchObject({ workflow_id: id, topic: 'Git', status: 'in_progress', step: '1/2' });
      expect(info.checkpoints.map((c: { name: string }) => c.name)).toContain('cp-02-bootstrap');
      expect(info.live_state.age_seconds).toBeGreaterThanOrEqual(0);
      expect(info.recovery.options.map((o: { type: string }) => o.type)).toEqual([
        'checkpoint',
        'live_state',
        'fresh',
      ]);
      // running again: the options are what recovery would offer once paused, as `baton recover` says
      expect(info.recovery).toMatchObject({
        recoverable: false,
        refusal: { command: expect.stringMatching(/^baton pause/) },
      });
      const text = (await baton('session-info', id)).stdout;
      expect(text).toMatch(
        /^recovery: it is not stopped, so there is nothing to recover.*: `baton pause( --force)? -w wf-\S+`$/m,
      );
      expect(text).toMatch(/^once it is paused, recovery would offer:\n {2}\[1\] checkpoint/m);
      // the age in the CLI's one span format
      expect(text).toMatch(/^live state: saved \S+ \(\d+m\d{2}s ago\)$/m);
    },
    // some twenty commands, each a process of its own: 35-42 s on a 2-core machine at load 10, past the 60 s default
    // there with another test file running beside it
    180_000,
  );

  it('prints the resume report in the terminal and as a report field with --json', async () => {
    const { baton, repo } = setup();
    await baton('create', '--title', 'Report', '--tasks-file', writeTasks(repo));
    await baton('task', 'start', 'B1');
    await baton('task', 'done', 'B1');
    expect((await baton('task', 'block', 'D1', '--reason', 'needs docker')).code).toBe(0);
    await baton('pause');
    const text = await baton('resume');
    expect(text.stdout).toMatch(/RESUMING RUN: wf-/);
    expect(text.stdout).toMatch(/Phase: set-up lane done, the next lane not started \(status in_progress\)/);
    expect(text.stdout).toMatch(/Lanes: 2, each finished before the next starts/);
    expect(text.stdout).toMatch(/Set-up tasks \(first lane\): 1\/1 complete/);
    expect(text.stdout).toMatch(/Development tasks: 0\/1 complete/);
    expect(text.stdout).not.toMatch(/phase_\d/);
    expect(text.stdout).toMatch(/Last completed: B1 - setup/);
    expect(text.stdout).toMatch(/Dependency Check:\n- Previously blocked: D1 \(needs docker\)/);
    await baton('pause');
    const json = (await baton('resume', '--json')).json<Record<string, any>>();
    for (const k of ['context', 'session_number', 'warnings', 'next_task']) expect(json).toHaveProperty(k);
    expect(json.report).toMatchObject({
      phase: 'phase_4_bootstrap_complete',
      workflow_mode: 'unified',
      lanes: [
        { lane: 0, name: 'bootstrap', done: 1, total: 1 },
        { lane: 1, name: 'development', done: 0, total: 1 },
      ],
      last_completed: { task_id: 'B1', title: 'setup' },
      dependency_check: { still_blocked: ['D1'] },
    });
  });
});

function writeTasks(dir: string): string {
  const path = join(tempDir('baton-tasks-'), 'tasks.json');
  writeFileSync(
    path,
    JSON.stringify([
      { id: 'B1', title: 'setup', lane: 0 },
      { id: 'D1', title: 'api', lane: 1 },
    ]),
  );
  return dir ? path : path;
}

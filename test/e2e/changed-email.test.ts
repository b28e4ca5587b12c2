import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitIn, tempDir, commitFile, headOf } from '../helpers/git-repo.js';
import { startServerProcess } from '../helpers/server.js';
import { team } from '../helpers/teammates.js';

// A person whose git email changed after their workflow began (a new employer's domain, a typo fixed) tells Baton the
// way git's own log is told, with a mailmap line mapping the old email to the new one: the workflow stays theirs (found
// by `current`, its git state read). Without it, the old email is another identity's, as another person's would be.

type Json = Record<string, unknown>;

describe('a git email changed since the workflow began', () => {
  it('is still the owner once git’s mailmap maps the old email to the new one', async () => {
    const { ana, hook, baton, follows } = await team('sqlite');
    const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
    const anas = follows(a.stderr)!;
    expect(anas, a.stderr).toBeDefined();
    await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
    gitIn(ana, 'config', 'user.email', 'ana@new.example');

    // not said yet: taken for another identity's, its git state not read, and the way out named
    const before = await baton(ana, 'status');
    expect(before.code).toBe(1);
    expect(before.stderr).toContain("another git identity's");
    expect(before.stderr).toContain('.mailmap');
    const cp0 = await baton(ana, 'checkpoint', '-w', anas, '--name', 'before', '--json');
    expect(cp0.json<{ checkpoint: Json }>().checkpoint).toMatchObject({ commit: null });

    writeFileSync(join(ana, '.mailmap'), 'Ana <ana@new.example> <ana@team.example>\n');
    const status = await baton(ana, 'status', '--json');
    expect(status.code, status.stderr).toBe(0);
    expect(status.json<{ workflow: { id: string } }>().workflow.id).toBe(anas);
    const cp = await baton(ana, 'checkpoint', '--name', 'after', '--json');
    expect(cp.code, cp.stderr).toBe(0);
    expect(cp.json<{ checkpoint: Json }>().checkpoint).toMatchObject({
      commit: gitIn(ana, 'rev-parse', 'HEAD').trim(),
    });
    const paused = await baton(ana, 'pause', '--force', '--json');
    expect(paused.json<{ yours: boolean }>().yours).toBe(true);
    // her pause and resume under the new email are her own: never told back to her as a teammate's
    const mine = async () =>
      (await baton(ana, 'status', '-w', anas, '--json')).json<{ workflow: Json }>().workflow;
    expect(await mine()).toMatchObject({ status: 'paused', teammate_act: null });
    expect((await baton(ana, 'resume', '-w', anas)).code).toBe(0);
    expect(await mine()).toMatchObject({ status: 'in_progress', teammate_act: null });
  });

  it('over a server, her own checkpoint made under the old email is restored as hers (one judgement, CLI and API)', async () => {
    const { ana, ben, anaEnv, benEnv, hook, baton, follows } = await team('sqlite');
    const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
    const anas = follows(a.stderr)!;
    await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
    // the team's .mailmap, committed: it says her new email is the old one's owner, at every commit of hers
    writeFileSync(join(ana, '.mailmap'), 'Ana <ana@new.example> <ana@team.example>\n');
    gitIn(ana, 'add', '.mailmap');
    gitIn(ana, 'commit', '-q', '-m', 'mailmap');
    expect((await baton(ana, 'checkpoint', '--name', 'start')).code).toBe(0);
    const start = headOf(ana);
    commitFile(ana, 'login.go');
    gitIn(ana, 'config', 'user.email', 'ana@new.example');
    expect((await baton(ana, 'pause', '--force', '-w', anas)).code).toBe(0);
    // Ben's server (run under his identity): her CLI asks as ana@new.example, whom the mailmap at her worktree names
    const server = await startServerProcess(benEnv.BATON_HOME!, { cwd: ben, env: benEnv });
    try {
      const over = (...args: string[]) =>
        runCli(args, { cwd: ana, env: { ...anaEnv, BATON_URL: server.url, BATON_TOKEN: server.token } });
      const dry = await over('recover', '-w', anas, '--checkpoint', 'start', '--dry-run', '--json');
      expect(dry.code, dry.stderr).toBe(0);
      // Ben asking for it over the same server is still refused: her old email is not his
      const his = await server.api(`/api/workflows/${anas}/restore`, {
        method: 'POST',
        json: { checkpoint: 'start', confirm: true, identity: 'ben@team.example' },
      });
      expect(his.status).toBe(409);
      expect(((await his.json()) as { error: Json }).error).toMatchObject({
        owner: 'ana@team.example',
        yours: false,
      });
      const done = await over('recover', '-w', anas, '--checkpoint', 'start', '--yes');
      expect(done.code, done.stderr).toBe(0);
      expect(headOf(ana)).toBe(start);
    } finally {
      await server.stop();
    }
  });

  it('her own old-email work elsewhere is not pointed to as a teammate’s, and its gone worktree’s work goes on here', async () => {
    const { ana, anaEnv, hook, baton, follows, cloneAt } = await team('sqlite');
    // the team's .mailmap, on her branch before either workflow: her new email owns the old one's commits
    gitIn(ana, 'checkout', '-q', '-b', 'fix-login');
    writeFileSync(join(ana, '.mailmap'), 'Ana <ana@new.example> <ana@team.example>\n');
    gitIn(ana, 'add', '.mailmap');
    gitIn(ana, 'commit', '-q', '-m', 'mailmap');
    const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
    const anas = follows(a.stderr)!;
    await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
    gitIn(ana, 'push', '-q', '-u', 'origin', 'fix-login');
    // a worktree of hers for another branch, with committed work, then removed (its branch kept)
    const linked = join(tempDir('baton-linked-'), 'wt');
    gitIn(ana, 'worktree', 'add', '-q', linked, '-b', 'feature/logger', 'fix-login');
    const l = await hook(linked, 'SessionStart', { session_id: 'ana-wt', source: 'startup' });
    const logger = follows(l.stderr)!;
    await hook(linked, 'UserPromptSubmit', { session_id: 'ana-wt', prompt: 'add a logger module' });
    commitFile(linked, 'logger.go');
    expect((await baton(ana, 'checkpoint', '-w', logger, '--name', 'logger')).code).toBe(0);
    gitIn(ana, 'worktree', 'remove', '--force', linked);
    gitIn(ana, 'config', 'user.email', 'ana@new.example');

    // her second clone, on her branch, under the new email: her own work is not named as another person's
    const second = cloneAt(join(tempDir('baton-ana2-'), 'cli'));
    gitIn(second, 'config', 'user.email', 'ana@new.example');
    gitIn(second, 'checkout', '-q', 'fix-login');
    const here = (...args: string[]) => runCli(args, { cwd: second, env: anaEnv });
    const started = await runCli(['hook', 'SessionStart'], {
      cwd: second,
      env: anaEnv,
      input: JSON.stringify({
        cwd: second,
        hook_event_name: 'SessionStart',
        session_id: 'ana-2',
        source: 'startup',
      }),
    });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).not.toContain('has a workflow on this branch');
    await runCli(['hook', 'UserPromptSubmit'], {
      cwd: second,
      env: anaEnv,
      input: JSON.stringify({
        cwd: second,
        hook_event_name: 'UserPromptSubmit',
        session_id: 'ana-2',
        prompt: 'go on',
      }),
    });
    const status = (await here('status', '--json')).json<{ teammates?: { workflow_id: string }[] }>();
    expect((status.teammates ?? []).map((t) => t.workflow_id)).not.toContain(anas);

    // back in her first clone, on the removed worktree's branch: its workflow goes on here, as before the change
    gitIn(ana, 'checkout', '-q', 'feature/logger');
    const next = await hook(ana, 'SessionStart', { session_id: 'ana-3', source: 'startup' });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(`following workflow ${logger} as session 2`);
    expect(next.stdout).toContain('is gone and its branch is checked out here');
  });

  it('her run folder left behind while the mirror was off is caught up by her next hook', async () => {
    const { ana, anaEnv, hook, follows } = await team('sqlite');
    const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
    const anas = follows(a.stderr)!;
    await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
    gitIn(ana, 'config', 'user.email', 'ana@new.example');
    writeFileSync(join(ana, '.mailmap'), 'Ana <ana@new.example> <ana@team.example>\n');
    const off = await runCli(['--mirror', 'off', 'checkpoint', '-w', anas, '--name', 'late'], {
      cwd: ana,
      env: anaEnv,
    });
    expect(off.code, off.stderr).toBe(0);
    const written = () => gitIn(ana, 'ls-files', '--others', '--ignored', '--exclude-standard').split('\n');
    expect(written().some((f) => f.endsWith('-late.json'))).toBe(false);
    // a hook catches up its worktree's run folders, of the workflows that are hers (another agent's conversation here)
    const other = await hook(ana, 'Stop', { session_id: 'ana-other' });
    expect(other.code, other.stderr).toBe(0);
    expect(
      written().some((f) => f.endsWith('-late.json')),
      written().join(',') + other.stderr,
    ).toBe(true);
  });
});

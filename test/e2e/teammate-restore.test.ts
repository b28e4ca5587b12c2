import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitIn, tempDir, commitFile, headOf } from '../helpers/git-repo.js';
import { startServerProcess } from '../helpers/server.js';
import { team } from '../helpers/teammates.js';

type Json = Record<string, unknown>;

describe.each(['sqlite', 'postgres'] as const)(
  'a teammate\u2019s checkpoint on a shared %s store',
  (store) => {
    it('restored from another clone, it touches neither clone, names whose it is and where to run it', async () => {
      const { ana, ben, hook, baton, follows } = await team(store);
      const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
      const anas = follows(a.stderr)!;
      expect(anas, a.stderr).toBeDefined();
      await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
      const cp = await baton(ana, 'checkpoint', '--name', 'start');
      expect(cp.code, cp.stderr).toBe(0);
      commitFile(ana, 'login.go');
      expect((await baton(ana, 'pause', '--force')).code).toBe(0);
      commitFile(ben, 'ben.go');
      const [hers, his] = [headOf(ana), headOf(ben)];

      // the options, asked from Ben's clone: hers, and her worktree's files go back only there
      const options = await baton(ben, 'recover', '-w', anas);
      expect(options.code, options.stderr).toBe(0);
      expect(options.stdout).toContain(`workflow ${anas} (ana@team.example's) is paused`);
      expect(options.stdout).toContain(`in ana@team.example's worktree ${ana}`);

      for (const extra of [['--yes'], ['--dry-run'], ['--stash', '--yes']]) {
        const refused = await baton(ben, 'recover', '-w', anas, '--checkpoint', 'start', ...extra);
        expect(refused.code, refused.stderr).toBe(3);
        expect(refused.stderr).toContain(
          `${anas} is ana@team.example's: its checkpoint start is restored in their worktree ${ana}, not from this clone`,
        );
        expect(refused.stderr).toContain(`\`baton recover -w ${anas} --checkpoint start\` in ${ana}`);
        expect(refused.stderr).toContain('--state-only --theirs');
        expect(refused.stderr).toContain('nothing was changed');
      }
      const json = await baton(ben, 'recover', '-w', anas, '--checkpoint', 'start', '--yes', '--json');
      expect(json.code).toBe(3);
      expect(json.stderr).toContain('ana@team.example');
      // neither clone moved, her commit and his are where they were, and the workflow is as it was
      expect([headOf(ana), headOf(ben)]).toEqual([hers, his]);
      expect(existsSync(join(ana, 'login.go')) && existsSync(join(ben, 'ben.go'))).toBe(true);
      const status = (await baton(ana, 'status', '--json')).json<{ workflow: Json }>();
      expect(status.workflow).toMatchObject({ status: 'paused', session_count: 1 });

      // the records alone, asked for: done, named hers
      const state = await baton(
        ben,
        'recover',
        '-w',
        anas,
        '--checkpoint',
        'start',
        '--state-only',
        '--theirs',
      );
      expect(state.code, state.stderr).toBe(0);
      expect(state.stdout).toContain(`resumed ${anas} (ana@team.example's): session 2`);
      expect(state.stdout).not.toMatch(/ here\b/);
      expect([headOf(ana), headOf(ben)]).toEqual([hers, his]);
      expect((await baton(ben, 'pause', '--force', '--theirs', '-w', anas)).code).toBe(0);
      const fresh = await baton(ben, 'recover', '-w', anas, '--option', 'fresh', '--theirs', '--json');
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(fresh.json<Json>()).toMatchObject({ option: 'fresh', owner: 'ana@team.example', yours: false });

      // in her own clone the restore is hers to do: her branch goes back, her commit kept on a backup ref
      expect((await baton(ana, 'pause', '--force')).code).toBe(0);
      const own = await baton(ana, 'recover', '--checkpoint', 'start', '--yes');
      expect(own.code, own.stderr).toBe(0);
      expect(own.stdout).toContain(`resumed ${anas}: session `);
      expect(headOf(ana)).not.toBe(hers);
      expect(headOf(ben)).toBe(his);
    });

    it('at the same path in his clone (devcontainers), his branch and files stay as they are', async () => {
      const { ana, hook, baton, asBen, follows, cloneAt } = await team(store);
      const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
      const anas = follows(a.stderr)!;
      await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
      expect((await baton(ana, 'checkpoint', '--name', 'start')).code).toBe(0);
      commitFile(ana, 'login.go');
      expect((await baton(ana, 'pause', '--force')).code).toBe(0);
      // her container is gone from this machine; Ben's clone is at the very same path, with his own commit
      renameSync(ana, `${ana}-ana`);
      const ben = cloneAt(ana);
      commitFile(ben, 'ben.go');
      const his = headOf(ben);

      const refused = await asBen(ben, 'recover', '-w', anas, '--checkpoint', 'start', '--yes');
      expect(refused.code, refused.stderr).toBe(3);
      expect(refused.stderr).toContain(
        `${anas} is ana@team.example's: its checkpoint start is restored in their worktree ${ana}`,
      );
      expect(headOf(ben)).toBe(his);
      expect(existsSync(join(ben, 'ben.go'))).toBe(true);
      expect(gitIn(ben, 'for-each-ref', 'refs/baton/')).toBe('');

      // her recovery options, asked in his clone: no plan is read from his branch (his commit is not hers to lose)
      const notRead = `${ana} is ana@team.example's worktree, and the clone at that path on this machine works under another git identity: its git state is read only in their clone`;
      // a resume and a recovery are told by Ben's identity (the one the CLI sends, as to a server)
      const notYours = `${ana} is ana@team.example's worktree, not yours (ben@team.example): its git state is read only in their clone`;
      const options = await asBen(ben, 'recover', '-w', anas);
      expect(options.code, options.stderr).toBe(0);
      expect(options.stdout).toContain(`in ana@team.example's worktree ${ana}`);
      expect(options.stdout).not.toMatch(/add ben\.go|leaves? the branch|moves main/);
      const plan = (await asBen(ben, 'recover', '-w', anas, '--json')).json<{
        recovery: { options: { type: string; description: string; changes: Json }[] };
      }>();
      const cpOption = plan.recovery.options.find((o) => o.type === 'checkpoint');
      expect(cpOption?.changes).toMatchObject({ git: null });
      expect(cpOption?.changes.note).toContain(`go back only in ana@team.example's worktree ${ana}`);
      expect(cpOption?.description).not.toMatch(/moves|stays at|leaves? the branch/);
      // resumed from his clone: the warnings do not read his commit as hers, they say her git state is not read here
      const resumed = await asBen(ben, 'recover', '-w', anas, '--option', 'live_state', '--theirs');
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).not.toContain('ben.go');
      expect(resumed.stdout).not.toContain('HEAD moved');
      expect(resumed.stdout).toContain(`git state cannot be compared: ${notYours}`);
      // paused and checkpointed from his clone, with a file of his not committed: his clone is not recorded as hers
      writeFileSync(join(ben, 'notes.txt'), 'his\n');
      const paused = await asBen(ben, 'pause', '--force', '--theirs', '-w', anas, '--json');
      expect(paused.code, paused.stderr).toBe(0);
      const snap = paused.json<{ snapshot_id: string }>().snapshot_id;
      const shown = (await asBen(ben, 'snapshot', snap, '--json')).json<Json>();
      expect(shown).toMatchObject({ git_state: null, git_note: notRead });
      const mark = await asBen(ben, 'checkpoint', '--name', 'his', '-w', anas, '--json');
      expect(mark.code, mark.stderr).toBe(0);
      expect(mark.json<{ checkpoint: Json }>().checkpoint).toMatchObject({ commit: null });
      // resumed from that pause: its snapshot holds no git state of hers to compare, and nothing of his is warned of
      const again = await asBen(ben, 'resume', '--theirs', '-w', anas, '--json');
      expect(again.code, again.stderr).toBe(0);
      expect(again.json<{ warnings: string[] }>().warnings).toEqual([]);
      expect(again.json<{ context: string }>().context).toContain(notRead);
      expect(headOf(ben)).toBe(his);
    });

    it("Ben's dashboard (his baton serve) refuses to restore her checkpoint, touching neither clone", async () => {
      const { ana, ben, benEnv, hook, baton, follows } = await team(store);
      const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
      const anas = follows(a.stderr)!;
      await hook(ana, 'UserPromptSubmit', {
        session_id: 'ana-1',
        prompt: 'stabilise the flaky login test',
      });
      expect((await baton(ana, 'checkpoint', '--name', 'start')).code).toBe(0);
      commitFile(ana, 'login.go');
      expect((await baton(ana, 'pause', '--force')).code).toBe(0);
      const [hers, his] = [headOf(ana), headOf(ben)];
      const server = await startServerProcess(benEnv.BATON_HOME ?? tempDir('baton-serve-'), {
        cwd: ben,
        env: benEnv,
      });
      try {
        const res = await server.api(`/api/workflows/${anas}/restore`, {
          method: 'POST',
          json: { checkpoint: 'start', confirm: true },
        });
        const body = (await res.json()) as { error: Json };
        expect(res.status, JSON.stringify(body)).toBe(409);
        expect(body.error).toMatchObject({
          code: 'invalid_transition',
          owner: 'ana@team.example',
          yours: false,
        });
        expect(body.error.message).toContain(
          `${anas} is ana@team.example's: its checkpoint start is restored in their worktree ${ana}, not from this server`,
        );
        // Ben's CLI over his server: her options plan nothing from the clone at her path; a resume of hers in
        // progress is refused as hers, the refusal carried as data through the HTTP error
        const overServer = (...args: string[]) =>
          runCli(args, { cwd: ben, env: { ...benEnv, BATON_URL: server.url, BATON_TOKEN: server.token } });
        const plan = (await overServer('recover', '-w', anas, '--json')).json<{
          recovery: { options: { type: string; changes: Json }[] };
        }>();
        expect(plan.recovery.options.find((o) => o.type === 'checkpoint')?.changes).toMatchObject({
          git: null,
        });
        expect((await baton(ana, 'resume')).code).toBe(0);
        const refused = await overServer('resume', '-w', anas);
        expect(refused.code, refused.stderr).toBe(3);
        expect(refused.stderr).toContain(`cannot resume: ${anas} is ana@team.example's and in_progress`);
        expect(refused.stderr).toContain(
          `the next Claude Code session in ana@team.example's worktree ${ana} continues it with its briefing (\`baton context -w ${anas}\` prints it)`,
        );
      } finally {
        await server.stop();
      }
      expect([headOf(ana), headOf(ben)]).toEqual([hers, his]);
      expect(existsSync(join(ana, 'login.go'))).toBe(true);
    });
  },
);

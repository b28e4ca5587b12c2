import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../helpers/git-repo.js';
import { team } from '../helpers/teammates.js';

type Json = Record<string, unknown>;

/** The hook's answer: what the user is told (systemMessage) and what the agent is given (additionalContext). */
const said = (stdout: string) => {
  const out = stdout.trim()
    ? (JSON.parse(stdout) as {
        systemMessage?: string;
        hookSpecificOutput?: { additionalContext?: string };
      })
    : {};
  return { user: out.systemMessage ?? '', agent: out.hookSpecificOutput?.additionalContext ?? '' };
};

describe.each(['sqlite', 'postgres'] as const)(
  'a teammate\u2019s unfinished work on a shared %s store',
  (store) => {
    it('the next person on that branch is pointed to it, at their session start and in baton status, not joined to it', async () => {
      const { ana, ben, hook, baton, follows } = await team(store);
      gitIn(ana, 'checkout', '-q', '-b', 'fix-login');
      const a = await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
      const anas = follows(a.stderr);
      expect(anas, a.stderr).toBeDefined();
      await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
      gitIn(ana, 'push', '-q', '-u', 'origin', 'fix-login');

      // Ben pulls her branch into his clone and starts his agent there
      gitIn(ben, 'fetch', '-q', 'origin');
      gitIn(ben, 'checkout', '-q', 'fix-login');
      const b = await hook(ben, 'SessionStart', { session_id: 'ben-1', source: 'startup' });
      expect(b.code, b.stderr).toBe(0);
      const bens = follows(b.stderr);
      expect(bens).toBeDefined();
      expect(bens).not.toBe(anas);
      const pointer = `ana@team.example has a workflow on this branch (fix-login): ${anas} "stabilise the flaky login test" (in progress; last updated `;
      const { user, agent } = said(b.stdout);
      expect(user).toContain(pointer);
      expect(user).toContain(`\`baton context -w ${anas}\` to read it`);
      expect(agent).toContain(pointer);
      // the briefing is not hers
      expect(agent).toContain('Nothing is recorded yet');
      // how a task is added from the shell: a title is all it takes
      expect(agent).toMatch(/with the MCP tool add_task \(or `.+ task add "<title>"` in a shell\)/);

      const status = await baton(ben, 'status');
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(`not yours: ${pointer}`);
      const json = (await baton(ben, 'status', '--json')).json<{ teammates: { workflow_id: string }[] }>();
      expect(json.teammates.map((t) => t.workflow_id)).toEqual([anas]);
      // the sessions table says whose each workflow is, as baton list does: hers goes on in her agent's next session
      const sessions = await baton(ben, 'sessions');
      expect(sessions.code, sessions.stderr).toBe(0);
      const rows = sessions.stdout.split('\n');
      expect(rows.find((l) => l.startsWith('#'))).toMatch(/\bUPDATED +OWNER +RESUMABLE$/);
      expect(rows.find((l) => l.includes(anas!))).toMatch(/ ana@team\.example +\S/);
      expect(rows.find((l) => l.includes(bens!))).toMatch(/ ben@team\.example +\S/);
      const table = (await baton(ben, 'sessions', '--json')).json<{
        sessions: { id: string; owner: string }[];
      }>();
      expect(table.sessions.find((r) => r.id === anas)?.owner).toBe('ana@team.example');
      // Ana's briefing read on Ben's side: her uncommitted file is hers, not in Ben's checkout
      writeFileSync(join(ana, 'interactive.go'), 'package cli\n');
      const cp = await baton(ana, 'checkpoint', '--name', 'before-the-limit');
      expect(cp.code, cp.stderr).toBe(0);
      const mine = await baton(ana, 'context', '-w', anas!);
      expect(mine.stdout).toMatch(/uncommitted changes[^\n]*interactive\.go/);
      expect(mine.stdout).not.toContain('not in this checkout');
      const hers = await baton(ben, 'context', '-w', anas!);
      expect(hers.code, hers.stderr).toBe(0);
      expect(hers.stdout).toMatch(
        /uncommitted changes on ana@team\.example's machine, not in this checkout[^\n]*interactive\.go/,
      );
      // Ana's own status names no one: the work is hers
      expect((await baton(ana, 'status')).stdout).not.toContain('not yours');

      // asked of her workflow from Ben's clone, where it goes on is her worktree, not here (a session here is Ben's own)
      const resume = await baton(ben, 'resume', '-w', anas!);
      expect(resume.code).toBe(3);
      expect(resume.stderr).toContain(`cannot resume: ${anas} is ana@team.example's and in_progress`);
      expect(resume.stderr).toContain(
        `the next Claude Code session in ana@team.example's worktree ${ana} continues it`,
      );
      // her briefing is read by naming it: `baton context` alone, in Ben's clone, gives his own
      expect(resume.stderr).toContain(`with its briefing (\`baton context -w ${anas}\` prints it)`);
      const refusedJson = await baton(ben, 'resume', '-w', anas!, '--json');
      expect(refusedJson.code).toBe(3);
      // what was refused and what goes on with it instead, as data: no script reads it out of the message
      expect(refusedJson.json<{ error: Json }>().error).toMatchObject({
        code: 'invalid_transition',
        owner: 'ana@team.example',
        yours: false,
        resume_refusal: {
          workflow_id: anas,
          status: 'in_progress',
          worktree: ana,
          instead: 'next_session',
          agents: 'Claude Code',
        },
      });
      // in her own clone, her worktree is its worktree: no one is named
      const hersRefused = await baton(ana, 'resume');
      expect(hersRefused.code).toBe(3);
      expect(hersRefused.stderr).toContain(
        `the next Claude Code session in its worktree ${ana} continues it with its briefing (\`baton context\` prints it)`,
      );
      const pause = await baton(ben, 'pause', '--force', '--theirs', '-w', anas!);
      expect(pause.code, pause.stderr).toBe(0);
      // whose it is, as where: her agent goes on with it in her worktree, not Ben's
      expect(pause.stdout).toContain(`paused ${anas} (ana@team.example's) (snapshot `);
      const there = `open Claude Code in ana@team.example's worktree ${ana} and send`;
      expect(pause.stdout).toContain(there);
      expect(pause.stdout).not.toMatch(/ here\b/);
      expect((await baton(ben, 'status', '-w', anas!)).stdout).toContain(there);
      // in her clone it is here
      const own = (await baton(ana, 'status')).stdout;
      expect(own).toMatch(/open Claude Code here and send/);
      expect(own).not.toContain('worktree');
      // resumed from Ben's clone: hers, going on in her worktree; in --json, whose and that it is not his
      const resumed = await baton(ben, 'resume', '--theirs', '-w', anas!, '--json');
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.json<Json>()).toMatchObject({
        outcome: 'resumed',
        owner: 'ana@team.example',
        yours: false,
      });
      const paused = await baton(ben, 'pause', '--force', '--theirs', '-w', anas!, '--json');
      expect(paused.json<Json>()).toMatchObject({
        outcome: 'paused',
        owner: 'ana@team.example',
        yours: false,
      });
      const again = await baton(ben, 'resume', '--theirs', '-w', anas!);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain(`resumed ${anas} (ana@team.example's): session `);
      expect(again.stdout).toContain(`in ana@team.example's worktree ${ana}`);
      expect(again.stdout).not.toMatch(/ here\b/);
      // her own: no one named, and yours
      const herPause = await baton(ana, 'pause', '--force', '--json');
      expect(herPause.json<Json>()).toMatchObject({
        outcome: 'paused',
        owner: 'ana@team.example',
        yours: true,
      });
      const herResume = await baton(ana, 'resume');
      expect(herResume.code, herResume.stderr).toBe(0);
      expect(herResume.stdout).toContain(`resumed ${anas}: session `);
      expect(herResume.stdout).not.toContain("ana@team.example's");
    });

    it('a workflow of another branch, or of another project on a branch of the same name, is not pointed to', async () => {
      const { ana, ben, hook, baton, follows } = await team(store);
      gitIn(ana, 'checkout', '-q', '-b', 'fix-login');
      await hook(ana, 'SessionStart', { session_id: 'ana-1', source: 'startup' });
      await hook(ana, 'UserPromptSubmit', { session_id: 'ana-1', prompt: 'stabilise the flaky login test' });
      // Cy's project, another repository on the same store, also on main: none of its commits is in Ben's clone
      const other = makeRepo('baton-other-');
      gitIn(other, 'config', 'user.email', 'cy@team.example');
      // its own history: makeRepo's first commit is the same commit in any repository made in the same second
      writeFileSync(join(other, 'CHANGELOG.md'), '# changes\n');
      gitIn(other, 'add', '.');
      gitIn(other, 'commit', '-q', '-m', 'changelog');
      await hook(other, 'SessionStart', { session_id: 'cy-1', source: 'startup' });
      await hook(other, 'UserPromptSubmit', { session_id: 'cy-1', prompt: 'write the changelog' });

      // Ben stays on main
      const b = await hook(ben, 'SessionStart', { session_id: 'ben-1', source: 'startup' });
      expect(follows(b.stderr)).toBeDefined();
      expect(said(b.stdout).user).not.toContain('has a workflow');
      expect((await baton(ben, 'status')).stdout).not.toContain('not yours');
    });
  },
);

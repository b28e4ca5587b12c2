import { chmodSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { batonBin } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

/**
 * Claude Code run from an IDE or a desktop app may run the hooks without the terminal's PATH: they find no `baton`,
 * the session start says so in the session, and nothing reaches Baton. `baton doctor` said "No hook has run here
 * yet" and `ok` all the same; it now sees that Claude Code wrote a transcript of this worktree since the hooks were
 * wired, and none of them ever ran here.
 */
describe('baton doctor and Claude Code sessions none of whose hooks reached Baton', () => {
  /** A worktree whose Claude Code hooks `baton init` wired, with `baton` on the terminal's PATH. */
  async function wired() {
    const bin = tempDir('baton-bin-');
    writeFileSync(join(bin, 'baton'), `#!/bin/sh\nexec "${process.execPath}" "${batonBin}" "$@"\n`);
    chmodSync(join(bin, 'baton'), 0o755);
    const space = hookWorkspace({
      CLAUDE_CONFIG_DIR: undefined,
      PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    });
    expect((await space.baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    return { ...space, settings: join(space.repo, '.claude', 'settings.local.json') };
  }

  /** A session Claude Code keeps for the folder `cwd` (its path dashed, under ~/.claude/projects/), a minute later. */
  function sessionOf(env: { HOME: string }, cwd: string, settings: string, id: string) {
    const folder = join(env.HOME, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(folder, { recursive: true });
    const transcript = join(folder, `${id}.jsonl`);
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'user', cwd, message: { role: 'user', content: 'hi' } })}\n`,
    );
    const later = statSync(settings).mtimeMs / 1000 + 60;
    utimesSync(transcript, later, later);
    return { transcript, later };
  }

  it('is a problem while no hook ran here, and goes once one does', async () => {
    const { repo, env, baton, settings } = await wired();
    const start = (
      JSON.parse(readFileSync(settings, 'utf8')) as {
        hooks: Record<string, { hooks: { command: string }[] }[]>;
      }
    ).hooks.SessionStart![0]!.hooks[0]!.command;
    // the session Claude Code keeps for the worktree, written after the set-up
    const { transcript, later } = sessionOf(env, repo, settings, 'S1');
    // its session start, run with a PATH that has no `baton` (an agent started from a desktop app)
    const hook = spawnSync('/bin/sh', ['-c', start], {
      cwd: repo,
      env: hermeticEnv({ ...env, PATH: '/usr/bin:/bin' }),
      input: JSON.stringify({ session_id: 'S1', transcript_path: transcript, cwd: repo, source: 'startup' }),
      encoding: 'utf8',
    });
    expect(hook.stdout).toContain('not on the PATH this agent runs them with');

    const doctor = await baton(['doctor']);
    expect(doctor.code, doctor.stdout).toBe(1);
    expect(doctor.stdout).toContain('No hook has run here yet.');
    expect(doctor.stdout).toContain(
      `problem: Claude Code wrote ${transcript} at ${new Date(later * 1000).toISOString()}, after Baton's hooks were set up in ${settings}, but none of them has reached Baton here, so that session was not recorded`,
    );
    expect(doctor.stdout).toContain(
      `may not find \`baton\` on its PATH (run \`baton init --agent claude-code --command "${process.execPath} `,
    );

    // a session whose hooks find Baton: what they did is in the hook log, and nothing is said any more
    const ran = await baton(
      ['hook', 'SessionStart'],
      JSON.stringify({
        session_id: 'S1',
        transcript_path: transcript,
        cwd: repo,
        hook_event_name: 'SessionStart',
      }),
    );
    expect(ran.code, ran.stderr).toBe(0);
    const after = await baton(['doctor']);
    expect(after.stdout).not.toContain('none of them has reached Baton');
    expect(after.code, after.stdout).toBe(0);
  });

  it('counts a session started in a subfolder of the worktree, not one of a folder beside it', async () => {
    const { repo, env, baton, settings } = await wired();
    // `/repo-v2` is dashed to a name that begins with `/repo`'s, as `/repo/web`'s is: its session is not this one's
    sessionOf(env, `${repo}-v2`, settings, 'BESIDE');
    const beside = await baton(['doctor']);
    expect(beside.stdout).not.toContain('none of them has reached Baton');
    expect(beside.code, beside.stdout).toBe(0);

    const { transcript } = sessionOf(env, join(repo, 'web'), settings, 'SUB');
    const sub = await baton(['doctor']);
    expect(sub.code, sub.stdout).toBe(1);
    expect(sub.stdout).toContain(`problem: Claude Code wrote ${transcript} at `);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

type Json = Record<string, unknown>;

const told = (stdout: string) =>
  stdout.trim() ? ((JSON.parse(stdout) as { systemMessage?: string }).systemMessage ?? '') : '';

/** Whether the agent was handed Ana's work as its own: her request as its goal, her workflow continued. */
const handedAnas = (stdout: string) =>
  stdout.includes('The user asked: add a licence') || /continues workflow/.test(told(stdout));

/**
 * Two developers on one team database whose clones have the same path (devcontainers' `/workspaces/<repo>`): played
 * here by one repository whose git identity changes between them, with one Baton home (the shared database).
 */
function team() {
  const repo = makeRepo();
  const env = { BATON_HOME: tempDir('baton-home-'), HOME: tempDir('baton-user-') };
  const as = (email: string) => execFileSync('git', ['config', 'user.email', email], { cwd: repo });
  const hook = (event: string, fields: Json, extra: Record<string, string> = {}) =>
    runCli(['hook', event], {
      cwd: repo,
      env: { ...env, ...extra },
      input: JSON.stringify({ cwd: repo, hook_event_name: event, ...fields }),
    });
  const baton = async (...args: string[]) => {
    const r = await runCli([...args, '--json'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Json;
  };
  const follows = (stderr: string) => /workflow (wf-[^\s)]+)/.exec(stderr)?.[1];
  return { repo, env, as, hook, baton, follows };
}

describe('two people whose clones have the same path on one database', () => {
  it('each follow their own workflow there, and see only theirs as the worktree\u2019s', async () => {
    const { repo, env, as, hook, baton, follows } = team();
    as('ana@team.example');
    const a = await hook('SessionStart', { session_id: 'ana-1', source: 'startup' });
    expect(a.code, a.stderr).toBe(0);
    const anas = follows(a.stderr);
    expect(anas).toBeDefined();
    await hook('UserPromptSubmit', { session_id: 'ana-1', prompt: 'add a licence file' });

    // Ben's clone: his run folder holds none of Ana's workflows
    as('Ben@Team.example');
    rmSync(join(repo, '.baton'), { recursive: true, force: true });
    const b = await hook('SessionStart', { session_id: 'ben-1', source: 'startup' });
    expect(b.code, b.stderr).toBe(0);
    const bens = follows(b.stderr);
    expect(bens).toBeDefined();
    expect(bens).not.toBe(anas);
    // not Ana's work handed over, nor her conversation taken for another one at work here
    expect(handedAnas(b.stdout)).toBe(false);
    expect(b.stderr).not.toMatch(/another conversation/);
    await hook('UserPromptSubmit', { session_id: 'ben-1', prompt: 'fix the typo in the readme' });
    expect(existsSync(join(repo, '.baton', 'runs', bens!))).toBe(true);
    expect(existsSync(join(repo, '.baton', 'runs', anas!))).toBe(false);

    const ids = (r: Json) => (r.workflows as { id: string }[]).map((w) => w.id).sort();
    expect(((await baton('status')).workflow as Json).id).toBe(bens);
    expect(ids(await baton('list', '--here'))).toEqual([bens]);
    // the team's list holds both, and says whose each is
    expect(ids(await baton('list'))).toEqual([anas, bens].sort());
    const said = await runCli(['list'], { cwd: repo, env });
    expect(said.stdout.split('\n')[0]).toMatch(/\bWORKTREE +OWNER$/);
    expect(said.stdout).toMatch(new RegExp(`^${anas} .* ana@team\\.example$`, 'm'));
    expect(said.stdout).toMatch(new RegExp(`^${bens} .* ben@team\\.example$`, 'm'));
    const ctx = await baton('context');
    expect(JSON.stringify(ctx)).toContain('fix the typo in the readme');
    expect(JSON.stringify(ctx)).not.toContain('add a licence');

    // a third identity here (or one of them under another user.email) is told whose they are
    as('cy@team.example');
    const none = await runCli(['status'], { cwd: repo, env });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain("2 incomplete here are another git identity's");

    // back in Ana's clone: hers, her conversation reopened goes on in it
    as('ana@team.example');
    expect(((await baton('status')).workflow as Json).id).toBe(anas);
    expect(ids(await baton('list', '--here'))).toEqual([anas]);
    const again = await hook('SessionStart', { session_id: 'ana-1', source: 'resume' });
    expect(follows(again.stderr)).toBe(anas);
  });

  it('an identity given only by the environment (GIT_AUTHOR_EMAIL, no user.email) is whose the work is', async () => {
    const { repo, env, as, hook, follows } = team();
    as('ana@team.example');
    const anas = follows((await hook('SessionStart', { session_id: 'ana-1', source: 'startup' })).stderr);
    await hook('UserPromptSubmit', { session_id: 'ana-1', prompt: 'add a licence file' });

    // Ben's clone at the same path: no user.email, his identity in the environment (a devcontainer's)
    execFileSync('git', ['config', '--unset', 'user.email'], { cwd: repo });
    const ben = { GIT_AUTHOR_EMAIL: 'Ben@Team.example', GIT_COMMITTER_EMAIL: 'Ben@Team.example' };
    const b = await hook('SessionStart', { session_id: 'ben-1', source: 'startup' }, ben);
    expect(b.code, b.stderr).toBe(0);
    const bens = follows(b.stderr);
    expect(bens).toBeDefined();
    expect(bens).not.toBe(anas);
    expect(handedAnas(b.stdout)).toBe(false);
    // told once, at the start, that Ana's work is here and how to read it
    expect(told(b.stdout)).toContain(
      `ana@team.example has a workflow in this folder: ${anas} "add a licence file"`,
    );
    expect(told(b.stdout)).toContain(`\`baton context -w ${anas}\` to read it`);
    // doctor says whose the work made here is
    const doctor = await runCli(['doctor'], { cwd: repo, env: { ...env, ...ben } });
    expect(doctor.stdout).toContain('identity: ben@team.example');
    const next = await hook('UserPromptSubmit', { session_id: 'ben-1', prompt: 'fix the typo' }, ben);
    expect(told(next.stdout)).not.toContain('has a workflow in this folder');
    const list = await runCli(['list', '--json'], { cwd: repo, env });
    const owners = (list.json().workflows as { id: string; owner: string | null }[]).map((w) => [
      w.id,
      w.owner,
    ]);
    expect(owners).toContainEqual([bens, 'ben@team.example']);
    expect(owners).toContainEqual([anas, 'ana@team.example']);
  });

  it('a clone with no git identity at all does not join a teammate\u2019s workflow at its path', async () => {
    const { repo, env, as, hook, follows } = team();
    as('ana@team.example');
    const anas = follows((await hook('SessionStart', { session_id: 'ana-1', source: 'startup' })).stderr);
    await hook('UserPromptSubmit', { session_id: 'ana-1', prompt: 'add a licence file' });
    execFileSync('git', ['config', '--unset', 'user.email'], { cwd: repo });
    // a command here says what to set to see one's own work
    const none = await runCli(['status'], { cwd: repo, env });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain("1 incomplete here is a git identity's, and none is set here");
    expect(none.stderr).toContain('git config user.email');
    const doctor = await runCli(['doctor'], { cwd: repo, env });
    expect(doctor.stdout).toContain('note: no git identity here');
    expect(doctor.stdout).toContain('git config user.email');
    const b = await hook('SessionStart', { session_id: 'who-1', source: 'startup' });
    expect(b.code, b.stderr).toBe(0);
    expect(follows(b.stderr)).toBeDefined();
    expect(follows(b.stderr)).not.toBe(anas);
    expect(handedAnas(b.stdout)).toBe(false);
  });

  it('a workflow made without a git identity (or before owners were kept) stays everyone\u2019s there', async () => {
    const { repo, as, hook, baton, follows } = team();
    execFileSync('git', ['config', '--unset', 'user.email'], { cwd: repo });
    const a = await hook('SessionStart', { session_id: 'anon-1', source: 'startup' });
    const anyones = follows(a.stderr);
    await hook('UserPromptSubmit', { session_id: 'anon-1', prompt: 'add a licence file' });
    as('ben@team.example');
    expect(((await baton('status')).workflow as Json).id).toBe(anyones);
  });
});

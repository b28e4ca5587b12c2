import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';
import { freshPostgresUrl } from '../helpers/postgres.js';
import { batonBin } from '../helpers/cli.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';

// A repository with a workflow in progress in the default SQLite store moves to the team's database (`baton init
// --save-database`): the workflow stays behind unless it is moved, and init and doctor say so with the commands.

type Json = Record<string, any>;

/** A repository whose first Claude Code session, followed by the hooks, left a workflow in progress in SQLite. */
async function workflowInSqlite() {
  const w = hookWorkspace({ CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined });
  const transcript = join(tempDir('baton-transcript-'), 'S1.jsonl');
  writeFileSync(transcript, '');
  const hook = agentHooks(w.baton, { cwd: w.repo, session_id: 'S1', transcript_path: transcript });
  expect((await w.baton(['init', '--agent', 'claude-code', '--command', 'baton'])).code).toBe(0);
  expect((await hook('SessionStart', { source: 'startup' })).code).toBe(0);
  expect((await hook('UserPromptSubmit', { prompt: 'Add greet(name) with a test' })).code).toBe(0);
  expect((await hook('Stop', { stop_hook_active: false })).code).toBe(0);
  expect((await hook('SessionEnd', { reason: 'prompt_input_exit' })).code).toBe(0);
  const id = (await w.baton(['status', '--json'])).json<Json>().workflow.id as string;
  const sqlite = join(w.env.BATON_HOME, 'baton.db');
  /** A new session in the repository, as the hooks start it: its SessionStart's output. */
  const nextSession = () =>
    agentHooks(w.baton, { cwd: w.repo, session_id: 'S2', transcript_path: transcript })('SessionStart', {
      source: 'startup',
    });
  return { ...w, id, sqlite, nextSession };
}

/** Runs a command line printed between backticks, `a && b`, as the user would paste it (`baton` is this build). */
function runPrinted(line: string, cwd: string, env: Record<string, string | undefined>) {
  for (const part of line.split(' && ')) {
    const [program, ...args] = part.split(' ');
    expect(program).toBe('baton');
    execFileSync(process.execPath, [batonBin, ...args], { cwd, env: hermeticEnv(env), stdio: 'pipe' });
  }
}

describe('moving a repository to the team database', () => {
  it('init --save-database and doctor name the workflow left in SQLite with the commands that move it; they move it', async () => {
    const { baton, repo, env, id, sqlite, nextSession } = await workflowInSqlite();
    const url = await freshPostgresUrl('baton_switch');
    const saved = await baton(
      ['init', '--agent', 'claude-code', '--command', 'baton', '--save-database'],
      undefined,
      {
        BATON_DATABASE_URL: url,
      },
    );
    expect(saved.code, saved.stderr).toBe(0);
    const move = `baton --database ${sqlite} export ${id} ${join(env.BATON_HOME, 'moved', id)} && baton import-run ${join(env.BATON_HOME, 'moved', id)}`;
    expect(saved.stdout).toContain(
      `Warning: a workflow not finished of this repository stays in SQLite ${sqlite}, which the hooks no longer use: the next agent session start here begins a new, empty workflow in PostgreSQL`,
    );
    expect(saved.stdout).toContain(`${id} ("Add greet(name) with a test", in_progress): \`${move}\``);
    expect(saved.stdout).toContain('`baton init --save-database --move-workflows`');
    const json = (
      await baton(
        ['init', '--agent', 'claude-code', '--command', 'baton', '--save-database', '--json'],
        undefined,
        {
          BATON_DATABASE_URL: url,
        },
      )
    ).json<Json>();
    expect(json.left_behind).toMatchObject([{ id, status: 'in_progress', worktree: repo }]);

    // doctor, with the hooks' settings only (the config file names PostgreSQL now): said, not "no workflow here yet"
    const doctor = await baton(['doctor']);
    expect(doctor.stdout).toContain(
      `note: the hooks here followed workflow ${id} ("Add greet(name) with a test", in_progress), which stays in SQLite ${sqlite}:`,
    );
    expect(doctor.stdout).toContain(`Move it: \`${move}\``);
    expect(doctor.stdout).not.toContain('no workflow here yet');

    // the commands as printed move it: the next session takes it up, and doctor has nothing left to say
    runPrinted(move, repo, env);
    expect((await baton(['doctor'])).stdout).not.toContain('the hooks here followed');
    expect((await nextSession()).stdout).toContain(`Baton continues workflow ${id}`);
  });

  it('init --save-database --move-workflows moves them itself, once; refused without --save-database', async () => {
    const { baton, id, sqlite, nextSession } = await workflowInSqlite();
    const url = await freshPostgresUrl('baton_switch');
    const refused = await baton(['init', '--move-workflows'], undefined, { BATON_DATABASE_URL: url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('use them together (`baton init --save-database --move-workflows`)');

    const init = [
      'init',
      '--agent',
      'claude-code',
      '--command',
      'baton',
      '--save-database',
      '--move-workflows',
    ];
    const moved = await baton(init, undefined, { BATON_DATABASE_URL: url });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(
      new RegExp(
        `^Moved 1 workflow not finished of this repository from SQLite ${sqlite} into PostgreSQL .+?: ${id} \\(imported, \\d+ events\\);.* The copy in SQLite ${sqlite} stays as it was\\.$`,
        'm',
      ),
    );
    expect(moved.stdout).not.toContain('Warning: a workflow');
    const listed = (await baton(['list', '--json'])).json<{ workflows: Json[] }>().workflows;
    expect(listed.map((w) => [w.id, w.status])).toEqual([[id, 'in_progress']]);
    // run again: the copy there is whole, nothing is moved or said twice
    const again = await baton(init, undefined, { BATON_DATABASE_URL: url });
    expect(again.stdout).not.toMatch(/Moved|Warning: a workflow/);
    expect((await nextSession()).stdout).toContain(`Baton continues workflow ${id}`);
  });

  it('doctor names a followed workflow no store here holds, with its run folder to import it from', async () => {
    const { baton, repo, env, id, sqlite, nextSession } = await workflowInSqlite();
    const team = join(tempDir('baton-team-'), 'team.db');
    expect(
      (
        await baton(['init', '--agent', 'claude-code', '--command', 'baton', '--save-database'], undefined, {
          BATON_DATABASE_URL: team,
        })
      ).code,
    ).toBe(0);
    // the old store is gone (deleted, or another machine's): the repository's run folder still holds the workflow
    rmSync(sqlite);
    const doctor = await baton(['doctor']);
    const folder = join(repo, '.baton', 'runs', id);
    expect(doctor.stdout).toContain(
      `note: the hooks here followed workflow ${id}, which SQLite ${team}, the store in use, does not hold (it is in the store the hooks used before), so the next agent session start here begins a new, empty workflow instead of handing it over. Move it: \`baton import-run ${folder}\` (its run folder here), or`,
    );
    runPrinted(`baton import-run ${folder}`, repo, env);
    expect((await baton(['doctor'])).stdout).not.toContain('the hooks here followed');
    expect((await nextSession()).stdout).toContain(`Baton continues workflow ${id}`);
  });
});

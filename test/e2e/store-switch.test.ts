import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';
import { freshPostgresUrl, postgresAdminUrl } from '../helpers/postgres.js';
import { batonBin } from '../helpers/cli.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';
import { holdWriteLock, releaseLocks } from '../helpers/sqlite-lock.js';

// A repository with a workflow in progress in the default SQLite store moves to the team's database (`baton init
// --save-database`): the workflow stays behind unless it is moved, and init and doctor say so with the commands.

type Json = Record<string, any>;

/** A repository whose first Claude Code session, followed by the hooks, left a workflow in progress in SQLite. */
/** `baton init --save-database` with a new team SQLite file: the store in use from now on. Its path. */
async function saveTeamDatabase(
  baton: Awaited<ReturnType<typeof workflowInSqlite>>['baton'],
): Promise<string> {
  const team = join(tempDir('baton-team-'), 'team.db');
  const saved = await baton(
    ['init', '--agent', 'claude-code', '--command', 'baton', '--save-database'],
    undefined,
    {
      BATON_DATABASE_URL: team,
    },
  );
  expect(saved.code, saved.stderr).toBe(0);
  return team;
}

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
    const team = await saveTeamDatabase(baton);
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

  it('doctor says a default store it cannot read could not be read, not that the workflow is in another store', async () => {
    const { baton, repo, env, id, sqlite } = await workflowInSqlite();
    const team = await saveTeamDatabase(baton);
    // the default file damaged (a disk error, a copy cut short): it may still hold the workflow, once mended
    renameSync(sqlite, `${sqlite}.good`);
    writeFileSync(sqlite, 'not a database, not at all: '.repeat(200));
    const doctor = await baton(['doctor']);
    const folder = join(repo, '.baton', 'runs', id);
    const move = `baton --database ${sqlite} export ${id} ${join(env.BATON_HOME, 'moved', id)} && baton import-run ${join(env.BATON_HOME, 'moved', id)}`;
    expect(doctor.stdout).toContain(
      `note: the hooks here followed workflow ${id}, which SQLite ${team}, the store in use, does not hold, so the next agent session start here begins a new, empty workflow instead of handing it over; SQLite ${sqlite}, the default store, where it may be, could not be read (file is not a database). Once it can be read, move it from there: \`${move}\`; or now, from its run folder here: \`baton import-run ${folder}\``,
    );
    expect(doctor.stdout).not.toContain('it is in the store the hooks used before');
    // mended, it is found there again
    renameSync(`${sqlite}.good`, sqlite);
    expect((await baton(['doctor'])).stdout).toContain(
      `note: the hooks here followed workflow ${id} ("Add greet(name) with a test", in_progress), which stays in SQLite ${sqlite}:`,
    );
  });
});

/** The `database` key $BATON_HOME/config.json keeps (undefined: none). */
const kept = (home: string): string | undefined => {
  const path = join(home, 'config.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Json).database : undefined;
};

afterEach(releaseLocks);

describe('moving to another store when the old one cannot be read', () => {
  const init = ['init', '--agent', 'claude-code', '--command', 'baton', '--save-database'];

  it('a damaged SQLite file: the save says so and how to move them later; --move-workflows refuses and keeps nothing', async () => {
    const { baton, repo, env, id, sqlite, nextSession } = await workflowInSqlite();
    const team = join(tempDir('baton-team-'), 'team.db');
    renameSync(sqlite, `${sqlite}.good`);
    writeFileSync(sqlite, 'not a database, not at all: '.repeat(200));

    const refused = await baton([...init, '--move-workflows'], undefined, { BATON_DATABASE_URL: team });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `--move-workflows cannot read SQLite ${sqlite}, the store the hooks use (file is not a database): it moved nothing; --save-database kept nothing, so the hooks still use SQLite ${sqlite} and every workflow there stays as it was. Run this again once the cause above is cleared; or switch without moving them: \`baton init --save-database\``,
    );
    expect(kept(env.BATON_HOME)).toBeUndefined();

    const saved = await baton([...init, '--json'], undefined, { BATON_DATABASE_URL: team });
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.json<Json>()).toMatchObject({ previous_unread: 'file is not a database', left_behind: [] });
    expect(kept(env.BATON_HOME)).toBe(team);
    const again = await baton(init, undefined, { BATON_DATABASE_URL: team });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `Warning: SQLite ${sqlite}, the store the hooks used until now, could not be read (file is not a database), so what it holds was not looked at: any workflow of this repository not finished there stays there, and the next agent session start here begins a new, empty workflow in SQLite ${team} instead of handing it over. Once it can be read, \`baton init --save-database --move-workflows\` (with this shell's database setting) moves them, or one by one: \`baton --database ${sqlite} list\` names them`,
    );
    const runs = join(repo, '.baton', 'runs');
    expect(again.stdout).toContain(
      `; or, from this worktree's run folders (${runs}), which hold them too: \`baton rebuild --from-disk ${repo}\`.`,
    );

    // the file back as it was: what the warning said moves the workflow, and the next session takes it up
    renameSync(`${sqlite}.good`, sqlite);
    const moved = await baton([...init, '--move-workflows'], undefined, { BATON_DATABASE_URL: team });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain(`Moved 1 workflow not finished of this repository from SQLite ${sqlite}`);
    expect((await nextSession()).stdout).toContain(`Baton continues workflow ${id}`);
  });

  it('a PostgreSQL database that is gone: said with the URL (no password) to move them from later', async () => {
    const { baton, env } = hookWorkspace({ CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined });
    const old = await freshPostgresUrl('baton_gone');
    expect((await baton(init, undefined, { BATON_DATABASE_URL: old })).code).toBe(0);
    expect(kept(env.BATON_HOME)).toBe(old);
    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE ${new URL(old).pathname.slice(1)} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    const team = join(tempDir('baton-team-'), 'team.db');
    const refused = await baton([...init, '--move-workflows'], undefined, { BATON_DATABASE_URL: team });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /--move-workflows cannot read PostgreSQL .*does not exist.*: it moved nothing; --save-database kept nothing/,
    );
    expect(kept(env.BATON_HOME)).toBe(old);

    const saved = await baton(init, undefined, { BATON_DATABASE_URL: team });
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toMatch(
      /^Warning: PostgreSQL .+?, the store the hooks used until now, could not be read \(.*does not exist.*\), so what it holds was not looked at/m,
    );
    const url = new URL(old);
    if (url.password) url.password = '***';
    expect(saved.stdout).toContain(`\`baton --database '${url.toString()}' list\` names them`);
    expect(saved.stdout).not.toContain('--move-workflows` (with this shell');
    expect(kept(env.BATON_HOME)).toBe(team);
  });

  it('a move stopped halfway (the new store kept locked) keeps nothing, and a run again finishes it', async () => {
    const { baton, env, id, sqlite, nextSession } = await workflowInSqlite();
    const team = join(tempDir('baton-team-'), 'team.db');
    expect((await baton(['list'], undefined, { BATON_DATABASE_URL: team })).code).toBe(0);
    const holder = await holdWriteLock(team);
    const stopped = await baton([...init, '--move-workflows'], undefined, { BATON_DATABASE_URL: team });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(
      `--move-workflows could not move ${id} from SQLite ${sqlite} (cannot write to the SQLite database ${team}: database is locked`,
    );
    expect(stopped.stderr).toContain(
      `; --save-database kept nothing, so the hooks still use SQLite ${sqlite} and every workflow there stays as it was.`,
    );
    expect(kept(env.BATON_HOME)).toBeUndefined();
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));

    const moved = await baton([...init, '--move-workflows'], undefined, { BATON_DATABASE_URL: team });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain(`Moved 1 workflow not finished of this repository from SQLite ${sqlite}`);
    expect(kept(env.BATON_HOME)).toBe(team);
    expect((await nextSession()).stdout).toContain(`Baton continues workflow ${id}`);
  });
});

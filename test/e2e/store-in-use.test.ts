import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';

/** A repository, a user's home and a BATON_HOME; `baton` runs with the given environment on top. */
function setup() {
  const repo = makeRepo();
  const batonHome = tempDir('baton-home-');
  const base = {
    BATON_HOME: batonHome,
    HOME: tempDir('baton-user-'),
    CLAUDE_CONFIG_DIR: undefined,
    CODEX_HOME: undefined,
  };
  const baton = (args: string[], env: Record<string, string | undefined> = {}, input?: string) =>
    runCli(args, { cwd: repo, env: { ...base, ...env }, ...(input ? { input } : {}) });
  return { repo, batonHome, baton };
}

const sessionStart = (repo: string) =>
  JSON.stringify({ session_id: 'S1', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' });

describe('the store Baton uses, named where a user looks', () => {
  it('doctor names the store and where its setting came from, never a password', async () => {
    const { batonHome, baton } = setup();
    const local = await baton(['doctor']);
    expect(local.stdout).toContain(
      `store: SQLite ${join(batonHome, 'baton.db')} (default: $BATON_HOME/baton.db)`,
    );

    const url = 'postgres://team:s3cret@127.0.0.1:1/teamdb';
    const team = await baton(['doctor'], { BATON_DATABASE_URL: url });
    expect(team.stdout).toContain(
      'store: PostgreSQL 127.0.0.1:1/teamdb as team (variable BATON_DATABASE_URL)',
    );
    expect(team.stdout).not.toContain('s3cret');
    const json = (await baton(['doctor', '--json'], { BATON_DATABASE_URL: url })).json<Record<string, any>>();
    expect(json.store).toMatchObject({
      kind: 'postgres',
      from: 'variable BATON_DATABASE_URL',
      thisShellOnly: true,
    });
    expect(JSON.stringify(json)).not.toContain('s3cret');

    const server = await baton(['doctor'], { BATON_URL: 'http://127.0.0.1:1' });
    expect(server.stdout).toContain('store: the Baton server http://127.0.0.1:1 (variable BATON_URL)');
    // a server that is down: what to do, and that working without it locally is another log
    expect(server.stdout).toContain(
      'problem: the Baton server http://127.0.0.1:1 cannot be used: cannot reach the Baton server',
    );
    expect(server.stdout).toContain(
      "use the server's database directly (BATON_DATABASE_URL or --database instead of BATON_URL / --server)",
    );
    expect(server.stdout).toContain(
      "this machine's own database, a log the server never sees unless it ran here on that same database",
    );
  });

  it('the default store is said as ~/.baton when BATON_HOME is not set, with how to move it', async () => {
    const { repo } = setup();
    const home = tempDir('baton-user-');
    const env = { BATON_HOME: undefined, HOME: home, CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined };
    const init = await runCli(['init'], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(
      `Records go to SQLite ${join(home, '.baton', 'baton.db')} (default: ~/.baton/baton.db; set BATON_HOME to move it)`,
    );
    expect(init.stdout).not.toContain('$BATON_HOME');
  });

  it('a mistyped database or server URL is refused, never read as a file named after it, and its password is never said', async () => {
    const { repo, baton } = setup();
    const refused = async (env: Record<string, string>, args: string[], why: RegExp) => {
      const r = await baton(args, env);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toContain('s3cret');
    };
    const database = (value: string) => ({ BATON_DATABASE_URL: value });
    await refused(
      database('postgres//team:s3cret@127.0.0.1:1/db'),
      ['list'],
      /is not a PostgreSQL URL: write it postgres:\/\//,
    );
    await refused(database('mysql://team:s3cret@127.0.0.1:1/db'), ['list'], /is a mysql:\/\/ URL/);
    await refused(
      database('http://team:s3cret@127.0.0.1:7420'),
      ['list'],
      /a Baton server is named with --server \/ BATON_URL/,
    );
    await refused(database('127.0.0.1:5432'), ['list'], /looks like a server's address/);
    await refused(
      database('postgres://team:s3cret#1@127.0.0.1:1/db'),
      ['list'],
      /percent-encode them there \(@ is %40, # is %23/,
    );
    await refused(
      {},
      ['init', '--save-database', '--database', 'postgres//team:s3cret@h/db'],
      /is not a PostgreSQL URL/,
    );
    await refused(
      { BATON_URL: 'postgres://team:s3cret@127.0.0.1:1/db' },
      ['list'],
      /is a database URL: a database is named with --database/,
    );
    await refused({ BATON_URL: '127.0.0.1:7420' }, ['list'], /must start with http:\/\/ or https:\/\//);
    // nothing was written where the command ran
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' })).toBe('');
  });

  it('init warns that hooks see a database named by this shell only, and --save-database makes the hooks use it', async () => {
    const { repo, batonHome, baton } = setup();
    const team = join(tempDir('baton-team-'), 'team.db');
    const env = { BATON_DATABASE_URL: team };
    const init = await baton(['init', '--agent', 'claude-code', '--command', 'baton'], env);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(`Records go to SQLite ${team} (variable BATON_DATABASE_URL).`);
    expect(init.stdout).toContain(
      "Warning: this shell names the database through BATON_DATABASE_URL only: the agent's hooks use it only if the agent starts with BATON_DATABASE_URL in its environment too",
    );
    expect(init.stdout).toContain('`baton init --save-database`');
    // doctor says it too, where the hooks are wired
    expect((await baton(['doctor'], env)).stdout).toContain('note: this shell names the database through');

    // what the warning is about: an agent started without the variable records in the local database
    expect((await baton(['hook', 'SessionStart'], {}, sessionStart(repo))).code).toBe(0);
    const listed = async (database: string) =>
      (await baton(['list', '--json', '--database', database])).json<{ workflows: unknown[] }>().workflows
        .length;
    expect(existsSync(join(batonHome, 'baton.db'))).toBe(true);
    expect(await listed(join(batonHome, 'baton.db'))).toBe(1);
    expect(await listed(team)).toBe(0);

    const saved = await baton(
      ['init', '--agent', 'claude-code', '--command', 'baton', '--save-database'],
      env,
    );
    expect(saved.code, saved.stderr).toBe(0);
    const config = join(batonHome, 'config.json');
    expect(saved.stdout).toContain(`Kept as the \`database\` key of ${config}`);
    expect(saved.stdout).not.toContain('Warning: this shell names the database');
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ database: team });
    expect(statSync(config).mode & 0o777).toBe(0o600);

    // now a hook without the variable records in the team database
    expect((await baton(['hook', 'SessionStart'], {}, sessionStart(repo).replace('S1', 'S2'))).code).toBe(0);
    expect(await listed(team)).toBe(1);
    expect(await listed(join(batonHome, 'baton.db'))).toBe(1);
    const doctor = await baton(['doctor']);
    expect(doctor.stdout).toContain(`store: SQLite ${team} (${config}, key database)`);
    expect(doctor.stdout).not.toContain('this shell names');
    // the variable still exported, naming the database the config keeps: nothing to warn about, nothing to save again
    expect((await baton(['doctor'], env)).stdout).not.toContain('this shell names');
    const again = await baton(
      ['init', '--agent', 'claude-code', '--command', 'baton', '--save-database'],
      env,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/Warning: this shell|Kept as/);
    // a server this shell names: without it, the hooks write to the database the config keeps (said so)
    const served = await baton(['doctor'], { BATON_URL: 'http://127.0.0.1:1' });
    expect(served.stdout).toContain(
      `otherwise they write to SQLite ${team} (${config}, key database) instead`,
    );
  });

  it('init says a team database it cannot use, kept already or named by this shell, and is quiet about one that works', async () => {
    const { repo, batonHome, baton } = setup();
    const down = 'postgres://team:s3cret@127.0.0.1:1/teamdb';
    const unusable =
      /^Warning: cannot reach PostgreSQL at postgres:\/\/team:\*\*\*@127\.0\.0\.1:1\/teamdb \([^)]*\); check that it runs and that the database URL \([^)]*\) names it \(the URL in use is set by (.+)\): the hooks set up here record nothing until it works \(each says so to the user\); `baton doctor` tells when it does\.$/m;
    // named by this shell: the hooks are written (Baton may start later), and the user is told they record nothing yet
    const init = await baton(['init', '--agent', 'claude-code', '--command', 'baton'], {
      BATON_DATABASE_URL: down,
    });
    expect(init.code, init.stderr).toBe(0);
    expect(existsSync(join(repo, '.claude', 'settings.local.json'))).toBe(true);
    expect(unusable.exec(init.stdout)?.[1]).toBe('variable BATON_DATABASE_URL');
    expect(init.stdout).not.toContain('s3cret');
    const json = (
      await baton(['init', '--agent', 'claude-code', '--command', 'baton', '--json'], {
        BATON_DATABASE_URL: down,
      })
    ).json<{ store_unusable: string | null }>();
    expect(json.store_unusable).toMatch(/^cannot reach PostgreSQL/);
    // kept in the config file by an earlier --save-database, since gone: an init again (saving it again or not) says so
    const config = join(batonHome, 'config.json');
    writeFileSync(config, JSON.stringify({ database: down }));
    for (const args of [[], ['--save-database']]) {
      const again = await baton(['init', '--agent', 'claude-code', '--command', 'baton', ...args], {
        BATON_DATABASE_URL: args.length ? down : undefined,
      });
      expect(again.code, again.stderr).toBe(0);
      expect(unusable.exec(again.stdout)?.[1]).toBe(
        args.length ? 'variable BATON_DATABASE_URL' : `${config}, key database`,
      );
    }
    // a database that works: nothing said
    const works = await baton(['init', '--agent', 'claude-code', '--command', 'baton'], {
      BATON_DATABASE_URL: await freshPostgresUrl('baton_init'),
    });
    expect(works.code, works.stderr).toBe(0);
    expect(works.stdout).toContain('Records go to PostgreSQL');
    expect(works.stdout).not.toContain('record nothing until it works');
  });

  it('--save-database refuses a server, a database no shell setting names, and one that cannot be used', async () => {
    const { repo, batonHome, baton } = setup();
    const server = await baton(['init', '--save-database'], { BATON_URL: 'http://127.0.0.1:1' });
    expect(server.code).toBe(2);
    expect(server.stderr).toContain('a server cannot be kept in a config file');
    const none = await baton(['init', '--save-database']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('but none is named');
    // a database that cannot be used is not kept, nor are the hooks written
    const down = await baton(['init', '--agent', 'claude-code', '--save-database'], {
      BATON_DATABASE_URL: 'postgres://team:s3cret@127.0.0.1:1/teamdb',
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(
      /^baton: cannot reach PostgreSQL at postgres:\/\/team:\*\*\*@127\.0\.0\.1:1\/teamdb \(connect ECONNREFUSED[^)]*\); check that it runs .*; --save-database kept nothing/,
    );
    expect(existsSync(join(batonHome, 'config.json'))).toBe(false);
    expect(existsSync(join(repo, '.claude'))).toBe(false);
    // doctor says it once, with where the URL in use is set
    const doctor = await baton(['doctor'], {
      BATON_DATABASE_URL: 'postgres://team:s3cret@127.0.0.1:1/teamdb',
    });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^problem: cannot reach PostgreSQL at postgres:\/\/team:\*\*\*@127\.0\.0\.1:1\/teamdb \([^)]*\); check that it runs and that the database URL \([^)]*\) names it \(the URL in use is set by variable BATON_DATABASE_URL\)$/m,
    );
  });
});

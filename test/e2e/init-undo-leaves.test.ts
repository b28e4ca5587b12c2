import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/git-repo.js';
import { agentHooks, hookWorkspace } from '../helpers/hook-workspace.js';

// `baton init --undo` removes exactly what init added: each line says whether Baton's part was taken out of a file that
// stays (removed) or a file init created was deleted (deleted), and the output ends with what it left as it was.

type Json = Record<string, any>;

describe('baton init --undo', () => {
  it('says "deleted" for every file it deleted and "removed" where the file stays', async () => {
    const { repo, env, baton } = hookWorkspace({ CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined });
    expect((await baton(['init', '--agent', 'all', '--command', 'baton'])).code).toBe(0);
    const undo = await baton(['init', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    const lines = undo.stdout.split('\n').filter((l) => l.startsWith('  ') && !l.includes('git-exclude'));
    // every file init made is gone, each said alike, ~/.claude.json and ~/.codex/config.toml among them
    expect(lines.map((l) => l.replace(/^.*\s(\S+): (\w+)$/, '$1: $2'))).toEqual([
      '.claude/settings.local.json: deleted',
      '~/.claude.json: deleted',
      'CLAUDE.md: deleted',
      '.codex/hooks.json: deleted',
      '~/.codex/config.toml: deleted',
      'AGENTS.md: deleted',
    ]);
    expect(undo.stdout).toMatch(/git-exclude \(local\) +CLAUDE\.md: removed/);
    expect(undo.stdout).toContain(
      "(removed: Baton's part taken out of a file that stays; deleted: a file `baton init` created, empty without it)",
    );

    // the user's own files, there before init: Baton's part is taken out, the files stay
    writeFileSync(join(repo, 'CLAUDE.md'), '# Rules\n');
    mkdirSync(join(env.HOME, '.codex'), { recursive: true });
    writeFileSync(join(env.HOME, '.codex', 'config.toml'), 'model = "o3"\n');
    expect((await baton(['init', '--agent', 'all', '--command', 'baton'])).code).toBe(0);
    const kept = await baton(['init', '--undo']);
    expect(kept.stdout).toMatch(/Claude Code instructions \(local\) +CLAUDE\.md: removed/);
    expect(kept.stdout).toMatch(/Codex mcp \(user\) +~\/\.codex\/config\.toml: removed/);
  });

  it('ends with what it leaves: the run folders, the database key, the workflows in progress', async () => {
    const team = join(tempDir('baton-team-'), 'team.db');
    const { repo, env, baton } = hookWorkspace({ CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined });
    expect(
      (
        await baton(['init', '--agent', 'claude-code', '--command', 'baton', '--save-database'], undefined, {
          BATON_DATABASE_URL: team,
        })
      ).code,
    ).toBe(0);
    const hook = agentHooks(baton, { cwd: repo, session_id: 'S1' });
    expect((await hook('SessionStart', { source: 'startup' })).code).toBe(0);
    expect((await hook('UserPromptSubmit', { prompt: 'Add greet(name) with a test' })).code).toBe(0);
    const id = (await baton(['status', '--json'])).json<Json>().workflow.id as string;

    const undo = await baton(['init', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    const config = join(env.BATON_HOME, 'config.json');
    expect(undo.stdout).toContain(
      [
        'Left as they were (nothing `baton init` wrote):',
        '  .baton/runs: the run folder of 1 workflow (its history, written as it went): delete the folder if you want it gone',
        `  the \`database\` key of ${config} (SQLite ${team}): every Baton command of this user still uses it; take the key out to go back to ${join(env.BATON_HOME, 'baton.db')}`,
        `  1 workflow not finished in SQLite ${team}, which no session here is followed into now: ${id} ("Add greet(name) with a test", in_progress); \`baton abandon <id>\` ends one, \`baton init\` follows the sessions here again`,
      ].join('\n'),
    );
    const json = (await baton(['init', '--undo', '--json'])).json<Json>();
    expect(json.left).toMatchObject({
      run_folders: [{ dir: join(repo, '.baton', 'runs'), runs: 1 }],
      database_key: { file: config },
      workflows: [{ id, status: 'in_progress' }],
      workflows_unknown: null,
    });

    expect(json.left.workflows[0].followed_by).toEqual([]);

    // a fresh repository, nothing of Baton's anywhere: nothing is said left (and no database file is made to ask)
    const fresh = hookWorkspace();
    const none = await fresh.baton(['init', '--undo']);
    expect(none.stdout).toBe('Nothing of `baton init` was found to remove.\n');
  });

  it("says the workflows in progress are still followed when another scope's hooks stay", async () => {
    const { repo, env, baton } = hookWorkspace({ CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined });
    // set up for Codex in the repository and for the user besides (each warned of running twice), then a session
    expect((await baton(['init', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    expect((await baton(['init', '--user', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    const hook = agentHooks(baton, { cwd: repo, session_id: 'S1' });
    expect((await hook('SessionStart', { source: 'startup' })).code).toBe(0);
    expect((await hook('UserPromptSubmit', { prompt: 'Add greet(name) with a test' })).code).toBe(0);
    const id = (await baton(['status', '--json'])).json<Json>().workflow.id as string;

    // undoing the user's set-up leaves the repository's hooks: the sessions here still go on in the workflow
    const undo = await baton(['init', '--undo', '--user', '--agent', 'codex']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).not.toContain('no session here is followed into now');
    expect(undo.stdout).toContain(
      `  1 workflow not finished in SQLite ${join(env.BATON_HOME, 'baton.db')}, which the sessions here still go on in, as Baton's hooks are still wired there (Codex's hooks in .codex/hooks.json; \`baton doctor\` lists them): ${id} ("Add greet(name) with a test", in_progress); \`baton abandon <id>\` ends one`,
    );

    // once those go too, nothing follows the sessions here
    const all = await baton(['init', '--undo', '--agent', 'codex']);
    expect(all.stdout).toContain(`which no session here is followed into now: ${id}`);
  });
});

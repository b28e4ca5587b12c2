import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

/**
 * `rm -rf ~/.baton` before `baton init --undo` (the order a user uninstalling may take): the record of what init made
 * is gone, and the undo still leaves none of Baton's shells (a `{}` settings file, an empty CLAUDE.md, the exclude
 * lines, an emptied project entry in ~/.claude.json), saying it had no record and what it could not tell.
 */
function setup() {
  const repo = makeRepo();
  const home = tempDir('baton-user-');
  const batonHome = join(tempDir('baton-home-'), '.baton');
  const env = { BATON_HOME: batonHome, HOME: home, CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined };
  const baton = async (...args: string[]) => {
    const r = await runCli(args, { cwd: repo, env });
    expect(r.code, `baton ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  return { repo, home, batonHome, baton };
}

const exclude = (repo: string) => readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8');

describe('baton init --undo without the record of the set-up', () => {
  it('leaves no empty file, folder, exclude line or project entry it made, and says it had no record', async () => {
    const { repo, home, batonHome, baton } = setup();
    const excludeBefore = exclude(repo);
    const filesBefore = readdirSync(repo);
    await baton('init', '--agent', 'all', '--command', 'baton');
    rmSync(batonHome, { recursive: true, force: true });
    const undo = await baton('init', '--undo');
    for (const file of ['.claude/settings.local.json', '.codex/hooks.json', 'CLAUDE.md', 'AGENTS.md'])
      expect(existsSync(join(repo, file)), file).toBe(false);
    expect(readdirSync(repo)).toEqual(filesBefore);
    expect(exclude(repo)).toBe(excludeBefore);
    // there was no ~/.claude.json nor ~/.codex before
    expect(readdirSync(home).filter((n) => n !== '.cache')).toEqual([]);
    // nor Baton's home: the undo does not make it again
    expect(existsSync(batonHome)).toBe(false);
    expect(undo.stdout).toMatch(/CLAUDE\.md: deleted/);
    expect(undo.stdout).toContain("Note: no record of this set-up in Baton's home");
  });

  it("keeps the user's own: their settings, text, a project entry of Claude Code's", async () => {
    const { repo, home, batonHome, baton } = setup();
    const claudeJson = join(home, '.claude.json');
    const entry = { allowedTools: [], mcpServers: {}, hasTrustDialogAccepted: true };
    writeFileSync(claudeJson, JSON.stringify({ numStartups: 4, projects: { [repo]: entry } }, null, 2));
    writeFileSync(join(repo, 'CLAUDE.md'), '# Rules\n');
    await baton('init', '--agent', 'claude-code', '--command', 'baton');
    rmSync(batonHome, { recursive: true, force: true });
    await baton('init', '--undo');
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toBe('# Rules\n');
    expect(JSON.parse(readFileSync(claudeJson, 'utf8'))).toEqual({
      numStartups: 4,
      projects: { [repo]: entry },
    });
    expect(existsSync(join(repo, '.claude', 'settings.local.json'))).toBe(false);
  });
});

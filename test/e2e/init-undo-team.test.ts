import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batonBin, runCli } from '../helpers/cli.js';
import { gitIn, tempDir } from '../helpers/git-repo.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

// The default set-up (`baton init`, personal) and the team's (`baton init --shared`, committed) write the same
// CLAUDE.md, AGENTS.md and .codex/hooks.json. A plain `baton init --undo` undoes the personal one and leaves Baton's
// part of those files to the team's, saying so; `baton init --undo --shared` undoes the team's.

type Json = Record<string, any>;
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Json;
const BLOCK = '<!-- baton:begin';
const homes = { CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined };

describe('baton init --undo with both the personal and the team set-up', () => {
  it('plain --undo takes out the personal set-up and leaves the --shared one; --undo --shared then takes that out', async () => {
    const { repo, env, baton } = hookWorkspace(homes);
    expect((await baton(['init', '--shared', '--agent', 'all', '--command', 'baton'])).code).toBe(0);
    const plain = await baton(['init', '--agent', 'all', '--command', 'baton']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(existsSync(join(repo, '.claude', 'settings.local.json'))).toBe(true);

    const undo = await baton(['init', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    // the personal set-up's own files: gone
    expect(undo.stdout).toMatch(/Claude Code hooks \(local\) +\.claude\/settings\.local\.json: deleted/);
    expect(existsSync(join(repo, '.claude', 'settings.local.json'))).toBe(false);
    expect(existsSync(join(env.HOME, '.claude.json'))).toBe(false);
    expect(existsSync(join(env.HOME, '.codex', 'config.toml'))).toBe(false);
    // the files it shares with the team's set-up: Baton's part left there, each line saying why and what removes it
    const kept = "kept: the --shared set-up's too (`baton init --undo --shared` removes it)";
    expect(undo.stdout).toContain(`CLAUDE.md: ${kept}`);
    expect(undo.stdout).toContain(`AGENTS.md: ${kept}`);
    expect(undo.stdout).toContain(`.codex/hooks.json: ${kept}`);
    expect(undo.stdout).toMatch(/Claude Code instructions \(shared\) +CLAUDE\.md: kept/);
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toContain(BLOCK);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toContain(BLOCK);
    expect(Object.keys(json(join(repo, '.codex', 'hooks.json')).hooks)).toContain('Stop');
    expect(Object.keys(json(join(repo, '.claude', 'settings.json')).hooks)).toContain('Stop');
    expect(json(join(repo, '.mcp.json')).mcpServers.baton).toBeDefined();
    // doctor finds the team's set-up whole: the hooks of both agents still wired
    const doctor = (await baton(['doctor', '--json'])).json<Json>();
    expect(doctor.problems.join('\n')).not.toMatch(/no agent hooks|not followed/);

    // a plain --undo again: the team's set-up alone is left, which it undoes (as before)
    const shared = await baton(['init', '--undo', '--shared']);
    expect(shared.code, shared.stderr).toBe(0);
    expect(shared.stdout).toMatch(/CLAUDE\.md: deleted/);
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
  });

  it('plain --undo leaves the team its CLAUDE.md, out of git no more, and takes out what the team does not set up', async () => {
    const { repo, baton } = hookWorkspace(homes);
    // the personal set-up first, for both agents (it creates CLAUDE.md and AGENTS.md, and keeps them out of git),
    // then the team's for Claude Code alone: it covers less, so the personal one stays
    expect((await baton(['init', '--agent', 'all', '--command', 'baton'])).code).toBe(0);
    expect(readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8')).toMatch(/^\/CLAUDE\.md$/m);
    expect((await baton(['init', '--shared', '--agent', 'claude-code', '--command', 'baton'])).code).toBe(0);
    const undo = await baton(['init', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain("CLAUDE.md: kept: the --shared set-up's too");
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toContain(BLOCK);
    // the team's file is to be committed: its exclude line goes
    expect(undo.stdout).toMatch(/git-exclude \(local\) +CLAUDE\.md: removed/);
    expect(readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8')).not.toMatch(/CLAUDE\.md/);
    // Codex is the personal set-up's alone: its files go
    expect(undo.stdout).toMatch(/AGENTS\.md: deleted/);
    expect(existsSync(join(repo, '.codex', 'hooks.json'))).toBe(false);
    expect(gitIn(repo, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
      '?? .claude/',
      '?? .mcp.json',
      '?? CLAUDE.md',
    ]);
  });

  it('plain --undo leaves the team-committed files as committed', async () => {
    // a teammate's clone set up for the team and committed
    const { repo, env, baton } = hookWorkspace(homes);
    expect((await baton(['init', '--shared', '--agent', 'all'])).code).toBe(0);
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '-q', '-m', 'Baton for the team');
    // this user's own set-up on top, recorded in a Baton home of its own (no --shared record of theirs)
    const mine = { ...env, BATON_HOME: tempDir('baton-home-') };
    const cli = (args: string[]) => runCli(args, { cwd: repo, env: mine });
    expect((await cli(['init', '--agent', 'all', '--command', 'baton'])).code).toBe(0);
    const undo = await cli(['init', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    const kept =
      "kept: committed with the repository: the team's set-up (`baton init --undo --shared` removes it)";
    expect(undo.stdout).toContain(`CLAUDE.md: ${kept}`);
    expect(undo.stdout).toContain(`AGENTS.md: ${kept}`);
    expect(undo.stdout).toContain(`.codex/hooks.json: ${kept}`);
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
  });

  it("plain --undo puts back the team's committed part where this set-up wrote its own command there", async () => {
    const { repo, env, baton } = hookWorkspace(homes);
    expect((await baton(['init', '--shared', '--agent', 'codex'])).code).toBe(0);
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '-q', '-m', 'Baton for the team');
    const mine = { ...env, BATON_HOME: tempDir('baton-home-') };
    const cli = (args: string[]) => runCli(args, { cwd: repo, env: mine });
    // this machine's install by its path: written into the committed files too (init says so)
    const init = await cli(['init', '--agent', 'codex', '--command', `${process.execPath} ${batonBin}`]);
    expect(init.code, init.stderr).toBe(0);
    expect(gitIn(repo, 'status', '--porcelain')).toMatch(/ M \.codex\/hooks\.json/);
    const undo = await cli(['init', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain(
      ".codex/hooks.json: kept: committed with the repository: the team's set-up, Baton's part put back as committed (this set-up had written its own command there)",
    );
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
  });

  it("a plain `baton init` after --shared leaves the team's files naming `baton`, and says they are the team's", async () => {
    const { repo, env, baton } = hookWorkspace(homes);
    expect((await baton(['init', '--shared', '--agent', 'codex'])).code).toBe(0);
    const hooks = join(repo, '.codex', 'hooks.json');
    const before = readFileSync(hooks, 'utf8');
    // no `baton` on the PATH here: the files that are this machine's own name this install by its path
    const init = await baton(['init', '--agent', 'codex']);
    expect(readFileSync(join(env.HOME, '.codex', 'config.toml'), 'utf8')).toContain(batonBin);
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(hooks, 'utf8')).toBe(before);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).not.toContain(batonBin);
    expect(init.stdout).toMatch(/Codex hooks \(shared\) +\.codex\/hooks\.json: unchanged/);
    expect(init.stdout).not.toMatch(/hooks\.json[^\n]* this machine's own/);
  });

  it('--undo --shared with the personal set-up there says what the personal one loses, and how to put it back', async () => {
    const { repo, baton } = hookWorkspace(homes);
    expect((await baton(['init', '--shared', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    expect((await baton(['init', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    const undo = await baton(['init', '--undo', '--shared']);
    expect(undo.code, undo.stderr).toBe(0);
    const back = ' (the personal set-up of `baton init` had it here too: `baton init` puts it back)';
    expect(undo.stdout).toContain(`.codex/hooks.json: deleted${back}`);
    expect(undo.stdout).toContain(`AGENTS.md: deleted${back}`);
    expect(existsSync(join(repo, '.codex', 'config.toml'))).toBe(false);
    const again = await baton(['init', '--agent', 'codex', '--command', 'baton']);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toContain(BLOCK);
  });
});

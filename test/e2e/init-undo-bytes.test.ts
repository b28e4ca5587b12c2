import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn } from '../helpers/git-repo.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';

/**
 * `baton init` then `baton init --undo` gives every file Baton edits its bytes back: a one-line `.mcp.json`, a
 * settings file of the user's own, ~/.claude.json as Claude Code writes it (no final newline), ~/.codex/config.toml
 * with what Codex wrote after Baton's block. Where the user changed the file since, their change stays and the file
 * keeps its layout.
 */
function setup() {
  const { repo, env, baton: run } = hookWorkspace({ CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined });
  const baton = async (...args: string[]) => {
    const r = await run(args);
    expect(r.code, `baton ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  return { repo, home: env.HOME, baton };
}

const read = (path: string) => readFileSync(path, 'utf8');
const context7 = { type: 'stdio', command: 'npx', args: ['-y', '@upstash/context7-mcp'] };

describe('baton init --undo gives the files their bytes back', () => {
  it('a committed one-line .mcp.json, and the one a user edited since keeps one line', async () => {
    const { repo, baton } = setup();
    const mcp = join(repo, '.mcp.json');
    const text = JSON.stringify({ mcpServers: { context7 } });
    writeFileSync(mcp, text);
    gitIn(repo, 'add', '.mcp.json');
    gitIn(repo, 'commit', '-qm', 'context7');
    await baton('init', '--shared', '--agent', 'claude-code');
    expect(read(mcp).split('\n')).toHaveLength(1);
    await baton('init', '--undo', '--shared', '--agent', 'claude-code');
    expect(read(mcp)).toBe(text);

    await baton('init', '--shared', '--agent', 'claude-code');
    const doc = JSON.parse(read(mcp));
    doc.mcpServers.mine = { command: 'mine' };
    writeFileSync(mcp, JSON.stringify(doc));
    await baton('init', '--undo', '--shared', '--agent', 'claude-code');
    expect(read(mcp)).toBe(JSON.stringify({ mcpServers: { context7, mine: { command: 'mine' } } }));
  });

  it("a settings file of the user's own, ~/.claude.json and ~/.codex/config.toml", async () => {
    const { repo, home, baton } = setup();
    const settings = join(repo, '.claude', 'settings.local.json');
    mkdirSync(join(repo, '.claude'));
    const own = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
    });
    writeFileSync(settings, own);
    const claudeJson = join(home, '.claude.json');
    // Claude Code's own layout: two-space indented, no final newline
    const claude = JSON.stringify({ numStartups: 2, projects: { [repo]: { allowedTools: [] } } }, null, 2);
    writeFileSync(claudeJson, claude);
    const toml = join(home, '.codex', 'config.toml');
    mkdirSync(join(home, '.codex'));
    writeFileSync(toml, 'model = "o3"\n');
    await baton('init', '--agent', 'all', '--command', 'baton');
    // Codex writes a project's trust after Baton's block
    writeFileSync(toml, `${read(toml)}\n[projects."${repo}"]\ntrust_level = "trusted"\n`);
    await baton('init', '--undo');
    expect(read(settings)).toBe(own);
    expect(read(claudeJson)).toBe(claude);
    expect(read(toml)).toBe(`model = "o3"\n\n[projects."${repo}"]\ntrust_level = "trusted"\n`);
  });
});

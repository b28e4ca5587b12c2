import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';

/**
 * `baton init --undo` takes out the objects `baton init` made to hold its entries (`mcpServers`, `projects`, a
 * project's entry, `hooks`, an event's list) once they are empty again, and only those: one that was there before
 * init stays, empty or not (Claude Code writes empty `mcpServers` itself), and one the user put something in since
 * stays with it.
 */

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
const write = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value));

function setup() {
  const repo = makeRepo();
  const home = tempDir('baton-user-');
  const batonHome = tempDir('baton-home-');
  const env = { BATON_HOME: batonHome, HOME: home, CLAUDE_CONFIG_DIR: undefined, CODEX_HOME: undefined };
  const baton = async (...args: string[]) => {
    const r = await runCli(args, { cwd: repo, env });
    expect(r.code, `baton ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r;
  };
  const claudeJson = join(home, '.claude.json');
  /** The manifest init wrote (one set-up here): read, and rewritten as an earlier Baton wrote it. */
  const manifest = () => {
    const [name, ...more] = readdirSync(join(batonHome, 'init'));
    expect(more).toEqual([]);
    return join(batonHome, 'init', name!);
  };
  /** As an earlier Baton wrote it: no `keys`, a project's entry it made noted in `created` (`<file>#projects/<root>`). */
  const asEarlierBaton = () => {
    const { keys, created, ...earlier } = json(manifest());
    const projects = (keys as { file: string; key: string[] }[])
      .filter(({ key }) => key.length === 2 && key[0] === 'projects')
      .map(({ file, key }) => `${file}#projects/${key[1]}`);
    write(manifest(), { ...earlier, created: [...created, ...projects] });
  };
  return { repo, home, env, baton, claudeJson, manifest, asEarlierBaton };
}

const user = ['--user', '--agent', 'claude-code', '--command', 'baton'];
const local = ['--agent', 'claude-code', '--command', 'baton'];

describe('baton init --undo and the objects init made', () => {
  it('takes out the `mcpServers` init made in ~/.claude.json, and keeps one that was there before, even empty', async () => {
    const { baton, claudeJson, manifest } = setup();
    write(claudeJson, { numStartups: 7 });
    await baton('init', ...user);
    expect(json(claudeJson).mcpServers.baton.args).toEqual(['mcp', '--agent', 'claude-code']);
    // the record of what init made: the key, in the file, documented with the manifest
    expect(json(manifest()).keys).toContainEqual({ file: claudeJson, key: ['mcpServers'] });
    await baton('init', '--undo', '--user');
    expect(json(claudeJson)).toEqual({ numStartups: 7 });

    // Claude Code's own empty object: there before init, there after the undo
    write(claudeJson, { numStartups: 7, mcpServers: {} });
    await baton('init', ...user);
    expect(json(manifest()).keys).toEqual(
      expect.not.arrayContaining([{ file: claudeJson, key: ['mcpServers'] }]),
    );
    await baton('init', '--undo', '--user');
    expect(json(claudeJson)).toEqual({ numStartups: 7, mcpServers: {} });
  });

  it('keeps the `mcpServers` init made when the user added a server of their own to it since, and says so', async () => {
    const { baton, claudeJson } = setup();
    write(claudeJson, { numStartups: 7 });
    await baton('init', ...user);
    const theirs = { type: 'stdio', command: 'npx', args: ['-y', '@upstash/context7-mcp'] };
    write(claudeJson, {
      ...json(claudeJson),
      mcpServers: { ...json(claudeJson).mcpServers, context7: theirs },
    });
    const undo = await baton('init', '--undo', '--user', '--json');
    expect(json(claudeJson)).toEqual({ numStartups: 7, mcpServers: { context7: theirs } });
    expect(undo.json<{ changes: { what: string; path: string; change: string }[] }>().changes).toContainEqual(
      {
        agent: 'claude-code',
        what: 'mcp',
        path: claudeJson,
        change: 'kept mcpServers (`baton init` made it): context7 is in it now',
        worktree: expect.any(String),
        scope: 'user',
      },
    );
    const text = await baton('init', '--undo', '--user');
    expect(text.stdout).toMatch(/Nothing of `baton init` was found to remove/);
  });

  it("takes out the project's `mcpServers` and `projects` init made, and keeps those of Claude Code", async () => {
    const { repo, baton, claudeJson } = setup();
    // no `projects` at all: init makes it, the project's entry and its `mcpServers`
    write(claudeJson, { numStartups: 3 });
    await baton('init', ...local);
    expect(json(claudeJson).projects[repo].mcpServers.baton).toBeDefined();
    await baton('init', '--undo');
    expect(json(claudeJson)).toEqual({ numStartups: 3 });
    // the project's entry, Claude Code's, without `mcpServers`: init makes only that
    const entry = { allowedTools: [], hasTrustDialogAccepted: true };
    write(claudeJson, { numStartups: 3, projects: { [repo]: entry } });
    await baton('init', ...local);
    await baton('init', '--undo');
    expect(json(claudeJson)).toEqual({ numStartups: 3, projects: { [repo]: entry } });
    // with Claude Code's empty `mcpServers`: kept as it was
    const withServers = { ...entry, mcpServers: {} };
    write(claudeJson, { numStartups: 3, projects: { [repo]: withServers } });
    await baton('init', ...local);
    await baton('init', '--undo');
    expect(json(claudeJson)).toEqual({ numStartups: 3, projects: { [repo]: withServers } });
  });

  it('takes out the `projects` one worktree made once every worktree is undone', async () => {
    const { repo, baton, claudeJson } = setup();
    const other = join(tempDir('baton-wts-'), 'other');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'other', other);
    write(claudeJson, { numStartups: 1 });
    await baton('init', ...local);
    expect(Object.keys(json(claudeJson).projects).sort()).toEqual([other, repo].sort());
    await baton('init', '--undo');
    expect(json(claudeJson)).toEqual({ numStartups: 1 });
  });

  it('takes out the `hooks` and event lists init made in a settings file, and keeps those that were there, even empty', async () => {
    const { repo, baton } = setup();
    const settings = join(repo, '.claude', 'settings.local.json');
    mkdirSync(join(repo, '.claude'));
    write(settings, { model: 'opus' });
    await baton('init', ...local);
    await baton('init', '--undo');
    expect(json(settings)).toEqual({ model: 'opus' });
    // an empty `hooks`, an empty event list and an empty matcher group of the user's own: all stay
    const theirs = {
      model: 'opus',
      hooks: { Stop: [], Notification: [{ matcher: '', hooks: [] }] },
    };
    write(settings, theirs);
    await baton('init', ...local);
    expect(json(settings).hooks.Stop).toHaveLength(1);
    await baton('init', '--undo');
    expect(json(settings)).toEqual(theirs);
    write(settings, { model: 'opus', hooks: {} });
    await baton('init', ...local);
    await baton('init', '--undo');
    expect(json(settings)).toEqual({ model: 'opus', hooks: {} });
    // a hook of the user's own added since, in an event list init made: the list stays with it, and the undo says so
    write(settings, { model: 'opus' });
    await baton('init', ...local);
    const mine = { hooks: [{ type: 'command', command: 'say done' }] };
    write(settings, {
      ...json(settings),
      hooks: { ...json(settings).hooks, Stop: [...json(settings).hooks.Stop, mine] },
    });
    const undo = await baton('init', '--undo', '--json');
    expect(json(settings)).toEqual({ model: 'opus', hooks: { Stop: [mine] } });
    expect(undo.json<{ changes: { what: string; change: string }[] }>().changes).toContainEqual(
      expect.objectContaining({
        what: 'hooks',
        change: 'kept hooks.Stop (`baton init` made it): `say done` is in it now',
      }),
    );
  });

  it("leaves Codex's config.toml as it was: `[mcp_servers.baton]` makes no table of its own", async () => {
    const { baton, home } = setup();
    const toml = join(home, '.codex', 'config.toml');
    mkdirSync(join(home, '.codex'));
    for (const before of [
      'model = "o3"\n',
      'model = "o3"\n\n[mcp_servers]\n',
      'model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n',
    ]) {
      writeFileSync(toml, before);
      await baton('init', '--agent', 'codex', '--command', 'baton');
      expect(readFileSync(toml, 'utf8')).toContain('[mcp_servers.baton]');
      await baton('init', '--undo');
      expect(readFileSync(toml, 'utf8')).toBe(before);
    }
  });

  it('undoes a set-up recorded by an earlier Baton (no record of the objects it made) as that Baton did', async () => {
    const { repo, baton, claudeJson, asEarlierBaton } = setup();
    write(claudeJson, { numStartups: 7 });
    await baton('init', ...user);
    asEarlierBaton();
    await baton('init', '--undo', '--user');
    // the earlier undo: the `mcpServers` stays, which object was whose being unknown
    expect(json(claudeJson)).toEqual({ numStartups: 7, mcpServers: {} });

    // and an earlier set-up run again by this Baton: what it found already there is not taken for its own
    const settings = join(repo, '.claude', 'settings.local.json');
    mkdirSync(join(repo, '.claude'));
    write(settings, { model: 'opus' });
    write(claudeJson, { numStartups: 3 });
    await baton('init', ...local);
    asEarlierBaton();
    await baton('init', ...local);
    await baton('init', '--undo');
    // as the earlier undo left them: its `hooks` taken out, the project's entry it made taken out, `projects` kept
    expect(json(settings)).toEqual({ model: 'opus' });
    expect(json(claudeJson)).toEqual({ numStartups: 3, projects: {} });
  });
});

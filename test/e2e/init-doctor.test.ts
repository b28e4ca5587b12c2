import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batonBin, runCli } from '../helpers/cli.js';
import { corpusPath } from '../helpers/corpus.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

/** A folder holding a `codex` program: Codex installed (doctor holds its hooks' trust a problem only then). */
function codexInstalled(): string {
  const bin = tempDir('baton-bin-');
  writeFileSync(join(bin, 'codex'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return `${bin}${delimiter}${process.env.PATH ?? ''}`;
}

function setup(o: { codex?: boolean } = {}) {
  const repo = makeRepo();
  const home = tempDir('baton-user-');
  const env = {
    BATON_HOME: tempDir('baton-home-'),
    HOME: home,
    CLAUDE_CONFIG_DIR: undefined,
    CODEX_HOME: undefined,
    ...(o.codex ? { PATH: codexInstalled() } : {}),
  };
  const baton = (args: string[], input?: string) =>
    runCli(args, { cwd: repo, env, ...(input ? { input } : {}) });
  return { repo, home, env, baton };
}

const claudeEvents = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'Stop',
  'StopFailure',
  'SessionEnd',
];

/** The events of Baton's hooks whose trust doctor checks: an older Codex knows neither SessionEnd nor Interrupt. */
const codexEvents = claudeEvents.filter((e) => e !== 'SessionEnd');

/** Codex's record that a person trusted each of Baton's hooks in a hooks file (`/hooks`), as Codex writes it. */
function trustCodexHooks(home: string, hooks: string, events = codexEvents) {
  const toml = join(home, '.codex', 'config.toml');
  const label = (e: string) => e.replace(/(?<=.)([A-Z])/g, '_$1').toLowerCase();
  const tables = events.map(
    (e) => `[hooks.state."${hooks}:${label(e)}:0:0"]\ntrusted_hash = "sha256:9f2c"\n`,
  );
  writeFileSync(toml, `${readFileSync(toml, 'utf8')}\n${tables.join('\n')}`);
}

describe('baton init', () => {
  it('merges the hooks into settings.local.json, registers the MCP server, adds the block, and undoes exactly that', async () => {
    const { repo, home, baton } = setup();
    mkdirSync(join(repo, '.claude'));
    const user = {
      model: 'opus',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
    };
    writeFileSync(join(repo, '.claude', 'settings.local.json'), JSON.stringify(user));
    writeFileSync(join(repo, 'CLAUDE.md'), '# Project rules\n\nUse tabs.\n');
    gitIn(repo, 'add', 'CLAUDE.md');
    gitIn(repo, 'commit', '-q', '-m', 'rules');
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({ numStartups: 3, projects: { '/elsewhere': {} } }),
    );
    const statusBefore = gitIn(repo, 'status', '--porcelain');
    for (let i = 0; i < 2; i++) {
      const r = await baton(['init', '--agent', 'claude-code', '--command', 'baton', '--json']);
      expect(r.code, r.stderr).toBe(0);
      // the second run changes nothing, and says so
      const changes = r.json<{ changes: { what: string; change: string }[] }>().changes;
      // (whether Claude Code's version could be checked on this machine is said after it: a test below)
      expect(changes.find((c) => c.what === 'hooks')?.change).toMatch(i === 0 ? /^merged/ : /^unchanged/);
    }
    const settings = json(join(repo, '.claude', 'settings.local.json'));
    expect(settings.model).toBe('opus');
    expect(Object.keys(settings.hooks).sort()).toEqual([...claudeEvents].sort());
    expect(settings.hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: 'say done' }] },
      {
        hooks: [
          {
            type: 'command',
            command: 'command -v baton >/dev/null 2>&1 && exec baton hook Stop; cat >/dev/null',
            timeout: 30,
          },
        ],
      },
    ]);
    expect(settings.hooks.PostToolUse[0].matcher).toBe('TodoWrite|TaskCreate|TaskUpdate');
    expect(settings.hooks.SessionStart[0].matcher).toBeUndefined();
    const claudeJson = json(join(home, '.claude.json'));
    expect(claudeJson.numStartups).toBe(3);
    expect(claudeJson.projects[repo].mcpServers.baton).toEqual({
      type: 'stdio',
      command: 'baton',
      args: ['mcp', '--agent', 'claude-code'],
    });
    const md = readFileSync(join(repo, 'CLAUDE.md'), 'utf8');
    expect(md.startsWith('# Project rules\n\nUse tabs.\n')).toBe(true);
    expect(md.match(/baton:begin/g)).toHaveLength(1);
    expect(md).toMatch(/`baton task add/);
    // CLAUDE.md is tracked and changed; nothing new shows as untracked.
    const lines = (text: string) => text.split('\n').filter(Boolean).sort();
    expect(lines(gitIn(repo, 'status', '--porcelain'))).toEqual(lines(`${statusBefore}\n M CLAUDE.md`));

    const undo = await baton(['init', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(json(join(repo, '.claude', 'settings.local.json'))).toEqual(user);
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toBe('# Project rules\n\nUse tabs.\n');
    expect(json(join(home, '.claude.json'))).toEqual({ numStartups: 3, projects: { '/elsewhere': {} } });
    expect(gitIn(repo, 'status', '--porcelain')).toBe(statusBefore);
  });

  it('creates and excludes its own files in a fresh repository, and deletes them again on undo', async () => {
    const { repo, home, baton } = setup();
    // not on the agent's PATH: the hooks and the block in CLAUDE.md / AGENTS.md run this install by its full path
    const cli = 'node /opt/baton/bin/baton.js';
    const made = await baton(['init', '--agent', 'all', '--command', cli, '--json']);
    expect(made.code).toBe(0);
    // a settings file that was not there is added, not merged
    const changes = made.json<{ changes: { what: string; change: string }[] }>().changes;
    expect(changes.filter((c) => c.what === 'hooks').map((c) => c.change.split(' ')[0])).toEqual([
      'added',
      'added',
    ]);
    for (const f of ['CLAUDE.md', 'AGENTS.md']) {
      const md = readFileSync(join(repo, f), 'utf8');
      expect(md).toContain(`\`${cli} task add ID:Title`);
      expect(md).not.toMatch(/`baton (?:task|status|context)/);
    }
    // Codex runs the agent's commands in a sandbox that cannot write Baton's database: its MCP server comes first
    const agents = readFileSync(join(repo, 'AGENTS.md'), 'utf8');
    expect(agents).toMatch(
      /\n- MCP server `baton` \(Codex runs it outside your sandbox\): add_task, get_resume_context, [^\n]+\n- `node \/opt\/baton\/bin\/baton\.js task add/,
    );
    expect(agents).toContain(
      "These commands write Baton's database in the user's home, which your sandbox does not let a command write: use the MCP tools, or run a command outside the sandbox.",
    );
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).not.toMatch(/sandbox/);
    expect((await baton(['init', '--agent', 'all', '--command', 'baton'])).code).toBe(0);
    for (const f of [join(home, '.claude.json'), join(home, '.codex', 'config.toml')])
      expect(existsSync(f), f).toBe(true);
    for (const f of ['.claude/settings.local.json', 'CLAUDE.md', '.codex/hooks.json', 'AGENTS.md'])
      expect(existsSync(join(repo, f)), f).toBe(true);
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
    const codex = json(join(repo, '.codex', 'hooks.json'));
    // Codex's own Interrupt besides; it and SessionEnd get the 3 s Codex allows them at most
    expect(Object.keys(codex.hooks).sort()).toEqual([...claudeEvents, 'Interrupt'].sort());
    for (const event of ['SessionEnd', 'Interrupt'])
      expect(codex.hooks[event][0].hooks[0]).toMatchObject({
        command: `command -v baton >/dev/null 2>&1 && exec baton hook ${event} --agent codex; cat >/dev/null`,
        timeout: 3,
      });
    expect(codex.hooks.Stop[0].hooks[0].command).toBe(
      'command -v baton >/dev/null 2>&1 && exec baton hook Stop --agent codex; cat >/dev/null',
    );
    expect(codex.hooks.PostToolUse[0].matcher).toBe('update_plan');
    expect((await baton(['init', '--undo'])).code).toBe(0);
    for (const f of ['.claude', 'CLAUDE.md', '.codex', 'AGENTS.md'])
      expect(existsSync(join(repo, f)), f).toBe(false);
    // The user's files init created (none existed before) are gone as well: the home is as it was (but for the
    // hooks' compile cache in ~/.cache, which is no file of init's).
    expect(readdirSync(home).filter((f) => f !== '.cache')).toEqual([]);
    expect(readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8')).not.toMatch(/CLAUDE|codex/);
  });

  it('excludes its files again in a repository made again at the same path, and doctor names the ones git would commit', async () => {
    const { repo, baton } = setup();
    const own = ['.claude/settings.local.json', 'CLAUDE.md', '.codex/hooks.json', 'AGENTS.md'];
    const init = async () => {
      const r = await baton(['init', '--agent', 'all', '--command', 'baton', '--json']);
      expect(r.code, r.stderr).toBe(0);
      return r.json<{ changes: { what: string; path: string; change: string }[] }>().changes;
    };
    const excludes = (changes: { what: string; path: string; change: string }[]) =>
      changes.filter((c) => c.what === 'git-exclude').map((c) => [c.path.slice(repo.length + 1), c.change]);
    expect(excludes(await init())).toEqual(own.map((f) => [f, 'excluded']));
    // deleted and made again: Baton's record still says "excluded", the new .git/info/exclude does not
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(repo);
    gitIn(repo, 'init', '-q');
    expect(excludes(await init())).toEqual(
      own.map((f) => [f, 'excluded again (.git/info/exclude no longer listed it)']),
    );
    expect(gitIn(repo, 'status', '--porcelain', '-uall')).toBe('');

    // the lines lost again (an exclude file rewritten): doctor names each file, exit 1, with the command that fixes it
    const exclude = join(repo, '.git', 'info', 'exclude');
    writeFileSync(exclude, '');
    const doctor = async () => {
      const r = await baton(['doctor', '--json']);
      return { code: r.code, problems: r.json<{ problems: string[] }>().problems };
    };
    const lost = await doctor();
    expect(lost.code).toBe(1);
    expect(lost.problems.filter((p) => /git neither ignores nor tracks it/.test(p))).toEqual(
      own.map(
        (f) =>
          `\`baton init\` made ${join(repo, f)} for this machine alone, and git neither ignores nor tracks it (it is missing from .git/info/exclude): an agent's \`git add -A\` commits it; run \`baton init --agent ${f.includes('claude') || f === 'CLAUDE.md' ? 'claude-code' : 'codex'}\` to exclude it again`,
      ),
    );
    // a file committed on purpose is the repository's now: not excluded again, not named
    gitIn(repo, 'add', 'CLAUDE.md');
    expect(excludes(await init()).map(([f]) => f)).toEqual(own.filter((f) => f !== 'CLAUDE.md'));
    expect((await doctor()).problems.filter((p) => /git neither ignores nor tracks it/.test(p))).toEqual([]);
    expect(readFileSync(exclude, 'utf8')).toBe(
      `${own
        .filter((f) => f !== 'CLAUDE.md')
        .map((f) => `/${f}\n`)
        .join('')}`,
    );
  });

  it('writes the committed files with --shared and the user files with --user', async () => {
    const { repo, home, baton } = setup();
    expect((await baton(['init', '--shared', '--agent', 'all', '--command', 'baton'])).code).toBe(0);
    expect(json(join(repo, '.claude', 'settings.json')).hooks.SessionEnd).toHaveLength(1);
    expect(json(join(repo, '.mcp.json'))).toEqual({
      mcpServers: { baton: { type: 'stdio', command: 'baton', args: ['mcp', '--agent', 'claude-code'] } },
    });
    expect(readFileSync(join(repo, '.codex', 'config.toml'), 'utf8')).toMatch(
      /\[mcp_servers\.baton\]\ncommand = "baton"\nargs = \["mcp", "--agent", "codex"\]/,
    );
    expect(gitIn(repo, 'status', '--porcelain')).toMatch(/\?\? \.claude\//);
    // the user's own ~/.claude.json: theirs again after the undo, without the `mcpServers` init made for Baton's server
    // (one that was there before stays, even empty: test/e2e/init-undo-keys.test.ts)
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ numStartups: 7 }));
    expect((await baton(['init', '--user', '--agent', 'claude-code', '--command', 'baton'])).code).toBe(0);
    expect(json(join(home, '.claude', 'settings.json')).hooks.Stop).toHaveLength(1);
    expect(json(join(home, '.claude.json')).mcpServers.baton.args).toEqual(['mcp', '--agent', 'claude-code']);
    expect(readFileSync(join(home, '.claude', 'CLAUDE.md'), 'utf8')).toMatch(/## Baton/);
    expect((await baton(['init', '--undo', '--user'])).code).toBe(0);
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
    expect(json(join(home, '.claude.json'))).toEqual({ numStartups: 7 });
    expect((await baton(['init', '--undo', '--shared'])).code).toBe(0);
    expect(existsSync(join(repo, '.mcp.json'))).toBe(false);
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
  });

  it('undoes a set-up made with --shared alone when asked without --shared, leaving no file of it behind', async () => {
    const { repo, baton } = setup();
    expect((await baton(['init', '--shared', '--agent', 'all', '--command', 'baton'])).code).toBe(0);
    // the default's CLAUDE.md, AGENTS.md and .codex/hooks.json are the --shared set-up's files too: an undo of the
    // default alone took Baton's part out of them, left the hooks of .claude/settings.json wired, and the files empty
    const undo = await baton(['init', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toMatch(/\.claude\/settings\.json: deleted/);
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
  });

  it('replaces a plain set-up with --shared, so no hook runs twice, and doctor finds nothing doubled', async () => {
    const { repo, baton } = setup();
    expect((await baton(['init', '--agent', 'claude-code', '--command', 'baton'])).code).toBe(0);
    const shared = await baton(['init', '--shared', '--agent', 'claude-code', '--command', 'baton']);
    expect(shared.code).toBe(0);
    expect(shared.stdout).toMatch(/settings\.local\.json: deleted \(replaced by the --shared set-up\)/);
    expect(existsSync(join(repo, '.claude', 'settings.local.json'))).toBe(false);
    expect(json(join(repo, '.claude', 'settings.json')).hooks.Stop).toHaveLength(1);
    // CLAUDE.md is the committed one now: not kept out of git
    expect(readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8')).not.toMatch(/CLAUDE\.md/);
    const doctor = (await baton(['doctor', '--json'])).json<{ problems: string[] }>();
    expect(doctor.problems.join('\n')).not.toMatch(/twice/);
  });

  it('keeps a `baton` MCP entry of the user, refuses settings that are not JSON, and needs a git repository', async () => {
    const { repo, home, baton, env } = setup();
    writeFileSync(
      join(repo, '.mcp.json'),
      JSON.stringify({ mcpServers: { baton: { command: 'my-own', args: [] } } }),
    );
    const r = await baton(['init', '--shared', '--agent', 'claude-code', '--command', 'baton', '--json']);
    expect(r.json<{ changes: { what: string; change: string }[] }>().changes).toContainEqual(
      expect.objectContaining({ what: 'mcp', change: 'theirs' }),
    );
    expect(json(join(repo, '.mcp.json')).mcpServers.baton.command).toBe('my-own');
    writeFileSync(join(repo, '.claude', 'settings.json'), '{ not json');
    const bad = await baton(['init', '--shared', '--agent', 'claude-code']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not valid JSON/);
    expect(readFileSync(join(repo, '.claude', 'settings.json'), 'utf8')).toBe('{ not json');
    const plain = tempDir('baton-plain-');
    const outside = await runCli(['init'], { cwd: plain, env });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/not in a git repository/);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
  });

  it('picks the agents that are installed or configured, Claude Code by default', async () => {
    // neither: a PATH with git and nothing else, no ~/.claude or ~/.codex
    const bare = setup();
    const bin = tempDir('baton-no-agent-');
    symlinkSync(execFileSync('which', ['git'], { encoding: 'utf8' }).trim(), join(bin, 'git'));
    const guessed = await runCli(['init', '--command', 'baton'], {
      cwd: bare.repo,
      env: { ...bare.env, PATH: bin },
    });
    expect(guessed.code, guessed.stderr).toBe(0);
    expect(guessed.stdout).toContain(
      'Neither Claude Code nor Codex was found (no `claude` or `codex` on the PATH, no ~/.claude or ~/.codex, no .claude or .codex in this repository), so Baton set up Claude Code, the default when neither is found. For Codex, run `baton init --agent codex` (for both, `baton init --agent all`).',
    );
    expect(existsSync(join(bare.repo, '.claude', 'settings.local.json'))).toBe(true);
    // found by their folders alone (the same bare PATH: an agent installed on this machine does not count)
    const { repo, home, env } = setup();
    const init = () =>
      runCli(['init', '--command', 'baton', '--json'], { cwd: repo, env: { ...env, PATH: bin } });
    mkdirSync(join(home, '.codex'));
    const r = (await init()).json<{ agents: string[]; agents_found: string[] }>();
    expect(r).toMatchObject({ agents: ['codex'], agents_found: ['codex'] });
    mkdirSync(join(home, '.claude'));
    expect((await init()).json<{ agents: string[] }>().agents).toEqual(['claude-code', 'codex']);
    expect(existsSync(join(repo, '.codex', 'hooks.json'))).toBe(true);
  });

  it('takes a --command not found on this machine (Baton may be installed after), saying so and what to do', async () => {
    const { baton } = setup();
    const said =
      '--command runs `/nowhere/bin/baton`, which is not found on this machine (not on the PATH, no such file): the hooks written here record nothing until it is; install Baton ';
    const r = await baton(['init', '--agent', 'claude-code', '--command', '/nowhere/bin/baton', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ warnings: string[] }>().warnings.filter((w) => w.startsWith(said))).toHaveLength(1);
    const human = await baton(['init', '--agent', 'claude-code', '--command', '/nowhere/bin/baton']);
    expect(human.stdout).toContain(`Warning: ${said}`);
    expect(human.stdout).toContain(
      'or give --command the path of an install (`node /path/to/baton/bin/baton.js`).',
    );
    // committed files: said once, by the same warning
    const shared = await baton(['init', '--shared', '--agent', 'claude-code', '--command', 'no-such-baton']);
    expect(shared.code, shared.stderr).toBe(0);
    expect(shared.stdout).toContain(
      'Warning: --command runs `no-such-baton`, which is not found on this machine',
    );
    expect(shared.stdout).not.toContain('does not run here either');
    // `node <script>`: the script must be there too; a path the agent's shell expands or finds is not judged here
    const warned = async (command: string) =>
      (await baton(['init', '--agent', 'claude-code', '--command', command, '--json']))
        .json<{
          warnings: string[];
        }>()
        .warnings.filter((w) => w.startsWith('--command runs'));
    expect(await warned(`${process.execPath} /nowhere/baton/bin/baton.js`)).toEqual([
      expect.stringContaining(
        `--command runs \`${process.execPath} /nowhere/baton/bin/baton.js\`, which is not found`,
      ),
    ]);
    expect(await warned('$HOME/.local/bin/baton')).toEqual([]);
    expect(await warned('./node_modules/.bin/baton')).toEqual([]);
    // found: nothing to say
    const found = await baton([
      'init',
      '--agent',
      'claude-code',
      '--command',
      `${process.execPath} ${batonBin}`,
      '--json',
    ]);
    expect(found.json<{ warnings: string[] }>().warnings.filter((w) => w.startsWith('--command'))).toEqual(
      [],
    );
  });
});

describe('baton doctor', () => {
  it('outside a git repository, says `git init` comes first and promises nothing a session start cannot keep', async () => {
    const { env } = setup();
    const plain = tempDir('baton-plain-');
    const run = (args: string[]) => runCli(args, { cwd: plain, env });
    const report = async () => {
      const r = await run(['doctor', '--json']);
      expect(r.code).toBe(1);
      return r.json<{ problems: string[]; notes: string[] }>();
    };
    const bare = await report();
    expect(bare.problems).toEqual([
      expect.stringMatching(
        /is not a git repository: Baton follows agent sessions in git repositories only: run `git init` here, then `baton init`$/,
      ),
    ]);
    expect(bare.notes.filter((n) => /session start creates/.test(n))).toEqual([]);
    // hooks wired for every repository: `git init` is all it takes
    expect((await run(['init', '--user', '--agent', 'claude-code'])).code).toBe(0);
    expect((await report()).problems).toEqual([
      expect.stringMatching(/is not a git repository: .*: run `git init` here \(the hooks are wired\)$/),
    ]);
    // and what it says works: in a repository, init and a session start follow it
    execFileSync('git', ['init', '-q'], { cwd: plain });
    expect((await run(['init', '--agent', 'claude-code'])).code).toBe(0);
    const inRepo = (await run(['doctor', '--json'])).json<{ problems: string[]; notes: string[] }>();
    expect(inRepo.problems.filter((p) => /git repository/.test(p))).toEqual([]);
    expect(inRepo.notes).toContainEqual(expect.stringMatching(/the next agent session start creates one/));
  });

  it('says what is missing, then what is wired and the last result of each hook', async () => {
    const { repo, baton } = setup();
    // hooks not wired where none ever ran is no problem (`baton run` needs none): a note says what init is for
    const before = await baton(['doctor']);
    expect(before.code, before.stdout).toBe(0);
    expect(before.stdout).toMatch(
      /note: no agent hooks call Baton here: `baton run` needs none; `baton init` wires them \(or install the Claude Code plugin\) so that Baton follows the .* sessions you start yourself\n/,
    );
    expect(before.stdout).not.toMatch(/problem:/);
    expect(before.stdout).toMatch(/No hook has run here yet/);
    await baton(['init', '--agent', 'claude-code']);
    const start = await baton(
      ['hook', 'SessionStart'],
      JSON.stringify({ session_id: 's1', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }),
    );
    expect(start.code).toBe(0);
    const bad = await baton(['hook', 'Stop'], '{"cwd": 3');
    expect(bad.code).toBe(0);
    const after = await baton(['doctor', '--json']);
    const report = after.json<Record<string, any>>();
    expect(after.code).toBe(1);
    expect(report.agents[0].hooks[0]).toMatchObject({ scope: 'local', missing: [], runnable: true });
    const lastHook = (event: string) => report.last_hooks.find((h: { event: string }) => h.event === event);
    expect(lastHook('SessionStart')).toMatchObject({ outcome: 'ok', agent: 'claude-code' });
    expect(lastHook('Stop')).toMatchObject({
      agent: 'claude-code',
      outcome: 'failed',
      note: expect.stringMatching(/not JSON/),
    });
    expect(report.problems).toEqual([
      expect.stringMatching(/the last Stop hook .* failed: hook input is not JSON/),
    ]);
    expect(report.workflows).toHaveLength(1);

    // The plugin enabled as well: every hook would run twice, which doctor names with the way out.
    writeFileSync(
      join(repo, '.claude', 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'baton@baton': true } }),
    );
    const both = (await baton(['doctor', '--json'])).json<Record<string, any>>();
    expect(both.agents[0].plugin).toEqual([expect.stringMatching(/^baton@baton \(.*settings\.json\)$/)]);
    expect(both.problems).toContainEqual(
      expect.stringMatching(/Claude Code runs Baton's hooks twice, .* keep one \(`baton init --undo`/),
    );
    // and `baton init` run again says so at once, not only doctor
    const again = await baton(['init', '--agent', 'claude-code']);
    expect(again.stdout).toMatch(
      /^Warning: Claude Code runs Baton's hooks twice, .* or disable the plugin\)\.$/m,
    );
    expect(
      (await baton(['init', '--agent', 'claude-code', '--json'])).json<{ warnings: string[] }>().warnings,
    ).toEqual([expect.stringMatching(/^Claude Code runs Baton's hooks twice/)]);

    // Hooks followed a session here, and `baton init --undo` took them out: said, as the user's choice
    writeFileSync(join(repo, '.claude', 'settings.json'), JSON.stringify({}));
    expect((await baton(['init', '--undo', '--agent', 'claude-code'])).code).toBe(0);
    const undone = await baton(['doctor', '--json']);
    expect(undone.json<{ problems: string[] }>().problems.join('\n')).not.toContain(
      'no agent hooks call Baton',
    );
    expect(undone.json<{ notes: string[] }>().notes).toContainEqual(
      expect.stringMatching(
        /^no agent hooks call Baton here: `baton init --undo` took them out at \S+, so the sessions you start here are not followed; `baton init` follows them again$/,
      ),
    );
    // a hook ran since (wired some other way), and is gone too: the next session is not followed, which is a problem
    const prompt = { session_id: 's2', cwd: repo, hook_event_name: 'UserPromptSubmit', prompt: 'go on' };
    expect((await baton(['hook', 'UserPromptSubmit'], JSON.stringify(prompt))).code).toBe(0);
    const gone = await baton(['doctor', '--json']);
    expect(gone.code).toBe(1);
    const ran = gone
      .json<{ last_hooks: { event: string; at: string }[] }>()
      .last_hooks.find((h) => h.event === 'UserPromptSubmit');
    expect(gone.json<{ problems: string[] }>().problems).toContainEqual(
      `no agent hooks call Baton here, though they followed agent sessions here (the last hook ran at ${ran?.at}): run \`baton init\` (or install the Claude Code plugin) to follow them again`,
    );
  });

  it("keeps each agent's last hooks apart: a Claude Code Stop does not hide a Codex Stop that failed", async () => {
    const { repo, env, baton } = setup();
    await baton(['init', '--agent', 'claude-code']);
    await baton(['init', '--agent', 'codex']);
    const failed = await runCli(['hook', 'Stop', '--agent', 'codex'], { cwd: repo, env, input: '{"cwd": 3' });
    expect(failed.code).toBe(0);
    const stop = { session_id: 's1', cwd: repo, hook_event_name: 'Stop' };
    const ok = await baton(['hook', 'Stop'], JSON.stringify(stop));
    expect(ok.code, ok.stderr).toBe(0);
    const report = (await baton(['doctor', '--json'])).json<Record<string, any>>();
    expect(report.last_hooks.map((h: Record<string, string>) => [h.agent, h.event])).toEqual([
      ['claude-code', 'Stop'],
      ['codex', 'Stop'],
    ]);
    expect(report.last_hooks[0].outcome).not.toMatch(/failed|timeout/);
    expect(report.last_hooks[1]).toMatchObject({
      outcome: 'failed',
      note: expect.stringMatching(/not JSON/),
    });
    expect(report.problems).toContainEqual(
      expect.stringMatching(
        /^the last Stop hook \(.*, codex\) failed: hook input is not JSON.*This problem clears when the next Codex Stop hook here runs without failing$/,
      ),
    );
    const text = await baton(['doctor']);
    expect(text.stdout).toMatch(
      /\n {2}Claude Code +Stop +\S+ +\w+ .*\n {2}Codex +Stop +\S+ +failed +\d+ ms {2}hook input is not JSON/,
    );

    // a record an older Baton wrote (one per event, whichever agent ran it last) is read under its agent
    const logs = join(env.BATON_HOME, 'hooks');
    const [file] = readdirSync(logs).filter((f) => f.endsWith('.json'));
    const path = join(logs, file!);
    const log = json(path);
    const { event: _event, ...codexStop } = log.events['codex/Stop'];
    writeFileSync(path, JSON.stringify({ ...log, events: { Stop: codexStop } }));
    const old = (await baton(['doctor', '--json'])).json<Record<string, any>>();
    expect(old.last_hooks).toEqual([{ ...codexStop, event: 'Stop' }]);
    expect(old.problems).toContainEqual(expect.stringMatching(/^the last Stop hook \(.*, codex\) failed/));
  });

  it('says which changed files git already tracks: the default cannot keep those out of the repository', async () => {
    const { repo, baton } = setup();
    writeFileSync(join(repo, 'AGENTS.md'), '# Agents\n\nRun the tests first.\n');
    gitIn(repo, 'add', 'AGENTS.md');
    gitIn(repo, 'commit', '-qm', 'agents');
    const r = await baton(['init', '--agent', 'codex', '--command', 'baton']);
    expect(r.code, r.stderr).toBe(0);
    // each line says whose its file is, in doctor's words, and the heading what those words mean
    expect(r.stdout).toContain(
      `Baton is set up for Codex in ${repo} (local: personal to this repository, not committed; shared: in the repository, to commit for everyone; user: for every repository of this user):`,
    );
    expect(r.stdout).toMatch(
      /^ {2}Codex instructions \(shared\) +AGENTS\.md: .*\(git tracks this file: the change shows in `git status`/m,
    );
    expect(r.stdout).toMatch(/^ {2}Codex mcp \(user\) +~\/\.codex\/config\.toml: added$/m);
    // a file init created is excluded, not said to be tracked
    expect(r.stdout).toMatch(/^ {2}Codex hooks \(local\) +\.codex\/hooks\.json: (?!.*git tracks)/m);
    expect(r.stdout).toContain('Committed with the repository: AGENTS.md. It names `baton`, from');
    expect(gitIn(repo, 'status', '--porcelain')).toMatch(/^ M AGENTS\.md$/m);
    // Baton's block is not the user's uncommitted work in the resume context; an edit of the user's to it is
    expect((await baton(['create', '--title', 'Fix the parser'])).code).toBe(0);
    const gitState = async () => /### Git State\n(.*)/.exec((await baton(['context'])).stdout)?.[1];
    expect(await gitState()).toMatch(
      /, no uncommitted changes besides Baton's instructions block in AGENTS\.md \(from `baton init`\)$/,
    );
    writeFileSync(join(repo, 'AGENTS.md'), `${readFileSync(join(repo, 'AGENTS.md'), 'utf8')}\nLint first.\n`);
    expect(await gitState()).toMatch(
      /, uncommitted changes \(1 file changed, \d+ insertions\(\+\)\): AGENTS\.md; 1 file changed/,
    );
    // the MCP server it registered is in the user's own ~/.codex/config.toml: doctor says so
    const codex = (await baton(['doctor', '--json']))
      .json<{ agents: { agent: string; mcp: { scope: string; path: string }[] }[] }>()
      .agents.find((a) => a.agent === 'codex');
    expect(codex?.mcp).toEqual([
      expect.objectContaining({ scope: 'user', path: expect.stringMatching(/\.codex\/config\.toml$/) }),
    ]);
    // --user: the user's hooks, which need no trusted project
    const user = await baton(['init', '--user', '--agent', 'codex', '--command', 'baton']);
    expect(user.stdout).toContain(
      'Codex runs Baton\'s hooks only once you trust them (new or changed ones need it again): start `codex` in a terminal and choose "Trust all and continue" when it says "Hooks need review"',
    );
    expect(user.stdout).not.toContain('trusted project');
  });

  it('wired for Codex alone, does not ask for Claude Code too, though Claude Code is set up on the machine', async () => {
    const { repo, home, baton } = setup();
    mkdirSync(join(home, '.claude'), { recursive: true });
    expect((await baton(['init', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    const toml = join(home, '.codex', 'config.toml');
    writeFileSync(toml, `${readFileSync(toml, 'utf8')}\n[projects."${repo}"]\ntrust_level = "trusted"\n`);
    const r = await baton(['doctor', '--json']);
    const report = r.json<{ problems: string[]; notes: string[]; agents: Record<string, any>[] }>();
    // the MCP server is in the user's ~/.codex/config.toml, labelled as Claude Code's user-level settings are
    expect(report.agents.find((a) => a.agent === 'codex')?.mcp).toEqual([
      expect.objectContaining({ scope: 'user', path: toml }),
    ]);
    // (the hooks' `baton` is not on the PATH here: that problem is the only one)
    expect(report.problems.filter((p) => /Claude Code/.test(p))).toEqual([]);
    expect(report.notes).toContain(
      'Claude Code is in use on this machine but not wired here: `baton init` wires it',
    );
  });

  it("labels Codex's ~/.codex/config.toml as the user's, also in a repository at ~ (where the file is in it)", async () => {
    const { repo, env } = setup();
    const run = (...args: string[]) => runCli(args, { cwd: repo, env: { ...env, HOME: repo } });
    expect((await run('init', '--agent', 'codex', '--command', 'baton')).code).toBe(0);
    const lines = (await run('doctor')).stdout.split('\n').filter((l) => /^ {2}mcp /.test(l));
    expect(lines).toEqual([`  mcp (user)  ${join(repo, '.codex', 'config.toml')}: baton mcp --agent codex`]);
  });

  it("forwards Baton's variables to the MCP server Codex starts (it passes a few only), and doctor says when they are not", async () => {
    const { repo, home, env, baton } = setup();
    expect((await baton(['init', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    const toml = join(home, '.codex', 'config.toml');
    expect(readFileSync(toml, 'utf8')).toMatch(
      /^env_vars = \["BATON_HOME", "BATON_DATABASE_URL", .*"BATON_URL", "BATON_TOKEN"\]$/m,
    );
    const unforwarded = (problems: string[]) => problems.filter((p) => /is not given/.test(p));
    expect(unforwarded((await baton(['doctor', '--json'])).json<{ problems: string[] }>().problems)).toEqual(
      [],
    );
    // an entry from before Baton forwarded them: BATON_HOME is set here, so the server would read another store
    writeFileSync(toml, readFileSync(toml, 'utf8').replace(/^env_vars = .*\n/m, ''));
    const problems = (await baton(['doctor', '--json'])).json<{ problems: string[] }>().problems;
    expect(unforwarded(problems)).toEqual([
      `Codex's MCP server in ${toml} is not given BATON_HOME (set here): Codex starts MCP servers with a few variables only, so the agent's \`baton\` tools read other records than its hooks write; run \`baton init --agent codex\` again, which forwards them (\`env_vars\`), or add them to the \`env_vars\` of a \`baton\` server of your own`,
    ]);
    // without the variable set, the server finds the same store as the hooks: nothing to say
    const bare = await runCli(['doctor', '--json'], { cwd: repo, env: { ...env, BATON_HOME: undefined } });
    expect(unforwarded(bare.json<{ problems: string[] }>().problems)).toEqual([]);
  });

  it('leaves a Codex config.toml that does not parse as it is: init refuses before writing anything, doctor says why', async () => {
    const { repo, home, baton } = setup();
    const toml = join(home, '.codex', 'config.toml');
    mkdirSync(join(home, '.codex'));
    const broken = 'model = "gpt-5.5"\n[mcp_servers.docs]\ncommand = "docs-mcp"\n[mcp_servers.docs]\n';
    writeFileSync(toml, broken);
    const said = `${toml} is not valid TOML (line 4, column 2: trying to redefine an already defined table or value), so Codex cannot read it either, and Baton writes nothing to it: fix the file, then run \`baton init --agent codex\` again`;
    const init = await baton(['init', '--agent', 'codex', '--command', 'baton']);
    expect(init.code).not.toBe(0);
    expect(init.stderr).toContain(said);
    expect(readFileSync(toml, 'utf8')).toBe(broken);
    // refused before any file is touched: no hooks, no block
    expect(existsSync(join(repo, '.codex', 'hooks.json'))).toBe(false);
    expect(existsSync(join(repo, 'AGENTS.md'))).toBe(false);
    // refused for both agents: the command to run again sets up both, not Codex alone
    const both = await baton(['init', '--agent', 'all', '--command', 'baton']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain(said.replace('--agent codex', '--agent all'));
    expect(existsSync(join(repo, '.claude', 'settings.local.json'))).toBe(false);
    // wired while the file parsed, then broken: doctor says so, not that trust or the MCP server is missing
    writeFileSync(toml, 'model = "gpt-5.5"\n');
    expect((await baton(['init', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    writeFileSync(toml, `${readFileSync(toml, 'utf8')}[mcp_servers.docs]\n[mcp_servers.docs]\n`);
    const doctor = await baton(['doctor', '--json']);
    expect(doctor.code).toBe(1);
    const { problems } = doctor.json<{ problems: string[] }>();
    expect(problems.filter((p) => p.includes('config.toml'))).toEqual([
      expect.stringMatching(
        /config\.toml is not valid TOML \(line \d+, column 2: trying to redefine .*\), so Codex cannot read it either, and Baton writes nothing to it: fix the file, then run `baton init --agent codex` again$/,
      ),
    ]);
    expect(problems.join('\n')).not.toMatch(/no `baton` MCP server|does not trust|trusted none/);
  });

  it("keeps a `baton` MCP server of the user's own in Codex's config.toml, in any form, and doctor shows its command", async () => {
    const { home, baton } = setup();
    const toml = join(home, '.codex', 'config.toml');
    mkdirSync(join(home, '.codex'));
    for (const before of [
      'model = "gpt-5.5"\n[mcp_servers."baton"]\ncommand = "/opt/baton"\nargs = ["mcp"]\n',
      '[mcp_servers]\nbaton = { command = "/opt/baton", args = ["mcp"] }\n',
      'mcp_servers.baton.command = "/opt/baton"\nmcp_servers.baton.args = ["mcp"]\n',
    ]) {
      writeFileSync(toml, before);
      const init = await baton(['init', '--agent', 'codex', '--command', 'baton']);
      expect(init.code).toBe(0);
      expect(init.stdout).toMatch(/Codex mcp \(user\) +.*config\.toml: theirs/);
      expect(readFileSync(toml, 'utf8')).toBe(before);
      const lines = (await baton(['doctor'])).stdout.split('\n').filter((l) => /^ {2}mcp /.test(l));
      expect(lines).toEqual([`  mcp (user)  ${toml}: /opt/baton mcp`]);
    }
  });

  it('holds the trust of Codex hooks a note, not a problem, where no Codex is installed and none of its hooks ran', async () => {
    const { home, baton } = setup();
    // a folder of Codex left from a try: a plain `baton init` wires Codex too
    mkdirSync(join(home, '.codex'));
    expect((await baton(['init', '--command', `${process.execPath} ${batonBin}`])).code).toBe(0);
    const r = await baton(['doctor', '--json']);
    const report = r.json<{ problems: string[]; notes: string[] }>();
    expect(report.problems).toEqual([]);
    expect(r.code).toBe(0);
    expect(report.notes).toContainEqual(
      expect.stringMatching(
        /^`codex` is not on the PATH and no Codex hook ran here; once you use Codex here: \(1\) Codex runs the hooks in .+; \(2\) Codex runs a hook only once you trust it/,
      ),
    );
    // said once: both wait for the same thing
    expect(report.notes.filter((n) => n.includes('`codex` is not on the PATH'))).toHaveLength(1);
  });

  it("says Codex's project hooks need a trusted project (exit 1 until then), and hooks wired twice", async () => {
    const { repo, home, env, baton } = setup({ codex: true });
    // a command that runs here, so the trust is the only thing doctor can find wrong
    const command = `${process.execPath} ${batonBin}`;
    const init = await baton(['init', '--agent', 'codex', '--command', command]);
    expect(init.code).toBe(0);
    const doctor = async () => {
      const r = await baton(['doctor', '--json']);
      return { code: r.code, ...r.json<{ problems: string[]; notes: string[] }>() };
    };
    const problems = async () => (await doctor()).problems;
    // no trust named yet: Codex loads the project's hooks disabled, so nothing is followed: a problem, with the fix
    const fix = `start \`codex\` here and choose to trust the folder when it asks (\`codex exec\` never asks), or add the table \`[projects."${repo}"]\` with the line \`trust_level = "trusted"\` under it`;
    expect(init.stdout).toContain(fix);
    const unnamed = await doctor();
    expect(unnamed.code).toBe(1);
    expect(unnamed.problems).toEqual([
      expect.stringMatching(
        /^Codex runs the hooks in .*\.codex\/hooks\.json only in a trusted project, and .*config\.toml does not trust this folder yet, so Baton follows no Codex session here: /,
      ),
      // and once it trusts the folder, each hook (Codex asks for both when it starts here)
      expect.stringMatching(/it has trusted none of Baton's hooks/),
    ]);
    expect(unnamed.problems[0]).toContain(fix);
    const toml = join(home, '.codex', 'config.toml');
    const original = readFileSync(toml, 'utf8');
    writeFileSync(toml, `${original}\n[projects."${repo}"] # this one\ntrust_level = "untrusted"\n`);
    expect(await problems()).toEqual([
      expect.stringMatching(
        /config\.toml marks this one untrusted \(\[projects\.".*"\]\), so Baton follows no Codex session here: change its trust_level to "trusted" there/,
      ),
      expect.stringMatching(/it has trusted none of Baton's hooks/),
    ]);
    writeFileSync(toml, `${original}\n[projects."${repo}"]\ntrust_level = "trusted"\n`);
    // the folder trusted, Codex still runs each hook only once it is trusted itself
    const folderOnly = await doctor();
    expect(folderOnly.problems).toEqual([expect.stringMatching(/it has trusted none of Baton's hooks/)]);
    trustCodexHooks(home, join(repo, '.codex', 'hooks.json'));
    const trusted = await doctor();
    expect(trusted.code).toBe(0);
    expect([...trusted.problems, ...trusted.notes].filter((p) => /trusted project/.test(p))).toEqual([]);
    expect((await baton(['init', '--agent', 'codex', '--command', command])).stdout).toContain(
      "Codex trusts this folder. Codex runs Baton's hooks only once you trust them",
    );
    // a linked worktree of a trusted checkout is trusted too (Codex looks the main checkout up)
    const worktree = join(tempDir('baton-wt-'), 'feature');
    gitIn(repo, 'worktree', 'add', '-q', worktree);
    const inWorktree = (args: string[]) => runCli(args, { cwd: worktree, env });
    expect((await inWorktree(['init', '--agent', 'codex', '--command', command])).code).toBe(0);
    trustCodexHooks(home, join(worktree, '.codex', 'hooks.json'));
    expect((await inWorktree(['doctor'])).code).toBe(0);
    // the user's hooks as well: every event would run Baton twice, which init says at once
    const twice = await baton(['init', '--user', '--agent', 'codex', '--command', 'baton']);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toMatch(
      /^Warning: Codex runs Baton's hooks twice, from .* and .*: every event is answered twice/m,
    );
    expect(await problems()).toContainEqual(
      expect.stringMatching(/^Codex runs Baton's hooks twice, from .* and .*: every event is answered twice/),
    );
  });

  it("says which of Baton's hooks Codex has not trusted, or turned off, and what to do (Codex runs a hook only once trusted)", async () => {
    const { repo, home, baton } = setup({ codex: true });
    // the user's own hooks first in the file: Baton's come second in the events they share
    mkdirSync(join(repo, '.codex'));
    const hooks = join(repo, '.codex', 'hooks.json');
    const theirs = { hooks: [{ type: 'command', command: 'notify-send done' }] };
    writeFileSync(hooks, JSON.stringify({ hooks: { Stop: [theirs] } }));
    const command = `${process.execPath} ${batonBin}`;
    expect((await baton(['init', '--agent', 'codex', '--command', command])).code).toBe(0);
    const toml = join(home, '.codex', 'config.toml');
    writeFileSync(toml, `${readFileSync(toml, 'utf8')}\n[projects."${repo}"]\ntrust_level = "trusted"\n`);
    const trusted = readFileSync(toml, 'utf8');
    const doctor = async () => {
      const r = await baton(['doctor', '--json']);
      return { code: r.code, problems: r.json<{ problems: string[] }>().problems };
    };
    const fix =
      'start `codex` in a terminal and choose "Trust all and continue" when it says "Hooks need review" (or type `/hooks` there and trust them); `codex exec` never asks';
    expect(await doctor()).toEqual({
      code: 1,
      problems: [
        `Codex runs a hook only once you trust it, and it has trusted none of Baton's hooks in ${hooks} (${toml} has no \`trusted_hash\` under \`[hooks.state."${hooks}:session_start:0:0"]\` nor for the others), so Baton follows no Codex session here: ${fix}`,
      ],
    });
    // trusted in Codex (its keys: the file, the event, the group's place and the hook's): Stop's is the second group
    const label = (e: string) => e.replace(/(?<=.)([A-Z])/g, '_$1').toLowerCase();
    const state = (e: string, fields: string, group = e === 'Stop' ? 1 : 0) =>
      `[hooks.state."${hooks}:${label(e)}:${group}:0"]\n${fields}\n`;
    const others = codexEvents.filter((e) => e !== 'Stop');
    const record = (...tables: string[]) => writeFileSync(toml, `${trusted}\n${tables.join('')}`);
    // trusted as if it sat first (where the user's hook is): Baton's Stop is not trusted
    record(
      ...others.map((e) => state(e, 'trusted_hash = "sha256:1"')),
      state('Stop', 'trusted_hash = "sha256:1"', 0),
    );
    expect((await doctor()).problems).toEqual([
      `Codex runs a hook only once you trust it, and it has not trusted Baton's Stop hook in ${hooks} (${toml} has no \`trusted_hash\` under \`[hooks.state."${hooks}:stop:1:0"]\`), so Codex skips it: ${fix}`,
    ]);
    // every one trusted, one of them turned off in /hooks
    record(
      ...others.map((e) =>
        state(e, `trusted_hash = "sha256:1"${e === 'UserPromptSubmit' ? '\nenabled = false' : ''}`),
      ),
      state('Stop', 'trusted_hash = "sha256:1"'),
    );
    expect((await doctor()).problems).toEqual([
      `Baton's UserPromptSubmit hook in ${hooks} is turned off in Codex (\`enabled = false\` in ${toml}), so Codex skips it: type \`/hooks\` in \`codex\` and turn it on again`,
    ]);
    record(...codexEvents.map((e) => state(e, 'trusted_hash = "sha256:1"')));
    expect(await doctor()).toEqual({ code: 0, problems: [] });
    // every hook turned off in Codex's features
    writeFileSync(toml, `[features]\nhooks = false\n${readFileSync(toml, 'utf8')}`);
    expect((await doctor()).problems).toEqual([
      `Codex runs no hooks at all, so Baton follows no Codex session: ${toml} turns them off (\`[features] hooks = false\`): take that line out`,
    ]);
    // yet Codex ran one of them after that config last changed: it reads another config, said as a note, no problem
    writeFileSync(toml, trusted);
    await new Promise((r) => setTimeout(r, 20));
    const ran = await baton(
      ['hook', 'SessionStart', '--agent', 'codex'],
      JSON.stringify({
        session_id: 'codex-ran-1',
        cwd: repo,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
    );
    expect(ran.code).toBe(0);
    const after = (await baton(['doctor', '--json'])).json<{ problems: string[]; notes: string[] }>();
    expect(after.problems).toEqual([]);
    expect(after.notes.join('\n')).toMatch(
      /nothing to do while Codex runs Baton's hooks, as it did here at \S+ \(after .*config\.toml last changed: it reads another config, CODEX_HOME, or predates hook trust\); should a Codex say "Hooks need review", this applies: Codex runs a hook only once you trust it, and it has trusted none of Baton's hooks/,
    );
    // the config changed since: it is the newer word again
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(toml, trusted);
    expect((await doctor()).problems).toEqual([
      expect.stringMatching(/it has trusted none of Baton's hooks/),
    ]);
  });

  it("lists Codex's repository hooks file once, as git holds it: the default and --shared write the same .codex/hooks.json", async () => {
    const { repo, baton } = setup();
    const hooks = join(repo, '.codex', 'hooks.json');
    const listed = async () => {
      const report = (await baton(['doctor', '--json'])).json<Record<string, any>>();
      const text = (await baton(['doctor'])).stdout;
      return {
        hooks: report.agents.find((a: { agent: string }) => a.agent === 'codex').hooks,
        lines: text.match(/^ {2}hooks \(.*\.codex\/hooks\.json/gm),
      };
    };
    // the default: init keeps it out of git (personal), and doctor says so, as init did
    expect((await baton(['init', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    let seen = await listed();
    expect(seen.hooks).toEqual([
      expect.objectContaining({ scope: 'local', scopes: ['local'], path: hooks, missing: [] }),
    ]);
    expect(seen.lines).toEqual([`  hooks (local)  ${hooks}`]);
    // --shared, not yet committed: it could be either
    expect((await baton(['init', '--undo'])).code).toBe(0);
    expect((await baton(['init', '--agent', 'codex', '--shared', '--command', 'baton'])).code).toBe(0);
    seen = await listed();
    expect(seen.lines).toEqual([`  hooks (local, shared)  ${hooks}`]);
    // committed: shared, and its hints name --shared
    gitIn(repo, 'add', '.codex/hooks.json');
    seen = await listed();
    expect(seen.hooks).toEqual([expect.objectContaining({ scope: 'shared', scopes: ['shared'] })]);
    expect(seen.lines).toEqual([`  hooks (shared)  ${hooks}`]);
  });

  it("keeps Codex's user-wide MCP entry on one repository's undo while another repository set up for Codex needs it", async () => {
    const a = setup();
    const b = makeRepo();
    const inB = (args: string[]) => runCli(args, { cwd: b, env: a.env });
    expect((await a.baton(['init', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    expect((await inB(['init', '--agent', 'codex', '--command', 'baton'])).code).toBe(0);
    const toml = join(a.home, '.codex', 'config.toml');
    const undone = await a.baton(['init', '--undo']);
    expect(undone.code).toBe(0);
    expect(undone.stdout).toMatch(/Codex mcp .*config\.toml: kept: another repository uses it \(/);
    expect(undone.stdout).toContain(b);
    expect(readFileSync(toml, 'utf8')).toContain('[mcp_servers.baton]');
    // undone again, or in a repository set up for Claude Code alone: the entry b needs is nothing of theirs to name
    const again = await a.baton(['init', '--undo']);
    expect(again.stdout).not.toContain('Codex');
    // (its hooks run `baton`, not on this test's PATH: that problem is the only one)
    const problems = (await inB(['doctor', '--json'])).json<{ problems: string[] }>().problems;
    expect(problems.filter((p) => /mcp/i.test(p))).toEqual([]);
    // the last repository's undo removes it: one set up and deleted since does not count
    const c = makeRepo();
    expect(
      (await runCli(['init', '--agent', 'codex', '--command', 'baton'], { cwd: c, env: a.env })).code,
    ).toBe(0);
    rmSync(c, { recursive: true, force: true });
    const last = await inB(['init', '--undo']);
    expect(last.stdout).toMatch(/Codex mcp .*config\.toml: removed/);
    expect(existsSync(toml) ? readFileSync(toml, 'utf8') : '').not.toContain('[mcp_servers.baton]');
  });

  it('sets up every worktree of the repository, names one added later, and undoes them all from any of them', async () => {
    const { repo, home, env, baton } = setup();
    const parent = tempDir('baton-wts-');
    const [one, two] = [join(parent, 'one'), join(parent, 'two')];
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'one', one);
    const inside = (dir: string) => (args: string[], input?: string) =>
      runCli(args, { cwd: dir, env, ...(input ? { input } : {}) });
    const own = ['.claude/settings.local.json', 'CLAUDE.md', '.codex/hooks.json', 'AGENTS.md'];
    const r = await baton(['init', '--agent', 'all', '--command', 'baton', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const changes = r.json<{ changes: { worktree: string; what: string; change: string }[] }>().changes;
    expect([...new Set(changes.map((c) => c.worktree))]).toEqual([repo, one]);
    for (const dir of [repo, one]) {
      for (const f of own) expect(existsSync(join(dir, f)), join(dir, f)).toBe(true);
      expect(json(join(dir, '.claude', 'settings.local.json')).hooks.SessionStart).toBeDefined();
      // the files are the worktree's own, kept out of git by the exclude file the worktrees share
      expect(gitIn(dir, 'status', '--porcelain', '-uall'), dir).toBe('');
    }
    expect(Object.keys(json(join(home, '.claude.json')).projects).sort()).toEqual([one, repo].sort());
    const text = await inside(one)(['init', '--agent', 'all', '--command', 'baton']);
    expect(text.stdout).toContain(
      `And in the other worktrees of this repository (a conversation in each is a workflow of its own):\n  ${repo}: set up already, unchanged\n`,
    );
    expect(text.stdout).toMatch(
      /^A worktree added later \(`git worktree add`\) is not set up until `baton init` runs again/m,
    );

    // a worktree added afterwards lacks the files: a session start where Baton follows, and doctor, say so
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'two', two);
    const missing = `Baton follows this worktree but not the worktree ${two} of the same repository (added after \`baton init\`): a session started there is not followed; run \`baton init\` in any worktree to set up every one`;
    const start = await baton(
      ['hook', 'SessionStart'],
      JSON.stringify({ session_id: 's1', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }),
    );
    expect(JSON.parse(start.stdout).systemMessage).toContain(missing);
    expect((await baton(['doctor', '--json'])).json<{ notes: string[] }>().notes).toContain(missing);
    const there = (await inside(two)(['doctor', '--json'])).json<{ problems: string[] }>().problems;
    expect(there).toContainEqual(
      expect.stringMatching(
        /^no agent hooks call Baton here \(`baton init` set up .* of this repository, not this worktree: its files are not committed, so a worktree added later has none\): run `baton init`, which sets up every worktree of the repository, then start/,
      ),
    );
    expect((await inside(two)(['init', '--agent', 'all', '--command', 'baton'])).code).toBe(0);
    expect(existsSync(join(two, 'CLAUDE.md'))).toBe(true);
    expect((await baton(['doctor', '--json'])).json<{ notes: string[] }>().notes).not.toContain(missing);

    // undone from any worktree: every one, the exclude lines and Codex's shared MCP entry with them
    const undo = await inside(one)(['init', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain('And from the other worktrees of this repository:');
    for (const dir of [repo, one, two]) {
      for (const f of own) expect(existsSync(join(dir, f)), join(dir, f)).toBe(false);
      expect(gitIn(dir, 'status', '--porcelain', '-uall'), dir).toBe('');
    }
    expect(readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8')).not.toMatch(/CLAUDE|AGENTS|codex/);
    expect(readdirSync(home).filter((f) => f !== '.cache')).toEqual([]);
  });

  it("keeps an exclude line on undo while a file it keeps out is still there (the user's own settings left in it)", async () => {
    const { repo, baton } = setup();
    expect((await baton(['init', '--agent', 'claude-code', '--command', 'baton'])).code).toBe(0);
    const settings = join(repo, '.claude', 'settings.local.json');
    writeFileSync(
      settings,
      JSON.stringify({ ...json(settings), permissions: { allow: ['Bash(npm test)'] } }),
    );
    const undo = await baton(['init', '--undo', '--json']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.json<{ changes: { what: string; path: string; change: string }[] }>().changes).toContainEqual(
      expect.objectContaining({
        what: 'git-exclude',
        path: settings,
        change: `kept: ${settings} is still there, and git would commit it without the line`,
      }),
    );
    expect(json(settings)).toEqual({ permissions: { allow: ['Bash(npm test)'] } });
    expect(gitIn(repo, 'status', '--porcelain', '-uall')).toBe('');
  });

  it('names in Claude Code settings only the hook events the installed version knows (an older one skips the file)', async () => {
    const { repo, env } = setup();
    const bin = tempDir('baton-fake-claude-');
    const claude = (version: string) => {
      writeFileSync(join(bin, 'claude'), `#!/bin/sh\necho "${version} (Claude Code)"\n`);
      chmodSync(join(bin, 'claude'), 0o755);
    };
    const run = (...args: string[]) =>
      runCli(args, { cwd: repo, env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` } });
    const settings = () => json(join(repo, '.claude', 'settings.local.json'));
    claude('2.1.70');
    const old = await run('init', '--agent', 'claude-code', '--command', 'baton');
    expect(old.code).toBe(0);
    expect(old.stdout).toContain(
      'without PostCompact, StopFailure: Claude Code 2.1.70 does not know them; update it, then run `baton init` again',
    );
    expect(Object.keys(settings().hooks)).not.toContain('StopFailure');
    expect(Object.keys(settings().hooks)).not.toContain('PostCompact');
    let doctor = (await run('doctor', '--json')).json<{ problems: string[] }>();
    expect(doctor.problems.filter((p) => /lack|does not know/.test(p))).toEqual([]);
    // updated: doctor asks for the new events; after init, an old Claude Code again is told it skips the file
    claude('2.1.90');
    doctor = (await run('doctor', '--json')).json<{ problems: string[] }>();
    expect(doctor.problems).toContainEqual(
      expect.stringMatching(/lack PostCompact, StopFailure: run `baton init` again/),
    );
    expect((await run('init', '--agent', 'claude-code', '--command', 'baton')).code).toBe(0);
    expect(Object.keys(settings().hooks)).toContain('StopFailure');
    claude('2.1.77');
    doctor = (await run('doctor', '--json')).json<{ problems: string[] }>();
    expect(doctor.problems).toContainEqual(
      expect.stringMatching(
        /^Claude Code 2\.1\.77 does not know StopFailure and skips .*settings\.local\.json whole/,
      ),
    );
  });

  it('names the workflow that ended here, rather than saying there is none yet', async () => {
    const { baton } = setup();
    const notes = async () => (await baton(['doctor', '--json'])).json<{ notes: string[] }>().notes;
    // no hooks here: no agent session start creates one, and the note does not promise it
    expect(await notes()).toContainEqual(
      'no workflow here yet: `baton create` starts one (with the hooks `baton init` wires, the next agent session start does)',
    );
    const id = (await baton(['--json', 'create', '--title', 'Done work'])).json<{ id: string }>().id;
    expect((await baton(['abandon', id])).code).toBe(0);
    expect((await baton(['init', '--agent', 'claude-code', '--command', 'baton'])).code).toBe(0);
    expect(await notes()).toContainEqual(
      `no open workflow here (the latest, ${id}, is cancelled: \`baton status -w ${id}\`): the next agent session start creates one (auto_track on)`,
    );
  });

  it('says when no `claude` is on the PATH to ask its version, and what that means, in init and doctor', async () => {
    const { repo, env } = setup();
    // a PATH with git and nothing else: no `claude` whatever this machine has installed
    const bin = tempDir('baton-no-claude-');
    const git = execFileSync('which', ['git'], { encoding: 'utf8' }).trim();
    symlinkSync(git, join(bin, 'git'));
    const run = (...args: string[]) => runCli(args, { cwd: repo, env: { ...env, PATH: bin } });
    const init = await run('init', '--agent', 'claude-code', '--command', 'baton');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("added (Claude Code's version is unknown: see the note)\n");
    expect(init.stdout).toMatch(
      /^Note: Claude Code's version is unknown \(`claude` is not on the PATH, so its version was not asked\): every hook event Baton knows is named, PostCompact \(since 2\.1\.76\), StopFailure \(since 2\.1\.78\) among them, and a Claude Code older than one of them skips the settings file whole/m,
    );
    expect(init.stdout).toContain(
      'if yours is older, update it, or run `baton init` again where `claude --version` answers',
    );
    // every event is named: the version that would leave some out is unknown
    const settings = json(join(repo, '.claude', 'settings.local.json'));
    expect(Object.keys(settings.hooks).sort()).toEqual([...claudeEvents].sort());
    const doctor = (await run('doctor', '--json')).json<{
      notes: string[];
      agents: { agent: string; version_unread?: string }[];
    }>();
    expect(doctor.agents.find((a) => a.agent === 'claude-code')?.version_unread).toMatch(/not on the PATH/);
    expect(doctor.notes).toContainEqual(
      expect.stringMatching(/^Claude Code's version is unknown \(`claude` is not on the PATH/),
    );
    // nothing wired for Claude Code and none installed: its version is nothing to speak of
    expect((await run('init', '--undo')).code).toBe(0);
    const bare = (await run('doctor', '--json')).json<{ notes: string[] }>();
    expect(bare.notes.filter((n) => /version is unknown/.test(n))).toEqual([]);
  });

  it('says when the installed Claude Code does not tell its version, in init and doctor', async () => {
    const { repo, env } = setup();
    const bin = tempDir('baton-fake-claude-');
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\necho "error: cannot find module ./cli.js" >&2\nexit 1\n');
    chmodSync(join(bin, 'claude'), 0o755);
    const run = (...args: string[]) =>
      runCli(args, { cwd: repo, env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` } });
    const init = await run('init', '--agent', 'claude-code', '--command', 'baton');
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(
      /^Note: Claude Code's version is unknown \(`.*claude --version` failed: error: cannot find module.*\): every hook event Baton knows is named/m,
    );
    const doctor = (await run('doctor', '--json')).json<{
      notes: string[];
      agents: { agent: string; version_unread?: string }[];
    }>();
    expect(doctor.agents.find((a) => a.agent === 'claude-code')?.version_unread).toMatch(
      /failed: error: cannot/,
    );
    expect(doctor.notes).toContainEqual(expect.stringMatching(/^Claude Code's version is unknown \(/));
    // a Claude Code that answers: nothing said
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\necho "2.1.90 (Claude Code)"\n');
    const fine = (await run('doctor', '--json')).json<{ notes: string[] }>();
    expect(fine.notes.filter((n) => /version is unknown/.test(n))).toEqual([]);
  });
});

describe('baton init and doctor in a subfolder of the repository', () => {
  it('warn that a Claude Code started there reads none of the hooks wired at the root, unless they follow every folder', async () => {
    const { repo, env } = setup();
    const sub = join(repo, 'packages', 'api');
    mkdirSync(sub, { recursive: true });
    const here = (args: string[], cwd = sub) => runCli(args, { cwd, env });
    const warning = `Claude Code reads a project's settings and local MCP servers from the folder it starts in, not from the repository root: a session started in packages/api runs none of the hooks \`baton init\` wired at ${repo}, and nothing of it is recorded. Start Claude Code at ${repo}, or follow every folder with \`baton init --user\``;
    const init = await here(['init', '--agent', 'claude-code', '--json']);
    expect(init.code).toBe(0);
    expect(init.json<{ warnings: string[] }>().warnings).toEqual([warning]);
    expect((await here(['init', '--agent', 'claude-code'])).stdout).toContain(`Warning: ${warning}.`);
    expect((await here(['doctor', '--json'])).json<{ notes: string[] }>().notes).toContain(warning);
    // at the root, nothing to say
    expect((await here(['doctor', '--json'], repo)).json<{ notes: string[] }>().notes).not.toContain(warning);
    // hooks of the user's scope follow every folder
    expect((await here(['init', '--agent', 'claude-code', '--user'])).code).toBe(0);
    expect((await here(['doctor', '--json'])).json<{ notes: string[] }>().notes.join('\n')).not.toContain(
      'reads a project',
    );
  });
});

describe('a failed hook in baton doctor', () => {
  /** Baton wired for Claude Code, one hook run as given, and the line of doctor's text about that event's hook. */
  async function reported(event: string, input: string | ((repo: string) => string), flags: string[] = []) {
    const { repo, baton } = setup();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const hook = await baton(['hook', event, ...flags], typeof input === 'string' ? input : input(repo));
    expect(hook.code).toBe(0);
    const doctor = await baton(['doctor']);
    expect(doctor.code).toBe(1);
    const lines = doctor.stdout.split('\n').filter((l) => l.startsWith(`problem: the last ${event} hook `));
    expect(lines, doctor.stdout).toHaveLength(1);
    return { repo, baton, line: lines[0]!, settings: join(repo, '.claude', 'settings.local.json') };
  }
  const noInput = (settings: string) =>
    `The agent sent no valid hook input: if you did not run the hook by hand, the hook command in ${settings} may have been edited; run \`baton init --agent claude-code\` again to rewrite it, and check your agent's version.`;
  const payload = (repo: string, more: Record<string, unknown> = {}) =>
    JSON.stringify({ session_id: 's1', cwd: repo, ...more });

  it('says what to do when the input is not a JSON object, and that the next hook of that event clears it', async () => {
    const { repo, baton, line, settings } = await reported('UserPromptSubmit', '[1,2]');
    expect(line).toContain(
      `failed: hook input is not a JSON object. ${noInput(settings)} This problem clears when the next Claude Code UserPromptSubmit hook here runs without failing`,
    );
    // and it does
    const next = await baton(['hook', 'UserPromptSubmit'], payload(repo, { prompt: 'go on' }));
    expect(next.stdout).not.toMatch(/failed/);
    const doctor = await baton(['doctor']);
    expect(doctor.stdout).not.toMatch(/problem: the last UserPromptSubmit hook/);
  });

  it('says what to do when the input is not JSON', async () => {
    const { line, settings } = await reported('Stop', '{"session_id":"x","hook_event_name":"Stop",');
    expect(line).toMatch(/failed: hook input is not JSON: .*\. The agent sent no valid hook input: /);
    expect(line).toContain(
      `${noInput(settings)} This problem clears when the next Claude Code Stop hook here runs without failing`,
    );
  });

  it('says what to do when there is no input', async () => {
    const { line, settings } = await reported('SessionEnd', '');
    expect(line).toContain(`failed: no hook input on stdin. ${noInput(settings)} This problem clears`);
  });

  it('says what to do about an agent the hook line names that Baton does not know', async () => {
    const { line, settings } = await reported('Stop', '{}', ['--agent', 'gemini']);
    expect(line).toContain(
      `\`baton init\` writes the hook lines). If you did not run the hook by hand, the hook command in ${settings} names an agent Baton does not know: run \`baton init --agent claude-code\` again to rewrite it. This problem clears`,
    );
  });

  it('says what to do about a transcript that is none (a README): neither agent wrote it', async () => {
    const { repo, baton } = setup();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    writeFileSync(join(repo, 'README.md'), '# A project\n\nSome words.\n');
    const stop = await baton(['hook', 'Stop'], payload(repo, { transcript_path: join(repo, 'README.md') }));
    expect(stop.stdout).toMatch(/the Stop hook failed: transcript not imported/);
    const { stdout } = await baton(['doctor']);
    expect(stdout).toMatch(
      /problem: the last Stop hook .* is not a Claude Code transcript: .*\. The file the agent named as its transcript is neither a Claude Code nor a Codex transcript: if you did not run the hook by hand, Claude Code may write a kind this Baton does not know: check its version, and update Baton from a clone of Baton's repository with `npm ci && npm link` \(it is not on the npm registry yet; docs\/install\.md\); `baton import <file>` imports a transcript by hand and says which agent wrote it\. This problem clears when the next Claude Code Stop hook here runs without failing\n/,
    );
  });

  it("keeps the note's own next step for another agent's transcript and for one that is gone, and adds when it clears", async () => {
    const rollout = corpusPath(
      'codex/codemie-code/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
    );
    const codex = await reported('Stop', (repo) => payload(repo, { transcript_path: rollout }), [
      '--agent',
      'claude-code',
    ]);
    expect(codex.line).toContain(
      `is a Codex rollout, not a Claude Code transcript: import it with \`baton import codex ${rollout}\`; no checkpoint: no work recorded yet to checkpoint. This problem clears when the next Claude Code Stop hook here runs without failing`,
    );
    const gone = await reported('PreCompact', (repo) =>
      payload(repo, { transcript_path: '/nowhere/gone.jsonl' }),
    );
    expect(gone.line).toMatch(
      /cannot read the transcript \/nowhere\/gone\.jsonl: no such file; check the path \(.*\)\. This problem clears when the next Claude Code PreCompact hook here runs without failing$/,
    );
  });

  it('is past once a later session start here reached the store the failed hook could not: a note, not a problem', async () => {
    const { repo, baton, line } = await reported('Stop', (repo) => payload(repo), [
      '--server',
      'http://127.0.0.1:1',
    ]);
    expect(line).toContain('failed: cannot reach the Baton server ');
    // the outage is over: the next session start reaches the store and reads on from the last import
    expect((await baton(['hook', 'SessionStart'], payload(repo, { source: 'startup' }))).code).toBe(0);
    const doctor = await baton(['doctor', '--json']);
    const report = doctor.json<{ problems: string[]; notes: string[] }>();
    expect(report.problems.join('\n')).not.toContain('the last Stop hook');
    expect(report.notes.join('\n')).toMatch(
      /the last Stop hook \(\S+, claude-code\) could not reach Baton's store \(cannot reach the Baton server [^\n]*\); the SessionStart hook since \(\S+\) reached it and read on from there: nothing of it is missing/,
    );
  });

  it('is past once any later hook of that agent reached the store first after the outage, and says which', async () => {
    const { repo, baton, line } = await reported('Stop', (repo) => payload(repo), [
      '--server',
      'http://127.0.0.1:1',
    ]);
    expect(line).toContain('failed: cannot reach the Baton server ');
    // the next prompt's hook reaches the store (this machine's own): it reads on what the failed Stop did not
    const prompt = await baton(['hook', 'UserPromptSubmit'], payload(repo, { prompt: 'go on' }));
    expect(prompt.code).toBe(0);
    const report = (await baton(['doctor', '--json'])).json<{ problems: string[]; notes: string[] }>();
    expect(report.problems.join('\n')).not.toContain('the last Stop hook');
    expect(report.notes.join('\n')).toMatch(
      /the last Stop hook \(\S+, claude-code\) could not reach Baton's store \(cannot reach the Baton server [^\n]*\); the UserPromptSubmit hook since \(\S+\) reached it and read on from there: nothing of it is missing/,
    );
  });

  it('is past too when the store was kept locked, or could not be opened for a cause its note names', async () => {
    for (const note of [
      'SQLITE_BUSY: database is locked',
      `cannot open the SQLite database /h/baton.db: database is locked: another process kept it locked all the time this one waited (a \`sqlite3\` shell ...): end that transaction or close it, then try again`,
    ]) {
      const { repo, env, baton } = setup();
      expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
      expect((await baton(['hook', 'Stop'], payload(repo))).code).toBe(0);
      // the Stop failed so (as its hook log keeps it), and a session start reached the store after it
      const log = join(env.BATON_HOME, 'hooks', readdirSync(join(env.BATON_HOME, 'hooks'))[0]!);
      const kept = JSON.parse(readFileSync(log, 'utf8')) as {
        events: Record<string, Record<string, unknown>>;
      };
      const stop = Object.values(kept.events).find((e) => e.event === 'Stop')!;
      Object.assign(stop, { outcome: 'failed', note, at: new Date(Date.now() - 60_000).toISOString() });
      writeFileSync(log, JSON.stringify(kept));
      expect((await baton(['hook', 'SessionStart'], payload(repo, { source: 'startup' }))).code).toBe(0);
      const report = (await baton(['doctor', '--json'])).json<{ problems: string[]; notes: string[] }>();
      expect(report.problems.join('\n'), note).not.toContain('the last Stop hook');
      expect(report.notes.join('\n'), note).toMatch(
        /the last Stop hook \(\S+, claude-code\) could not reach Baton's store \(.*\); the SessionStart hook since \(\S+\) reached it and read on from there: nothing of it is missing/,
      );
    }
  });

  it("says that a store the hook could not open but doctor can means the agent's hooks run with other settings", async () => {
    const { line } = await reported('SessionStart', (repo) => payload(repo, { source: 'startup' }), [
      '--server',
      'http://127.0.0.1:1',
    ]);
    expect(line).toContain(
      "start it with `baton serve` where it runs, or use the server's database directly (BATON_DATABASE_URL or --database instead of BATON_URL / --server); unsetting BATON_URL alone works on this machine's own database, a log the server never sees unless it ran here on that same database; nothing is lost: the briefing comes with the next prompt once it answers again. The hook could not open Baton's store: if `baton doctor` opens it (no problem above says otherwise), Claude Code starts its hooks with other settings than this shell: give them the same (BATON_HOME, BATON_DATABASE_URL or BATON_URL in its environment, --home, --database or --server on the hook line). This problem clears",
    );
  });
});

describe('baton doctor, hooks whose command is gone', () => {
  it('says how to install Baton as it is installed today (from a clone), not a registry name that is not Baton', async () => {
    const { baton } = setup();
    const gone = join(tempDir('baton-gone-'), 'baton');
    expect((await baton(['init', '--agent', 'claude-code', '--command', gone])).code).toBe(0);
    const r = await baton(['doctor', '--json']);
    expect(r.code).toBe(1);
    const problems = r.json<{ problems: string[] }>().problems;
    expect(problems).toContainEqual(
      expect.stringContaining(
        `which is not found: install Baton (from a clone of Baton's repository with \`npm ci && npm link\``,
      ),
    );
    expect(problems.join('\n')).not.toContain('npm install -g');
  });
});

describe("baton doctor, a Baton home emptied while the worktree's run folders hold its workflows", () => {
  it('names the unfinished workflows the store lacks and `baton rebuild --from-disk`, which brings them back', async () => {
    const { repo, env, baton } = setup();
    expect((await baton(['init', '--agent', 'claude-code'])).code).toBe(0);
    const made = await baton(['create', '--title', 'Ship the parser', '--task', 'A:Write it', '--json']);
    const id = made.json<{ id: string }>().id;
    const finished = (await baton(['create', '--title', 'Old work', '--json'])).json<{ id: string }>().id;
    expect((await baton(['abandon', finished])).code).toBe(0);
    expect((await baton(['doctor', '--json'])).json<{ problems: string[] }>().problems).toEqual([]);
    // the home emptied (a new machine's, a `rm -rf ~/.baton`): the store starts empty, the run folders stay
    rmSync(env.BATON_HOME, { recursive: true, force: true });
    const lost = await baton(['doctor', '--json']);
    expect(lost.code).toBe(1);
    const problems = lost.json<{ problems: string[] }>().problems;
    expect(problems).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `run folders \\(${join(repo, '.baton', 'runs')}\\) hold 1 unfinished workflow that .* does not: ${id} \\("Ship the parser", (pending|in_progress)\\); was Baton's home emptied or replaced\\? \`baton rebuild --from-disk ${repo}\``,
        ),
      ),
    );
    // the finished one is not asked back
    expect(problems.join('\n')).not.toContain(finished);
    // an agent session started here meanwhile is followed as a new workflow, and its user told of the lost ones
    const start = await baton(
      ['hook', 'SessionStart'],
      JSON.stringify({ cwd: repo, session_id: 'S1', hook_event_name: 'SessionStart', source: 'startup' }),
    );
    expect(start.code).toBe(0);
    expect((JSON.parse(start.stdout) as { systemMessage: string }).systemMessage).toMatch(
      new RegExp(
        `Baton: this worktree's run folders \\(${join(repo, '.baton', 'runs')}\\) hold 1 unfinished workflow that Baton's store does not: ${id} \\("Ship the parser", [a-z_]+\\); was Baton's home emptied or replaced\\? \`baton rebuild --from-disk ${repo}\` brings them back into it; this session is followed as a new workflow, wf-\\S+ meanwhile`,
      ),
    );
    expect((await baton(['rebuild', '--from-disk', repo])).code).toBe(0);
    expect((await baton(['doctor', '--json'])).json<{ problems: string[] }>().problems).toEqual([]);
  });
});

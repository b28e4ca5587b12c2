import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batonBin, runCli } from '../helpers/cli.js';
import { gitIn, makeRepo, tempDir } from '../helpers/git-repo.js';

// `baton init` run from an install that is not on the PATH (a clone's bin/baton.js, a global install run by its
// path): the files a teammate's clone gets must not name this machine's paths, and a teammate without Baton must be
// told what to install rather than see "command not found" at every event.

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
const install =
  "from a clone of Baton's repository with `npm ci && npm link` (it is not on the npm registry yet; docs/install.md)";
/** fish, a `$SHELL` Codex runs hooks with (`.ci/run` installs it). */
const fish = '/usr/bin/fish';
/** How this checkout runs when `baton` is not on the PATH: this node, this bin/baton.js. */
const machine = `${process.execPath} ${realpathSync(batonBin)}`;

/** A PATH with git and cat alone (no `baton`, no `claude`, whatever this machine has installed), and one with `baton` too. */
function paths() {
  const bare = tempDir('baton-bare-bin-');
  // git for Baton; cat, which a shell runs, for the committed hooks' guard
  for (const program of ['git', 'cat'])
    symlinkSync(execFileSync('which', [program], { encoding: 'utf8' }).trim(), join(bare, program));
  const withBaton = tempDir('baton-with-bin-');
  symlinkSync(batonBin, join(withBaton, 'baton'));
  symlinkSync(process.execPath, join(withBaton, 'node'));
  return { bare, withBaton: `${withBaton}:${bare}` };
}

function setup() {
  const repo = makeRepo();
  const env = {
    BATON_HOME: tempDir('baton-home-'),
    HOME: tempDir('baton-user-'),
    CLAUDE_CONFIG_DIR: undefined,
    CODEX_HOME: undefined,
  };
  const { bare, withBaton } = paths();
  const baton = (args: string[], path = bare) => runCli(args, { cwd: repo, env: { ...env, PATH: path } });
  return { repo, env, bare, withBaton, baton };
}

/** Baton's hook command of an event in a settings file. */
const hookOf = (file: string, event: string) =>
  (json(file).hooks[event] as { hooks: { command: string }[] }[])
    .flatMap((m) => m.hooks)
    .find((h) => / hook /.test(h.command))!.command;

/**
 * Runs a hook command as the agents run it, with the agent's JSON on stdin: Claude Code with `sh -c`, Codex with the
 * user's `$SHELL -lc` (fish among them, which has no `{ ...; }`).
 */
function runHook(
  command: string,
  cwd: string,
  env: Record<string, string | undefined>,
  input: object,
  shell = '/bin/sh',
) {
  const r = spawnSync(shell, ['-c', command], {
    cwd,
    env: { ...env, PATH: env.PATH } as NodeJS.ProcessEnv,
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('baton init, the files committed with the repository', () => {
  it('--shared from an install not on the PATH names `baton` there, never a path of this machine, and says so', async () => {
    const { repo, baton } = setup();
    const r = await baton(['init', '--shared', '--agent', 'all']);
    expect(r.code, r.stderr).toBe(0);
    const committed = [
      '.claude/settings.json',
      '.mcp.json',
      'CLAUDE.md',
      '.codex/hooks.json',
      '.codex/config.toml',
    ];
    for (const f of [...committed, 'AGENTS.md'])
      expect(readFileSync(join(repo, f), 'utf8'), f).not.toContain(realpathSync(batonBin));
    expect(hookOf(join(repo, '.claude', 'settings.json'), 'Stop')).toBe(
      'command -v baton >/dev/null 2>&1 && exec baton hook Stop; cat >/dev/null',
    );
    expect(hookOf(join(repo, '.codex', 'hooks.json'), 'Stop')).toMatch(
      /^command -v baton .* && exec baton hook Stop --agent codex; cat >\/dev\/null$/,
    );
    expect(json(join(repo, '.mcp.json')).mcpServers.baton).toEqual({
      type: 'stdio',
      command: 'baton',
      args: ['mcp', '--agent', 'claude-code'],
    });
    expect(readFileSync(join(repo, '.codex', 'config.toml'), 'utf8')).toContain(
      'command = "baton"\nargs = ["mcp", "--agent", "codex"]',
    );
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toContain('- `baton task add ID:Title');
    // what was written where, what a teammate does, and that `baton` does not run here either
    expect(r.stdout).toContain('Hooks run: baton hook "<Event>" (with --agent codex for Codex)');
    expect(r.stdout).toContain(
      `Committed with the repository: .claude/settings.json, .mcp.json, CLAUDE.md, .codex/hooks.json, .codex/config.toml, AGENTS.md. They name \`baton\`, from each machine's PATH, not an install of this machine: a teammate installs Baton ${install} and their sessions are followed; without it, a session start there says so and records nothing.`,
    );
    expect(r.stdout).toContain(
      `\`baton\` is not on this machine's PATH, so what the committed files run does not run here either: install Baton ${install}.`,
    );
    const changes = (await baton(['init', '--shared', '--agent', 'all', '--json'])).json<{
      changes: { what: string; path: string; command: string; committed: boolean }[];
    }>().changes;
    expect(changes.filter((c) => c.what !== 'git-exclude').every((c) => c.committed)).toBe(true);
    expect(changes.find((c) => c.path.endsWith('.mcp.json'))?.command).toBe('baton mcp');
    // and doctor: the committed hooks find no `baton` here
    const doctor = (await baton(['doctor', '--json'])).json<{ problems: string[] }>();
    expect(doctor.problems).toContainEqual(
      `Claude Code hooks in ${join(repo, '.claude', 'settings.json')} (committed with the repository) run "baton hook SessionStart", which is not found on this machine: install Baton ${install}, as each teammate does`,
    );
  });

  it('--shared after the default takes the exclude lines of the set-up it replaces; one of the user says what git ignores', async () => {
    const { repo, baton } = setup();
    expect((await baton(['init', '--agent', 'codex'])).code).toBe(0);
    const shared = await baton(['init', '--shared', '--agent', 'codex']);
    expect(shared.stdout).toMatch(/\.codex\/hooks\.json: removed \(replaced by the --shared set-up\)/);
    expect(shared.stdout).not.toContain('git ignores');
    // a line of the user's own keeps a committed file out of git: said, with what to do
    writeFileSync(join(repo, '.gitignore'), 'AGENTS.md\n');
    const again = await baton(['init', '--shared', '--agent', 'codex']);
    expect(again.stdout).toContain(
      'git ignores AGENTS.md (a line of .git/info/exclude or a .gitignore): not committed until that line goes.',
    );
  });

  it("a teammate's session start without Baton says what to install (once, exit 0); with Baton the hook runs it", async () => {
    const { repo, env, bare, withBaton, baton } = setup();
    expect((await baton(['init', '--shared', '--agent', 'all'])).code).toBe(0);
    const start = { session_id: 's1', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' };
    for (const [file, shown, shell] of [
      [join(repo, '.claude', 'settings.json'), '.claude/settings.json', '/bin/sh'],
      [join(repo, '.codex', 'hooks.json'), '.codex/hooks.json', '/bin/sh'],
      [join(repo, '.codex', 'hooks.json'), '.codex/hooks.json', fish],
    ] as const) {
      const missing = runHook(hookOf(file, 'SessionStart'), repo, { ...env, PATH: bare }, start, shell);
      expect(missing.code, missing.stderr).toBe(0);
      expect(JSON.parse(missing.stdout)).toEqual({
        systemMessage: `Baton: this repository has hooks that follow sessions (${shown}), but \`baton\` is not installed on this machine, so this session is not recorded: install it ${install}, with Node.js 20.19 or newer; removed Baton on purpose? delete the hooks running \`baton\` from ${shown} (or, Baton installed, run \`baton init --undo --shared\`, which takes out the rest of its set-up too)`,
      });
      // every other event ends quietly: the session start said it
      const stop = runHook(
        hookOf(file, 'Stop'),
        repo,
        { ...env, PATH: bare },
        { ...start, hook_event_name: 'Stop' },
        shell,
      );
      expect([stop.code, stop.stdout, stop.stderr]).toEqual([0, '', '']);
    }
    // the same command unguarded is what the agent would show at every event
    expect(runHook('baton hook Stop', repo, { ...env, PATH: bare }, start).code).toBe(127);
    // a `baton` that is there but fails is a failing hook the agent shows, never taken for a missing one
    const broken = tempDir('baton-broken-bin-');
    writeFileSync(join(broken, 'baton'), '#!/bin/sh\necho "baton: broken install" >&2\nexit 3\n', {
      mode: 0o755,
    });
    for (const [file, shell] of [
      [join(repo, '.claude', 'settings.json'), '/bin/sh'],
      [join(repo, '.codex', 'hooks.json'), fish],
    ] as const) {
      const failed = runHook(
        hookOf(file, 'SessionStart'),
        repo,
        { ...env, PATH: `${broken}:${bare}` },
        start,
        shell,
      );
      expect([failed.code, failed.stdout, failed.stderr]).toEqual([3, '', 'baton: broken install\n']);
    }
    // with Baton installed, the committed hook runs it: the session is followed
    const ran = runHook(
      hookOf(join(repo, '.claude', 'settings.json'), 'SessionStart'),
      repo,
      { ...env, PATH: withBaton },
      start,
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout).hookSpecificOutput.additionalContext).toMatch(
      /^Baton is following this Claude Code session/,
    );
    // and Codex's, in a fish user's `$SHELL`: the Stop runs Baton (its note on stderr)
    const codexStop = runHook(
      hookOf(join(repo, '.codex', 'hooks.json'), 'Stop'),
      repo,
      { ...env, PATH: withBaton },
      { ...start, session_id: 's2', hook_event_name: 'Stop' },
      fish,
    );
    expect(codexStop.code, codexStop.stderr).toBe(0);
    expect(codexStop.stderr).toMatch(/^baton: Stop: /);
    const doctor = (await baton(['doctor', '--json'], withBaton)).json<{
      problems: string[];
      last_hooks: { agent: string; event: string; outcome: string }[];
    }>();
    expect(doctor.last_hooks.map((h) => [h.agent, h.event, h.outcome])).toEqual([
      ['codex', 'Stop', expect.any(String)],
      ['claude-code', 'SessionStart', 'ok'],
    ]);
    expect(doctor.problems.filter((p) => /committed with the repository/.test(p))).toEqual([]);
  });

  it("the default keeps this machine's path in its personal files, and names `baton` in a file git tracks", async () => {
    const { repo, baton } = setup();
    writeFileSync(join(repo, 'CLAUDE.md'), '# Rules\n');
    mkdirSync(join(repo, '.codex'));
    writeFileSync(join(repo, '.codex', 'hooks.json'), JSON.stringify({ hooks: {} }));
    gitIn(repo, 'add', 'CLAUDE.md', '.codex/hooks.json');
    gitIn(repo, 'commit', '-qm', 'team files');
    const r = await baton(['init', '--agent', 'all']);
    expect(r.code, r.stderr).toBe(0);
    expect(hookOf(join(repo, '.claude', 'settings.local.json'), 'Stop')).toBe(`${machine} hook Stop`);
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toContain(`- \`${machine} task add`);
    expect(hookOf(join(repo, '.codex', 'hooks.json'), 'Stop')).toMatch(
      /^command -v baton .* && exec baton hook Stop --agent codex; cat >\/dev\/null$/,
    );
    expect(readFileSync(join(repo, 'CLAUDE.md'), 'utf8')).toContain('- `baton task add');
    expect(r.stdout).toContain(
      `Hooks run: ${machine} hook "<Event>" (Claude Code), baton hook "<Event>" (Codex) (with --agent codex for Codex)`,
    );
    expect(r.stdout).toContain(
      'Committed with the repository: CLAUDE.md, .codex/hooks.json. They name `baton`',
    );
    expect(r.stdout).toContain(
      ".claude/settings.local.json, AGENTS.md are this machine's own (not committed): a teammate runs `baton init` in their clone.",
    );
    // undone, the committed files are as they were, byte for byte: nothing for the team to see in a diff
    expect(gitIn(repo, 'status', '--porcelain', '--untracked-files=no')).not.toBe('');
    expect((await baton(['init', '--undo'])).code).toBe(0);
    expect(gitIn(repo, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(readFileSync(join(repo, '.codex', 'hooks.json'), 'utf8')).toBe('{"hooks":{}}');
    // nothing committed: the teammate's way is said alone
    const plain = setup();
    const alone = await plain.baton(['init', '--agent', 'claude-code']);
    expect(alone.stdout).toContain(
      ".claude/settings.local.json, CLAUDE.md are this machine's own (not committed): a teammate runs `baton init` in their clone (or use --shared for settings committed for everyone).",
    );
    expect(alone.stdout).not.toContain('Committed with the repository');
  });

  it("--command is the user's choice, said to name a path of this machine; doctor names such paths in committed files", async () => {
    const { repo, baton } = setup();
    const r = await baton(['init', '--shared', '--agent', 'claude-code', '--command', machine]);
    expect(r.code, r.stderr).toBe(0);
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '-qm', 'Baton for the team');
    expect(hookOf(join(repo, '.claude', 'settings.json'), 'Stop')).toMatch(
      /^command -v \S+ .* && exec \S+ \S+ hook Stop; cat >\/dev\/null$/,
    );
    expect(r.stdout).toContain(
      `Committed with the repository: .claude/settings.json, .mcp.json, CLAUDE.md. They run \`${machine}\` (--command), and ${machine} are paths of this machine: a teammate's clone runs it only where Baton is installed at the same place (without --command, \`baton\` from each machine's PATH).`,
    );
    const problems = async () => (await baton(['doctor', '--json'])).json<{ problems: string[] }>().problems;
    const paths = `${machine} are paths of this machine, which a teammate's clone does not have (unless Baton is there on every machine)`;
    expect((await problems()).filter((p) => /path of this machine|paths of this machine/.test(p))).toEqual([
      `Claude Code hooks in ${join(repo, '.claude', 'settings.json')} run "${machine} hook SessionStart" (committed with the repository): ${paths}: run \`baton init --shared\` again, which names \`baton\` there, from each machine's PATH`,
      `Claude Code's MCP server in ${join(repo, '.mcp.json')} runs "${machine} mcp --agent claude-code" (committed with the repository): ${paths}: run \`baton init --shared\` again, which names \`baton\` there, from each machine's PATH`,
      `the Baton block of ${join(repo, 'CLAUDE.md')} tells the agent to run "${machine}" (committed with the repository): ${paths}: run \`baton init\` again, which names \`baton\` there, from each machine's PATH`,
    ]);
    // what the doctor says to run puts it right
    expect((await baton(['init', '--shared', '--agent', 'claude-code'])).code).toBe(0);
    expect((await problems()).filter((p) => /paths? of this machine/.test(p))).toEqual([]);
  });
});

describe("baton init, this machine's own hooks files", () => {
  it('name `baton` found on the PATH, and where the agent runs hooks with another PATH a session start says so and what to run', async () => {
    const { repo, env, bare, withBaton, baton } = setup();
    expect((await baton(['init', '--agent', 'all'], withBaton)).code).toBe(0);
    const start = { session_id: 's1', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' };
    for (const [file, shown, agent] of [
      [join(repo, '.claude', 'settings.local.json'), '.claude/settings.local.json', 'claude-code'],
      [join(repo, '.codex', 'hooks.json'), '.codex/hooks.json', 'codex'],
    ] as const) {
      // an agent started from an IDE or a desktop app: no `baton` on its PATH
      const missing = runHook(hookOf(file, 'SessionStart'), repo, { ...env, PATH: bare }, start);
      expect(missing.code, missing.stderr).toBe(0);
      expect(JSON.parse(missing.stdout)).toEqual({
        systemMessage: `Baton: the hooks in ${shown} run \`baton\`, which is not on the PATH this agent runs them with (one started from an IDE or a desktop app may not have your terminal's), so this session is not recorded: run \`baton init --agent ${agent} --command "${machine}"\` in a terminal, which names Baton by its path; removed Baton on purpose? delete the hooks running \`baton\` from ${shown} (or, Baton installed, run \`baton init --undo\`, which takes out the rest of its set-up too)`,
      });
      // every other event ends quietly: the session start said it
      const stop = runHook(
        hookOf(file, 'Stop'),
        repo,
        { ...env, PATH: bare },
        { ...start, hook_event_name: 'Stop' },
      );
      expect([stop.code, stop.stdout, stop.stderr]).toEqual([0, '', '']);
    }
    // what it says to run names Baton by its path: the hooks then run with any PATH
    const again = await baton(['init', '--agent', 'claude-code', '--command', machine], withBaton);
    expect(again.code, again.stderr).toBe(0);
    const file = join(repo, '.claude', 'settings.local.json');
    expect(hookOf(file, 'SessionStart')).toBe(`${machine} hook SessionStart`);
    const ran = runHook(hookOf(file, 'SessionStart'), repo, { ...env, PATH: bare }, start);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout).hookSpecificOutput.additionalContext).toMatch(
      /^Baton is following this Claude Code session/,
    );
  });
});

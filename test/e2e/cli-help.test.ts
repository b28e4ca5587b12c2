import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { allModules, COMMANDS, GROUPS, registerModules } from '../../src/cli/command-table.js';
import { nearestCommands } from '../../src/cli/help.js';
import { Runtime } from '../../src/cli/runtime.js';
import { PACKAGE_VERSION } from '../../src/config/package-info.js';
import { SETTINGS } from '../../src/config/setting-table.js';
import { batonBin, runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { hermeticEnv } from '../helpers/hermetic-env.js';

const repo = makeRepo('baton-help-');
const home = tempDir('baton-help-home-');
const baton = (...args: string[]) => runCli(args, { cwd: repo, env: { BATON_HOME: home, BATON_URL: '' } });
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/**
 * The files of code a `baton` process reads (Baton's chunks, the packages it requires), seen by a script loaded before
 * it (NODE_OPTIONS=--require) that says on stderr each file read whole: how both Node.js's CommonJS loader and Baton's
 * compile cache (bin/compile-cache.cjs, off here) read a module.
 */
function loadedBy(cwd: string, ...args: string[]): string[] {
  const watch = join(home, 'read-watch.cjs');
  writeFileSync(
    watch,
    `const fs = require('node:fs');
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (typeof file === 'string' && /\\.(c?js|json|node)$/.test(file)) process.stderr.write('LOADED ' + file + '\\n');
  return read.call(this, file, ...rest);
};
`,
  );
  const r = spawnSync(process.execPath, ['--require', watch, batonBin, ...args], {
    cwd,
    env: hermeticEnv({ BATON_HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' }),
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return [...r.stderr.matchAll(/^LOADED (.*)$/gm)].map((m) => m[1]!);
}

describe('the command table', () => {
  it('lists exactly the commands the modules register, each in a group with an example', async () => {
    const program = new Command('baton');
    await registerModules(program, new Runtime({ out: () => {}, err: () => {} }, repo, {}), allModules());
    expect(program.commands.map((c) => c.name()).sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const { example } of Object.values(GROUPS))
      expect(Object.keys(COMMANDS)).toContain(example.split(' ')[1]);
  });

  it('says what each command and subcommand does, and docs/cli.md names every one', async () => {
    const program = new Command('baton');
    await registerModules(program, new Runtime({ out: () => {}, err: () => {} }, repo, {}), allModules());
    const doc = readFileSync(fileURLToPath(new URL('../../docs/cli.md', import.meta.url)), 'utf8').replace(
      /\\\|/g,
      '|',
    );
    // a command as cli.md writes it in code: `baton task start|done ID`, `baton import [auto|codex] FILE`
    const named = (words: string) => new RegExp(`\`(baton )?${words}\\b`).test(doc);
    const missing: string[] = [];
    for (const c of program.commands) {
      if (!c.description()) missing.push(`${c.name()}: no description`);
      if (!named(c.name())) missing.push(`${c.name()}: not in docs/cli.md`);
      for (const s of c.commands.filter((s) => s.name() !== 'help')) {
        if (!s.description()) missing.push(`${c.name()} ${s.name()}: no description`);
        if (!named(`${c.name()} \\[?([a-z-]+\\|)*${s.name()}`))
          missing.push(`${c.name()} ${s.name()}: not in docs/cli.md`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("docs/cli.md names every option of each command, beside the command's name or in a settings table", async () => {
    const program = new Command('baton');
    await registerModules(program, new Runtime({ out: () => {}, err: () => {} }, repo, {}), allModules());
    const doc = readFileSync(fileURLToPath(new URL('../../docs/cli.md', import.meta.url)), 'utf8').replace(
      /\\\|/g,
      '|',
    );
    // the paragraphs and the table rows: an option is documented in one that names its command
    const blocks = doc.split(/\n\s*\n|\n(?=\|)/);
    // a settings table's row (`| \`--agent-bin\` | BATON_AGENT_BIN | ...`): every command that takes it reads it so
    const settingRows = new Set([...doc.matchAll(/^\| `(--[a-z-]+)`/gm)].map((m) => m[1]!));
    const flag = (long: string) => new RegExp(`${long}(?![a-z-])`);
    const missing: string[] = [];
    const walk = (c: Command, parent: string | null) => {
      const name = parent ? `${parent} ${c.name()}` : c.name();
      // `baton task start|done|...`, `baton import [auto|codex]`: the forms the command table checks above
      const named = new RegExp(
        parent ? `\`baton ${parent} \\[?([a-z-]+\\|)*${c.name()}\\b` : `\`baton ${c.name()}\\b`,
      );
      for (const o of c.options) {
        // -w <id> is every command's, said once at the top of cli.md
        if (!o.long || o.long === '--workflow' || o.long === '--help') continue;
        if (settingRows.has(o.long)) continue;
        if (!blocks.some((b) => named.test(b) && flag(o.long!).test(b))) missing.push(`${name} ${o.long}`);
      }
      for (const s of c.commands) if (s.name() !== 'help') walk(s, name);
    };
    for (const c of program.commands) walk(c, null);
    expect(missing).toEqual([]);
  });

  it("names in a bad setting's error only options a command takes", async () => {
    const program = new Command('baton');
    await registerModules(program, new Runtime({ out: () => {}, err: () => {} }, repo, {}), allModules());
    const taken = new Set<string>();
    const walk = (c: Command) => {
      for (const o of c.options) if (o.long) taken.add(o.long);
      c.commands.forEach(walk);
    };
    walk(program);
    // the global options are the main program's (src/cli/main.ts), not the modules': read from `baton --help`
    for (const [o] of (await baton('--help')).stdout.matchAll(/--[a-z-]+/g)) taken.add(o);
    const named = Object.values(SETTINGS).flatMap((d) => (d.option ? [d.option] : []));
    expect(named.filter((o) => !taken.has(o))).toEqual([]);
    // the message a user reads: BATON_AUTO_TRACK=maybe named `option --auto-track`, which no command takes
    const r = await runCli(['status'], {
      cwd: repo,
      env: { BATON_HOME: home, BATON_URL: '', BATON_AUTO_TRACK: 'maybe' },
    });
    expect(r.stderr).toBe('baton: auto_track "maybe" is not on or off (variable BATON_AUTO_TRACK)\n');
  });

  it('suggests the nearest commands for a mistyped one', () => {
    const names = Object.keys(COMMANDS);
    expect(nearestCommands('stauts', names)).toEqual(['status']);
    expect(nearestCommands('chekpoint', names)).toEqual(['checkpoint']);
    expect(nearestCommands('snap', names)).toEqual(expect.arrayContaining(['snapshot', 'snapshots']));
    expect(nearestCommands('frobnicate', names)).toEqual([]);
  });
});

describe('baton --help and mistakes', () => {
  it('groups the commands, one example per group, in plain words', async () => {
    const r = await baton('--help');
    expect(r.code).toBe(0);
    const titles = Object.values(GROUPS).map((g) => r.stdout.indexOf(`\n${g.title}:\n`));
    expect(titles.every((at) => at > 0)).toBe(true);
    expect([...titles].sort((a, b) => a - b)).toEqual(titles);
    for (const { example } of Object.values(GROUPS)) expect(r.stdout).toContain(`  e.g. ${example}\n`);
    for (const name of Object.keys(COMMANDS)) expect(r.stdout).toMatch(new RegExp(`\\n  ${name}[ \\[<]`));
    expect(r.stdout).not.toMatch(/Go Team|Amelia|Resume Protocol|phase_\d/);
    // a Claude Code or Codex user is told first what to run once: the rest follows by itself
    expect(r.stdout).toMatch(
      /\n\nStart: run `baton init` in your repository once, then work with Claude Code or Codex/,
    );
    expect(r.stdout.indexOf('\n  init [options]')).toBeLessThan(r.stdout.indexOf('\n  create [options]'));
    expect((await baton('help')).stdout).toBe(r.stdout);
  });

  it('answers a mistyped command with the nearest one, not the whole help', async () => {
    const r = await baton('stauts');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe("baton: unknown command 'stauts'. Did you mean 'baton status'?\n");
    const missing = await baton('--home');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "error: option '--home <dir>' argument missing\n(run 'baton --help' for the commands and options)\n",
    );
    const far = await baton('--json', 'frobnicate');
    expect(far.code).toBe(2);
    expect(far.stderr).toBe("baton: unknown command 'frobnicate'. 'baton --help' lists the commands.\n");
  });

  it('answers stop, quit, end and exit with the commands that do that: pause, or abandon for good', async () => {
    for (const word of ['stop', 'quit', 'end', 'exit']) {
      const r = await baton(word);
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toBe(
        `baton: unknown command '${word}'. Did you mean 'baton pause' (resumable) or 'baton abandon' (ends the workflow for good)?\n`,
      );
    }
  });

  it('takes -w written before the command word, as an agent writes `baton -w <id> record ...`', async () => {
    const own = tempDir('baton-help-w-');
    const baton = (...args: string[]) => runCli(args, { cwd: repo, env: { BATON_HOME: own, BATON_URL: '' } });
    const made = await baton('--json', 'create', '--title', 'Before', '--task', 'T1:One');
    expect(made.code, made.stderr).toBe(0);
    const id = (made.json() as { workflow: { id: string } }).workflow.id;
    const rec = await baton(
      '-w',
      id,
      'record',
      'decision',
      '--type',
      'approach',
      '--description',
      'Use a queue',
    );
    expect(rec.code, rec.stderr).toBe(0);
    const shown = await baton('--workflow', id, '--json', 'status');
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.stringify(shown.json())).toContain(id);
    const wrong = await baton('-w', id, 'list');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("unknown option '-w'");
    rmSync(own, { recursive: true, force: true });
  });

  it('takes `baton version` for `baton --version`', async () => {
    const r = await baton('version');
    expect(r).toMatchObject({ code: 0, stdout: `${PACKAGE_VERSION}\n`, stderr: '' });
  });

  it("gives a command's own help, and finds the command after global options and their values", async () => {
    const help = await baton('help', 'status');
    expect(help.stdout).toMatch(/^Usage: baton status \[options\]/);
    expect((await baton('status', '--help')).stdout).toBe(help.stdout);
    const list = await baton('--home', home, '--json', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.json()).toEqual({ workflows: [] });
    expect((await baton('--version')).stdout).toBe(`${PACKAGE_VERSION}\n`);
  });

  it('gives `baton hook --help` its help, not a hook run', async () => {
    const help = await baton('help', 'hook');
    expect(help.stdout).toMatch(/^Usage: baton hook \[options\] <event>/);
    for (const args of [
      ['hook', '--help'],
      ['hook', '-h'],
      ['hook', 'Stop', '--help'],
    ])
      expect(await baton(...args), args.join(' ')).toMatchObject({ code: 0, stdout: help.stdout });
    // an agent's `baton hook` without the event (its payload names it) still runs the hook, which never fails it
    const none = await baton('hook');
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('systemMessage');
  });
});

describe('loading only what a command uses', () => {
  it('baton --version (and baton version) loads no command module, no driver and no schema library', () => {
    for (const word of ['--version', 'version']) {
      const files = loadedBy(repo, word);
      expect(files.some((f) => f.endsWith('/dist/bin/cli.cjs'))).toBe(true);
      expect(files.filter((f) => /commands-|better-sqlite3|zod|core-/.test(f))).toEqual([]);
    }
  });

  it('baton status loads neither the server, MCP, the agent runtime nor the tokenizer', async () => {
    const worktree = makeRepo('baton-help-status-');
    const env = { BATON_HOME: home, BATON_URL: '' };
    expect(
      (await runCli(['create', '--title', 'Lazy', '--task', 'T1:One'], { cwd: worktree, env })).code,
    ).toBe(0);
    const status = loadedBy(worktree, 'status').filter((f) => !f.startsWith('node:'));
    rmSync(worktree, { recursive: true, force: true });
    expect(status.some((f) => f.includes('session-commands-'))).toBe(true);
    expect(
      status.filter((f) =>
        /server|hono|modelcontextprotocol|run-commands|executor-commands|integration-commands|o200k/.test(f),
      ),
    ).toEqual([]);
  });
});

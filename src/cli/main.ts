import { Command, CommanderError } from 'commander';
import { PACKAGE_VERSION } from '../config/package-info.js';
import { allModules, COMMANDS, registerModules, type ModuleName } from './command-table.js';
import { commandWord, valueOptions } from './command-word.js';
import { rootHelp, unknownCommandMessage } from './help.js';
import { processIo, reportError, type Io } from './output.js';
import type { Runtime } from './runtime.js';
import { interpretSchemas } from './short-lived.js';

/** The program with its global options and no commands yet (commands are added by the modules that hold them). */
function rootProgram(io: Io): Command {
  return new Command('baton')
    .description(
      'Keeps long AI coding-agent work alive: a log of what happened, pauses at task boundaries, checkpoints,\n' +
        'recovery after a crash, and a compact resume context for the next agent session.\n\n' +
        'Start: run `baton init` in your repository once, then work with Claude Code or Codex as before: Baton\n' +
        'follows every session, and the next one (after /clear, a compaction, a crash or a new day) picks up the work.\n' +
        '`baton status` shows what it followed.',
    )
    .usage('[options] <command>')
    .version(PACKAGE_VERSION)
    .option('--json', 'print JSON')
    .option('--debug', 'print stack traces on errors')
    .option('--home <dir>', 'Baton home (env BATON_HOME, default ~/.baton)')
    .option('--database <path-or-url>', 'SQLite file or postgres:// URL (env BATON_DATABASE_URL)')
    .option('--durability <mode>', 'full (fsync every commit) | normal (env BATON_DURABILITY)')
    .option(
      '--pause-timeout <duration>',
      'force a requested pause after this long (env BATON_PAUSE_TIMEOUT, default 5m)',
    )
    .option(
      '--stale-after <duration>',
      'warn when resuming a workflow stopped longer (env BATON_STALE_AFTER, default 7d)',
    )
    .option('--server <url>', 'talk to a Baton server instead of the local store (env BATON_URL)')
    .option(
      '--runs-dir <dir>',
      'run folders, absolute or relative to the worktree (env BATON_RUNS_DIR, default .baton/runs)',
    )
    .option(
      '--actor <name>',
      'who acts, in the event log (default: user; baton for run and worker; the agent for its hooks and baton mcp --agent) (env BATON_ACTOR)',
    )
    .option('--mirror <on|off>', 'write the run folder mirror (env BATON_MIRROR, default on)')
    .showHelpAfterError("(run 'baton --help' for the commands and options)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
}

/**
 * `-w <id>` (or `--workflow <id>`, `--workflow=<id>`) written before the command word, as in `baton -w wf-1 record
 * decision ...`, moved to the end, where the command reads it: the commands that name a workflow take `-w`, the
 * root takes none.
 */
export function hoistWorkflowOption(program: Command, argv: string[]): string[] {
  const takesValue = valueOptions(program);
  const moved: string[] = [];
  let i = 0;
  const rest: string[] = [];
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--' || !a.startsWith('-')) break;
    if ((a === '-w' || a === '--workflow') && i + 1 < argv.length) moved.push(a, argv[++i]!);
    else if (a.startsWith('--workflow=')) moved.push(a);
    else {
      rest.push(a);
      if (takesValue.has(a) && i + 1 < argv.length) rest.push(argv[++i]!);
    }
  }
  if (moved.length === 0) return argv;
  const tail = argv.slice(i);
  const dashes = tail.indexOf('--');
  return dashes < 0
    ? [...rest, ...tail, ...moved]
    : [...rest, ...tail.slice(0, dashes), ...moved, ...tail.slice(dashes)];
}

/** The modules a command line needs: its command's, every one for the full help, none for --version. */
function modulesFor(program: Command, argv: string[]): ModuleName[] | { unknown: string } {
  const found = commandWord(program, argv);
  if (!found) return argv.includes('-V') || argv.includes('--version') ? [] : allModules();
  let { word } = found;
  if (word === 'help') {
    const next = argv[found.at + 1];
    if (next === undefined || next === 'help') return allModules();
    word = next;
  }
  const entry = COMMANDS[word];
  return entry ? [entry.module] : { unknown: word };
}

/** Subcommands report usage errors the same way as the root (exit code 2, no process.exit). */
function propagate(cmd: Command) {
  cmd.exitOverride().showHelpAfterError();
  cmd.configureOutput(cmd.parent?.configureOutput() ?? {});
  for (const c of cmd.commands) propagate(c);
}

/** Runs the CLI and returns the exit code: 0 ok, 1 error, 2 usage or ambiguous, 3 conflict. */
export async function main(
  argv: string[],
  io: Io = processIo,
  cwd = process.cwd(),
  env = process.env,
): Promise<number> {
  const program = rootProgram(io);
  argv = hoistWorkflowOption(program, argv);
  // `baton version` is the word people try for `baton --version`
  const asked = commandWord(program, argv);
  if (asked?.word === 'version') argv = argv.map((a, i) => (i === asked.at ? '--version' : a));
  const flags = { json: argv.includes('--json'), debug: argv.includes('--debug') };
  let rt: Runtime | null = null;
  try {
    const needed = modulesFor(program, argv);
    if (!Array.isArray(needed)) {
      io.err(unknownCommandMessage(needed.unknown));
      return 2;
    }
    if (needed.length > 0) {
      const word = commandWord(program, argv)?.word;
      if (!(word && COMMANDS[word]?.lasting)) await interpretSchemas();
      const { Runtime } = await import('./runtime.js');
      rt = new Runtime(io, cwd, env);
      await registerModules(program, rt, needed);
      for (const c of program.commands) propagate(c);
      program.configureHelp({ formatHelp: rootHelp });
    }
    await program.parseAsync(argv, { from: 'user' });
    return rt?.exitCode ?? 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.code === 'commander.helpDisplayed' ||
        e.code === 'commander.version' ||
        e.code === 'commander.help'
        ? 0
        : 2;
    }
    return reportError(io, e, flags);
  } finally {
    await rt?.close().catch(() => undefined);
  }
}

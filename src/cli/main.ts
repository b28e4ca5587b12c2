import { Command, CommanderError } from 'commander';
import { registerHookCommands, registerIntegrationCommands } from './commands/integration-commands.js';
import { registerImportCommand } from './commands/import-command.js';
import { registerInitCommands } from './commands/init-commands.js';
import { registerDiskCommands } from './commands/disk-commands.js';
import { registerRecordCommands } from './commands/record-commands.js';
import { registerRunCommands } from './commands/run-commands.js';
import { registerServerCommands } from './commands/server-commands.js';
import { registerSessionCommands } from './commands/session-commands.js';
import { registerTaskCommands } from './commands/task-commands.js';
import { registerWorkflowCommands } from './commands/workflow-commands.js';
import { processIo, reportError, type Io } from './output.js';
import { Runtime } from './runtime.js';

export function buildProgram(rt: Runtime): Command {
  const program = new Command('baton')
    .description(
      'Keeps long AI coding-agent workflows alive: event log, task-boundary pauses, snapshots, checkpoints and resume context.',
    )
    .version('0.1.0')
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
      'who acts, in the event log: user, orchestrator, session-<n>, executor-<id> (env BATON_ACTOR)',
    )
    .option('--mirror <on|off>', 'write the run folder mirror (env BATON_MIRROR, default on)')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => rt.io.out(s), writeErr: (s) => rt.io.err(s) });
  registerWorkflowCommands(program, rt);
  registerTaskCommands(program, rt);
  registerRecordCommands(program, rt);
  registerSessionCommands(program, rt);
  registerIntegrationCommands(program, rt);
  registerHookCommands(program, rt);
  registerInitCommands(program, rt);
  registerImportCommand(program, rt);
  registerServerCommands(program, rt);
  registerDiskCommands(program, rt);
  registerRunCommands(program, rt);
  for (const c of program.commands) propagate(c);
  return program;
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
  const rt = new Runtime(io, cwd, env);
  const program = buildProgram(rt);
  const flags = { json: argv.includes('--json'), debug: argv.includes('--debug') };
  try {
    await program.parseAsync(argv, { from: 'user' });
    return rt.exitCode;
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
    await rt.close().catch(() => undefined);
  }
}

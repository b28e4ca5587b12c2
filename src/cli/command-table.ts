import type { Command } from 'commander';
import type { Runtime } from './runtime.js';

/** Adds one module's commands to the program. */
export type Register = (program: Command, rt: Runtime) => void;

/**
 * The command modules, each imported only when one of its commands runs (or for `baton --help`), so a command
 * loads what it uses and nothing else: `baton --version` loads none, `baton status` never loads the server, the MCP
 * SDK or the agent runtime. To add a command: register it in a module below (or a new one) and list its name in
 * COMMANDS; test/e2e/cli-help.test.ts fails when a registered command is missing here or the other way round.
 */
const modules = {
  workflow: () => import('./commands/workflow-commands.js').then((m) => m.registerWorkflowCommands),
  task: () => import('./commands/task-commands.js').then((m) => m.registerTaskCommands),
  record: () => import('./commands/record-commands.js').then((m) => m.registerRecordCommands),
  session: () => import('./commands/session-commands.js').then((m) => m.registerSessionCommands),
  mcp: () => import('./commands/integration-commands.js').then((m) => m.registerIntegrationCommands),
  hooks: () => import('./commands/integration-commands.js').then((m) => m.registerHookCommands),
  init: () => import('./commands/init-commands.js').then((m) => m.registerInitCommands),
  import: () => import('./commands/import-command.js').then((m) => m.registerImportCommand),
  server: () => import('./commands/server-commands.js').then((m) => m.registerServerCommands),
  disk: () => import('./commands/disk-commands.js').then((m) => m.registerDiskCommands),
  run: () => import('./commands/run-commands.js').then((m) => m.registerRunCommands),
  executor: () => import('./commands/executor-commands.js').then((m) => m.registerExecutorCommands),
  worker: () => import('./commands/worker-commands.js').then((m) => m.registerWorkerCommands),
} satisfies Record<string, () => Promise<Register>>;

export type ModuleName = keyof typeof modules;

/** The groups of `baton --help`, in order, each with one example. */
export const GROUPS = {
  // first: what a Claude Code or Codex user runs once, and then works as before
  integrate: { title: 'Follow your agents (start here)', example: 'baton init' },
  track: {
    title: 'Track work',
    example: 'baton create --title "Add login" --task "T1:Write schema" --task "T2:Implement API:T1"',
  },
  agents: { title: 'Run agents', example: 'baton run --agent claude-code' },
  recover: { title: 'Recover', example: 'baton recover --option checkpoint' },
  serve: { title: 'Serve the API and dashboard', example: 'baton serve --port 7420' },
  maintain: { title: 'Maintain', example: 'baton cleanup --older-than 30d' },
} as const;

export type GroupName = keyof typeof GROUPS;

/** Every top-level command: its help group, the module that registers it, and whether it runs until stopped. */
export const COMMANDS: Record<string, { group: GroupName; module: ModuleName; lasting?: true }> = {
  create: { group: 'track', module: 'workflow' },
  status: { group: 'track', module: 'session' },
  task: { group: 'track', module: 'task' },
  record: { group: 'track', module: 'record' },
  pause: { group: 'track', module: 'session' },
  resume: { group: 'track', module: 'session' },
  context: { group: 'track', module: 'session' },
  ack: { group: 'track', module: 'session' },
  show: { group: 'track', module: 'workflow' },
  list: { group: 'track', module: 'workflow' },
  sessions: { group: 'track', module: 'workflow' },
  'session-info': { group: 'track', module: 'disk' },
  run: { group: 'agents', module: 'run', lasting: true },
  'session-status': { group: 'agents', module: 'server' },
  executors: { group: 'agents', module: 'executor' },
  executor: { group: 'agents', module: 'executor', lasting: true },
  submit: { group: 'agents', module: 'worker' },
  queue: { group: 'agents', module: 'worker' },
  worker: { group: 'agents', module: 'worker', lasting: true },
  recover: { group: 'recover', module: 'session' },
  interrupt: { group: 'recover', module: 'session' },
  checkpoint: { group: 'recover', module: 'session' },
  checkpoints: { group: 'recover', module: 'session' },
  snapshots: { group: 'recover', module: 'session' },
  snapshot: { group: 'recover', module: 'session' },
  details: { group: 'recover', module: 'session' },
  runs: { group: 'recover', module: 'disk' },
  init: { group: 'integrate', module: 'init' },
  doctor: { group: 'integrate', module: 'init' },
  hook: { group: 'integrate', module: 'hooks' },
  mcp: { group: 'integrate', module: 'mcp', lasting: true },
  import: { group: 'integrate', module: 'import' },
  serve: { group: 'serve', module: 'server', lasting: true },
  token: { group: 'serve', module: 'server' },
  rebuild: { group: 'maintain', module: 'workflow' },
  cleanup: { group: 'maintain', module: 'workflow' },
  abandon: { group: 'maintain', module: 'workflow' },
  complete: { group: 'maintain', module: 'workflow' },
  export: { group: 'maintain', module: 'disk' },
  'import-run': { group: 'maintain', module: 'disk' },
};

/** Imports and registers the modules of these commands (each module once). */
export async function registerModules(program: Command, rt: Runtime, names: ModuleName[]): Promise<void> {
  for (const name of new Set(names)) (await modules[name]())(program, rt);
}

export const allModules = () => Object.keys(modules) as ModuleName[];

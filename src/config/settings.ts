import { homedir } from 'node:os';
import { ACTOR_PATTERN, USER_ACTOR } from '../core/actors.js';
import { databaseProblem } from '../core/database-url.js';
import { join, resolve } from 'node:path';
import type { Durability } from '../storage/store.js';
import { configFiles, type ConfigFile } from './config-files.js';
import { SettingReader } from './setting-reader.js';
import type { SettingName } from './setting-table.js';

/**
 * Baton's settings, each resolved as: explicit option > environment variable > config files > default (the table is
 * src/config/setting-table.ts, the resolver src/config/setting-reader.ts).
 */
export interface Settings {
  home: string;
  database: string;
  durability: Durability;
  pauseTimeoutMs: number;
  staleAfterMs: number;
  contextBudget: number;
  /** The run folders' location: absolute, or relative to each worktree (default `.baton/runs`). */
  runsDir: string | null;
  /** Whether the run folder mirror is written (off for benchmarks). */
  mirror: boolean;
  /**
   * Who the commands act as in the event log: `user` (a person's command, the default), `baton` (Baton driving agents:
   * `baton run`, `baton worker`), the agent's name (`claude-code`, `codex`: its hooks, and the `baton` commands it runs
   * in a task), or a name given (`orchestrator`, `session-<n>`, `executor-<id>`).
   */
  actor: string;
  /** Agent hooks create a workflow in a git worktree that has none (`auto_track`, default on). */
  autoTrack: boolean;
  /** Hooks make a checkpoint at most this often, and only after real work (default 10 minutes). */
  checkpointIntervalMs: number;
  /** The most characters a hook injects as the agent's context (default 9,000: Claude Code previews longer text). */
  injectMaxChars: number;
  /** The config files the settings were read from, in lookup order: every later setting is read from the same. */
  configFiles: ConfigFile[];
}

export type SettingOptions = Partial<
  Record<
    | 'home'
    | 'database'
    | 'durability'
    | 'pauseTimeout'
    | 'staleAfter'
    | 'contextBudget'
    | 'runsDir'
    | 'mirror'
    | 'actor',
    string
  >
>;

/** Baton's home: `--home`, else `BATON_HOME`, else `~/.baton`. */
export function batonHome(option: string | undefined, env: NodeJS.ProcessEnv): string {
  return resolve(option ?? (env.BATON_HOME || join(homedir(), '.baton')));
}

/** The one settings resolver for these options and this environment, over the config files of `settings`. */
export function settingReader(
  options: Partial<Record<SettingName, string | undefined>>,
  env: NodeJS.ProcessEnv,
  settings: Pick<Settings, 'configFiles'>,
): SettingReader {
  return new SettingReader(options, env, settings.configFiles);
}

/**
 * The store's and the commands' settings, each the option, else the variable, else the config files (the worktree's
 * `baton.config.json` found from `cwd`, then `$BATON_HOME/config.json`), else the default.
 */
export function loadSettings(
  options: SettingOptions = {},
  env: NodeJS.ProcessEnv = process.env,
  cwd: string | null = null,
  /** Who acts when no actor is given: the process's own kind (`baton` driving agents, an agent's hook). */
  defaults: { actor?: string } = {},
): Settings {
  const home = batonHome(options.home, env);
  const files = configFiles(home, cwd);
  const r = new SettingReader(options, env, files);
  const actor = r.text('actor', defaults.actor ?? USER_ACTOR);
  if (!ACTOR_PATTERN.test(actor))
    throw r.invalid('actor', 'must be letters, digits, ".", "_" or "-" (e.g. session-3)');
  const database = r.text('database');
  const wrong = database === undefined ? null : databaseProblem(database);
  if (wrong) throw r.invalid('database', wrong);
  return {
    home,
    database: database ?? join(home, 'baton.db'),
    durability: r.oneOf('durability', ['full', 'normal'] as const, 'full'),
    pauseTimeoutMs: r.durationMs('pauseTimeout', '5m'),
    staleAfterMs: r.durationMs('staleAfter', '7d'),
    contextBudget: r.integer('contextBudget', 4000, 200, 1_000_000, 'tokens'),
    runsDir: r.text('runsDir') || null,
    mirror: r.onOff('mirror', true),
    actor,
    autoTrack: r.onOff('autoTrack', true),
    checkpointIntervalMs: r.durationMs('checkpointInterval', '10m'),
    injectMaxChars: r.integer('injectMaxChars', 9000, 1000, 1_000_000, 'characters'),
    configFiles: files,
  };
}

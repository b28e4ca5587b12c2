import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { invalidInput, parseDuration } from '../core/index.js';
import type { Durability } from '../storage/store.js';

/**
 * Baton's settings, each resolved as: explicit option > environment variable > config file > default.
 * The config file is `baton.config.json` in the worktree, else `$BATON_HOME/config.json`.
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
  /** Who the commands act as in the event log: `user` (default), `orchestrator`, `session-<n>`, `executor-<id>`. */
  actor: string;
  /** Where `baton run` and `baton serve` run agents: `local` (default), `remote`, `docker`. */
  executor: ExecutorKind;
  /** The image of the Docker executor's containers (node 20+ at /usr/bin/node and /usr/bin/env). */
  dockerImage: string | null;
}

export const executorKinds = ['local', 'remote', 'docker'] as const;
export type ExecutorKind = (typeof executorKinds)[number];

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
    | 'actor'
    | 'executor'
    | 'dockerImage',
    string
  >
>;

const FileConfig = z
  .object({
    database: z.string().optional(),
    durability: z.enum(['full', 'normal']).optional(),
    pause_timeout: z.string().optional(),
    stale_after: z.string().optional(),
    context_budget: z.union([z.number(), z.string()]).optional(),
    runs_dir: z.string().optional(),
    mirror: z.union([z.boolean(), z.enum(['on', 'off'])]).optional(),
    actor: z.string().optional(),
    executor: z.enum(executorKinds).optional(),
    docker_image: z.string().optional(),
  })
  .passthrough();
type FileConfig = z.infer<typeof FileConfig>;

const names = {
  database: ['--database', 'BATON_DATABASE_URL', 'database'],
  durability: ['--durability', 'BATON_DURABILITY', 'durability'],
  pauseTimeout: ['--pause-timeout', 'BATON_PAUSE_TIMEOUT', 'pause_timeout'],
  staleAfter: ['--stale-after', 'BATON_STALE_AFTER', 'stale_after'],
  contextBudget: ['--budget', 'BATON_CONTEXT_BUDGET', 'context_budget'],
  runsDir: ['--runs-dir', 'BATON_RUNS_DIR', 'runs_dir'],
  mirror: ['--mirror', 'BATON_MIRROR', 'mirror'],
  actor: ['--actor', 'BATON_ACTOR', 'actor'],
  executor: ['--executor', 'BATON_EXECUTOR', 'executor'],
  dockerImage: ['--docker-image', 'BATON_DOCKER_IMAGE', 'docker_image'],
} as const;

export function readConfigFile(path: string): FileConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw invalidInput(`cannot read the config file ${path}: ${(e as Error).message}`);
  }
  const parsed = FileConfig.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidInput(`config file ${path}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data;
}

function budget(text: string | undefined): number {
  if (text === undefined) return 4000;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 200 || n > 1_000_000) {
    throw invalidInput(
      `context budget "${text}" must be a whole number of tokens from 200 to 1000000 (option --budget, variable BATON_CONTEXT_BUDGET)`,
    );
  }
  return n;
}

function onOff(text: string | undefined): boolean {
  if (text === undefined || ['on', 'true'].includes(text)) return true;
  if (['off', 'false'].includes(text)) return false;
  throw invalidInput(`mirror "${text}" is not on or off (option --mirror, variable BATON_MIRROR)`);
}

function executorKind(text: string | undefined): ExecutorKind {
  if (text === undefined) return 'local';
  if ((executorKinds as readonly string[]).includes(text)) return text as ExecutorKind;
  throw invalidInput(
    `executor "${text}" is not local, remote or docker (option --executor, variable BATON_EXECUTOR, config executor)`,
  );
}

function actorName(text: string | undefined): string {
  if (text === undefined) return 'user';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(text))
    throw invalidInput(
      `actor "${text}" must be letters, digits, ".", "_" or "-" (e.g. session-3) (option --actor, variable BATON_ACTOR)`,
    );
  return text;
}

export function loadSettings(
  options: SettingOptions = {},
  env: NodeJS.ProcessEnv = process.env,
  worktree?: string,
): Settings {
  const home = resolve(options.home ?? env.BATON_HOME ?? join(homedir(), '.baton'));
  const local = worktree ? join(worktree, 'baton.config.json') : null;
  const file =
    local && existsSync(local)
      ? local
      : existsSync(join(home, 'config.json'))
        ? join(home, 'config.json')
        : null;
  const config = file ? readConfigFile(file) : {};
  const pick = (key: keyof typeof names): string | undefined => {
    const [, envName, fileKey] = names[key];
    const fromFile = config[fileKey];
    return options[key] ?? env[envName] ?? (fromFile === undefined ? undefined : String(fromFile));
  };
  const durability = pick('durability') ?? 'full';
  if (durability !== 'full' && durability !== 'normal') {
    throw invalidInput(
      `durability "${durability}" is not full or normal (option --durability, variable BATON_DURABILITY)`,
    );
  }
  const duration = (key: 'pauseTimeout' | 'staleAfter', fallback: string) => {
    const [flag, envName] = names[key];
    return parseDuration(pick(key) ?? fallback, `${flag} / ${envName}`);
  };
  return {
    home,
    database: pick('database') ?? join(home, 'baton.db'),
    durability,
    pauseTimeoutMs: duration('pauseTimeout', '5m'),
    staleAfterMs: duration('staleAfter', '7d'),
    contextBudget: budget(pick('contextBudget')),
    runsDir: pick('runsDir') || null,
    mirror: onOff(pick('mirror')),
    actor: actorName(pick('actor')),
    executor: executorKind(pick('executor')),
    dockerImage: pick('dockerImage')?.trim() || null,
  };
}

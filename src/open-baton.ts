import type { BatonClient } from './client/baton-client.js';
import { HttpClient, REQUEST_TIMEOUT_MS } from './client/http-client.js';
import { LocalClient } from './client/local-client.js';
import { capacityPolicy } from './config/capacity-policy.js';
import { loadSettings, settingReader, type Settings } from './config/settings.js';
import { serverUrlProblem } from './core/database-url.js';
import { readToken, tokenPath } from './config/token-file.js';
import { DiskMirror, runsDirFor, TaskLogFiles } from './disk/index.js';
import { executorFactory, releaseByRuntime } from './executors/executor-factory.js';
import { localProcessPorts } from './executors/local/process-ports.js';
import * as git from './git/git.js';
import { conversationOpen, openSessionGone } from './integrations/hooks/gone-agents.js';
import { BatonService, type ServiceOptions } from './service/index.js';
import { ownerJudge } from './service/their-checkout.js';
import { openStore } from './storage/open-store.js';
import type { Durability } from './storage/store.js';
import { countTokens } from './tokens/count-tokens.js';

export interface LocalService {
  service: BatonService;
  /** The run-folder mirror, when settings.mirror is on: `flush()` waits for the files queued so far. */
  mirror: DiskMirror | null;
}

/**
 * What a caller may set on the recipe: a caller that touches little (a hook) scopes the mirror catch-up and the
 * tokenizer; the CLI passes its environment (executor tokens), `baton run` its `--warn-at` and `--pause-at`.
 */
export interface LocalServiceScope {
  /** Catch up only this worktree's run folders (a hook touches nothing else). */
  worktree?: string;
  /** false: count about four characters a token (what a character limit needs), never loading the vocabulary. */
  exactTokens?: boolean;
  /** Where BATON_EXECUTOR_TOKEN is read from, to stop a crashed driver's remote agent (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The context thresholds (default: warn_at and pause_at from the settings). */
  capacity?: ServiceOptions['capacity'];
  /** How to remove what Baton created for a finished session (default: by its runtime; a Docker container removed). */
  releaseExecutor?: ServiceOptions['releaseExecutor'];
  /** A PostgreSQL store that does not answer a first connection within this is given up on (a hook after a hung one). */
  storeAnswerWithinMs?: number;
  /** No write waits for another process's SQLite write lock past this time (Date.now()): a hook's budget. */
  storeWaitUntil?: number;
}

/** A run folder left behind the database, and what becomes of it: the database is whole, the next write tries again. */
const cannotWrite = (id: string, error: string) =>
  `baton: warning: cannot write the run folder of ${id}: ${error} (the database holds all of it; each later commit or command tries again; \`--mirror off\` writes no run folder)`;

/**
 * The service on the local store with every adapter (git, the tokenizer, the task logs of `baton run`) and the
 * run-folder mirror, which first catches up the folders that lag the database. The one recipe of the CLI (`baton
 * run` and `baton serve` included) and the library; `warn` gets the lines a person should see (a folder ahead of
 * the database, a folder that cannot be written, a crashed driver handled, a write waiting for another process's
 * SQLite write lock).
 */
export async function openLocalService(
  settings: Settings,
  warn: (line: string) => void,
  scope: LocalServiceScope = {},
): Promise<LocalService> {
  const env = scope.env ?? process.env;
  // whose the worktree is (the mirror's catch-up and a session's record ask it; git keeps the answer a few seconds):
  // asked of git now, so that its process runs while the store opens
  const owner = scope.worktree === undefined ? undefined : git.owner(scope.worktree);
  const store = await openStore({
    database: settings.database,
    durability: settings.durability,
    onLockWait: (line) => warn(`baton: ${line}`),
    ...(scope.storeAnswerWithinMs === undefined ? {} : { answerWithinMs: scope.storeAnswerWithinMs }),
    ...(scope.storeWaitUntil === undefined ? {} : { waitUntil: scope.storeWaitUntil }),
  });
  const service = new BatonService(store, git, {
    pauseTimeoutMs: settings.pauseTimeoutMs,
    staleAfterMs: settings.staleAfterMs,
    contextBudget: settings.contextBudget,
    ...(scope.exactTokens === false ? {} : { countTokens }),
    actor: settings.actor,
    logs: new TaskLogFiles(settings.runsDir),
    // loaded only when a crash is recovered: the agents' parsers are no part of an ordinary command's start (read
    // beside the run's errors, whose judgement of a result its last calls share)
    readAgentOutput: async (output, o) =>
      (await import('./integrations/transcripts/run-work.js')).readLostOutput(output, o),
    // loaded when a `baton run` agent run ends: the transcript import's readers (the extraction rules)
    readRunWork: async (output, state, taskId) =>
      (await import('./integrations/transcripts/run-work.js')).readRunWork(output, state, taskId),
    runsDirOf: (worktree) => runsDirFor(worktree, settings.runsDir),
    // this machine's hooks saw the agent of a workflow's open session, and its process is gone (no SessionEnd came)
    agentGone: (s) => openSessionGone(settings.home, s),
    conversationOpen: (s) => conversationOpen(settings.home, s),
    capacity: scope.capacity ?? capacityPolicy(settingReader({}, env, settings)),
    // Any reader notices a crashed driver (its lease) and handles it as startup recovery does, saying so in one line.
    watch: {
      ports: localProcessPorts(),
      factory: executorFactory(env, settings.home),
      notice: (line) => warn(`baton: ${line}`),
    },
    releaseExecutor: scope.releaseExecutor ?? releaseByRuntime(env, settings.home),
  });
  if (!settings.mirror) return { service, mirror: null };
  const mirror = new DiskMirror(store, {
    runsDir: settings.runsDir,
    now: service.options.now,
    // recovery.json recommends what `baton recover` does: the service's plan, git's facts included
    recoveryPlan: (s) => service.recoveryPlan(s),
    failed: (id, error) => warn(cannotWrite(id, error)),
  });
  mirror.attach(service.runner);
  // a teammate's workflow at the same path (a shared database) is not written into this clone
  const report = await mirror.catchUp(
    scope.worktree && owner
      ? { worktree: scope.worktree, mine: ownerJudge(git, scope.worktree, await owner) }
      : {},
  );
  for (const b of report.behind)
    warn(
      `baton: warning: the database holds workflow ${b.workflow_id} up to event ${b.database_seq} but its run folder ${b.dir} goes to ${b.disk_seq}; the folder is left alone (bring the database up with \`baton rebuild --from-disk <worktree>\`)`,
    );
  for (const r of report.repaired)
    warn(
      `baton: warning: repaired the run folder of ${r.workflow_id} from the database (${r.damage.join('; ')})`,
    );
  for (const f of report.failed) warn(cannotWrite(f.workflow_id, f.error));
  return { service, mirror };
}

/**
 * The client of a Baton server when one is named (the option, else BATON_URL), with its token (the option, else
 * BATON_TOKEN, else `$BATON_HOME/token`); null when commands go to the local store. The CLI and the library both
 * choose this way.
 */
export function serverClient(
  settings: Pick<Settings, 'home' | 'configFiles' | 'actor'>,
  env: NodeJS.ProcessEnv,
  cwd: string,
  server?: string,
  token?: string,
): HttpClient | null {
  const reader = settingReader({ server }, env, settings);
  const url = reader.text('server');
  if (!url) return null;
  const wrong = serverUrlProblem(url);
  if (wrong) throw reader.invalid('server', wrong);
  const sent = serverToken(settings, env, token);
  const timeoutMs = reader.durationMs('requestTimeout', `${REQUEST_TIMEOUT_MS}ms`);
  if (timeoutMs <= 0) throw reader.invalid('requestTimeout', 'must be positive');
  // the server acts as whoever this process would act as on its own database, for the person whose clone `cwd` is
  return new HttpClient(url, sent.token, cwd, sent.from, timeoutMs, settings.actor, () =>
    git.identityAt(cwd),
  );
}

/**
 * The token a client sends to a server (the option, else BATON_TOKEN, else `$BATON_HOME/token`), and where it came
 * from in words, for the refusal of a wrong one: a server's token lives where the server runs.
 */
export function serverToken(
  settings: Pick<Settings, 'home' | 'configFiles'>,
  env: NodeJS.ProcessEnv,
  token?: string,
): { token: string | null; from: string } {
  const given = settingReader({ token }, env, settings).text('token');
  if (given) return { token: given, from: token ? 'the token given' : 'BATON_TOKEN' };
  const file = tokenPath(settings.home);
  const stored = readToken(settings.home);
  return stored
    ? { token: stored, from: `the token in ${file}` }
    : { token: null, from: `no token (BATON_TOKEN is not set, and ${file} does not exist)` };
}

/** Where and how to open Baton; each setting not given is read as the CLI reads it: environment, config file, default. */
export interface OpenBatonOptions {
  /** Baton's home folder (default `$BATON_HOME`, else `~/.baton`): the default database, the config file, the token. */
  home?: string;
  /** A SQLite file path or a `postgres://` URL (default `$BATON_DATABASE_URL`, else `<home>/baton.db`). */
  database?: string;
  /** `full` (default) fsyncs every commit; `normal` survives a crash of the process, not of the machine. */
  durability?: Durability;
  /** How long a requested pause waits for the task boundary before it is forced, e.g. `5m` (the default). */
  pauseTimeout?: string;
  /** Resuming a workflow stopped longer than this warns that it is stale, e.g. `7d` (the default). */
  staleAfter?: string;
  /** The resume context's token budget (default 4,000). */
  contextBudget?: number;
  /** Where run folders go: absolute, or relative to each worktree (default `.baton/runs`). */
  runsDir?: string;
  /** Whether run folders are written beside the work (default true). */
  mirror?: boolean;
  /** Who acts, in the event log (default `user`): `orchestrator`, `session-<n>`, `executor-<id>`... */
  actor?: string;
  /** A Baton server's URL (default `$BATON_URL`): the client then calls its API instead of opening a database. */
  server?: string;
  /** The server's bearer token (default `$BATON_TOKEN`, else the token file under `home`). */
  token?: string;
  /** The directory whose git worktree "the current workflow" means, over HTTP (default `process.cwd()`). */
  cwd?: string;
  /** The environment the settings are read from (default `process.env`; pass `{}` to ignore it). */
  env?: NodeJS.ProcessEnv;
  /** Where warnings go (default: standard error). */
  warn?: (line: string) => void;
}

/**
 * A BatonClient, as the CLI opens one: over HTTP when a server is named, else on the local database (created and
 * migrated on first use). `await client.close()` when done: it writes the run folders still queued and closes the
 * database.
 */
export async function openBaton(options: OpenBatonOptions = {}): Promise<BatonClient> {
  const env = options.env ?? process.env;
  const settings = loadSettings(
    {
      home: options.home,
      database: options.database,
      durability: options.durability,
      pauseTimeout: options.pauseTimeout,
      staleAfter: options.staleAfter,
      contextBudget: options.contextBudget === undefined ? undefined : String(options.contextBudget),
      runsDir: options.runsDir,
      mirror: options.mirror === undefined ? undefined : options.mirror ? 'on' : 'off',
      actor: options.actor,
    },
    env,
    options.cwd ?? process.cwd(),
  );
  const remote = serverClient(settings, env, options.cwd ?? process.cwd(), options.server, options.token);
  if (remote) return remote;
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { service, mirror } = await openLocalService(settings, warn, { env });
  return new LocalClient(service, async () => {
    await mirror?.flush();
    await service.close();
  });
}

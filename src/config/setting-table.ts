/** One setting: the command-line option, the environment variable and the config file key that may give it. */
export interface SettingDef {
  /** What the setting is, in messages ("port", "context budget"). */
  label: string;
  /** The command-line option; null when only the variable (and perhaps a file) can give it. */
  option: string | null;
  variable: string;
  /** The key in `baton.config.json` / `$BATON_HOME/config.json`; null when a file cannot set it. */
  key: string | null;
}

const def = (label: string, option: string | null, variable: string, key: string | null): SettingDef => ({
  label,
  option,
  variable,
  key,
});

/**
 * Every setting Baton reads, in one table. Each is resolved the same way (src/config/setting-reader.ts): option, else
 * variable, else the config files, else the default its reader gives.
 */
export const SETTINGS = {
  // the store and the commands
  database: def('database', '--database', 'BATON_DATABASE_URL', 'database'),
  durability: def('durability', '--durability', 'BATON_DURABILITY', 'durability'),
  pauseTimeout: def('pause timeout', '--pause-timeout', 'BATON_PAUSE_TIMEOUT', 'pause_timeout'),
  staleAfter: def('stale after', '--stale-after', 'BATON_STALE_AFTER', 'stale_after'),
  contextBudget: def('context budget', '--budget', 'BATON_CONTEXT_BUDGET', 'context_budget'),
  runsDir: def('runs dir', '--runs-dir', 'BATON_RUNS_DIR', 'runs_dir'),
  mirror: def('mirror', '--mirror', 'BATON_MIRROR', 'mirror'),
  actor: def('actor', '--actor', 'BATON_ACTOR', 'actor'),
  // the agent hooks, which an agent runs with no option of the user's: no command takes one, so an error names none
  autoTrack: def('auto_track', null, 'BATON_AUTO_TRACK', 'auto_track'),
  checkpointInterval: def('checkpoint interval', null, 'BATON_CHECKPOINT_INTERVAL', 'checkpoint_interval'),
  injectMaxChars: def('inject max chars', null, 'BATON_INJECT_MAX_CHARS', 'inject_max_chars'),
  // how long a hook works before it answers with what it did so far (tests; read by the hook itself, see hookBudget)
  hookBudget: def('hook budget', null, 'BATON_HOOK_BUDGET', null),
  // a Baton server the commands talk to instead of the local store (docs/server.md); a file names neither
  server: def('server', '--server', 'BATON_URL', null),
  token: def('token', null, 'BATON_TOKEN', null),
  requestTimeout: def('request timeout', null, 'BATON_REQUEST_TIMEOUT', null),
  // the server
  host: def('host', '--host', 'BATON_HOST', 'host'),
  noAuth: def('no auth', '--no-auth', 'BATON_NO_AUTH', null),
  checkResponses: def('check responses', null, 'BATON_CHECK_RESPONSES', null),
  port: def('port', '--port', 'BATON_PORT', 'port'),
  maxBody: def('max body', '--max-body', 'BATON_MAX_BODY', 'max_body_bytes'),
  maxFrame: def('max frame', '--max-frame', 'BATON_MAX_FRAME', 'max_frame_bytes'),
  allowHost: def('allowed hosts', '--allow-host', 'BATON_ALLOWED_HOSTS', 'allowed_hosts'),
  allowOrigin: def('allowed origins', '--allow-origin', 'BATON_ALLOWED_ORIGINS', 'allowed_origins'),
  autoResume: def('auto-resume', '--auto-resume', 'BATON_AUTO_RESUME', 'auto_resume'),
  heartbeatTimeout: def(
    'heartbeat timeout',
    '--heartbeat-timeout',
    'BATON_HEARTBEAT_TIMEOUT',
    'heartbeat_timeout',
  ),
  // where `baton run` and `baton serve` run agents (docs/docker.md)
  executor: def('executor', '--executor', 'BATON_EXECUTOR', 'executor'),
  dockerImage: def('docker image', '--docker-image', 'BATON_DOCKER_IMAGE', 'docker_image'),
  dockerEnv: def('docker env', '--docker-env', 'BATON_DOCKER_ENV', 'docker_env'),
  // `baton executor serve`, the remote agent host (docs/agent-runtime.md)
  executorPort: def('executor port', '--port', 'BATON_EXECUTOR_PORT', 'executor_port'),
  executorMaxOutput: def(
    'executor max output',
    '--max-output',
    'BATON_EXECUTOR_MAX_OUTPUT',
    'executor_max_output',
  ),
  executorAllowedHosts: def(
    'executor allowed hosts',
    '--allow-host',
    'BATON_EXECUTOR_ALLOWED_HOSTS',
    'executor_allowed_hosts',
  ),
  // the agent runtime of `baton run` and `baton serve` (docs/running-agents.md)
  agent: def('agent', '--agent', 'BATON_AGENT', 'agent'),
  agentBin: def('agent bin', '--agent-bin', 'BATON_AGENT_BIN', 'agent_bin'),
  contextWindow: def('context window', '--context-window', 'BATON_CONTEXT_WINDOW', 'context_window'),
  heartbeat: def('heartbeat', '--heartbeat', 'BATON_HEARTBEAT', 'heartbeat'),
  stallTimeout: def('stall timeout', '--stall-timeout', 'BATON_STALL_TIMEOUT', 'stall_timeout'),
  executorUrl: def('executor url', '--executor-url', 'BATON_EXECUTOR_URL', 'executor_url'),
  warnAt: def('warn-at', '--warn-at', 'BATON_CAPACITY_WARN', 'warn_at'),
  pauseAt: def('pause-at', '--pause-at', 'BATON_CAPACITY_PAUSE', 'pause_at'),
  maxSessions: def('max sessions', '--max-sessions', 'BATON_MAX_SESSIONS', 'max_sessions'),
  retryWait: def('retry wait', '--retry-wait', 'BATON_RETRY_WAIT', 'retry_wait'),
  // the extractor of `baton import` (docs/transcripts.md)
  extractor: def('extractor', '--extractor', 'BATON_EXTRACTOR', 'extractor'),
  llmUrl: def('LLM url', '--llm-url', 'BATON_LLM_URL', 'llm_url'),
  llmKind: def('LLM kind', '--llm-kind', 'BATON_LLM_KIND', 'llm_kind'),
  llmModel: def('LLM model', '--llm-model', 'BATON_LLM_MODEL', 'llm_model'),
  llmTimeout: def('LLM timeout', '--llm-timeout', 'BATON_LLM_TIMEOUT', 'llm_timeout'),
  // a secret: never from a file (a worktree's baton.config.json is often committed)
  llmApiKey: def('LLM API key', null, 'BATON_LLM_API_KEY', null),
  // `baton worker` and `baton serve --worker` (docs/workers.md)
  workerConcurrency: def('concurrency', '--concurrency', 'BATON_WORKER_CONCURRENCY', 'worker_concurrency'),
  worktreeRoots: def('worktree roots', '--worktree-root', 'BATON_WORKTREE_ROOTS', 'worktree_roots'),
  workerLabels: def('worker labels', '--label', 'BATON_WORKER_LABELS', 'worker_labels'),
  leaseTtl: def('lease ttl', '--lease-ttl', 'BATON_LEASE_TTL', 'lease_ttl'),
  workerPoll: def('worker poll', '--poll', 'BATON_WORKER_POLL', 'worker_poll'),
  workerRecheck: def('worker recheck', '--recheck', 'BATON_WORKER_RECHECK', 'worker_recheck'),
} as const satisfies Record<string, SettingDef>;

export type SettingName = keyof typeof SETTINGS;

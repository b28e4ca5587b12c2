import type { ExecutorChoice, Summary } from '../../core/index.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';

export type { ExecutorRow };

/** An agent profile (baton.config.json `agents`, or --agent/--agent-bin/--context-window). */
export interface AgentProfile {
  name: string;
  adapter: 'claude-code' | 'codex' | 'command';
  /** The executable (`claude`, `codex`, or any CLI for `command`). */
  bin: string;
  /** True when the run was given `bin` (--agent-bin, its variable or config) rather than taking the profile's. */
  bin_given?: boolean;
  /** Extra arguments put before Baton's own (a model flag, permissions). */
  args: string[];
  context_window: number;
  supports_session_resume: boolean;
  supports_workspace_only: boolean;
}

/** What an agent's stream says, normalised over adapters. */
export type AgentSignal =
  | { type: 'session'; id: string }
  | {
      type: 'usage';
      context_tokens: number | null;
      context_window: number | null;
      cost_usd: number | null;
      total_tokens: number;
      /** Output tokens so far, when the parser knows them. */
      output_tokens?: number;
      llm_calls: number;
      tool_calls: number;
    }
  | { type: 'tool_call'; id: string | null; name: string; input: unknown }
  | {
      type: 'tool_result';
      id: string | null;
      name: string;
      input: unknown;
      is_error: boolean | null;
      text: string;
      /** A code-mode cell whose commands' results the agent's output has apart, as calls of their own. */
      commands_apart?: boolean;
    }
  | { type: 'message'; text: string }
  | { type: 'error'; text: string }
  /**
   * Something the run's log should say about how the agent was read (not the agent's own words); `about` names what
   * it tells, so a run says it once however many of its tasks' agents it holds for.
   */
  | { type: 'note'; text: string; about: string }
  | { type: 'compaction'; pre_tokens: number | null }
  /**
   * One of the agent's own summaries, read from its output as a hook reads a transcript (src/agents/agent-summaries.ts):
   * a compaction's summary, its last message (naming the calls that never returned), the usage limit it stopped on.
   * Given once the output has ended, and by reading a crashed run's task log.
   */
  | ({ type: 'summary'; at: string | null } & Pick<Summary, 'kind' | 'text' | 'turn_ended' | 'said_nothing'>)
  | { type: 'result'; is_error: boolean; subtype: string; text: string | null };

export interface AgentStreamParser {
  push(chunk: string): AgentSignal[];
  end(): AgentSignal[];
}

export interface LaunchSpec {
  bin: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string | null;
}

/** One adapter per agent CLI: how to call it and how to read it. */
export interface AgentDriver {
  readonly adapter: AgentProfile['adapter'];
  /**
   * Its usage readings count the whole agent session, every run that resumed it included (Codex's thread totals in
   * `turn.completed`), not one run's: a run's share is what its reading adds to the session's last one.
   */
  readonly sessionTotals?: boolean;
  command(
    profile: AgentProfile,
    input: {
      prompt: string;
      resumeToken: string | null;
      cwd: string;
      /** What Baton adds to the agent's environment (BATON_HOME, BATON_DATABASE_URL, BATON_RUN_WORKFLOW...). */
      env?: Record<string, string>;
    },
  ): LaunchSpec;
  /**
   * A reader of one run's output. `fromStart`: no word of the agent's was recorded before this run, so a run cut off
   * before it said anything is said to be so (else its calls left open are what came after the last message).
   */
  parser(opts?: { fromStart?: boolean }): AgentStreamParser;
}

export interface ExitStatus {
  code: number | null;
  /**
   * The POSIX signal that ended the agent, or how Baton lost it: `lost` (its agent host stopped answering, or
   * answers without the run: the agent may still be working there), `container_stopped` (its container is gone).
   */
  signal: string | null;
  /** The tail of standard error, when there was any. */
  stderr?: string | null;
  /** Processes the agent started were still running when it ended (its process group), and were stopped. */
  left_running_stopped?: boolean;
  /** Asked to stop, the agent did not end on SIGTERM within the grace time (seconds) and was killed. */
  killed_after_grace_s?: number;
}

/** A running agent process, local or on a remote executor. */
export interface AgentProcess {
  readonly pid: number | null;
  readonly startTime: string | null;
  /** The run's id on a remote executor. */
  readonly runId: string | null;
  /** Where the agent runs when the executor placed it (a Docker container and its agent host's URL). */
  readonly placement?: { container_id: string; endpoint: string };
  onOutput(cb: (chunk: string) => void): void;
  /** The agent's standard error as it comes (local agents), for the task's log and `--verbose`. */
  onStderr?(cb: (chunk: string) => void): void;
  /** What the executor has to say while it follows the agent (its host unreachable, back again), for the run's log. */
  onNotice?(cb: (line: string) => void): void;
  wait(): Promise<ExitStatus>;
  stop(): Promise<void>;
}

export interface ExecutorCapabilities {
  supports_session_resume: boolean;
  supports_workspace_only: boolean;
}

/**
 * Where agent processes run. Local: children of the Baton process (gone after a restart). Remote: an agent host
 * (`baton executor serve`) that outlives the Baton server. Docker: that agent host in a container per session
 * (located by `container_id`, else by its labels), which outlives the Baton server too.
 */
export interface Executor {
  readonly runtime: ExecutorRow['runtime'];
  readonly endpoint: string | null;
  /**
   * How an agent running here runs Baton (`baton -w ID record ...` in its prompt), when not as on this machine: in a
   * container, the image's node with Baton's mounted package.
   */
  readonly batonCommand?: { program: string; args: string[] };
  /** How a run names this executor, when not the local one (recorded at launch: a later run given none uses it). */
  readonly choice?: ExecutorChoice | null;
  /** Whether the executor answers; throws why not (`livenessUnknown` when where the agent runs cannot be reached). */
  health(): Promise<boolean>;
  capabilities(): Promise<ExecutorCapabilities>;
  /** Starts the agent for the session of `row` (the Docker executor labels the session's container with it). */
  launch(spec: LaunchSpec, row?: ExecutorRow): Promise<AgentProcess>;
  /** Checks what a run needs before anything is started or created (engine, image, worktree); throws why not. */
  preflight?(workspace: string): Promise<void>;
  /** The session is over: stops its agent if it still runs and removes what Baton created for it. */
  release(row: ExecutorRow): Promise<void>;
  /** Where the row's agent was found (container id, agent host URL), once `health` or `launch` located it. */
  placement?(rowId: string): { container_id: string; endpoint: string } | null;
  /** Re-attaches to a run that kept going while Baton was down; null when it is gone. */
  attach(row: ExecutorRow): Promise<AgentProcess | null>;
  /**
   * Whether the row's agent process is alive. A check that cannot reach where the agent runs (the Docker engine
   * unreachable from this process) throws `livenessUnknown` (liveness-unknown.ts): never a false "dead". Other
   * checks that cannot decide answer false.
   */
  isAlive(row: ExecutorRow): Promise<boolean>;
}

/** Executors by runtime, so recovery can reach the executor a row was launched on. */
export interface ExecutorFactory {
  forRow(row: ExecutorRow): Executor | null;
}

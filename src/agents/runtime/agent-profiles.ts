import { z } from 'zod';
import { invalidInput } from '../../core/index.js';
import type { AgentDriver, AgentProfile } from '../../service/runtime/runtime-ports.js';
import { claudeCodeDriver } from '../claude-code/claude-code-driver.js';
import { codexDriver } from '../codex/codex-driver.js';
import { commandDriver } from '../command/command-driver.js';
import type { Judge } from '../agent-summaries.js';

const Adapter = z.enum(['claude-code', 'codex', 'command']);

/** One entry of `agents` in baton.config.json. */
export const ProfileConfig = z.object({
  adapter: Adapter.optional(),
  bin: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  /** The flags an unattended run needs (permissions, sandbox); default per adapter, `[]` to run without them. */
  unattended_args: z.array(z.string()).optional(),
  context_window: z.number().int().positive().optional(),
  supports_session_resume: z.boolean().optional(),
  supports_workspace_only: z.boolean().optional(),
});

/**
 * What an agent needs to work with nobody there to answer a permission prompt. Claude Code in `-p` mode refuses
 * any tool that would ask: edits are accepted and the usual tools allowed (bypassPermissions would also do, but
 * Claude Code refuses it as root outside a sandbox). Codex `exec` runs read-only by default: it may write in the
 * workspace (the network stays off; see docs/running-agents.md).
 */
export const unattendedArgs: Record<AgentProfile['adapter'], string[]> = {
  'claude-code': [
    '--permission-mode',
    'acceptEdits',
    '--allowedTools',
    'Bash,Edit,MultiEdit,Write,Read,Glob,Grep,LS,TodoWrite,NotebookEdit,mcp__baton',
  ],
  codex: ['--sandbox', 'workspace-write'],
  command: [],
};

const defaults: Record<AgentProfile['adapter'], Omit<AgentProfile, 'name' | 'adapter'>> = {
  'claude-code': {
    bin: 'claude',
    args: [],
    context_window: 200_000,
    supports_session_resume: true,
    supports_workspace_only: true,
  },
  codex: {
    bin: 'codex',
    args: [],
    context_window: 272_000,
    supports_session_resume: true,
    supports_workspace_only: true,
  },
  command: {
    bin: '',
    args: [],
    context_window: 200_000,
    supports_session_resume: false,
    supports_workspace_only: true,
  },
};

export interface ProfileFlags {
  agentBin?: string;
  contextWindow?: string;
}

/** The names `--agent` takes: the built-in adapters, then the profiles of the config files' `agents`. */
export function profileNames(config: unknown): string[] {
  return [...new Set([...Adapter.options, ...Object.keys((config ?? {}) as Record<string, unknown>)])];
}

/**
 * The config file's entry of the profile `--agent NAME` names (empty for a built-in adapter) and its adapter; an
 * unknown name is refused naming the profiles there are, a bad entry naming its field.
 */
export function profileEntry(
  name: string,
  config: unknown,
): { fromFile: z.infer<typeof ProfileConfig>; adapter: AgentProfile['adapter'] } {
  const agents = (config ?? {}) as Record<string, unknown>;
  const raw = agents[name];
  let fromFile: z.infer<typeof ProfileConfig> = {};
  if (raw !== undefined) {
    const parsed = ProfileConfig.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalidInput(
        `agent profile ${name} in baton.config.json: ${issue?.path.join('.') || name}: ${issue?.message}`,
      );
    }
    fromFile = parsed.data;
  }
  const adapter =
    fromFile.adapter ?? (Adapter.safeParse(name).success ? (name as AgentProfile['adapter']) : null);
  if (adapter) return { fromFile, adapter };
  throw invalidInput(
    raw === undefined
      ? `unknown agent ${name}: the agent profiles are ${profileNames(config).join(', ')}; define another as "agents": {"${name}": {"adapter": ...}} in baton.config.json (option --agent)`
      : `agent profile ${name} in baton.config.json needs "adapter": claude-code, codex or command`,
  );
}

/**
 * The profile `--agent NAME` names: an entry of the config file's `agents`, or one of the built-in adapters
 * (`claude-code`, `codex`, `command`) with their defaults. Flags override the file: `--agent-bin`, `--context-window`.
 */
export function resolveProfile(name: string, flags: ProfileFlags, config: unknown): AgentProfile {
  const { fromFile, adapter } = profileEntry(name, config);
  const base = defaults[adapter];
  let contextWindow = fromFile.context_window ?? base.context_window;
  if (flags.contextWindow !== undefined) {
    const n = Number(flags.contextWindow);
    if (!Number.isInteger(n) || n <= 0)
      throw invalidInput(
        `context window "${flags.contextWindow}" must be a positive whole number of tokens (option --context-window, variable BATON_CONTEXT_WINDOW)`,
      );
    contextWindow = n;
  }
  const bin = flags.agentBin ?? fromFile.bin ?? base.bin;
  if (!bin)
    throw invalidInput(
      `agent ${name} (adapter command) needs an executable: --agent-bin PATH (variable BATON_AGENT_BIN) or "bin" in its profile`,
    );
  return {
    name,
    adapter,
    bin,
    ...(flags.agentBin !== undefined ? { bin_given: true } : {}),
    args: [...(fromFile.unattended_args ?? unattendedArgs[adapter]), ...(fromFile.args ?? base.args)],
    context_window: contextWindow,
    supports_session_resume: fromFile.supports_session_resume ?? base.supports_session_resume,
    supports_workspace_only: fromFile.supports_workspace_only ?? base.supports_workspace_only,
  };
}

/**
 * The driver of a profile's agent. `failed`: how the error extraction judges a result (agent-summaries.ts `Judge`),
 * passed by the edge that runs agents (src/agents may not import src/extraction): with it, the last calls a run's
 * summary names are said failed or worked as the briefing's errors say them; a `command` agent's output has none.
 */
export function driverFor(profile: AgentProfile, failed?: Judge): AgentDriver {
  if (profile.adapter === 'command') return commandDriver;
  const driver = profile.adapter === 'claude-code' ? claudeCodeDriver : codexDriver;
  return failed ? { ...driver, parser: (opts) => driver.parser({ ...opts, failed }) } : driver;
}

import { SETTINGS } from '../../config/setting-table.js';
import { parseDuration } from '../../core/duration.js';
import { invalidInput } from '../../core/errors.js';

/**
 * What an agent writes on a hook's stdin, read without a schema library (a hook must start fast). The input is
 * open: unknown fields and unknown values (a new `source`, a new `reason`) are accepted and passed along, never a
 * reason to skip. Shapes from Claude Code's and Codex's hook documentation and real payloads (corpus/hooks).
 */

export const hookAgents = ['claude-code', 'codex'] as const;
export type HookAgent = (typeof hookAgents)[number];

/** The events Baton answers: Claude Code's, and Codex's, which are the same and `Interrupt` (an Esc ends the turn). */
export const claudeHookEvents = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'Stop',
  'StopFailure',
  'SessionEnd',
] as const;
export const codexHookEvents = [...claudeHookEvents, 'Interrupt'] as const;
export type HookEvent = (typeof codexHookEvents)[number];

/** The Claude Code version that first knows an event: an older one rejects a settings file that names it. */
export const claudeEventSince: Partial<Record<HookEvent, string>> = {
  PostCompact: '2.1.76',
  StopFailure: '2.1.78',
};

const atLeast = (version: string, since: string) => {
  const a = version.split('.').map(Number);
  const b = since.split('.').map(Number);
  for (let i = 0; i < b.length; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
};

/** The events Baton's hooks answer for an agent of this version (every one when the version is unknown). */
export function hookEventsFor(agent: HookAgent, version: string | null): HookEvent[] {
  if (agent === 'codex') return [...codexHookEvents];
  return claudeHookEvents.filter((e) => {
    const since = claudeEventSince[e];
    return version === null || since === undefined || atLeast(version, since);
  });
}

/** The timeout (seconds) `baton init` and the plugin give each hook; the hook keeps 5 s of it in reserve. */
export const hookTimeoutS: Record<HookEvent, number> = {
  SessionStart: 30,
  UserPromptSubmit: 13,
  PostToolUse: 13,
  PreCompact: 60,
  PostCompact: 13,
  Stop: 30,
  StopFailure: 30,
  SessionEnd: 30,
  Interrupt: 30,
};

/**
 * The timeout a hook of an agent gets: the event's, but Codex gives SessionEnd and Interrupt at most 3 s (1 s when none
 * is set; it clamps a longer one and warns of it at every start), and the hook then keeps 1 s of it in reserve instead
 * of 5: an Interrupt answered as a Stop reads what it can in 2 s, and the next hook reads the rest.
 */
export const hookTimeoutFor = (agent: HookAgent, event: HookEvent): number =>
  agent === 'codex' && (event === 'SessionEnd' || event === 'Interrupt') ? 3 : hookTimeoutS[event];

/**
 * Claude Code's SessionEnd hooks share one budget: 1.5 s, raised to the highest `timeout` of the SessionEnd hooks in
 * settings files (up to 60 s) but not by a plugin's, or set by CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS. What a
 * SessionEnd hook has, in ms, and why; null where the hook's own timeout is what counts.
 */
export function sessionEndBudget(
  agent: HookAgent,
  event: HookEvent,
  env: Record<string, string | undefined>,
): { ms: number; why: string } | null {
  if (agent !== 'claude-code' || event !== 'SessionEnd') return null;
  const set = Number(env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS);
  if (Number.isFinite(set) && set > 0)
    return { ms: set, why: `CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS is ${set}` };
  if (env.CLAUDE_PLUGIN_ROOT)
    return {
      ms: 1500,
      why: "Claude Code gives SessionEnd hooks 1.5 s, and a plugin's timeout does not raise it",
    };
  return null;
}

/**
 * How long a hook works before it answers with what it did so far, in ms, and why when it is not its own: its timeout,
 * less what it keeps in reserve (for Claude Code's SessionEnd, the shared budget when it is shorter, less a fifth of
 * it); BATON_HOOK_BUDGET in place of all that when set (a duration). That one is for tests on a loaded machine, where
 * Codex's SessionEnd would not end in its 2 s: an agent still stops its hook at its own timeout, whatever it says.
 * Read here, not through the settings reader, which loads Baton's core: the hook's entry must start fast.
 */
export function hookBudget(
  agent: HookAgent,
  event: HookEvent,
  env: Record<string, string | undefined> = {},
): { ms: number; why: string | null } {
  const { label, variable } = SETTINGS.hookBudget;
  const set = env[variable];
  if (set) {
    const ms = parseDuration(set, `${label} (variable ${variable})`);
    if (ms <= 0)
      throw invalidInput(
        `${label} "${set}" must be longer than 0 (variable ${variable}): unset it, or write it like 60s`,
      );
    return { ms, why: `${variable} is ${set}` };
  }
  const timeout = hookTimeoutFor(agent, event);
  const own = (timeout > 5 ? timeout - 5 : timeout - 1) * 1000;
  const shared = sessionEndBudget(agent, event, env);
  const ms = shared && shared.ms < timeout * 1000 ? Math.min(own, Math.round(shared.ms * 0.8)) : own;
  return { ms, why: shared && ms < own ? shared.why : null };
}

export const isHookEvent = (name: string): name is HookEvent =>
  (codexHookEvents as readonly string[]).includes(name);

/**
 * The event a hand-written command names, however it is spelled (`stop`, `session_start`, `session-start`): the
 * event's own name, or the name as given when no event has it.
 */
export const hookEventNamed = (name: string): string => {
  const key = (s: string) => s.replace(/[-_\s]/g, '').toLowerCase();
  return codexHookEvents.find((e) => key(e) === key(name)) ?? name;
};

export interface HookPayload {
  /** The agent's session; from the transcript's file name when the payload has none; null when nothing says it. */
  session_id: string | null;
  cwd: string;
  transcript_path: string | null;
  hook_event_name: string | null;
  /** SessionStart: startup, resume, clear, compact (or anything newer). */
  source: string | null;
  prompt: string | null;
  tool_name: string | null;
  tool_input: unknown;
  tool_response: unknown;
  tool_use_id: string | null;
  /** PreCompact / PostCompact: manual or auto. */
  trigger: string | null;
  compact_summary: string | null;
  /** SessionEnd: clear, resume, logout, prompt_input_exit, other... */
  reason: string | null;
  /**
   * StopFailure: the API error the turn ended on. Its kind (`rate_limit`, `billing_error`, `server_error`...) comes as
   * `error_type` or `error`, its words as `error_message` or `error_details`, depending on the version.
   */
  api_error: { type: string | null; message: string | null } | null;
  /** Set when the hook fired inside a subagent (Claude Code and Codex add `agent_id` there; root hooks omit it). */
  subagent: { id: string; type: string | null } | null;
  /** Every field as the agent sent it. */
  raw: Record<string, unknown>;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

export type ParsedPayload = { ok: true; payload: HookPayload } | { ok: false; error: string };

/**
 * The session id a transcript's file name carries: Claude Code's `<session-id>.jsonl`, Codex's
 * `rollout-<time>-<uuid>.jsonl` (either path style: a Windows agent writes backslashes).
 */
export function sessionIdFromTranscript(path: string | null): string | null {
  const name = path?.split(/[\\/]/).pop() ?? '';
  const uuid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(name);
  return uuid?.[1] ?? null;
}

/** Parses a hook's stdin. Only a non-object is refused; a missing cwd falls back to the process's directory. */
export function parsePayload(text: string, fallbackCwd: string): ParsedPayload {
  let raw: unknown;
  try {
    // a byte-order mark (a Windows shell's pipe adds one) is not part of the JSON
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return {
      ok: false,
      error: text.trim() ? `hook input is not JSON: ${(e as Error).message}` : 'no hook input on stdin',
    };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, error: 'hook input is not a JSON object' };
  const r = raw as Record<string, unknown>;
  const transcript = str(r.transcript_path);
  const agentId = str(r.agent_id);
  return {
    ok: true,
    payload: {
      session_id: str(r.session_id) ?? str(r.sessionId) ?? sessionIdFromTranscript(transcript),
      cwd: str(r.cwd) ?? fallbackCwd,
      transcript_path: transcript,
      hook_event_name: str(r.hook_event_name),
      source: str(r.source),
      prompt: typeof r.prompt === 'string' ? r.prompt : null,
      tool_name: str(r.tool_name),
      tool_input: r.tool_input,
      tool_response: r.tool_response,
      tool_use_id: str(r.tool_use_id),
      trigger: str(r.trigger),
      compact_summary: str(r.compact_summary),
      reason: str(r.reason),
      subagent: agentId ? { id: agentId, type: str(r.agent_type) } : null,
      api_error: apiError(r),
      raw: r,
    },
  };
}

/** A kind of error is one word (`rate_limit`, `429`); anything longer is its message. */
const errorKind = /^[\w.-]{1,40}$/;

function apiError(r: Record<string, unknown>): HookPayload['api_error'] {
  const error = str(r.error);
  const type = str(r.error_type) ?? (error && errorKind.test(error) ? error : null);
  const message = str(r.error_message) ?? str(r.error_details) ?? (error && error !== type ? error : null);
  return type || message ? { type, message } : null;
}

/** Codex when told so, else when the payload looks like Codex's (a turn id, a rollout path); else Claude Code. */
export function detectAgent(p: HookPayload, flag: string | null): HookAgent {
  if (flag === 'codex' || flag === 'claude-code') return flag;
  if ('turn_id' in p.raw) return 'codex';
  if (p.transcript_path && /[\\/]\.codex[\\/]|[\\/]rollout-[^\\/]*\.jsonl$/.test(p.transcript_path))
    return 'codex';
  return 'claude-code';
}

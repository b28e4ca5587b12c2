import { invalidInput } from '../errors.js';
import { isTerminal } from '../workflow-machine.js';
import type { WorkflowStatus } from '../schemas/index.js';

/** What `baton submit` asks for, as typed (flags, REST body). */
export interface SubmitRequest {
  agent?: string | null;
  agent_bin?: string | null;
  context_window?: number | null;
  max_sessions?: number | null;
  priority?: number | null;
  label?: string | null;
}

/** The agent profile a worker runs submitted work with (the `baton run` options that matter). */
export interface WorkProfile {
  agent: string;
  agent_bin: string | null;
  context_window: number | null;
  max_sessions: number | null;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const LABEL = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/;
export const PRIORITY_RANGE = [-1000, 1000] as const;
/** How many agent sessions one run may start (`--max-sessions`), for `baton run`, a worker and submitted work. */
export const MAX_SESSIONS_RANGE = [1, 10_000] as const;
/** A model's context window in tokens (`--context-window`), wherever it is given. */
export const CONTEXT_WINDOW_RANGE = [1_000, 100_000_000] as const;

const intIn = (v: number | null | undefined, what: string, min: number, max: number) => {
  if (v === null || v === undefined) return null;
  if (!Number.isInteger(v) || v < min || v > max)
    throw invalidInput(`${what} must be a whole number from ${min} to ${max} (got ${String(v)})`);
  return v;
};

/** Checks a submission and gives its profile, priority and label; bad input is refused with what to type. */
export function submission(r: SubmitRequest): {
  profile: WorkProfile;
  priority: number;
  label: string | null;
} {
  const agent = r.agent?.trim();
  if (!agent)
    throw invalidInput(
      'submitting work needs the agent to run it with: --agent NAME (claude-code, codex, command, or a profile of baton.config.json; variable BATON_AGENT)',
    );
  if (!NAME.test(agent)) throw invalidInput(`--agent ${JSON.stringify(agent)} is not a profile name`);
  const label = r.label?.trim() || null;
  if (label !== null && !LABEL.test(label))
    throw invalidInput(
      `--label ${JSON.stringify(label)}: letters, digits and . _ : / - only, at most 100 characters`,
    );
  const bin = r.agent_bin?.trim() || null;
  if (bin !== null && bin.length > 4096) throw invalidInput('--agent-bin is longer than 4096 characters');
  return {
    profile: {
      agent,
      agent_bin: bin,
      context_window: intIn(r.context_window, '--context-window', ...CONTEXT_WINDOW_RANGE),
      max_sessions: intIn(r.max_sessions, '--max-sessions', ...MAX_SESSIONS_RANGE),
    },
    priority: intIn(r.priority, '--priority', ...PRIORITY_RANGE) ?? 0,
    label,
  };
}

/** Why a worker stopping pauses the workflows it runs: the next worker resumes exactly these. */
export const WORKER_STOP_REASON = 'the worker running it stopped; another worker continues';

/** Where a workflow a worker finished with stands: whether its queue entry is done, and the outcome to record. */
export function workOutcome(w: {
  status: WorkflowStatus;
  pause_trigger: string | null;
  pause_reason: string | null;
  stopped: string;
  failed: boolean;
}): { done: boolean; outcome: string } {
  // Paused because its worker stopped, or interrupted (a crash): left queued, the next worker goes on.
  if (w.status === 'paused' && w.pause_reason === WORKER_STOP_REASON)
    return { done: false, outcome: 'released' };
  if (w.status === 'interrupted') return { done: false, outcome: 'interrupted' };
  if (w.failed) return { done: true, outcome: `failed: ${w.stopped}` };
  if (w.status === 'in_progress' || w.status === 'pending')
    return { done: true, outcome: `stopped: ${w.stopped}` };
  if (w.status === 'paused') return { done: true, outcome: `paused: ${w.stopped}` };
  return { done: true, outcome: w.status };
}

/**
 * How long a worker leaves work it could not start before it checks again whether it can (`baton worker --recheck`):
 * an agent installed or an engine started meanwhile is noticed without a resubmission, and the work is not claimed and
 * failed again at every poll.
 */
export const RECHECK_DEFAULT = '30s';

/** The errors by which a worker refuses claimed work: no such agent profile, its binary missing or not executable on
 * that machine, an engine down. Claiming it again from the same worker only meets the same error. */
const REFUSALS: readonly string[] = ['invalid_input', 'unavailable', 'not_found'];

/**
 * What a worker records when it could not run claimed work, or null for an error a retry at its next poll may get
 * past. A refusal leaves the work queued, never done: nothing ran, and done would take the work out of the queue for
 * good, though a worker that has the agent (or this one, once fixed) can run it. The outcome says which worker could
 * not, and why; that worker leaves the work until it finds it can start it (it checks again every RECHECK_DEFAULT, or
 * its --recheck), it is submitted again, or the worker restarts.
 */
export function refusedOutcome(
  e: { code: string; message: string },
  worker: { host: string; pid: number },
): string | null {
  return REFUSALS.includes(e.code)
    ? `pid ${worker.pid} on ${worker.host} could not start it: ${e.message}`
    : null;
}

/**
 * Whether a worker that claimed a workflow may run it: not once it ended, and not while a person paused it (only a
 * pause by a stopping worker, or an exhaustion pause, is continued by the next worker). A usage limit's pause is left
 * as a person's is: its run gave up waiting for the reset, or was not told to wait, and a person resumes it. Gives why
 * not (the status, or `paused (reason)`), or null; each caller says what to do about it.
 */
export function runnableClaim(w: {
  status: WorkflowStatus;
  pause_trigger: string | null;
  pause_reason: string | null;
}): string | null {
  if (isTerminal(w.status)) return w.status;
  if (w.status === 'paused' && w.pause_trigger !== 'exhaustion' && w.pause_reason !== WORKER_STOP_REASON)
    return `paused (${w.pause_reason ?? w.pause_trigger ?? 'pause'})`;
  return null;
}

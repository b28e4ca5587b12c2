import type { CapacityMeasure } from '../capacity.js';
import type { Draft } from '../draft.js';
import { invalidInput } from '../errors.js';
import type {
  AgentOutcome,
  CapacityThresholds,
  CutShort,
  ExecutorChoice,
  SideEffectKind,
} from '../schemas/runtime.js';

/** A new driver session of an agent CLI starts for the workflow's current Baton session. */
export function launchAgent(
  d: Draft,
  input: {
    agent: string;
    executor_id: string;
    resume_token: string | null;
    fallback: string | null;
    capacity?: CapacityThresholds;
    bin?: string;
    executor?: ExecutorChoice;
  },
): void {
  d.emit({ type: 'agent.launched', data: input });
}

/** The agent reported its own session id; kept as the resume token. Unchanged tokens write nothing. */
export function saveResumeToken(d: Draft, executorId: string, token: string): void {
  if (d.state.agent?.resume_token === token) return;
  d.emit({ type: 'agent.token_saved', data: { executor_id: executorId, resume_token: token } });
}

export function agentExited(
  d: Draft,
  input: {
    executor_id: string;
    outcome: AgentOutcome;
    exit_code: number | null;
    message: string | null;
    cut_short?: CutShort;
  },
  taskId: string | null = null,
): void {
  d.emit({ type: 'agent.exited', task_id: taskId, data: input });
}

/** One capacity warning per Baton session; returns whether it was written. */
export function warnCapacity(d: Draft, m: CapacityMeasure, threshold: number): boolean {
  if (d.state.agent?.warned_session === d.state.session_count) return false;
  d.emit({
    type: 'capacity.warned',
    data: {
      utilization: Math.round(m.utilization * 10_000) / 10_000,
      threshold,
      tokens: m.tokens,
      context_window: m.context_window,
      estimated: m.estimated,
    },
  });
  return true;
}

export function usageLimitReached(
  d: Draft,
  input: { message: string; resets_at: string | null; auto_resume_at: string | null },
): void {
  d.emit({ type: 'usage_limit.reached', data: input });
}

/** Appends one completed action with an effect to the ledger. */
export function recordSideEffect(
  d: Draft,
  input: { task_id: string | null; kind: SideEffectKind; tool: string; summary: string },
  at: string | null = null,
): string {
  if (!input.summary.trim()) throw invalidInput('a side effect needs a summary');
  const id = d.ctx.newId('fx');
  d.emit({
    type: 'side_effect.recorded',
    task_id: input.task_id,
    data: { effect: { id, timestamp: at ?? d.ctx.now, ...input } },
  });
  return id;
}

export function executorChanged(
  d: Draft,
  input: {
    executor_id: string;
    status: 'starting' | 'ready' | 'error' | 'stopped';
    session_state: 'running' | 'waiting_for_input' | 'error' | 'ended';
    reason: string | null;
  },
): void {
  d.emit({ type: 'executor.changed', data: input });
}

import type { RecordRow } from './records.js';
import type { EventOf } from './schemas/events.js';
import type { AgentRuntime } from './schemas/runtime.js';
import type { WorkflowState } from './schemas/state.js';

/**
 * How many side effects of each sort the folded state keeps (all are `side_effect` records): file changes, and the
 * rest (commits, pushes, pull requests...), so that many file changes never push a commit out.
 */
export const SIDE_EFFECT_LIMIT = 50;

/** The side effects kept with one more: the latest SIDE_EFFECT_LIMIT file changes and as many of the rest. */
function keptEffects<T extends { kind: string }>(effects: readonly T[], added: T): T[] {
  const all = [...effects, added];
  const isFile = (e: T) => e.kind === 'file_write';
  const files = all.filter(isFile).length;
  const others = all.length - files;
  if (files <= SIDE_EFFECT_LIMIT && others <= SIDE_EFFECT_LIMIT) return all;
  let dropFiles = Math.max(0, files - SIDE_EFFECT_LIMIT);
  let dropOthers = Math.max(0, others - SIDE_EFFECT_LIMIT);
  // the oldest of each sort go, the order of the rest kept
  return all.filter((e) => {
    if (isFile(e) && dropFiles > 0) return (dropFiles -= 1) < 0;
    if (!isFile(e) && dropOthers > 0) return (dropOthers -= 1) < 0;
    return true;
  });
}

export type RuntimeEvent = EventOf<
  | 'agent.launched'
  | 'agent.token_saved'
  | 'agent.exited'
  | 'capacity.warned'
  | 'usage_limit.reached'
  | 'side_effect.recorded'
  | 'executor.changed'
>;

const patchAgent = (s: WorkflowState, patch: Partial<AgentRuntime>): WorkflowState =>
  s.agent ? { ...s, agent: { ...s.agent, ...patch } } : s;

/** The agent runtime's part of the fold (see fold.ts). */
export function evolveRuntime(s: WorkflowState, e: RuntimeEvent): WorkflowState {
  switch (e.type) {
    case 'agent.launched':
      return {
        ...s,
        agent: {
          agent: e.data.agent,
          executor_id: e.data.executor_id,
          resume_token: e.data.resume_token,
          launched_at: e.at,
          fallback: e.data.fallback,
          last_outcome: null,
          warned_session: s.agent?.warned_session ?? null,
          usage_limit: null,
          capacity: e.data.capacity ?? null,
          ...(e.data.bin ? { bin: e.data.bin } : {}),
          ...(e.data.executor ? { executor: e.data.executor } : {}),
        },
      };
    case 'agent.token_saved':
      return patchAgent(s, { resume_token: e.data.resume_token });
    case 'agent.exited':
      return patchAgent(s, {
        last_outcome: e.data.outcome,
        last_task: e.task_id ?? null,
        last_cut_short: e.data.cut_short ?? null,
        last_exit_code: e.data.exit_code,
      });
    case 'capacity.warned':
      return patchAgent(s, { warned_session: e.session_number });
    case 'usage_limit.reached':
      return patchAgent(s, {
        usage_limit: {
          message: e.data.message,
          resets_at: e.data.resets_at,
          auto_resume_at: e.data.auto_resume_at,
        },
      });
    case 'side_effect.recorded':
      return { ...s, side_effects: keptEffects(s.side_effects ?? [], e.data.effect) };
    case 'executor.changed':
      return s;
  }
}

/** The record rows a runtime event writes. */
export function projectRuntime(
  e: RuntimeEvent,
  row: (kind: RecordRow['kind'], id: string, data: unknown) => RecordRow,
) {
  return e.type === 'side_effect.recorded' ? [row('side_effect', e.data.effect.id, e.data.effect)] : [];
}

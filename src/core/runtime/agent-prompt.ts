import type { SideEffect } from '../schemas/runtime.js';
import type { Task } from '../schemas/workflow.js';

/** One step of the structured history handed to a fallback driver session (tool calls and results kept). */
export interface HistoryStep {
  kind: 'tool_call' | 'tool_result' | 'message' | 'error';
  text: string;
}

export interface PromptInput {
  workflowTitle: string;
  plan: string;
  task: Pick<Task, 'id' | 'title' | 'description'>;
  /** The compiled resume context (markdown), on a resumed workflow or a fallback session. */
  resumeContext: string | null;
  /** The ledger: effects already done, which the agent must not redo. */
  sideEffects: readonly SideEffect[];
  /** Structured history of the interrupted driver session (fallback only), already trimmed to the budget. */
  history: readonly HistoryStep[];
  /** Continuing the same driver session (`--resume`): the conversation already has the plan and context. */
  continuing: boolean;
}

/** The prompt a driver session gets for one task. */
export function buildAgentPrompt(p: PromptInput): string {
  const out: string[] = [];
  if (!p.continuing) {
    out.push(`# Workflow: ${p.workflowTitle}`);
    if (p.plan.trim()) out.push('', '## Plan', '', p.plan.trim());
    if (p.resumeContext) out.push('', '## Resume context', '', p.resumeContext.trim());
  }
  // A resume context carries the ledger itself ("Already Done (do not redo)"); without one the prompt lists it.
  const contextHasLedger = !p.continuing && !!p.resumeContext?.includes('### Already Done (do not redo)');
  if (p.sideEffects.length && !contextHasLedger) {
    out.push('', '## Already done, do not redo', '');
    for (const e of p.sideEffects)
      out.push(`- [${e.kind}]${e.task_id ? ` (${e.task_id})` : ''} ${e.summary}`);
  }
  if (p.history.length) {
    out.push('', '## The interrupted session so far (structured; tool calls and results)', '');
    for (const h of p.history) out.push(`- ${h.kind}: ${h.text}`);
  }
  out.push('', `## Task ${p.task.id}: ${p.task.title}`);
  if (p.task.description.trim()) out.push('', p.task.description.trim());
  out.push('', 'Do this task only, then stop. Say what you did in your final message.');
  return out.join('\n');
}

/** Keeps the newest steps that fit `budget` tokens (counted by `count`), in order; older ones are dropped first. */
export function trimHistory(
  steps: readonly HistoryStep[],
  budget: number,
  count: (text: string) => number,
): HistoryStep[] {
  const kept: HistoryStep[] = [];
  let used = 0;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (!s) continue;
    const n = count(s.text) + 4;
    if (used + n > budget) break;
    used += n;
    kept.unshift(s);
  }
  return kept;
}

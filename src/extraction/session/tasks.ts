import type { TranscriptEntry } from '../../agents/transcript-types.js';
import {
  applyAgentTaskCalls,
  isAgentTaskTool,
  planInCell,
  type AgentTaskCall,
  type AgentTaskItem,
} from '../../core/index.js';

/** One call of a task-list tool, where it was made, with its result (TaskCreate's result carries the new id). */
export interface TaskToolCall extends AgentTaskCall {
  line: number;
}

export type AgentTaskStatus = 'pending' | 'in_progress' | 'completed';

export interface AgentTask {
  content: string;
  status: string;
}

/**
 * Every task-list tool call of the main conversation (Claude Code's TodoWrite, TaskCreate, TaskUpdate; Codex's
 * update_plan, also inside a code-mode cell), in order, with its result text: what the task graph follows. A call whose
 * result is an error is left out.
 */
export function findTaskCalls(entries: readonly TranscriptEntry[]): TaskToolCall[] {
  const calls: TaskToolCall[] = [];
  const byId = new Map<string, TaskToolCall>();
  const failed = new Set<TaskToolCall>();
  for (const e of entries) {
    if (e.sidechain || !e.tool?.name) continue;
    const cellPlan = e.tool.name === 'exec' ? planInCell(e.tool.input) : null;
    if (!cellPlan && !isAgentTaskTool(e.tool.name)) continue;
    if (e.kind === 'tool_call') {
      const call: TaskToolCall = {
        line: e.line,
        at: e.at,
        tool: cellPlan ? 'update_plan' : e.tool.name,
        input: cellPlan ?? e.tool.input,
        id: e.tool.id,
      };
      calls.push(call);
      if (e.tool.id) byId.set(e.tool.id, call);
    } else if (e.kind === 'tool_result' && e.tool.id) {
      const call = byId.get(e.tool.id);
      if (call && e.tool.is_error !== true) call.result = e.text;
      // a call the tool refused (an input it did not validate, a call the user declined) changed nothing; a code-mode
      // cell can fail after its update_plan went through
      else if (call && !cellPlan) failed.add(call);
    }
  }
  return calls.filter((c) => !failed.has(c));
}

/**
 * The agent's task list after the calls: the list as the task graph folds it (core's applyAgentTaskCalls), plus the
 * completed items an earlier list held and a later one dropped (work done under a plan that was replaced), in the
 * order they first appeared. An item dropped before it was done was abandoned or replaced: it is not reported as
 * still pending; a task deleted with TaskUpdate is gone.
 */
export function replayTasks(calls: readonly AgentTaskCall[]): AgentTask[] {
  let items: AgentTaskItem[] = [];
  const seen = new Map<string, AgentTask>();
  for (const call of calls) {
    const before = items;
    items = applyAgentTaskCalls(items, [call]);
    if (call.tool === 'TaskUpdate') {
      // a task that one update removes was deleted, not dropped with a list
      for (const it of before) if (!items.some((i) => i.key === it.key)) seen.delete(it.key);
    }
    for (const it of items) seen.set(it.key, { content: it.content, status: it.status });
  }
  const current = new Set(items.map((it) => it.key));
  return [...seen].filter(([key, task]) => current.has(key) || task.status === 'completed').map(([, t]) => t);
}

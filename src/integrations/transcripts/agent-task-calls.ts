import type { TranscriptEntry } from '../../agents/index.js';
import { isAgentTaskTool, type AgentTaskCall } from '../../core/index.js';

/**
 * The agent's task-tool calls among transcript entries (TodoWrite, TaskCreate, TaskUpdate, update_plan), each with
 * its result when the transcript has it (TaskCreate's result names the task id) and its call id, so a call a
 * PostToolUse hook already applied is not applied again.
 */
export function agentTaskCallsOf(entries: readonly TranscriptEntry[]): AgentTaskCall[] {
  const results = new Map<string, string>();
  for (const e of entries)
    if (e.kind === 'tool_result' && e.tool?.id && !e.sidechain) results.set(e.tool.id, e.text);
  return entries
    .filter((e) => e.kind === 'tool_call' && !e.sidechain && e.tool?.name && isAgentTaskTool(e.tool.name))
    .map((e) => ({
      tool: e.tool?.name ?? '',
      input: e.tool?.input,
      result: e.tool?.id ? (results.get(e.tool.id) ?? null) : null,
      at: e.at,
      id: e.tool?.id ?? null,
    }));
}

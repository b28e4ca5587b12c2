import type { TranscriptEntry } from '../../agents/transcript-types.js';

/** The agent's own task-list tools: Claude Code's TodoWrite (older) and TaskCreate/TaskUpdate, Codex's update_plan. */
export const taskTools = new Set(['TodoWrite', 'TaskCreate', 'TaskUpdate', 'update_plan']);

/** One call of a task-list tool, with what its result said (TaskCreate's result carries the new task's id). */
export interface TaskToolCall {
  line: number;
  at: string | null;
  name: string;
  input: unknown;
  result: string | null;
}

export type AgentTaskStatus = 'pending' | 'in_progress' | 'completed';

export interface AgentTask {
  content: string;
  status: AgentTaskStatus;
}

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown) => (typeof v === 'string' ? v : null);

function status(v: unknown): AgentTaskStatus | null {
  const s = str(v)?.toLowerCase().replace(/[\s-]/g, '_');
  if (s === 'pending' || s === 'in_progress' || s === 'completed') return s;
  if (s === 'done' || s === 'complete') return 'completed';
  return null;
}

/** Every task-list tool call of the main conversation, in order, with its result text when there is one. */
export function findTaskCalls(entries: readonly TranscriptEntry[]): TaskToolCall[] {
  const calls: TaskToolCall[] = [];
  const byId = new Map<string, TaskToolCall>();
  for (const e of entries) {
    if (e.sidechain || !e.tool?.name || !taskTools.has(e.tool.name)) continue;
    if (e.kind === 'tool_call') {
      const call: TaskToolCall = {
        line: e.line,
        at: e.at,
        name: e.tool.name,
        input: e.tool.input,
        result: null,
      };
      calls.push(call);
      if (e.tool.id) byId.set(e.tool.id, call);
    } else if (e.kind === 'tool_result' && e.tool.id) {
      const call = byId.get(e.tool.id);
      if (call && e.tool.is_error !== true) call.result = e.text;
    }
  }
  return calls;
}

/**
 * The agent's task list after the calls: every item it ever held, with its last status (an item dropped from a
 * later list keeps the status it had). TodoWrite and update_plan send the whole list; TaskCreate adds one task
 * (its id is in the result: "Task #3 created" or {"task": {"id": ...}}); TaskUpdate changes one by id.
 */
export function replayTasks(calls: readonly TaskToolCall[]): AgentTask[] {
  const items = new Map<string, AgentTask>();
  const ids = new Map<string, string>();
  const key = (content: string) => content.replace(/\s+/g, ' ').trim().toLowerCase();
  const set = (content: string, s: AgentTaskStatus | null) => {
    const k = key(content);
    if (!k) return;
    const prev = items.get(k);
    items.set(k, { content: prev?.content ?? content.trim(), status: s ?? prev?.status ?? 'pending' });
  };
  for (const c of calls) {
    const input = obj(c.input);
    if (c.name === 'TodoWrite' && Array.isArray(input.todos)) {
      for (const t of input.todos) set(str(obj(t).content) ?? '', status(obj(t).status));
    } else if (c.name === 'update_plan' && Array.isArray(input.plan)) {
      for (const t of input.plan) set(str(obj(t).step) ?? '', status(obj(t).status));
    } else if (c.name === 'TaskCreate') {
      const subject = str(input.subject) ?? str(input.description) ?? '';
      set(subject, 'pending');
      const id = createdId(c.result);
      if (id) ids.set(id, subject);
    } else if (c.name === 'TaskUpdate') {
      const id = str(input.taskId) ?? (typeof input.taskId === 'number' ? String(input.taskId) : null);
      const subject = (id ? ids.get(id) : undefined) ?? str(input.subject);
      if (subject) set(subject, status(input.status));
    }
  }
  return [...items.values()];
}

function createdId(result: string | null): string | null {
  if (!result) return null;
  const text = /#(\w+)/.exec(result)?.[1];
  if (text) return text;
  try {
    const v = obj(obj(JSON.parse(result) as unknown).task).id;
    return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
  } catch {
    return null;
  }
}

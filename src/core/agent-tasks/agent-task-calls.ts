/**
 * The agent's task-tool calls as Baton receives them (from a PostToolUse hook or a transcript import): the tool's
 * name, its input and, when known, its result, the time and the tool call's id.
 */
export type AgentTaskCall = {
  tool: string;
  input: unknown;
  result?: unknown;
  at?: string | null;
  /** The tool call's id (tool_use id, Codex call_id): a call seen twice (hook, then import) is applied once. */
  id?: string | null;
};

/** Claude Code's TodoWrite (whole list) and task tools (one task a call), Codex's update_plan (whole list). */
export const agentTaskTools = ['TodoWrite', 'TaskCreate', 'TaskUpdate', 'update_plan'] as const;

export const isAgentTaskTool = (name: string): boolean =>
  (agentTaskTools as readonly string[]).includes(name);

/** A step of a plan as a code-mode cell writes it: `{step:"...",status:"..."}` (keys quoted or not). */
const cellStep = /\{\s*"?step"?\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"?status"?\s*:\s*"(\w+)"\s*\}/g;

/**
 * The plan a Codex code-mode cell sets with `tools.update_plan({plan:[...]})`, as update_plan's input; null when the
 * cell does not call it.
 */
export function planInCell(input: unknown): { plan: { step: string; status: string }[] } | null {
  if (typeof input !== 'string' || !input.includes('tools.update_plan(')) return null;
  const code = input.slice(input.indexOf('tools.update_plan('));
  const plan = [...code.matchAll(cellStep)].map((m) => {
    let step = m[1] ?? '';
    try {
      step = JSON.parse(`"${step}"`) as string;
    } catch {
      // keep the text as written
    }
    return { step, status: m[2] ?? '' };
  });
  return plan.length > 0 ? { plan } : null;
}

/** The tools that send the whole list each call (the others change one task): a later call replaces what it said. */
export const isWholeListTool = (name: string): boolean => name === 'TodoWrite' || name === 'update_plan';

/** The statuses Baton acts on; anything else is kept as the agent wrote it and changes nothing. */
export type AgentStatus = 'pending' | 'in_progress' | 'completed' | 'deleted' | (string & {});

export function normalizeAgentStatus(raw: unknown): AgentStatus {
  const s =
    typeof raw === 'string'
      ? raw
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : '';
  if (['in_progress', 'inprogress', 'active', 'doing', 'started'].includes(s)) return 'in_progress';
  if (['completed', 'complete', 'done', 'finished'].includes(s)) return 'completed';
  if (['pending', 'todo', 'not_started', 'open', ''].includes(s)) return 'pending';
  if (s === 'deleted' || s === 'removed') return 'deleted';
  return s;
}

/** A call's input as an object: Codex passes function arguments as a JSON string. */
export function inputObject(input: unknown): Record<string, unknown> | null {
  let v = input;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null;

/**
 * The id TaskCreate gave: `{task: {id}}` (the structured result), a text result "Task #3 created successfully",
 * or a content array holding that text.
 */
export function createdTaskId(result: unknown): string | null {
  const r = typeof result === 'string' ? (inputObject(result) ?? result) : result;
  if (typeof r === 'string') return /Task #?(\w+) created/i.exec(r)?.[1] ?? null;
  if (Array.isArray(r)) {
    for (const part of r) {
      const id = createdTaskId((part as { text?: unknown })?.text ?? part);
      if (id) return id;
    }
    return null;
  }
  if (r && typeof r === 'object') {
    const o = r as Record<string, unknown>;
    const task = o.task as Record<string, unknown> | undefined;
    return text(task?.id) ?? text(o.taskId) ?? text(o.id) ?? createdTaskId(o.content ?? null);
  }
  return null;
}

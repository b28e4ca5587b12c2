import { z } from 'zod';
import { tokenCount } from '../token-count.js';
import type { TranscriptBuilder } from '../transcript-builder.js';

/** One event of `codex exec --json` (thread/turn/item events). */
const str = z.string().optional().catch(undefined);

export const ExecJsonItem = z.looseObject({
  id: z.string(),
  type: z.string(),
  text: str,
  command: z.unknown().optional(),
  aggregated_output: str,
  exit_code: z.number().int().nullable().optional().catch(undefined),
  status: str,
  changes: z
    .array(z.looseObject({ path: z.string(), kind: str }))
    .optional()
    .catch(undefined),
  server: str,
  tool: str,
  arguments: z.unknown().optional(),
  query: str,
  message: str,
  items: z.unknown().optional(),
});
type ExecJsonItem = z.infer<typeof ExecJsonItem>;

export const ExecJsonLine = z.looseObject({
  type: z.string().regex(/^(thread|turn|item)\.|^error$/),
  thread_id: str,
  item: ExecJsonItem.optional(),
  usage: z
    .looseObject({
      input_tokens: tokenCount.catch(0),
      cached_input_tokens: tokenCount.catch(0),
      output_tokens: tokenCount.catch(0),
    })
    .optional()
    .catch(undefined),
  error: z.looseObject({ message: str }).optional().catch(undefined),
  message: str,
  /** Codex writes none; `baton run` stamps each line with when it came (read after the run, its records keep it). */
  timestamp: str,
});
export type ExecJsonLine = z.infer<typeof ExecJsonLine>;

const toolName: Record<string, string> = {
  command_execution: 'exec_command',
  file_change: 'apply_patch',
  web_search: 'web_search',
};

export function recordExecJson(b: TranscriptBuilder, line: number, e: ExecJsonLine): void {
  const at = e.timestamp ?? null;
  const base = { line, at };
  if (e.type === 'thread.started') b.sessionId ??= e.thread_id ?? null;
  else if (e.type === 'turn.completed') {
    // the thread's token totals so far (Codex's total_token_usage: every model call of every turn added up), not
    // one call's: they are the run's totals, and say nothing of how full the context is (exec --json never does)
    if (e.usage)
      b.reportedTotals = {
        input_tokens: Math.max(0, e.usage.input_tokens - e.usage.cached_input_tokens),
        cache_read_input_tokens: e.usage.cached_input_tokens,
        cache_creation_input_tokens: 0,
        output_tokens: e.usage.output_tokens,
      };
    // the turn ended whether or not it says what it used: a run without this line was cut off (transcript-signals.ts)
    b.result = { line, subtype: 'turn.completed', is_error: false, text: null };
  } else if (e.type === 'turn.failed' || e.type === 'error') {
    const text = e.error?.message ?? e.message ?? e.type;
    b.add({ ...base, role: 'system', kind: 'error', text });
    if (e.type === 'turn.failed') b.result = { line, subtype: 'turn.failed', is_error: true, text };
  } else if (e.item?.type === 'todo_list' && /^item\.(?:started|updated|completed)$/.test(e.type)) {
    recordTodoList(b, line, e.item, at);
  } else if ((e.type === 'item.started' || e.type === 'item.completed') && e.item) {
    recordItem(b, line, e.type === 'item.completed', e.item, at);
  }
}

const TodoItems = z
  .array(z.looseObject({ text: z.string().catch(''), completed: z.boolean().catch(false) }))
  .catch([]);

/**
 * The agent's plan (`todo_list` item: `items: [{text, completed}]`, the whole list on each started, updated and
 * completed event), recorded as the update_plan call it comes from, so the task list reads it as the rollout's.
 */
function recordTodoList(b: TranscriptBuilder, line: number, item: ExecJsonItem, at: string | null): void {
  const plan = TodoItems.parse(item.items)
    .filter((t) => t.text.trim() !== '')
    .map((t) => ({ step: t.text, status: t.completed ? 'completed' : 'pending' }));
  if (plan.length === 0) return;
  const input = { plan };
  b.add({
    line,
    at,
    role: 'assistant',
    kind: 'tool_call',
    text: `update_plan: ${JSON.stringify(input)}`,
    tool: { id: `${item.id}@${line}`, name: 'update_plan', input, is_error: null, exit_code: null },
  });
}

function recordItem(
  b: TranscriptBuilder,
  line: number,
  done: boolean,
  item: ExecJsonItem,
  at: string | null,
): void {
  const base = { line, at };
  if (item.type === 'agent_message' && done && item.text) {
    b.add({ ...base, role: 'assistant', kind: 'text', text: item.text });
  } else if (item.type === 'reasoning' && done && item.text) {
    b.add({ ...base, role: 'assistant', kind: 'thinking', text: item.text });
  } else if (item.type === 'error' && done) {
    b.add({ ...base, role: 'system', kind: 'error', text: item.message ?? 'error' });
  } else if (item.type in toolName || item.type === 'mcp_tool_call') {
    const name =
      item.type === 'mcp_tool_call' ? `${item.server ?? 'mcp'}.${item.tool ?? 'tool'}` : toolName[item.type];
    const input = inputOf(item);
    if (!b.toolCall(item.id)) {
      const text = `${name ?? item.type}: ${typeof input === 'string' ? input : JSON.stringify(input)}`;
      b.add({
        ...base,
        role: 'assistant',
        kind: 'tool_call',
        text,
        tool: toolInfo(item, name, input, null, null),
      });
    }
    if (!done) return;
    const failed =
      item.status === 'failed' ||
      (item.exit_code !== undefined && item.exit_code !== null && item.exit_code !== 0);
    const code = item.exit_code ?? null;
    const text = item.aggregated_output ?? item.status ?? '';
    b.add({
      ...base,
      role: 'tool',
      kind: 'tool_result',
      text,
      tool: toolInfo(item, name, input, failed, code),
    });
  }
}

function inputOf(item: ExecJsonItem): unknown {
  if (item.type === 'command_execution') return { command: item.command };
  if (item.type === 'file_change') return { changes: item.changes ?? [] };
  if (item.type === 'web_search') return { query: item.query };
  return item.arguments ?? null;
}

function toolInfo(
  item: ExecJsonItem,
  name: string | undefined,
  input: unknown,
  isError: boolean | null,
  code: number | null,
) {
  return { id: item.id, name: name ?? item.type, input, is_error: isError, exit_code: code };
}

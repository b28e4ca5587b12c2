import { z } from 'zod';
import { JsonlParser } from '../jsonl-parser.js';
import { describeIssues } from '../../core/errors.js';
import type { ParseOptions, ParsedTranscript, TranscriptEntry } from '../transcript-types.js';
import { INTERRUPTED_BY_USER } from '../user-interruption.js';
import {
  cellOf,
  collabCall,
  collabRefused,
  commandOf,
  commandRun,
  fileChanges,
  mcpFailed,
  readArguments,
  readCodexOutput,
  sendsInterrupt,
  sessionOf,
} from './codex-output.js';
import { ExecJsonLine, recordExecJson } from './exec-json.js';
import {
  Payload,
  RolloutLine,
  bareLine,
  imageMarker,
  injected,
  normalised,
  toolCallTypes,
} from './rollout-lines.js';

/**
 * Codex CLI session rollouts (`~/.codex/sessions/.../rollout-*.jsonl`: `{timestamp, type, payload}` lines) and
 * `codex exec --json` output (`thread.started`, `item.completed`, `turn.completed` ...). The format is detected per
 * line, so either can be fed. Malformed lines are skipped and reported with their line numbers.
 */
/** What the next piece of a rollout needs: recent messages (each is written twice), exit codes, PTY sessions. */
const CodexState = z.object({
  said_user: z.array(z.string()),
  said_assistant: z.array(z.string()),
  exit_codes: z.array(z.tuple([z.string(), z.number()])),
  sessions: z.array(z.tuple([z.number(), z.string()])),
  cells: z.array(z.tuple([z.string(), z.string()])).default([]),
  failed_calls: z.array(z.string()).default([]),
  collab_calls: z.array(z.string()).default([]),
  open_cell: z.string().nullable().default(null),
  cells_apart: z.array(z.string()).default([]),
  compacted_pending: z.boolean(),
  exec_json: z.boolean().nullable(),
});
type CodexState = z.infer<typeof CodexState>;

/** Same text, same key: whitespace and line breaks do not make a message new. */
function messageKey(text: string): string {
  const norm = text.replace(/\s+/g, ' ').trim();
  let h = 2166136261;
  for (let i = 0; i < norm.length; i += 1) h = Math.imul(h ^ norm.charCodeAt(i), 16777619) >>> 0;
  return `${norm.length}:${h.toString(36)}`;
}

const latest = <T>(items: Iterable<T>, max: number): T[] => [...items].slice(-max);

export class CodexRolloutParser extends JsonlParser {
  private readonly said = { user: new Set<string>(), assistant: new Set<string>() };
  private readonly lastResult = new Map<string, TranscriptEntry>();
  private readonly exitCodes = new Map<string, number>();
  private readonly sessions = new Map<number, string>();
  private readonly cells = new Map<string, string>();
  /** Calls Codex reported as failed without an exit code (patch_apply_end success=false, a failed exec end). */
  private readonly failedCalls = new Set<string>();
  /** Calls of Codex's collaboration tools (spawn_agent, wait_agent, followup_task ...): see collabRefused. */
  private readonly collabCalls = new Set<string>();
  /** The code-mode cell whose output has not come yet: the commands Codex records meanwhile are its commands. */
  private openCell: string | null = null;
  /** Cells whose commands were recorded as entries of their own (see commandRun). */
  private readonly cellsApart = new Set<string>();
  private compactedPending = false;
  private execJson: boolean | null = null;

  constructor(options: ParseOptions = {}) {
    super('codex-rollout', options);
    const carried = CodexState.safeParse(this.carried);
    if (this.carried !== undefined && carried.success) {
      const c = carried.data;
      for (const k of c.said_user) this.said.user.add(k);
      for (const k of c.said_assistant) this.said.assistant.add(k);
      for (const [id, code] of c.exit_codes) this.exitCodes.set(id, code);
      for (const [sid, origin] of c.sessions) this.sessions.set(sid, origin);
      for (const [cell, origin] of c.cells) this.cells.set(cell, origin);
      for (const id of c.failed_calls) this.failedCalls.add(id);
      for (const id of c.collab_calls) this.collabCalls.add(id);
      this.openCell = c.open_cell;
      for (const id of c.cells_apart) this.cellsApart.add(id);
      this.compactedPending = c.compacted_pending;
      this.execJson = c.exec_json;
    }
  }

  protected override formatState(): CodexState {
    return {
      said_user: latest(this.said.user, 50),
      said_assistant: latest(this.said.assistant, 50),
      exit_codes: latest(this.exitCodes, 50),
      sessions: latest(this.sessions, 50),
      cells: latest(this.cells, 50),
      failed_calls: latest(this.failedCalls, 50),
      collab_calls: latest(this.collabCalls, 50),
      open_cell: this.openCell,
      cells_apart: latest(this.cellsApart, 50),
      compacted_pending: this.compactedPending,
      exec_json: this.execJson,
    };
  }

  override snapshot(): ParsedTranscript {
    const parsed = super.snapshot();
    return this.execJson ? { ...parsed, format: 'codex-exec-json' } : parsed;
  }

  protected line(line: number, value: unknown): void {
    const rollout = RolloutLine.safeParse(value);
    if (rollout.success) {
      const payload = Payload.safeParse(rollout.data.payload);
      if (!payload.success)
        return this.builder.skip(line, `bad payload: ${describeIssues(payload.error.issues)}`);
      this.execJson ??= false;
      return this.record(line, rollout.data, payload.data);
    }
    const exec = ExecJsonLine.safeParse(value);
    if (exec.success) {
      this.execJson ??= true;
      return recordExecJson(this.builder, line, exec.data);
    }
    if (this.bare(line, value)) return;
    this.builder.skip(line, `not a Codex line: ${describeIssues(rollout.error.issues)}`);
  }

  /**
   * A line of a rollout from before the `{timestamp, type, payload}` envelope (Codex until about September 2025): a
   * header `{id, timestamp, instructions, git}`, then bare response items (no timestamps of their own), and
   * `{"record_type": "state"}` bookkeeping (also found in later files). False when the line is none of these.
   */
  private bare(line: number, value: unknown): boolean {
    const v = bareLine(value);
    if (!v) return false;
    if (v.record_type !== undefined) return true;
    if (v.type === undefined) {
      this.builder.sessionId ??= typeof v.id === 'string' ? v.id : null;
      this.builder.seen(typeof v.timestamp === 'string' ? v.timestamp : null);
      return true;
    }
    const payload = Payload.safeParse(v);
    if (!payload.success) return false;
    this.execJson ??= false;
    this.responseItem(line, null, v.type as string, payload.data);
    return true;
  }

  private record(line: number, l: RolloutLine, p: Payload): void {
    const b = this.builder;
    const at = l.timestamp ?? null;
    b.seen(at);
    if (l.type === 'session_meta') {
      b.sessionId ??= p.id ?? null;
      b.cwd ??= p.cwd ?? null;
      b.branch = p.git?.branch ?? b.branch;
    } else if (l.type === 'turn_context') {
      b.model = p.model ?? b.model;
      b.cwd ??= p.cwd ?? null;
    } else if (l.type === 'compacted') {
      b.compaction({ line, at, trigger: 'auto', pre_tokens: null });
      b.add({ line, at, role: 'system', kind: 'compaction', text: 'Context compacted' });
      const summary = typeof p.message === 'string' ? p.message.trim() : '';
      if (summary) b.add({ line, at, role: 'system', kind: 'summary', text: summary });
      this.compactedPending = true;
    } else if (l.type === 'response_item') {
      this.responseItem(line, at, l.payload.type, p);
    } else if (l.type === 'event_msg') {
      this.event(line, at, l.payload.type, p);
    }
  }

  private responseItem(line: number, at: string | null, type: string | undefined, p: Payload): void {
    const b = this.builder;
    if (type === 'message' && (p.role === 'user' || p.role === 'assistant')) {
      const texts = textsOf(p.content);
      // the event copy of a message holds all its parts as one text: compare the whole, then each part
      const whole = texts.join('\n');
      if (texts.length > 1 && this.said[p.role].has(messageKey(whole))) return;
      for (const text of texts) this.say(line, at, p.role, text, true, p.phase);
      if (texts.length > 1) this.said[p.role].add(messageKey(whole));
    } else if (type === 'reasoning') {
      for (const text of textsOf(p.summary)) b.add({ line, at, role: 'assistant', kind: 'thinking', text });
    } else if (type && Object.hasOwn(toolCallTypes, type)) {
      // local_shell_call: the `local_shell` tool of codex-mini, its command in `action.command`
      const name = p.name ?? toolCallTypes[type] ?? null;
      const input = type === 'function_call' ? readArguments(p.arguments) : (p.input ?? p.action ?? null);
      const text = `${name ?? 'tool'}: ${commandOf(input) ?? (typeof input === 'string' ? input : JSON.stringify(input))}`;
      const tool = { id: p.call_id ?? null, name, input, is_error: null, exit_code: null };
      if (collabCall(p.namespace, name, input) && p.call_id) this.collabCalls.add(p.call_id);
      if (name === 'exec' && p.call_id) this.openCell = p.call_id;
      b.add({ line, at, role: 'assistant', kind: 'tool_call', text, tool });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      this.output(line, at, p);
    } else if (type === 'agent_message') {
      // a message from another agent of the team (`Message Type: FINAL_ANSWER`, `Sender: /root/reviewer`, `Payload:`):
      // neither the user's words nor this agent's; one whose payload is encrypted says nothing readable
      const text = textsOf(p.content).join('\n');
      if (/\nPayload:\n\s*\S/.test(text)) b.add({ line, at, role: 'system', kind: 'meta', text });
    }
  }

  private output(line: number, at: string | null, p: Payload): void {
    const out = readCodexOutput(p.output);
    const callId = p.call_id ?? null;
    const call = callId ? this.builder.toolCall(callId) : undefined;
    // A write_stdin poll finishes the exec_command that opened its session (a `wait` finishes a running code cell):
    // report it as that command's result.
    const polled = call ? sessionOf(call.name, call.input) : null;
    const waited = call?.name === 'wait' ? cellOf(call.input) : null;
    const originId =
      (polled !== null ? this.sessions.get(polled) : undefined) ??
      (waited !== null ? this.cells.get(waited) : undefined) ??
      callId;
    const origin = originId ? this.builder.toolCall(originId) : undefined;
    // a later poll of the session (a wait on the cell) reports on the call that opened it
    if (out.running_session !== null && originId) {
      this.sessions.set(out.running_session, originId);
      this.builder.holdCall(originId);
    }
    if (out.running_cell !== null && originId) {
      this.cells.set(out.running_cell, originId);
      this.builder.holdCall(originId);
    }
    // a poll that read the command's exit (a wait that read the cell's end): no later poll reads that session (cell),
    // and the call that opened it is held no longer once no session or cell still running refers to it
    const sessionEnded = polled !== null && out.running_session === null && out.exit_code !== null;
    const cellEnded = waited !== null && out.running_cell === null;
    if (sessionEnded) this.sessions.delete(polled);
    if (cellEnded) this.cells.delete(waited);
    const referred = (id: string) => [...this.sessions.values(), ...this.cells.values()].includes(id);
    if ((sessionEnded || cellEnded) && originId && !referred(originId)) this.builder.releaseCall(originId);
    if (originId !== null && originId === this.openCell && out.running_cell === null) this.openCell = null;
    // a cell whose commands are entries of their own: what it printed, its commands' exit codes with them
    const apart = originId !== null && this.cellsApart.has(originId);
    const code = apart
      ? null
      : (out.exit_code ?? (originId ? this.exitCodes.get(originId) : undefined) ?? null);
    const entry = this.builder.add({
      line,
      at,
      role: 'tool',
      kind: 'tool_result',
      text: out.text,
      tool: {
        id: originId,
        name: origin?.name ?? null,
        input: origin?.input ?? null,
        is_error:
          out.failed === true ||
          this.failedCalls.has(originId ?? '') ||
          (callId !== null && this.collabCalls.has(callId) && collabRefused(out.text))
            ? true
            : code === null
              ? null
              : code !== 0,
        exit_code: code,
        ...(polled !== null && sendsInterrupt(call?.input) ? { interrupted: true } : {}),
        ...(code === null && (out.running_session !== null || out.running_cell !== null)
          ? { running: true }
          : {}),
        ...(apart ? { commands_apart: true } : {}),
        ...(callId !== null && originId !== callId ? { polled_by: callId } : {}),
      },
    });
    if (originId) this.lastResult.set(originId, entry);
  }

  private event(line: number, at: string | null, type: string | undefined, p: Payload): void {
    const b = this.builder;
    const message = typeof p.message === 'string' ? p.message : '';
    if (type === 'user_message' && message) this.say(line, at, 'user', message);
    else if (type === 'agent_message' && message) this.say(line, at, 'assistant', message, false, p.phase);
    else if (type === 'task_started' && p.model_context_window) b.contextWindow = p.model_context_window;
    else if (type === 'token_count' && p.info) {
      const { total_token_usage: total, last_token_usage: last, model_context_window: window } = p.info;
      if (window) b.contextWindow = window;
      if (total) b.reportedTotals = normalised(total);
      if (last && total) b.usage(`total-${total.total_tokens}`, normalised(last));
    } else if (type === 'exec_command_end' && p.call_id && p.exit_code !== undefined) {
      this.exitCodes.set(p.call_id, p.exit_code);
      const entry = this.lastResult.get(p.call_id);
      if (entry?.tool && entry.tool.exit_code === null) {
        entry.tool.exit_code = p.exit_code;
        entry.tool.is_error = p.exit_code !== 0;
      }
    } else if (type === 'mcp_tool_call_end' && p.call_id && this.openCell !== null) {
      this.mcpOfCell(line, at, p.call_id, p);
    } else if (
      (type === 'exec_command_end' && p.call_id && p.status === 'failed') ||
      (type === 'patch_apply_end' && p.call_id && p.success === false) ||
      (type === 'mcp_tool_call_end' && p.call_id && mcpFailed(p.result))
    ) {
      // failed without an exit code (a command that could not start, a patch that did not apply): the call failed,
      // whether its output was written before this event or comes after it
      this.failedCalls.add(p.call_id as string);
      const entry = this.lastResult.get(p.call_id as string);
      if (entry?.tool) entry.tool.is_error = true;
    } else if (type === 'item_completed') {
      this.commandOfCell(line, at, p.item);
    } else if (type === 'context_compacted') {
      if (!this.compactedPending) {
        b.compaction({ line, at, trigger: 'auto', pre_tokens: null });
        b.add({ line, at, role: 'system', kind: 'compaction', text: 'Context compacted' });
      }
      this.compactedPending = false;
    } else if (type === 'turn_aborted' && (p.reason ?? 'interrupted') === 'interrupted') {
      // the user stopped the turn (Esc, Ctrl-C): written as Claude Code writes it (user-interruption.ts)
      b.add({ line, at, role: 'user', kind: 'meta', text: INTERRUPTED_BY_USER });
    } else if ((type === 'error' || type === 'stream_error') && message) {
      b.add({ line, at, role: 'system', kind: 'error', text: message });
    }
  }

  /**
   * A command the open code-mode cell ran (see commandRun), or the files a patch it applied changed (fileChanges): a
   * call and its result, at the line Codex wrote it.
   */
  private commandOfCell(line: number, at: string | null, item: unknown): void {
    if (this.openCell === null) return;
    const patch = fileChanges(item);
    const run = patch ? null : commandRun(item);
    if (patch) {
      const changed = patch.changes.map((c) => `${c.kind} ${c.path}`).join('\n');
      const call = { id: patch.id, name: 'apply_patch', input: { changes: patch.changes } };
      this.callAndResult(line, at, call, changed, { text: changed, is_error: false, exit_code: null });
    } else if (run) {
      const call = { id: run.id, name: 'exec_command', input: { cmd: run.command } };
      this.callAndResult(line, at, call, run.command, {
        text: run.text,
        is_error: run.failed,
        exit_code: run.exit_code,
      });
      this.cellsApart.add(this.openCell);
    }
  }

  /**
   * An MCP tool a code-mode cell called (`tools.mcp__codex_apps__github_create_pull_request(...)`), as Codex records it
   * beside the cell (an `mcp_tool_call_end` event): the cell shows only what its JavaScript printed ("Action
   * completed."), the event what the tool answered (the pull request's URL and number). Named as a direct call of the
   * tool is (`mcp__<server>__<tool>`).
   */
  private mcpOfCell(line: number, at: string | null, id: string, p: Payload): void {
    const call = p.invocation as { server?: unknown; tool?: unknown; arguments?: unknown } | undefined;
    if (typeof call?.server !== 'string' || typeof call.tool !== 'string') return;
    const name = `mcp__${call.server}__${call.tool.replace(/\./g, '_')}`;
    const ok = (p.result as { Ok?: { content?: unknown; structuredContent?: unknown } } | undefined)?.Ok;
    const answer = ok
      ? [...textsOf(ok.content), ...(ok.structuredContent ? [JSON.stringify(ok.structuredContent)] : [])]
      : [JSON.stringify((p.result as { Err?: unknown } | undefined)?.Err ?? p.result ?? null)];
    this.callAndResult(
      line,
      at,
      { id, name, input: call.arguments ?? null },
      JSON.stringify(call.arguments ?? {}),
      {
        text: answer.join('\n'),
        is_error: mcpFailed(p.result),
        exit_code: null,
      },
    );
  }

  /** A call (`said`: what it asked) and its result, both at one line. */
  private callAndResult(
    line: number,
    at: string | null,
    call: { id: string; name: string; input: unknown },
    said: string,
    result: { text: string; is_error: boolean; exit_code: number | null },
  ): void {
    const { text, ...outcome } = result;
    const tool = { ...call, is_error: null, exit_code: null };
    this.builder.add({ line, at, role: 'assistant', kind: 'tool_call', text: `${call.name}: ${said}`, tool });
    this.builder.add({ line, at, role: 'tool', kind: 'tool_result', text, tool: { ...tool, ...outcome } });
  }

  /**
   * User and assistant text is written twice (response_item and event_msg): record it once. Context Codex injects
   * as user messages (AGENTS.md, environment, plugin lists: a response_item that starts with a tag) is meta; the
   * markers around an attached image are left out.
   */
  private say(
    line: number,
    at: string | null,
    role: 'user' | 'assistant',
    raw: string,
    item = false,
    phase?: string,
  ): void {
    const text = role === 'user' ? raw.replace(imageMarker, '') : raw;
    if (text.trim() === '') return;
    if (role === 'user' && (injected.test(text) || (item && /^\s*<[\w-]+>/.test(text)))) {
      return void this.builder.add({ line, at, role: 'system', kind: 'meta', text });
    }
    const key = messageKey(text);
    if (this.said[role].has(key)) return;
    this.said[role].add(key);
    const commentary = role === 'assistant' && phase === 'commentary';
    this.builder.add({ line, at, role, kind: 'text', text, ...(commentary ? { commentary } : {}) });
  }
}

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) => {
    const text = typeof part === 'object' && part !== null ? (part as { text?: unknown }).text : undefined;
    return typeof text === 'string' && text.trim() !== '' ? [text] : [];
  });
}

/** Parse a whole Codex rollout or `codex exec --json` capture. */
export function parseCodexRollout(text: string, options: ParseOptions = {}): ParsedTranscript {
  const parser = new CodexRolloutParser(options);
  parser.push(text);
  return parser.end();
}

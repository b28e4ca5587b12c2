import { z } from 'zod';
import { JsonlParser } from '../jsonl-parser.js';
import { describeIssues } from '../../core/errors.js';
import { optionalTokenCount } from '../token-count.js';
import type { ParseOptions, ParsedTranscript } from '../transcript-types.js';
import {
  AnthropicMessage,
  addBackgroundFailure,
  addMessageContent,
  callUsage,
  writtenTokens,
  compactSummary,
  stopHookFeedback,
} from './anthropic-message.js';

/** One line of a Claude Code session transcript (`~/.claude/projects/<cwd>/<sessionId>.jsonl`), loosely. */
const optionalString = z.string().optional().catch(undefined);
const optionalBoolean = z.boolean().optional().catch(undefined);

export const TranscriptLine = z.looseObject({
  type: z.string(),
  subtype: optionalString,
  timestamp: optionalString,
  sessionId: optionalString,
  cwd: optionalString,
  /** The branch checked out where the agent worked, as Claude Code saw it when it wrote the line. */
  gitBranch: optionalString,
  isSidechain: optionalBoolean,
  agentId: optionalString,
  isMeta: optionalBoolean,
  isCompactSummary: optionalBoolean,
  isApiErrorMessage: optionalBoolean,
  requestId: optionalString,
  message: z.unknown().optional(),
  toolUseResult: z.unknown().optional(),
  content: z.unknown().optional(),
  summary: optionalString,
  operation: optionalString,
  attachment: z.unknown().optional(),
  compactMetadata: z
    .looseObject({
      trigger: z.enum(['auto', 'manual']).optional().catch(undefined),
      preTokens: optionalTokenCount,
    })
    .optional()
    .catch(undefined),
});
type TranscriptLine = z.infer<typeof TranscriptLine>;

const ignoredTypes = new Set(['progress', 'file-history-snapshot']);
/**
 * What Claude Code writes as user turns that the user did not say to the agent: slash-command wrappers, the output of
 * local commands, bash mode (`! cmd`: the command and its output) and memory mode (`# note`).
 */
const injected =
  /^\s*<(command-name|command-message|command-args|command-contents|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|user-memory-input)>/;
/** Queued content that is not the user's typing: notifications, messages from other agents, slash commands. */
const queuedNoise = /^\s*(<[a-z-]+[\s>]|\/[\w:-]+\s*$)/;

/**
 * Incremental parser for Claude Code transcripts: feed text with `push` (any chunking) and call `end()` for the
 * result. A malformed line is recorded in `skipped` with its line number and never stops the parse.
 */
export class ClaudeTranscriptParser extends JsonlParser {
  constructor(options: ParseOptions = {}) {
    super('claude-code-transcript', options);
  }

  protected line(line: number, value: unknown): void {
    const parsed = TranscriptLine.safeParse(value);
    if (!parsed.success)
      return this.builder.skip(line, `not a transcript line: ${describeIssues(parsed.error.issues)}`);
    this.record(line, parsed.data);
  }

  private record(line: number, l: TranscriptLine): void {
    const b = this.builder;
    const at = l.timestamp ?? null;
    b.sessionId ??= l.sessionId ?? null;
    b.cwd ??= l.cwd ?? null;
    if (l.gitBranch && !l.isSidechain) b.branch = l.gitBranch;
    // A sub-agent's own file (`<session>/subagents/agent-<id>.jsonl`, lines carrying `agentId`) is that agent's
    // conversation: read as a session of its own, not as side activity of a main conversation it does not hold.
    const sidechain = (l.isSidechain ?? false) && l.agentId === undefined;
    if (ignoredTypes.has(l.type)) return b.seen(at);
    if (l.type === 'queue-operation')
      return this.queued(line, l, l.operation === 'enqueue' ? l.content : null);
    if (l.type === 'attachment') return this.queued(line, l, queuedCommand(l.attachment));
    if (l.type === 'summary') {
      // a session title written by Claude Code (older versions), not a summary of the work
      if (l.summary) b.add({ line, at, role: 'system', kind: 'meta', text: l.summary });
      return;
    }
    if (l.type === 'system') return this.system(line, l);
    if (l.type !== 'user' && l.type !== 'assistant') return b.seen(at);
    const message = AnthropicMessage.safeParse(l.message);
    if (!message.success) {
      return b.skip(line, `${l.type} line without a valid message: ${describeIssues(message.error.issues)}`);
    }
    const m = message.data;
    if (l.type === 'user') {
      const text = typeof m.content === 'string' ? m.content : '';
      if (l.isCompactSummary || compactSummary.test(text))
        return void b.add({ line, at, role: 'system', kind: 'summary', text, sidechain });
      // a meta line may carry its words as text parts (a Stop hook's feedback): they are its text
      const parts =
        typeof m.content === 'string'
          ? text
          : m.content.flatMap((c) => (c.type === 'text' ? [c.text ?? ''] : [])).join('\n');
      if (l.isMeta || injected.test(text) || stopHookFeedback.test(parts))
        return void b.add({ line, at, role: 'system', kind: 'meta', text: parts, sidechain });
      return addMessageContent(b, 'user', m, { line, at, sidechain, detail: l.toolUseResult });
    }
    if (l.isApiErrorMessage) {
      const text =
        typeof m.content === 'string'
          ? m.content
          : m.content.flatMap((c) => (c.type === 'text' ? [c.text ?? ''] : [])).join('\n');
      return void b.add({ line, at, role: 'assistant', kind: 'error', text: text || 'API error', sidechain });
    }
    if (m.model && m.model !== '<synthetic>') {
      if (sidechain) b.sideModel = m.model;
      else b.model = m.model;
    }
    if (m.usage && m.model !== '<synthetic>')
      b.usage(m.id ?? l.requestId ?? null, callUsage(m.usage), {
        sidechain,
        copyable: true,
        written: writtenTokens(m),
      });
    addMessageContent(b, 'assistant', m, { line, at, sidechain });
  }

  /**
   * A message the user typed while the agent worked (a queue "enqueue", or the `queued_command` attachment later
   * versions write when they hand it to the agent mid-turn).
   */
  private queued(line: number, l: TranscriptLine, content: unknown): void {
    const at = l.timestamp ?? null;
    const text = typeof content === 'string' ? content : '';
    if (text.trim() === '') return this.builder.seen(at);
    if (queuedNoise.test(text)) {
      this.builder.add({ line, at, role: 'system', kind: 'meta', text });
      return addBackgroundFailure(this.builder, text, { line, at, sidechain: false });
    }
    this.builder.add({ line, at, role: 'user', kind: 'text', text, queued: true });
  }

  private system(line: number, l: TranscriptLine): void {
    const at = l.timestamp ?? null;
    const content = typeof l.content === 'string' ? l.content : '';
    if (l.subtype === 'compact_boundary') {
      const meta = l.compactMetadata;
      this.builder.compaction({
        line,
        at,
        trigger: meta?.trigger ?? null,
        pre_tokens: meta?.preTokens ?? null,
      });
      this.builder.add({
        line,
        at,
        role: 'system',
        kind: 'compaction',
        text: content || 'Conversation compacted',
      });
    } else if (l.subtype === 'local_command' && content) {
      this.builder.add({ line, at, role: 'system', kind: 'meta', text: content });
    } else {
      this.builder.seen(at);
    }
  }
}

/**
 * The prompt of a `queued_command` attachment a person typed (`commandMode: "prompt"`, `origin.kind: "human"` when
 * stated); null for other attachments and for queued task notifications.
 */
function queuedCommand(attachment: unknown): string | null {
  if (typeof attachment !== 'object' || attachment === null) return null;
  const a = attachment as Record<string, unknown>;
  const origin = (a.origin ?? {}) as Record<string, unknown>;
  if (a.type !== 'queued_command' || typeof a.prompt !== 'string') return null;
  if ((a.commandMode ?? 'prompt') !== 'prompt' || (origin.kind ?? 'human') !== 'human') return null;
  return a.prompt;
}

/** Parse a whole Claude Code transcript. */
export function parseClaudeTranscript(text: string, options: ParseOptions = {}): ParsedTranscript {
  const parser = new ClaudeTranscriptParser(options);
  parser.push(text);
  return parser.end();
}

import {
  contextWindowOf,
  parseClaudeTranscript,
  parseCodexRollout,
  type ParsedTranscript,
  type TranscriptEntry,
} from '../../agents/index.js';
import { basename } from 'node:path';
import { invalidInput, type UsageMetrics } from '../../core/index.js';
import { RulesExtractor, type Extractor } from '../../extraction/index.js';
import type { ImportMarker, RecordInput } from '../../service/index.js';
import { continueParse, type TranscriptResume } from './transcript-resume.js';

export const transcriptFormats = ['claude-code', 'codex'] as const;
export type TranscriptSource = (typeof transcriptFormats)[number];

/** What the workflow already holds: the import watermark of this transcript, and records not to repeat. */
export interface Known {
  imports: Record<string, { through_line: number }>;
  decisions: { description: string }[];
  errors: { error_message: string }[];
}

export interface TranscriptImport {
  parsed: ParsedTranscript;
  records: RecordInput[];
  marker: ImportMarker;
  usage: UsageMetrics | null;
  /** Entries newer than the previous import of this transcript. */
  newEntries: number;
  /** Those entries. */
  fresh: TranscriptEntry[];
  counts: { history: number; decisions: number; errors: number };
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** One agent_history line for an entry worth keeping: what the agent said or did, not its whole output. */
function historyLine(e: TranscriptEntry): string | null {
  if (e.sidechain) return null;
  if (e.kind === 'text' && e.role === 'assistant' && e.text.trim()) return clip(oneLine(e.text), 300);
  if (e.kind === 'tool_call' && e.tool) {
    const input = e.tool.input as Record<string, unknown> | null;
    const what =
      input?.command ?? input?.file_path ?? input?.path ?? input?.pattern ?? input?.description ?? '';
    return clip(`${e.tool.name}${what ? `: ${oneLine(String(what))}` : ''}`, 200);
  }
  if (e.kind === 'tool_result' && e.tool && (e.tool.is_error || (e.tool.exit_code ?? 0) !== 0)) {
    return clip(
      `${e.tool.name || 'tool'} failed${e.tool.exit_code ? ` (exit ${e.tool.exit_code})` : ''}: ${oneLine(e.text)}`,
      200,
    );
  }
  if (e.kind === 'summary') return clip(`summary: ${oneLine(e.text)}`, 300);
  return null;
}

/** The session's usage as Baton records it: totals so far, utilisation from the current context size. */
export function usageOf(p: ParsedTranscript): UsageMetrics | null {
  const u = p.usage;
  if (u.llm_calls === 0 && u.total_tokens === 0) return null;
  const window = u.context_window ?? contextWindowOf(p.model);
  const context = u.context_tokens;
  return {
    tokens_used: u.total_tokens,
    context_window: window,
    context_utilization: window && context !== null ? Math.min(1, context / window) : null,
    tokens_remaining_estimate: window && context !== null ? Math.max(0, window - context) : null,
    llm_calls: u.llm_calls,
    tool_calls: u.tool_calls,
    cost_usd: u.cost_usd,
    session_duration_seconds: Math.round((u.duration_ms ?? 0) / 1000),
  };
}

export function parseSource(text: string, format: TranscriptSource): ParsedTranscript {
  return format === 'claude-code' ? parseClaudeTranscript(text) : parseCodexRollout(text);
}

/**
 * Turns a real transcript into Baton records: agent_history lines, extracted decisions and errors (deduplicated
 * against what the workflow holds), compactions, and the usage reading. Only entries after the previous import of
 * the same transcript are used.
 */
export async function importTranscript(
  text: string,
  format: TranscriptSource,
  known: Known,
  opts: {
    path?: string | null;
    extractor?: Extractor;
    maxHistory?: number;
    taskId?: string | null;
    /** `text` holds only the lines after this point of the transcript (see readTail). */
    from?: TranscriptResume;
  } = {},
): Promise<TranscriptImport> {
  const parsed = opts.from ? continueParse(parseSource(text, format), opts.from) : parseSource(text, format);
  if (
    !opts.from &&
    parsed.entries.length === 0 &&
    parsed.lines > 0 &&
    parsed.skipped.length === parsed.lines
  ) {
    throw invalidInput(
      `no line of this file is a ${format} transcript line (${parsed.skipped[0]?.reason ?? 'unreadable'})`,
    );
  }
  // Sub-agent transcripts share their parent's session id: the file name tells them apart.
  const sessionId =
    opts.from?.session_key ?? `${parsed.session_id ?? format}:${basename(opts.path ?? 'stdin')}`;
  const after = known.imports[sessionId]?.through_line ?? 0;
  const fresh = parsed.entries.filter((e) => e.line > after);
  const taskId = opts.taskId ?? null;

  const history = fresh
    .map(historyLine)
    .filter((h): h is string => h !== null)
    .slice(-(opts.maxHistory ?? 500));
  for (const c of parsed.compactions.filter((c) => c.line > after)) {
    history.push(
      `context compacted (${c.trigger ?? 'auto'}${c.pre_tokens ? `, ${c.pre_tokens} tokens before` : ''})`,
    );
  }
  const extractor = opts.extractor ?? new RulesExtractor();
  const found = await extractor.extract({
    entries: fresh,
    existing: { decisions: known.decisions, errors: known.errors },
    taskId,
  });
  const records: RecordInput[] = [
    ...history.map((text): RecordInput => ({ kind: 'history', text, task_id: taskId, source: format })),
    ...found.decisions.map(({ at: _a, evidence_line: _l, ...decision }): RecordInput => ({
      kind: 'decision',
      decision,
    })),
    ...found.errors.map(({ at: _a, evidence_line: _l, ...error }): RecordInput => ({ kind: 'error', error })),
  ];
  const usage = usageOf(parsed);
  if (usage) records.push({ kind: 'usage', usage });
  const lastLine = Math.max(after, parsed.lines);
  return {
    parsed,
    records,
    marker: { format, transcript_session_id: sessionId, path: opts.path ?? null, through_line: lastLine },
    usage,
    newEntries: fresh.length,
    fresh,
    counts: { history: history.length, decisions: found.decisions.length, errors: found.errors.length },
  };
}

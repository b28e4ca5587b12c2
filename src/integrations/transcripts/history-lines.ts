import { clip } from '../../core/clip.js';
import type { Compaction, TranscriptEntry } from '../../agents/index.js';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export interface HistoryLine {
  line: number;
  at: string | null;
  text: string;
}

/** One agent_history line for an entry worth keeping: what the agent said or did, not its whole output. */
function historyLine(e: TranscriptEntry): string | null {
  if (e.sidechain) return null;
  if (e.kind === 'text' && e.role === 'assistant' && e.text.trim()) return clip(oneLine(e.text), 300);
  if (e.kind === 'tool_call' && e.tool) {
    const input = e.tool.input as Record<string, unknown> | null;
    const what =
      input && typeof input === 'object'
        ? (input.command ??
          input.cmd ??
          input.file_path ??
          input.path ??
          input.pattern ??
          input.description ??
          '')
        : typeof input === 'string'
          ? input
          : '';
    return clip(`${e.tool.name}${what ? `: ${oneLine(String(what))}` : ''}`, 200);
  }
  if (e.kind === 'tool_result' && e.tool && (e.tool.is_error || (e.tool.exit_code ?? 0) !== 0)) {
    return clip(
      `${e.tool.name || 'tool'} failed${e.tool.exit_code ? ` (exit ${e.tool.exit_code})` : ''}: ${oneLine(e.text)}`,
      200,
    );
  }
  if (e.kind === 'summary')
    return `compaction summary recorded (${e.text.length} characters, see the summary record)`;
  return null;
}

/**
 * The agent_history lines of these entries, in transcript order, the compaction markers where they happened.
 * Every entry worth a line gets one (no window: a long session gives many lines; the state keeps the latest).
 */
export function historyOf(
  entries: readonly TranscriptEntry[],
  compactions: readonly Compaction[],
): HistoryLine[] {
  const out: HistoryLine[] = [];
  for (const e of entries) {
    if (e.kind === 'compaction') {
      const c = compactions.find((x) => x.line === e.line);
      const detail = c
        ? `${c.trigger ?? 'auto'}${c.pre_tokens ? `, ${c.pre_tokens} tokens before` : ''}`
        : 'auto';
      out.push({ line: e.line, at: e.at, text: `context compacted (${detail})` });
      continue;
    }
    const text = historyLine(e);
    if (text) out.push({ line: e.line, at: e.at, text });
  }
  return out;
}

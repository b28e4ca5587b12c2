import { open } from 'node:fs/promises';
import type { ParsedTranscript, TranscriptUsage } from '../../agents/index.js';

/**
 * Where the last import of a transcript stopped, kept by the caller (a hook keeps it in its local record): the next
 * import reads only the bytes after `byte`, so a turn on a 50 MB transcript costs what it costs on a small one.
 * Only the usage totals need the earlier lines; they are carried here.
 */
export interface TranscriptResume {
  /** Everything before this byte is imported (always the end of a complete line). */
  byte: number;
  /** The lines before `byte`: the import watermark the workflow holds for this transcript. */
  line: number;
  /** The key the workflow's import watermark is under (the transcript's session id and file name). */
  session_key: string;
  usage: TranscriptUsage;
  model: string | null;
  started_at: string | null;
}

/** The complete lines after `from` (a line still being written stays for the next import), and where they end. */
export async function readTail(path: string, from: number): Promise<{ text: string; end: number }> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    if (size <= from) return { text: '', end: from };
    const buf = Buffer.alloc(size - from);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, from + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    const last = buf.lastIndexOf(0x0a, got - 1);
    if (last < 0) return { text: '', end: from };
    return { text: buf.subarray(0, last + 1).toString('utf8'), end: from + last + 1 };
  } finally {
    await fh.close();
  }
}

const add = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

/**
 * The parse of the new lines as if the whole file had been parsed: line numbers after the earlier lines, the usage
 * totals added to the earlier ones (the context size is the latest reading), the span from the first timestamp.
 */
export function continueParse(tail: ParsedTranscript, from: TranscriptResume): ParsedTranscript {
  const shift = <T extends { line: number }>(xs: T[]) => xs.map((x) => ({ ...x, line: x.line + from.line }));
  const u = tail.usage;
  const p = from.usage;
  const started = from.started_at ?? tail.started_at;
  const span =
    started && tail.ended_at ? Math.max(0, Date.parse(tail.ended_at) - Date.parse(started)) : Number.NaN;
  return {
    ...tail,
    session_id: tail.session_id,
    model: tail.model ?? from.model,
    started_at: started,
    entries: shift(tail.entries),
    compactions: shift(tail.compactions),
    skipped: shift(tail.skipped),
    result: tail.result ? { ...tail.result, line: tail.result.line + from.line } : null,
    lines: tail.lines + from.line,
    usage: {
      input_tokens: p.input_tokens + u.input_tokens,
      output_tokens: p.output_tokens + u.output_tokens,
      cache_creation_input_tokens: p.cache_creation_input_tokens + u.cache_creation_input_tokens,
      cache_read_input_tokens: p.cache_read_input_tokens + u.cache_read_input_tokens,
      total_tokens: p.total_tokens + u.total_tokens,
      context_tokens: u.context_tokens ?? p.context_tokens,
      context_window: u.context_window ?? p.context_window,
      cost_usd: add(p.cost_usd, u.cost_usd),
      num_turns: p.num_turns + u.num_turns,
      llm_calls: p.llm_calls + u.llm_calls,
      tool_calls: p.tool_calls + u.tool_calls,
      duration_ms: Number.isFinite(span) ? span : add(p.duration_ms, u.duration_ms),
    },
  };
}

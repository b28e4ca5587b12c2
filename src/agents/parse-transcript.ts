import { parseClaudeTranscript } from './claude-code/transcript.js';
import { parseStreamJson } from './claude-code/stream-json.js';
import { parseCodexRollout } from './codex/rollout.js';
import { bareLine } from './codex/rollout-lines.js';
import { parseJsonLine } from './line-buffer.js';
import type { ParseOptions, ParsedTranscript, TranscriptFormat } from './transcript-types.js';

/**
 * Guess the format from the first lines that parse: Codex rollouts have `payload` (or, before the envelope, a
 * header with `instructions` and bare response items), `codex exec --json` has
 * `thread.*`/`turn.*`/`item.*` events, stream-json has `session_id` (snake case) or a `result` event, and Claude
 * Code transcripts have `sessionId` / `uuid` envelopes. Returns null when nothing is recognisable.
 */
export function detectTranscriptFormat(text: string): TranscriptFormat | null {
  let checked = 0;
  for (const raw of text.split('\n')) {
    if (checked >= 50) break;
    const json = parseJsonLine(raw);
    if (!json.ok || typeof json.value !== 'object' || json.value === null) continue;
    checked += 1;
    const v = json.value as Record<string, unknown>;
    const type = typeof v.type === 'string' ? v.type : '';
    if (('payload' in v && type !== '') || bareLine(v)) return 'codex-rollout';
    if (/^(thread|turn|item)\./.test(type)) return 'codex-exec-json';
    if ('session_id' in v || type === 'result') return 'claude-code-stream-json';
    if ('sessionId' in v || 'leafUuid' in v || 'parentUuid' in v) return 'claude-code-transcript';
  }
  return null;
}

/** Parse any supported transcript; the format is detected when not given (Claude Code transcript by default). */
export function parseTranscript(
  text: string,
  format?: TranscriptFormat,
  options: ParseOptions = {},
): ParsedTranscript {
  const chosen = format ?? detectTranscriptFormat(text) ?? 'claude-code-transcript';
  if (chosen === 'claude-code-stream-json') return parseStreamJson(text, options);
  if (chosen === 'codex-rollout' || chosen === 'codex-exec-json') return parseCodexRollout(text, options);
  return parseClaudeTranscript(text, options);
}

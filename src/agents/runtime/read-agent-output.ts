import type { AgentSignal } from '../../service/runtime/runtime-ports.js';
import { StreamJsonParser } from '../claude-code/stream-json.js';
import { CodexRolloutParser } from '../codex/rollout.js';
import { detectTranscriptFormat } from '../parse-transcript.js';
import { TranscriptSignals, type SignalOptions } from './transcript-signals.js';

/**
 * Reads what an agent run printed, after the fact (its task log, once a crash lost `baton run`), with the reader
 * `baton run` follows it with live: the format is recognised from its lines (Claude Code's stream-json, Codex's
 * `exec --json`; the log's `[stderr]` lines are not JSON and are passed over), and the signals are those the run
 * would have had at its end, its summaries among them. Output in no known format (a `command` agent's, a line per
 * message) gives its last lines as the last message, cut off by the crash (its standard error left out).
 */
export function readAgentOutput(output: string, opts: SignalOptions = {}): AgentSignal[] {
  const format = detectTranscriptFormat(output);
  const parser =
    format === 'claude-code-stream-json'
      ? new StreamJsonParser()
      : format === 'codex-exec-json'
        ? new CodexRolloutParser()
        : null;
  if (!parser) return lastLines(output);
  const signals = new TranscriptSignals(parser, opts);
  return [...signals.push(output), ...signals.end()];
}

/** How much of a plain agent's output is its last message: the end of what it printed, as a person reads it. */
const LAST_LINES = 12;

/** The last lines a `command` agent printed (standard error left out), as the message it was cut off in. */
function lastLines(output: string): AgentSignal[] {
  const said = output
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('[stderr] '))
    .slice(-LAST_LINES);
  // JSON lines of no format Baton reads are not words to hand over
  if (said.length === 0 || said.some((l) => l.trimStart().startsWith('{'))) return [];
  return [{ type: 'summary', at: null, kind: 'last_message', text: said.join('\n'), turn_ended: false }];
}
